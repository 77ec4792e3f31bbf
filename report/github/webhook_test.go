package github

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/report/github/ghtest"
)

var testSecret = []byte("It's a Secret to Everybody")

func webhookRequest(event, delivery, contentType string, body []byte, headers map[string]string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader(string(body)))
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("X-GitHub-Event", event)
	r.Header.Set("X-GitHub-Delivery", delivery)
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	return r
}

func sha1Sig(secret, body []byte) string {
	m := hmac.New(sha1.New, secret)
	m.Write(body)
	return "sha1=" + hex.EncodeToString(m.Sum(nil))
}

func TestVerifyWebhook(t *testing.T) {
	body := ghtest.Payload(t, "ping", "")
	form := []byte(url.Values{"payload": {string(body)}}.Encode())
	tests := []struct {
		name        string
		contentType string
		body        []byte
		headers     map[string]string
		max         int64
		status      int // 0: accepted
	}{
		{name: "valid", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign(testSecret, body)}},
		{name: "valid with charset", contentType: "application/json; charset=utf-8", body: body, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign(testSecret, body)}},
		{name: "form encoded", contentType: "application/x-www-form-urlencoded", body: form, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign(testSecret, form)}},
		{name: "forged", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign([]byte("guess"), body)}, status: 401},
		{name: "only a valid SHA-1 signature", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature": sha1Sig(testSecret, body)}, status: 401},
		{name: "no signature", contentType: "application/json", body: body, status: 401},
		{name: "not hex", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature-256": "sha256=zz"}, status: 401},
		{name: "wrong algorithm prefix", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature-256": strings.Replace(ghtest.Sign(testSecret, body), "sha256=", "sha1=", 1)}, status: 401},
		{name: "unknown content type", contentType: "text/plain", body: body, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign(testSecret, body)}, status: 415},
		{name: "too large", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign(testSecret, body)}, max: 100, status: 413},
		{name: "no delivery id", contentType: "application/json", body: body, headers: map[string]string{"X-Hub-Signature-256": ghtest.Sign(testSecret, body), "X-GitHub-Delivery": ""}, status: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := tt.max
			if max == 0 {
				max = MaxWebhookBody
			}
			r := webhookRequest("ping", "d-1", tt.contentType, tt.body, tt.headers)
			d, err := VerifyWebhook(r, testSecret, max)
			if tt.status == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if d.Event != "ping" || d.ID != "d-1" || string(d.Payload) != string(body) {
					t.Errorf("got delivery %s %s with %d bytes", d.Event, d.ID, len(d.Payload))
				}
				return
			}
			we, ok := err.(*WebhookError)
			if !ok || we.Status != tt.status {
				t.Fatalf("err = %v, want status %d", err, tt.status)
			}
		})
	}
}

