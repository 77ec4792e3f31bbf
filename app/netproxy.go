package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A job's network: its own namespace has only a loopback. The server, outside
// the sandbox, serves a filtering proxy (HTTP CONNECT and absolute http://
// requests) on a unix socket bound into the sandbox; serve-job relays a
// loopback port to it and points HTTP(S)_PROXY there. Only host:port on the
// allow-list is dialed, by the server, which also resolves the name.

// AllowDefault in Sandbox.AllowHosts stands for the default list: the hosts
// of the server's GOPROXY and GOSUMDB and of the API and git URLs.
const AllowDefault = "default"

// Limits of the proxy per job.
const (
	proxyMaxConns     = 64       // connections at once; more wait
	proxyMaxHeader    = 16 << 10 // request header bytes
	proxyDialTimeout  = 15 * time.Second
	proxyLoggedRefuse = 20 // refusals logged one by one, then only counted
	proxyMaxHostsKept = 50 // distinct refused hosts named in the note
)

// sbxNetDir and sbxNetSock are where a job finds the proxy's socket.
const (
	sbxNetDir  = "/job/net"
	sbxNetSock = sbxNetDir + "/proxy.sock"
)

// netPolicy is the resolved allow-list: normalized host:port.
type netPolicy struct {
	allow []string
	dial  func(ctx context.Context, network, addr string) (net.Conn, error) // tests may replace it
}

// newNetPolicy resolves Sandbox.AllowHosts: nil or AllowDefault take the
// defaults; an empty, non-nil list (serve's "none") gives nil: no proxy.
func newNetPolicy(hosts []string, apiURL, gitURL string) (*netPolicy, error) {
	if hosts != nil && len(hosts) == 0 {
		return nil, nil
	}
	if hosts == nil {
		hosts = []string{AllowDefault}
	}
	var allow []string
	for _, h := range hosts {
		if h == AllowDefault {
			allow = append(allow, defaultAllowHosts(apiURL, gitURL)...)
			continue
		}
		n, err := normalizeHostPort(h)
		if err != nil {
			return nil, fmt.Errorf("allowed host %q: %w", h, err)
		}
		allow = append(allow, n)
	}
	slices.Sort(allow)
	allow = slices.Compact(allow)
	d := &net.Dialer{Timeout: proxyDialTimeout}
	return &netPolicy{allow: allow, dial: d.DialContext}, nil
}

// defaultAllowHosts are the module proxy and checksum database the server's
// go command uses, and the GitHub hosts of the installation.
func defaultAllowHosts(apiURL, gitURL string) []string {
	var out []string
	add := func(raw string) {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
			return
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
		}
		if n, err := normalizeHostPort(net.JoinHostPort(u.Hostname(), port)); err == nil {
			out = append(out, n)
		}
	}
	b, _ := exec.Command("go", "env", "GOPROXY", "GOSUMDB").Output()
	lines := strings.Split(string(b), "\n")
	if len(lines) > 0 {
		for _, p := range strings.FieldsFunc(lines[0], func(r rune) bool { return r == ',' || r == '|' }) {
			add(p) // "direct" and "off" are no URLs
		}
	}
	if len(lines) > 1 {
		// GOSUMDB is "name[+key] [url]"; without a url the name is an
		// https host.
		if f := strings.Fields(lines[1]); len(f) == 2 {
			add(f[1])
		} else if len(f) == 1 && f[0] != "off" {
			add("https://" + strings.SplitN(f[0], "+", 2)[0])
		}
	}
	add(apiURL)
	add(gitURL)
	return out
}

// normalizeHostPort checks host:port and lowercases the host.
func normalizeHostPort(s string) (string, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", errors.New("want host:port")
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || strings.ContainsAny(host, "/@*? \t") {
		return "", fmt.Errorf("%q is not a host name or address", host)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%q is not a port", port)
	}
	return net.JoinHostPort(host, port), nil
}

