package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func writeTestKey(t *testing.T) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "app.pem")
	data := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServeFlagErrors(t *testing.T) {
	key := writeTestKey(t)
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }
	tests := []struct {
		name   string
		args   []string
		getenv func(string) string
		want   string
	}{
		{"no app id", []string{"-private-key", key, "-webhook-secret-file", secretFile}, noEnv, "-app-id is required"},
		{"no key", []string{"-app-id", "1", "-webhook-secret-file", secretFile}, noEnv, "-private-key is required"},
		{"missing key file", []string{"-app-id", "1", "-private-key", "/nonexistent/app.pem", "-webhook-secret-file", secretFile}, noEnv, "reading the private key"},
		{"no secret", []string{"-app-id", "1", "-private-key", key}, noEnv, "no webhook secret"},
		{"missing secret file", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", "/nonexistent"}, noEnv, "reading the webhook secret"},
		{"zero workers", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-workers", "0"}, noEnv, "-workers must be at least 1"},
		{"budget over timeout", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-budget", "40m"}, noEnv, "leaves no time"},
		{"negative count", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-count", "-1"}, noEnv, "-count must not be negative"},
		{"bad fail-on", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-fail-on", "panic"}, noEnv, "-fail-on must be"},
		{"extra args", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "now"}, noEnv, "unexpected arguments"},
		{"root sandbox", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-uid", "0"}, noEnv, "not root"},
		{"bad memory", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-memory", "4GB"}, noEnv, "is not a size"},
		{"tiny memory", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-memory", "1MiB"}, noEnv, "-sandbox-memory must be 0"},
		{"tiny disk", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-disk", "1MiB"}, noEnv, "-sandbox-disk must be 0"},
		{"allowed host without port", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-allow-host", "proxy.golang.org"}, noEnv, "is not host:port"},
		{"allowed host with bad port", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-allow-host", "proxy.golang.org:https"}, noEnv, "is not host:port"},
		{"none and a host", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-allow-host", "none", "-sandbox-allow-host", "a.example:443"}, noEnv, `"none" cannot be combined`},
		{"a host and none", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-allow-host", "a.example:443", "-sandbox-allow-host", "none"}, noEnv, `"none" cannot be combined`},
		{"tiny nproc", []string{"-app-id", "1", "-private-key", key, "-webhook-secret-file", secretFile, "-sandbox-nproc", "10"}, noEnv, "-sandbox-nproc must be at least 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: t.TempDir()}
			_, code, ok := parseServeFlags(env, tt.args, tt.getenv)
			if ok || code != exitError {
				t.Fatalf("ok=%v code=%d, want exit %d", ok, code, exitError)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.want)
			}
		})
	}

	// The secret may come from the environment; the API URL defaults to
	// $GITHUB_API_URL.
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, dir: t.TempDir()}
	opts, _, ok := parseServeFlags(env, []string{"-app-id", "9", "-private-key", key}, func(k string) string {
		return map[string]string{"INTERLEAVE_WEBHOOK_SECRET": "from-env", "GITHUB_API_URL": "https://ghe.example.com/api/v3"}[k]
	})
	if !ok || string(opts.WebhookSecret) != "from-env" || opts.APIURL != "https://ghe.example.com/api/v3" || opts.GitURL != "https://github.com" {
		t.Errorf("opts %+v", opts)
	}
	// Safe by default: sandboxed, forks held.
	if opts.Sandbox.Insecure || !opts.ForksNeedApproval || opts.Sandbox.UID != 65534 || opts.Sandbox.Memory != 4<<30 || opts.Sandbox.Disk != 10<<30 {
		t.Errorf("defaults: sandbox %+v, forks need approval %v; want the sandbox as uid 65534 with 4 GiB, 10 GiB of disk and approval", opts.Sandbox, opts.ForksNeedApproval)
	}
	opts, _, ok = parseServeFlags(env, []string{"-app-id", "9", "-private-key", key, "-sandbox-memory", "256MiB"}, func(string) string { return "x" })
	if !ok || opts.Sandbox.Memory != 256<<20 {
		t.Errorf("-sandbox-memory 256MiB: %+v", opts)
	}
	// The network allow-list: nil is the default list, "none" an empty one.
	if opts.Sandbox.AllowHosts != nil {
		t.Errorf("default allow-list %q, want nil (the defaults)", opts.Sandbox.AllowHosts)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-sandbox-allow-host", "none"}, []string{}},
		{[]string{"-sandbox-allow-host", "default", "-sandbox-allow-host", "goproxy.corp.example:8443"}, []string{"default", "goproxy.corp.example:8443"}},
	} {
		opts, _, ok = parseServeFlags(env, append([]string{"-app-id", "9", "-private-key", key}, c.args...), func(string) string { return "x" })
		if !ok || opts.Sandbox.AllowHosts == nil || !slices.Equal(opts.Sandbox.AllowHosts, c.want) {
			t.Errorf("%v: allow-list %q, want %q", c.args, opts.Sandbox.AllowHosts, c.want)
		}
	}
	opts, _, ok = parseServeFlags(env, []string{"-app-id", "9", "-private-key", key, "-webhook-secret-file", secretFile}, noEnv)
	if !ok || string(opts.WebhookSecret) != "s3cret" {
		t.Errorf("secret from file: %q, want the trailing newline trimmed", opts.WebhookSecret)
	}
}

func TestServeBadKeyExits2(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("-----BEGIN NOTHING-----\n"), 0o600)
	var stderr bytes.Buffer
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: t.TempDir()}
	opts, _, ok := parseServeFlags(env, []string{"-app-id", "1", "-private-key", bad, "-addr", "127.0.0.1:0"}, func(k string) string {
		if k == "INTERLEAVE_WEBHOOK_SECRET" {
			return "x"
		}
		return ""
	})
	if !ok {
		t.Fatalf("flags refused: %s", stderr.String())
	}
	if code := runServe(context.Background(), env, opts, nil); code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	if !strings.Contains(stderr.String(), "private key") {
		t.Errorf("stderr %q does not name the key", stderr.String())
	}
}

// TestServeStartsAndStops runs the server, asks /healthz, refuses an
// unsigned delivery, and shuts down cleanly when the context ends.
func TestServeStartsAndStops(t *testing.T) {
	key := writeTestKey(t)
	dir := t.TempDir()
	var stderr bytes.Buffer
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: dir}
	// The sandbox is TestAppUntrustedPullRequest's (app).
	opts, _, ok := parseServeFlags(env, []string{"-app-id", "1", "-private-key", key, "-addr", "127.0.0.1:0", "-db", "q.db", "-workdir", "work", "-api-url", "http://127.0.0.1:1/", "-insecure-no-sandbox"},
		func(k string) string {
			if k == "INTERLEAVE_WEBHOOK_SECRET" {
				return "x"
			}
			return ""
		})
	if !ok {
		t.Fatalf("flags refused: %s", stderr.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan string, 1)
	done := make(chan int, 1)
	go func() { done <- runServe(ctx, env, opts, func(a string) { addrs <- a }) }()
	var addr string
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if resp.StatusCode != 200 || h["queue_depth"] != float64(0) {
		t.Errorf("healthz %d %v", resp.StatusCode, h)
	}
	resp, err = http.Post("http://"+addr+"/webhook", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned delivery: %d, want 401", resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d after shutdown, want 0: %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	if _, err := os.Stat(filepath.Join(dir, "q.db")); err != nil {
		t.Errorf("database not created in the working directory: %v", err)
	}
	for _, want := range []string{`"msg":"serving"`, `"msg":"delivery refused"`, `"msg":"stopped"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, stderr.String())
		}
	}
}

// The docker run line of docs/serve.md is safe as written: its server
// flags parse to a sandbox with a memory limit, a disk quota and forks
// held, and the container gets no privileges and the key read-only.
func TestDocsDockerRunLineIsSafe(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "serve.md"))
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, block := range strings.Split(string(doc), "\n\n") {
		if strings.HasPrefix(block, "    docker run ") {
			if line != "" {
				t.Fatal("docs/serve.md has more than one docker run line")
			}
			line = strings.Join(strings.Fields(strings.ReplaceAll(block, "\\\n", " ")), " ")
		}
	}
	if line == "" {
		t.Fatal("no docker run line in docs/serve.md")
	}
	for _, want := range []string{"--cap-drop ALL", "--security-opt no-new-privileges", "-v /etc/interleave:/etc/interleave:ro", "--memory ", "--pids-limit "} {
		if !strings.Contains(line, want) {
			t.Errorf("the docker run line lacks %q: %s", want, line)
		}
	}
	if strings.Contains(line, "--privileged") || strings.Contains(line, "--user") {
		t.Errorf("the docker run line runs the server privileged or as another user: %s", line)
	}
	_, args, ok := strings.Cut(line, " interleave-app ")
	if !ok {
		t.Fatalf("no image interleave-app in %s", line)
	}
	// The key and the secret are the operator's: stand-ins here.
	key := writeTestKey(t)
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("s3cret\n"), 0o600)
	argv := strings.Fields(strings.NewReplacer("/etc/interleave/app.pem", key, "/etc/interleave/webhook-secret", secret).Replace(args))
	var stderr bytes.Buffer
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: t.TempDir()}
	opts, _, ok := parseServeFlags(env, argv, func(string) string { return "" })
	if !ok {
		t.Fatalf("the docker run line's flags %q: %s", argv, stderr.String())
	}
	if opts.Sandbox.Insecure || opts.Sandbox.Memory == 0 || opts.Sandbox.Disk == 0 || !opts.ForksNeedApproval {
		t.Errorf("the docker run line's server: sandbox %+v, forks need approval %v; want a sandbox with a memory limit and a disk quota, and forks held", opts.Sandbox, opts.ForksNeedApproval)
	}
}
