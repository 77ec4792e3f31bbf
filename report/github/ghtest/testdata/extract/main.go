// Command extract writes one real webhook body per event and action from
// @octokit/webhooks-examples' api.github.com/index.json into a directory,
// as <event>.<action>.json (or <event>.json for events without actions).
//
// The issue_comment examples are all on plain issues; extract adds
// issue.pull_request so that they are comments on a pull request. Some
// check_run examples carry timestamps as "2018-04-25 20:42:10", which
// GitHub does not send and go-github cannot parse; extract rewrites them to
// RFC 3339 ("2018-04-25T20:42:10Z").
//
//	go run ./report/github/ghtest/testdata/extract index.json webhooks/
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// wanted lists the events and actions to extract; "" means no action.
var wanted = map[string][]string{
	"pull_request":  {"opened", "synchronize", "reopened", "closed"},
	"issue_comment": {"created", "edited"},
	"check_run":     {"requested_action", "rerequested"},
	"ping":          {""},
}

// sqlTime matches a "YYYY-MM-DD HH:MM:SS" JSON string.
var sqlTime = regexp.MustCompile(`"(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)"`)

type event struct {
	Name     string            `json:"name"`
	Examples []json.RawMessage `json:"examples"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: extract index.json outdir")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "extract:", err)
		os.Exit(1)
	}
}

func run(index, outDir string) error {
	b, err := os.ReadFile(index)
	if err != nil {
		return err
	}
	var events []event
	if err := json.Unmarshal(b, &events); err != nil {
		return fmt.Errorf("%s: %v", index, err)
	}
	for _, ev := range events {
		actions, ok := wanted[ev.Name]
		if !ok {
			continue
		}
		for _, action := range actions {
			body, err := firstExample(ev, action)
			if err != nil {
				return err
			}
			if ev.Name == "issue_comment" {
				if body, err = onPullRequest(body); err != nil {
					return err
				}
			}
			body = sqlTime.ReplaceAll(body, []byte(`"${1}T${2}Z"`))
			var out bytes.Buffer
			if err := json.Indent(&out, body, "", "  "); err != nil {
				return err
			}
			out.WriteByte('\n')
			name := ev.Name + ".json"
			if action != "" {
				name = ev.Name + "." + action + ".json"
			}
			if err := os.WriteFile(filepath.Join(outDir, name), out.Bytes(), 0o644); err != nil {
				return err
			}
			fmt.Fprintln(os.Stderr, "extract:", name)
		}
		delete(wanted, ev.Name)
	}
	for name := range wanted {
		return fmt.Errorf("event %s not in %s", name, index)
	}
	return nil
}

func firstExample(ev event, action string) ([]byte, error) {
	for _, ex := range ev.Examples {
		var head struct {
			Action *string `json:"action"`
		}
		if err := json.Unmarshal(ex, &head); err != nil {
			return nil, fmt.Errorf("%s example: %v", ev.Name, err)
		}
		if (head.Action == nil && action == "") || (head.Action != nil && *head.Action == action) {
			return ex, nil
		}
	}
	return nil, fmt.Errorf("no %s.%s example", ev.Name, action)
}

// onPullRequest adds issue.pull_request, as GitHub sends for a comment on a
// pull request, built from the issue's own URLs.
func onPullRequest(body []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	issue, _ := doc["issue"].(map[string]any)
	if issue == nil {
		return nil, fmt.Errorf("issue_comment example without issue")
	}
	if _, ok := issue["pull_request"]; !ok {
		repoURL, _ := issue["repository_url"].(string)
		htmlURL, _ := issue["html_url"].(string)
		number, _ := issue["number"].(float64)
		repoHTML, _, ok := strings.Cut(htmlURL, "/issues/")
		if !ok || repoURL == "" || number == 0 {
			return nil, fmt.Errorf("issue_comment example: issue without html_url, repository_url or number")
		}
		pullHTML := fmt.Sprintf("%s/pull/%d", repoHTML, int(number))
		issue["pull_request"] = map[string]any{
			"url":       fmt.Sprintf("%s/pulls/%d", repoURL, int(number)),
			"html_url":  pullHTML,
			"diff_url":  pullHTML + ".diff",
			"patch_url": pullHTML + ".patch",
			"merged_at": nil,
		}
	}
	return json.Marshal(doc)
}
