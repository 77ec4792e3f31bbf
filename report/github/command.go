package github

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// RetestCommand is the slash command that reruns the concurrency search on a
// pull request with fresh seeds.
const RetestCommand = "/retest-concurrency"

// MaxRetestBudget caps budget= so one comment cannot occupy a worker for hours.
const MaxRetestBudget = 60 * time.Minute

// maxRunPattern caps run= so the pattern stays readable in logs and replies.
const maxRunPattern = 256

// RetestUsage says what the command accepts; replies to a malformed command
// quote it.
var RetestUsage = fmt.Sprintf("`%s [budget=DURATION] [run=REGEXP]`: budget is a Go duration above 0 and at most %v (for example 10m), run is a go test -run pattern (TestX/sub selects subtests)", RetestCommand, MaxRetestBudget)

// Retest is a parsed /retest-concurrency command.
type Retest struct {
	Budget time.Duration // 0: not given, the server's default applies
	Run    string        // "": every affected test
}

// CommandError is a malformed command: it was meant for interleave, so the
// commenter gets a reply saying what is wrong.
type CommandError struct{ Reason string }

func (e *CommandError) Error() string {
	return fmt.Sprintf("%s: %s; usage: %s", RetestCommand, e.Reason, RetestUsage)
}

// ParseRetest finds a /retest-concurrency command in a comment body. The
// command must start a line outside fenced code blocks (``` and ~~~) and
// block quotes; the first such line counts. found is false when the body
// holds no command; err is a *CommandError when the command's options are
// malformed.
func ParseRetest(body string) (cmd *Retest, found bool, err error) {
	var fence string // the opening fence while inside a fenced block
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, "\r")
		if fence != "" {
			if isClosingFence(line, fence) {
				fence = ""
			}
			continue
		}
		if f := openingFence(line); f != "" {
			fence = f
			continue
		}
		rest, ok := strings.CutPrefix(line, RetestCommand)
		if !ok {
			continue // mid-line mentions, quotes ("> /retest-…") and indented lines
		}
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue // another word, such as /retest-concurrency-foo
		}
		cmd, err := parseRetestOptions(strings.Fields(rest))
		return cmd, true, err
	}
	return nil, false, nil
}

// openingFence returns the fence (the run of ` or ~) that opens a fenced code
// block on this line, or "". As in CommonMark, up to three spaces of
// indentation are allowed and a backtick fence's info string has no backtick.
func openingFence(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// isClosingFence reports whether line closes a block opened by fence: the
// same character, at least as many, nothing but spaces after.
func isClosingFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(t[n:]) == ""
}

func parseRetestOptions(fields []string) (*Retest, error) {
	cmd := &Retest{}
	seen := map[string]bool{}
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			return nil, &CommandError{fmt.Sprintf("%q is not an option; options are budget=… and run=…", f)}
		}
		if seen[key] {
			return nil, &CommandError{fmt.Sprintf("%s= is given twice", key)}
		}
		seen[key] = true
		switch key {
		case "budget":
			d, err := time.ParseDuration(value)
			if err != nil {
				return nil, &CommandError{fmt.Sprintf("budget=%s is not a duration such as 10m", value)}
			}
			if d <= 0 || d > MaxRetestBudget {
				return nil, &CommandError{fmt.Sprintf("budget=%s is outside (0, %v]", value, MaxRetestBudget)}
			}
			cmd.Budget = d
		case "run":
			if value == "" {
				return nil, &CommandError{"run= needs a regular expression"}
			}
			if len(value) > maxRunPattern {
				return nil, &CommandError{fmt.Sprintf("run= is longer than %d characters", maxRunPattern)}
			}
			// Split as go test's -run is, so that TestX/sub selects a
			// subtest and the error names the bad element.
			if _, err := rt.ParseRun(value); err != nil {
				return nil, &CommandError{fmt.Sprintf("run=%s is not a valid go test -run pattern: %v", value, err)}
			}
			cmd.Run = value
		default:
			return nil, &CommandError{fmt.Sprintf("unknown option %s=; options are budget=… and run=…", key)}
		}
	}
	return cmd, nil
}

// Permission returns login's permission on the repository as GitHub's
// collaborator-permission API reports it: admin, write, read or none
// (maintain reads as write, triage as read). author_association in webhook
// payloads is not used: it shows private org members as CONTRIBUTOR.
func Permission(ctx context.Context, c *gh.Client, owner, repo, login string) (string, error) {
	p, _, err := c.Repositories.GetPermissionLevel(ctx, owner, repo, login)
	if err != nil {
		return "", fmt.Errorf("permission of %s on %s/%s: %w", login, owner, repo, err)
	}
	if p.GetPermission() == "" {
		return "", errors.New("permission of " + login + ": empty answer")
	}
	return p.GetPermission(), nil
}

// CanTrigger reports whether a permission allows starting a search: admin or
// write (maintain, when reported as such, counts as write).
func CanTrigger(permission string) bool {
	switch permission {
	case "admin", "write", "maintain":
		return true
	}
	return false
}

// RefusalMessage is the reply to someone whose permission is too low.
func RefusalMessage(login, what, permission string) string {
	return fmt.Sprintf("@%s: %s needs write access to this repository (you have %s access), so nothing was started.", login, what, permission)
}

// IsBot reports whether a user is a bot or an App (including interleave
// itself), whose comments never trigger anything.
func IsBot(u *gh.User) bool {
	return u.GetType() == "Bot" || strings.HasSuffix(u.GetLogin(), "[bot]")
}