// jobProxy is the proxy of one job, on its own unix socket.
type jobProxy struct {
	pol  *netPolicy
	job  string
	log  *slog.Logger
	ln   net.Listener
	srv  *http.Server
	rp   *httputil.ReverseProxy
	tr   *http.Transport
	slot chan struct{}

	mu      sync.Mutex
	refused map[string]int
	total   int
	tunnels map[net.Conn]struct{}
	closed  bool
}

// startProxy serves the policy on sock, a socket the job's uid may
// connect to.
func (p *netPolicy) startProxy(sock, job string, log *slog.Logger) (*jobProxy, error) {
	os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(sock, 0o666); err != nil {
		ln.Close()
		return nil, err
	}
	jp := &jobProxy{pol: p, job: job, log: log, ln: ln, slot: make(chan struct{}, proxyMaxConns),
		refused: map[string]int{}, tunnels: map[net.Conn]struct{}{}}
	jp.tr = &http.Transport{
		Proxy:             nil,
		DialContext:       jp.dial,
		ForceAttemptHTTP2: false,
		MaxIdleConns:      4,
		IdleConnTimeout:   30 * time.Second,
	}
	jp.rp = &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.Out.URL, r.Out.Host = r.In.URL, r.In.Host },
		Transport: jp.tr,
		ErrorLog:  slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	jp.srv = &http.Server{
		Handler:           jp,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    proxyMaxHeader,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	go jp.srv.Serve(limitListener{ln, jp.slot})
	return jp, nil
}

// dial connects to an allowed addr only; the transport calls it too.
func (jp *jobProxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	n, err := normalizeHostPort(addr)
	if err != nil || !slices.Contains(jp.pol.allow, n) {
		return nil, fmt.Errorf("%s is not allowed", addr)
	}
	return jp.pol.dial(ctx, "tcp", n)
}

// ServeHTTP handles CONNECT host:port and absolute http:// requests.
func (jp *jobProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var target string
	if r.Method == http.MethodConnect {
		target = r.Host
	} else {
		if r.URL.Scheme != "http" || r.URL.Host == "" {
			http.Error(w, "interleave's job proxy takes CONNECT host:port or an absolute http:// URL", http.StatusBadRequest)
			return
		}
		target = r.URL.Host
		if r.URL.Port() == "" {
			target = net.JoinHostPort(r.URL.Hostname(), "80")
		}
	}
	n, err := normalizeHostPort(target)
	if err != nil {
		jp.refuse(target, "bad address: "+err.Error())
		http.Error(w, fmt.Sprintf("interleave's job proxy: %q is not host:port (%v)", target, err), http.StatusBadRequest)
		return
	}
	if !slices.Contains(jp.pol.allow, n) {
		jp.refuse(n, "not on the allow-list")
		http.Error(w, fmt.Sprintf("interleave's network policy does not allow %s; the server allows %s (its -sandbox-allow-host)", n, jp.allowed()), http.StatusForbidden)
		return
	}
	if r.Method != http.MethodConnect {
		jp.rp.ServeHTTP(w, r)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), proxyDialTimeout)
	up, err := jp.dial(ctx, "tcp", n)
	cancel()
	if err != nil {
		http.Error(w, fmt.Sprintf("interleave's job proxy could not reach %s: %v", n, err), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no tunnel over this connection", http.StatusInternalServerError)
		return
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !jp.track(conn, up) {
		return
	}
	defer jp.untrack(conn, up)
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		return
	}
	relay(conn, io.MultiReader(io.LimitReader(brw.Reader, int64(brw.Reader.Buffered())), conn), up)
}

// track registers a tunnel's two ends; false (both closed) once the proxy
// is closed.
func (jp *jobProxy) track(cs ...net.Conn) bool {
	jp.mu.Lock()
	defer jp.mu.Unlock()
	if jp.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		jp.tunnels[c] = struct{}{}
	}
	return true
}

func (jp *jobProxy) untrack(cs ...net.Conn) {
	jp.mu.Lock()
	defer jp.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(jp.tunnels, c)
	}
}

