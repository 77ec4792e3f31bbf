package github

import (
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

func TestParseRetest(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		found   bool
		budget  time.Duration
		run     string
		wantErr string // substring of the CommandError's reason
	}{
		{name: "bare", body: "/retest-concurrency", found: true},
		{name: "crlf and trailing space", body: "thanks!\r\n/retest-concurrency \r\n", found: true},
		{name: "budget", body: "/retest-concurrency budget=10m", found: true, budget: 10 * time.Minute},
		{name: "both options any order", body: "/retest-concurrency run=^TestBank(Transfer|Audit)$   budget=90s", found: true, budget: 90 * time.Second, run: "^TestBank(Transfer|Audit)$"},
		{name: "later line", body: "Looks racy to me.\n\n/retest-concurrency budget=1h", found: true, budget: time.Hour},
		{name: "first command counts", body: "/retest-concurrency budget=2m\n/retest-concurrency budget=3m", found: true, budget: 2 * time.Minute},
		{name: "mid-line ignored", body: "please run /retest-concurrency budget=10m", found: false},
		{name: "indented ignored", body: "  /retest-concurrency", found: false},
		{name: "quote ignored", body: "> /retest-concurrency budget=10m\nI agree", found: false},
		{name: "backtick fence ignored", body: "```\n/retest-concurrency\n```", found: false},
		{name: "tilde fence with info ignored", body: "~~~sh\n/retest-concurrency budget=5m\n~~~", found: false},
		{name: "longer fence needs longer close", body: "````\n```\n/retest-concurrency\n````", found: false},
		{name: "after fence closes", body: "```go\nx := 1\n```\n/retest-concurrency budget=4m", found: true, budget: 4 * time.Minute},
		{name: "tilde does not close backtick", body: "```\n~~~\n/retest-concurrency\n", found: false},
		{name: "unclosed fence hides the rest", body: "```\n/retest-concurrency", found: false},
		{name: "inline backticks are not a fence", body: "``` `x` ```\n/retest-concurrency", found: true},
		{name: "longer word is another command", body: "/retest-concurrency-all", found: false},
		{name: "unknown option", body: "/retest-concurrency seed=4", found: true, wantErr: "unknown option seed="},
		{name: "bare word", body: "/retest-concurrency now", found: true, wantErr: `"now" is not an option`},
		{name: "bad duration", body: "/retest-concurrency budget=ten", found: true, wantErr: "not a duration"},
		{name: "budget too long", body: "/retest-concurrency budget=61m", found: true, wantErr: "outside"},
		{name: "budget zero", body: "/retest-concurrency budget=0s", found: true, wantErr: "outside"},
		{name: "budget negative", body: "/retest-concurrency budget=-5m", found: true, wantErr: "outside"},
		{name: "bad regexp", body: "/retest-concurrency run=Test(", found: true, wantErr: "not a valid go test -run pattern"},
		{name: "subtest", body: "/retest-concurrency run=TestX/sub_a", found: true, run: "TestX/sub_a"},
		{name: "bad subtest element", body: "/retest-concurrency run=TestX/(a", found: true, wantErr: `element 1 of "TestX/(a"`},
		{name: "empty run", body: "/retest-concurrency run=", found: true, wantErr: "needs a regular expression"},
		{name: "duplicate", body: "/retest-concurrency budget=1m budget=2m", found: true, wantErr: "given twice"},
		{name: "long run", body: "/retest-concurrency run=" + strings.Repeat("a", 300), found: true, wantErr: "longer than"},
		{name: "empty body", body: "", found: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, found, err := ParseRetest(tt.body)
			if found != tt.found {
				t.Fatalf("found = %v, want %v", found, tt.found)
			}
			if tt.wantErr != "" {
				ce, ok := err.(*CommandError)
				if !ok || !strings.Contains(ce.Reason, tt.wantErr) {
					t.Fatalf("err = %v, want a CommandError containing %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "budget=DURATION") {
					t.Errorf("error %q does not say what is valid", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !found {
				return
			}
			if cmd.Budget != tt.budget || cmd.Run != tt.run {
				t.Errorf("got budget=%v run=%q, want budget=%v run=%q", cmd.Budget, cmd.Run, tt.budget, tt.run)
			}
		})
	}
}

func TestCanTrigger(t *testing.T) {
	for perm, want := range map[string]bool{"admin": true, "maintain": true, "write": true, "triage": false, "read": false, "none": false, "": false} {
		if got := CanTrigger(perm); got != want {
			t.Errorf("CanTrigger(%q) = %v, want %v", perm, got, want)
		}
	}
}

func TestIsBot(t *testing.T) {
	for _, tc := range []struct {
		login, typ string
		want       bool
	}{
		{"interleave[bot]", "Bot", true},
		{"dependabot[bot]", "", true},
		{"ci-helper", "Bot", true},
		{"octocat", "User", false},
	} {
		u := &gh.User{Login: gh.String(tc.login), Type: gh.String(tc.typ)}
		if got := IsBot(u); got != tc.want {
			t.Errorf("IsBot(%s, %s) = %v, want %v", tc.login, tc.typ, got, tc.want)
		}
	}
}

func TestRefusalMessage(t *testing.T) {
	got := RefusalMessage("mallory", RetestCommand, "read")
	if !strings.HasPrefix(got, "@mallory: /retest-concurrency needs write access to this repository") {
		t.Errorf("refusal %q", got)
	}
}
