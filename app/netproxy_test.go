package app

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/internal/testctx"
)

// recorder is a TCP listener that records every connection it gets: a host
// the job must not reach.
type recorder struct {
	ln net.Listener
	mu sync.Mutex
	n  int
}

func newRecorder(t *testing.T) *recorder {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.n++
			r.mu.Unlock()
			c.Close()
		}
	}()
	return r
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// testPolicy allows allowed only; its dial maps the names in hosts (host:port)
// to local listeners, as the server's resolver would, and counts every dial.
func testPolicy(allowed []string, hosts map[string]string, dials *[]string, mu *sync.Mutex) *netPolicy {
	return &netPolicy{allow: allowed, dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		*dials = append(*dials, addr)
		mu.Unlock()
		if to, ok := hosts[addr]; ok {
			addr = to
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
}

// The proxy's decisions: an allowed host through CONNECT and through an
// absolute http:// request; a host not on the list, a raw IP, CONNECT
// without a port, a relative request and huge headers are refused before
// anything is dialed, logged with the job and the host, and counted in
// the job's note.
func TestJobProxyPolicy(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from ", r.Host) }))
	defer backend.Close()
	denied := newRecorder(t)
	var mu sync.Mutex
	var dials []string
	pol := testPolicy([]string{"allowed.test:80", "allowed.test:8443"},
		map[string]string{"allowed.test:80": backend.Listener.Addr().String(), "allowed.test:8443": backend.Listener.Addr().String(),
			"denied.test:80": denied.ln.Addr().String()}, &dials, &mu)
	var logs syncBuffer
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	jp, err := pol.startProxy(sock, "j00000042", slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer jp.close()

	// send writes a raw request and returns the response's status line
	// and, for a tunnel, the connection.
	send := func(raw string) (string, *bufio.Reader, net.Conn) {
		t.Helper()
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		go io.WriteString(c, raw) // a huge header is answered before it is all read
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return "no response: " + err.Error(), nil, nil
		}
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(raw, "CONNECT") {
			return resp.Status, br, c
		}
		body, _ := io.ReadAll(resp.Body)
		return resp.Status + " " + string(body), nil, nil
	}

	// CONNECT to an allowed host: a tunnel to it.
	status, br, c := send("CONNECT allowed.test:8443 HTTP/1.1\r\nHost: allowed.test:8443\r\n\r\n")
	if !strings.HasPrefix(status, "200") {
		t.Fatalf("CONNECT allowed.test:8443: %s, want 200", status)
	}
	io.WriteString(c, "GET /x HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("through the tunnel: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "hello from allowed.test" {
		t.Errorf("through the tunnel: %q", body)
	}
	// An absolute http:// request to an allowed host.
	if status, _, _ := send("GET http://allowed.test/y HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n"); status != "200 OK hello from allowed.test" {
		t.Errorf("GET http://allowed.test/y: %q", status)
	}
	mu.Lock()
	allowedDials := len(dials)
	mu.Unlock()

	refusals := []struct{ name, raw, want, host string }{
		{"host not on the list", "CONNECT denied.test:80 HTTP/1.1\r\nHost: denied.test:80\r\n\r\n", "403", "denied.test:80"},
		{"allowed name, other port", "CONNECT allowed.test:22 HTTP/1.1\r\nHost: allowed.test:22\r\n\r\n", "403", "allowed.test:22"},
		{"plain http to a host not on the list", "GET http://denied.test/ HTTP/1.1\r\nHost: denied.test\r\n\r\n", "403", "denied.test:80"},
		{"raw IP", "CONNECT 140.82.112.3:443 HTTP/1.1\r\nHost: 140.82.112.3:443\r\n\r\n", "403", "140.82.112.3:443"},
		{"the backend's own address", "CONNECT " + backend.Listener.Addr().String() + " HTTP/1.1\r\nHost: x\r\n\r\n", "403", backend.Listener.Addr().String()},
		{"CONNECT without a port", "CONNECT allowed.test HTTP/1.1\r\nHost: allowed.test\r\n\r\n", "400", "allowed.test"},
		{"CONNECT with a bad port", "CONNECT allowed.test:99999 HTTP/1.1\r\nHost: allowed.test:99999\r\n\r\n", "400", "allowed.test:99999"},
		{"relative request", "GET /etc/passwd HTTP/1.1\r\nHost: allowed.test\r\n\r\n", "400", ""},
		{"https URL without CONNECT", "GET https://allowed.test:8443/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n", "400", ""},
		{"huge headers", "CONNECT allowed.test:8443 HTTP/1.1\r\nHost: allowed.test:8443\r\nX-Big: " + strings.Repeat("a", 1<<20) + "\r\n\r\n", "431", ""},
	}
	for _, r := range refusals {
		status, _, _ := send(r.raw)
		if !strings.HasPrefix(status, r.want) {
			t.Errorf("%s: %.200s, want %s", r.name, status, r.want)
		}
		if r.want == "403" && !strings.Contains(status, "does not allow "+r.host) {
			t.Errorf("%s: %.200s, want it to name %s", r.name, status, r.host)
		}
	}
	mu.Lock()
	if len(dials) != allowedDials {
		t.Errorf("the proxy dialed %v for refused requests", dials[allowedDials:])
	}
	mu.Unlock()
	if denied.count() != 0 {
		t.Errorf("denied.test got %d connections", denied.count())
	}
	for _, r := range refusals {
		if r.host != "" && !strings.Contains(logs.String(), `"msg":"network policy refused a connection","job":"j00000042","host":"`+r.host+`"`) {
			t.Errorf("no log line for %s (%s):\n%s", r.name, r.host, logs.String())
		}
	}
	note := jp.close()
	for _, want := range []string{"refused 7 connection(s)", "denied.test:80 (2)", "140.82.112.3:443 (1)", "allowed.test (1)", "allowed: allowed.test:80, allowed.test:8443"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if _, err := net.Dial("unix", sock); err == nil {
		t.Error("the proxy still accepts connections after close")
	}
}

// The allow-list: the server's GOPROXY and GOSUMDB hosts and the GitHub
// hosts by default, "default" adds them to hosts of the operator's, and an
// empty list means no network at all.
func TestNetPolicyAllowList(t *testing.T) {
	t.Setenv("GOPROXY", "https://goproxy.example.test,https://mirror.example.test:8443|direct")
	t.Setenv("GOSUMDB", "sum.golang.org")
	p, err := newNetPolicy(nil, "https://api.github.com/", "https://github.com")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"api.github.com:443", "github.com:443", "goproxy.example.test:443", "mirror.example.test:8443", "sum.golang.org:443"}
	if !slices.Equal(p.allow, want) {
		t.Errorf("default allow-list %v, want %v", p.allow, want)
	}
	t.Setenv("GOSUMDB", "sum.example.test+abc https://sums.example.test:9443")
	p, err = newNetPolicy([]string{"Example.COM.:443", AllowDefault, "[::1]:8080"}, "http://127.0.0.1:5555/", "/srv/git")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"127.0.0.1:5555", "[::1]:8080", "example.com:443", "goproxy.example.test:443", "mirror.example.test:8443", "sums.example.test:9443"}
	if !slices.Equal(p.allow, want) {
		t.Errorf("allow-list %v, want %v", p.allow, want)
	}
	if p, err := newNetPolicy([]string{}, "https://api.github.com/", ""); p != nil || err != nil {
		t.Errorf("an empty list: %v, %v; want no policy (no network)", p, err)
	}
	for _, bad := range []string{"example.com", "example.com:0", "example.com:http", ":443", "*.example.com:443", "user@example.com:443"} {
		if _, err := newNetPolicy([]string{bad}, "", ""); err == nil {
			t.Errorf("newNetPolicy accepted %q", bad)
		}
	}
	s := &sandbox{Sandbox: Sandbox{Bwrap: "bwrap"}}
	if args := s.command(context.Background(), "/j", nil).Args; slices.Contains(s.jobArgs(), "-net") || slices.Contains(args, sbxNetDir) {
		t.Errorf("without a policy serve-job gets -net or the socket: %v %v", s.jobArgs(), args)
	}
	s.net = p
	if !slices.Contains(s.jobArgs(), sbxNetSock) {
		t.Errorf("with a policy serve-job lacks -net %s: %v", sbxNetSock, s.jobArgs())
	}
	if args := s.command(context.Background(), "/j", nil).Args; !strings.Contains(strings.Join(args, " "), "--ro-bind /j/net "+sbxNetDir) {
		t.Errorf("with a policy the sandbox lacks the socket's directory, read-only: %v", args)
	}
}

// netJobResult is what netJob, the sandboxed side of
// TestSandboxNetworkPolicy, saw.
type netJobResult struct {
	Setup  string            `json:"setup"`
	Env    []string          `json:"env"`
	Result map[string]string `json:"result"` // attempt -> "ok: ..." or "error: ..."
}

// netJob runs in the sandbox as the job: it starts the job's network end as
// serve-job does, then fetches through the proxy the environment names,
// resolving nothing itself. args: the TLS server's certificate (PEM), then
// name=URL to fetch and name=host:port to dial directly.
func netJob(args []string) int {
	out := netJobResult{Result: map[string]string{}}
	defer func() { json.NewEncoder(os.Stdout).Encode(&out) }()
	env, err := StartJobNetwork(sbxNetSock)
	if err != nil {
		out.Setup = err.Error()
		return 1
	}
	out.Env = env
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(args[0])) {
		out.Setup = "no certificate"
		return 1
	}
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{
		Proxy: http.ProxyFromEnvironment, TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for _, a := range args[1:] {
		name, target, _ := strings.Cut(a, "=")
		if strings.Contains(target, "://") {
			resp, err := client.Get(target)
			if err != nil {
				out.Result[name] = "error: " + err.Error()
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			out.Result[name] = fmt.Sprintf("ok: %s %s", resp.Status, b)
			continue
		}
		c, err := net.DialTimeout("tcp", target, 3*time.Second)
		if err != nil {
			out.Result[name] = "error: " + err.Error()
			continue
		}
		c.Close()
		out.Result[name] = "ok: connected"
	}
	return 0
}

// A job in the real sandbox reaches an allowed host (HTTPS through
// CONNECT, and plain HTTP) through the proxy the server serves on the
// socket bound into it, by name, which the server resolves; a host not on
// the list is refused (and logged), and a raw address dialed directly is
// unreachable, since the job's network namespace has only its loopback.
func TestSandboxNetworkPolicy(t *testing.T) {
	needBinary(t)
	if runtime.GOOS != "linux" {
		t.Skip("the job sandbox (bubblewrap) exists only on Linux")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap (bwrap) is not installed, so the job sandbox does not exist here; Debian: apt-get install bubblewrap")
	}
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secure hello from ", r.Host) }))
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "plain hello from ", r.Host) }))
	defer plain.Close()
	denied := newRecorder(t)
	_, tlsPort, _ := net.SplitHostPort(tlsSrv.Listener.Addr().String())
	_, plainPort, _ := net.SplitHostPort(plain.Listener.Addr().String())
	_, deniedPort, _ := net.SplitHostPort(denied.ln.Addr().String())
	// httptest's certificate is for example.com.
	secureHost, plainHost, deniedHost := "example.com:"+tlsPort, "plain.example.com:"+plainPort, "denied.example.com:"+deniedPort

	root := t.TempDir()
	work := filepath.Join(root, "work")
	for _, d := range []string{filepath.Dir(root), root, work} {
		os.MkdirAll(d, 0o711)
		os.Chmod(d, 0o711)
	}
	s, err := newSandbox(Sandbox{}, work, interleaveBin)
	if err != nil {
		t.Fatal(err)
	}
	// The job is this test binary (netJob).
	if err := copyFile(os.Args[0], s.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var dials []string
	s.net = testPolicy([]string{secureHost, plainHost},
		map[string]string{secureHost: tlsSrv.Listener.Addr().String(), plainHost: plain.Listener.Addr().String(), deniedHost: denied.ln.Addr().String()}, &dials, &mu)
	jobDir := filepath.Join(work, "jobs", "j00000007")
	if err := s.prepare(jobDir); err != nil {
		t.Fatal(err)
	}
	if err := s.chown(filepath.Join(jobDir, "src")); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	jp, err := s.net.startProxy(filepath.Join(proxyDir(jobDir), "proxy.sock"), "j00000007", slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer jp.close()
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw})
	ctx := testctx.New(t)
	cmd := s.command(ctx, jobDir, nil, "netjob", string(cert),
		"allowed https=https://"+secureHost+"/a",
		"allowed http=http://"+plainHost+"/b",
		"not allowed=https://"+deniedHost+"/c",
		"raw IP through the proxy=https://140.82.112.3/d",
		"raw IP direct=140.82.112.3:443",
		"host's loopback direct="+denied.ln.Addr().String())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var got netJobResult
	if jerr := json.Unmarshal([]byte(stdout.String()), &got); jerr != nil {
		t.Fatalf("the job: %v, %v\nstdout: %s\nstderr: %s", err, jerr, stdout.String(), stderr.String())
	}
	if got.Setup != "" || err != nil {
		t.Fatalf("the job could not set up its network: %v %s\n%s", err, got.Setup, stderr.String())
	}
	t.Logf("the job's proxy environment: %v", got.Env)
	for name, r := range got.Result {
		t.Logf("%s: %s", name, r)
	}
	want := map[string]string{
		"allowed https": "ok: 200 OK secure hello from " + secureHost,
		"allowed http":  "ok: 200 OK plain hello from " + plainHost,
	}
	for name, w := range want {
		if got.Result[name] != w {
			t.Errorf("%s: %q, want %q", name, got.Result[name], w)
		}
	}
	for _, name := range []string{"not allowed", "raw IP through the proxy", "raw IP direct", "host's loopback direct"} {
		if !strings.HasPrefix(got.Result[name], "error: ") {
			t.Errorf("%s: %q, want an error", name, got.Result[name])
		}
	}
	for _, name := range []string{"not allowed", "raw IP through the proxy"} {
		if !strings.Contains(got.Result[name], "Forbidden") {
			t.Errorf("%s: %q, want the proxy's 403", name, got.Result[name])
		}
	}
	if denied.count() != 0 {
		t.Errorf("the host not on the list got %d connections", denied.count())
	}
	for _, h := range []string{deniedHost, "140.82.112.3:443"} {
		if !strings.Contains(logs.String(), `"job":"j00000007","host":"`+h+`"`) {
			t.Errorf("no refusal logged for %s:\n%s", h, logs.String())
		}
	}
	if note := jp.close(); !strings.Contains(note, "refused 2 connection(s)") {
		t.Errorf("note %q, want 2 refusals", note)
	}
}

// The server's note on refusals joins the job's own notes in the report
// it writes (and so in the SARIF); nothing else of the report changes.
func TestAddNote(t *testing.T) {
	res := &JobResult{Exit: 1, Report: json.RawMessage(`{"version":2,"tool":{"name":"interleave","version":"v9"},"findings":[],"notes":["TestX: not reported"],"extra":{"kept":true}}`)}
	rep, err := checkResult(res)
	if err != nil {
		t.Fatal(err)
	}
	if err := addNote(res, rep, "the sandbox's network policy refused 1 connection(s): x.example:443 (1)"); err != nil {
		t.Fatal(err)
	}
	again, err := checkResult(res)
	if err != nil {
		t.Fatalf("the report with the note: %v", err)
	}
	want := []string{"TestX: not reported", "the sandbox's network policy refused 1 connection(s): x.example:443 (1)"}
	if !slices.Equal(again.Notes, want) || !slices.Equal(rep.Notes, want) {
		t.Errorf("notes %q (parsed %q), want %q", again.Notes, rep.Notes, want)
	}
	if again.Tool.Version != "v9" || !strings.Contains(string(res.Report), `"extra":{"kept":true}`) {
		t.Errorf("the report changed beyond its notes: %s", res.Report)
	}
}