// refuse logs and counts a refused request; host is the job's string.
func (jp *jobProxy) refuse(host, why string) {
	host = printable(host, 100)
	jp.mu.Lock()
	jp.total++
	n := jp.total
	if _, ok := jp.refused[host]; ok || len(jp.refused) < proxyMaxHostsKept {
		jp.refused[host]++
	}
	jp.mu.Unlock()
	if n <= proxyLoggedRefuse {
		jp.log.Warn("network policy refused a connection", "job", jp.job, "host", host, "reason", why)
	} else if n == proxyLoggedRefuse+1 {
		jp.log.Warn("network policy: further refusals of this job are only counted", "job", jp.job)
	}
}

func (jp *jobProxy) allowed() string {
	if len(jp.pol.allow) == 0 {
		return "no host"
	}
	return strings.Join(jp.pol.allow, ", ")
}

// close stops the proxy and every tunnel, and returns the note on what it
// refused ("" when nothing was).
func (jp *jobProxy) close() string {
	jp.srv.Close()
	jp.tr.CloseIdleConnections()
	jp.mu.Lock()
	defer jp.mu.Unlock()
	jp.closed = true
	for c := range jp.tunnels {
		c.Close()
	}
	if jp.total == 0 {
		return ""
	}
	hosts := make([]string, 0, len(jp.refused))
	for h, n := range jp.refused {
		hosts = append(hosts, fmt.Sprintf("%s (%d)", h, n))
	}
	slices.Sort(hosts)
	if len(jp.refused) >= proxyMaxHostsKept {
		hosts = append(hosts, "…")
	}
	return fmt.Sprintf("the sandbox's network policy refused %d connection(s): %s; allowed: %s", jp.total, strings.Join(hosts, ", "), jp.allowed())
}

// printable keeps a job's string short and free of control characters.
func printable(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= max {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f || r == '`' {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// limitListener holds Accept while slot is full.
type limitListener struct {
	net.Listener
	slot chan struct{}
}

func (l limitListener) Accept() (net.Conn, error) {
	l.slot <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slot
		return nil, err
	}
	return &slotConn{Conn: c, slot: l.slot}, nil
}

type slotConn struct {
	net.Conn
	slot chan struct{}
	once sync.Once
}

func (c *slotConn) Close() error {
	c.once.Do(func() { <-c.slot })
	return c.Conn.Close()
}

func (c *slotConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}

// relay copies both ways until either side ends, then closes both.
func relay(a net.Conn, fromA io.Reader, b net.Conn) {
	done := make(chan struct{}, 2)
	go func() { io.Copy(b, fromA); closeWrite(b); done <- struct{}{} }()
	go func() { io.Copy(a, b); closeWrite(a); done <- struct{}{} }()
	<-done
	<-done
	a.Close()
	b.Close()
}

// closeWrite half-closes a connection that supports it.
func closeWrite(c net.Conn) {
	switch c := c.(type) {
	case interface{ CloseWrite() error }:
		c.CloseWrite()
	default:
		c.Close()
	}
}

// StartJobNetwork is the job's end, run by serve-job inside the sandbox
// before any of the job's code: it relays connections to a loopback port
// to the server's proxy on sock and returns the environment that points
// HTTP and HTTPS clients there. The relay lives as long as the process.
func StartJobNetwork(sock string) ([]string, error) {
	if st, err := os.Stat(sock); err != nil {
		return nil, fmt.Errorf("the network proxy's socket: %w", err)
	} else if st.Mode().Type() != os.ModeSocket {
		return nil, fmt.Errorf("the network proxy's socket %s is not a socket", sock)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the network relay: %w", err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				up, err := net.Dial("unix", sock)
				if err != nil {
					c.Close()
					return
				}
				relay(c, c, up)
			}()
		}
	}()
	proxy := "http://" + ln.Addr().String()
	noProxy := "localhost,127.0.0.1,::1"
	return []string{"HTTP_PROXY=" + proxy, "HTTPS_PROXY=" + proxy, "http_proxy=" + proxy, "https_proxy=" + proxy,
		"NO_PROXY=" + noProxy, "no_proxy=" + noProxy}, nil
}

// proxyDir is the directory of a job's proxy socket, bound read-only into
// its sandbox.
func proxyDir(jobDir string) string { return filepath.Join(jobDir, "net") }