func TestParseTrigger(t *testing.T) {
	inst := map[string]any{"id": 77}
	comment := func(body string) map[string]any {
		return map[string]any{"installation": inst, "comment.body": body, "issue.pull_request": map[string]any{"url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/1"}}
	}
	with := func(m map[string]any, k string, v any) map[string]any {
		m[k] = v
		return m
	}
	tests := []struct {
		name          string
		event, action string
		set           map[string]any
		kind          TriggerKind // "" means ignored
		check         func(t *testing.T, tr *Trigger)
		wantErr       string
	}{
		{name: "ping", event: "ping", action: ""},
		{name: "pull_request opened", event: "pull_request", action: "opened", set: map[string]any{"installation": inst}, kind: TriggerPullRequest,
			check: func(t *testing.T, tr *Trigger) {
				if tr.Owner != "Codertocat" || tr.Repo != "Hello-World" || tr.PR != 2 || !ValidSHA(tr.HeadSHA) || !ValidSHA(tr.BaseSHA) || tr.InstallationID != 77 {
					t.Errorf("trigger %+v", tr)
				}
			}},
		{name: "pull_request synchronize", event: "pull_request", action: "synchronize", set: map[string]any{"installation": inst}, kind: TriggerPullRequest,
			check: func(t *testing.T, tr *Trigger) {
				if tr.HeadSHA != "ec26c3e57ca3a959ca5aad62de7213c562f8c821" || tr.BaseSHA != "f95f852bd8fca8fcc58a9a2d6c842781e32a215e" {
					t.Errorf("SHAs %s %s", tr.HeadSHA, tr.BaseSHA)
				}
			}},
		{name: "pull_request reopened", event: "pull_request", action: "reopened", set: map[string]any{"installation": inst}, kind: TriggerPullRequest},
		{name: "pull_request closed", event: "pull_request", action: "closed", set: map[string]any{"installation": inst}},
		{name: "pull_request without installation", event: "pull_request", action: "opened", wantErr: "no installation"},
		{name: "pull_request with a bad sha", event: "pull_request", action: "opened", set: map[string]any{"installation": inst, "pull_request.head.sha": "HEAD; rm -rf /"}, wantErr: "bad base or head SHA"},
		{name: "command", event: "issue_comment", action: "created", set: comment("/retest-concurrency budget=7m run=TestX"), kind: TriggerCommand,
			check: func(t *testing.T, tr *Trigger) {
				if tr.Budget != 7*time.Minute || tr.Run != "TestX" || tr.CommentID != 492700400 || tr.Sender != "Codertocat" || tr.PR != 1 || tr.DedupeKey != "comment:492700400:created" {
					t.Errorf("trigger %+v", tr)
				}
			}},
		{name: "malformed command", event: "issue_comment", action: "created", set: comment("/retest-concurrency budget=2h"), kind: TriggerCommand,
			check: func(t *testing.T, tr *Trigger) {
				if !strings.Contains(tr.CommandError, "budget=2h") {
					t.Errorf("CommandError %q", tr.CommandError)
				}
			}},
		{name: "edited comment ignored", event: "issue_comment", action: "edited", set: comment("/retest-concurrency")},
		{name: "command in a code block ignored", event: "issue_comment", action: "created", set: comment("```\n/retest-concurrency\n```")},
		{name: "command mid-line ignored", event: "issue_comment", action: "created", set: comment("try /retest-concurrency")},
		{name: "comment on an issue ignored", event: "issue_comment", action: "created", set: map[string]any{"installation": inst, "comment.body": "/retest-concurrency", "issue.pull_request": nil}},
		{name: "closed pull request ignored", event: "issue_comment", action: "created", set: with(comment("/retest-concurrency"), "issue.state", "closed")},
		{name: "bot comment ignored", event: "issue_comment", action: "created", set: with(with(comment("/retest-concurrency"), "comment.user.login", "interleave[bot]"), "comment.user.type", "Bot")},
		{name: "search more click", event: "check_run", action: "requested_action", set: map[string]any{"requested_action.identifier": SearchMoreIdentifier}, kind: TriggerCheckRun,
			check: func(t *testing.T, tr *Trigger) {
				if tr.Budget != 10*time.Minute || tr.HeadSHA != "5bd5f196a46b8222fb7484f05faba41a73cf34bd" || tr.Sender != "codebytere" || tr.InstallationID != 690857 {
					t.Errorf("trigger %+v", tr)
				}
			}},
		{name: "another app's button ignored", event: "check_run", action: "requested_action"},
		{name: "re-run", event: "check_run", action: "rerequested", set: map[string]any{"installation": inst}, kind: TriggerCheckRun,
			check: func(t *testing.T, tr *Trigger) {
				if tr.Budget != 0 {
					t.Errorf("budget %v, want the default (0)", tr.Budget)
				}
			}},
		{name: "unhandled event", event: "star", action: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var payload []byte
			if tt.event == "star" {
				payload = []byte(`{"action":"created"}`)
			} else {
				payload = ghtest.EditPayload(t, tt.event, tt.action, tt.set)
			}
			tr, ignored, err := ParseTrigger(tt.event, payload)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tt.kind == "" {
				if tr != nil || ignored == "" {
					t.Fatalf("got trigger %+v (ignored %q), want it ignored with a reason", tr, ignored)
				}
				return
			}
			if tr == nil || tr.Kind != tt.kind {
				t.Fatalf("got %+v (ignored %q), want kind %s", tr, ignored, tt.kind)
			}
			if tt.check != nil {
				tt.check(t, tr)
			}
		})
	}
}
