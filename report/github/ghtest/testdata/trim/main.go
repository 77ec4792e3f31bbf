// Command trim cuts GitHub's OpenAPI description down to the operations the
// ghtest fake serves, plus every components entry they reference
// transitively. Examples are dropped.
//
//	go run ./report/github/ghtest/testdata/trim api.github.com.json > openapi.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// operations are the paths and methods ghtest implements.
var operations = map[string][]string{
	"/repos/{owner}/{repo}/check-runs":                             {"post"},
	"/repos/{owner}/{repo}/check-runs/{check_run_id}":              {"get", "patch"},
	"/repos/{owner}/{repo}/pulls/{pull_number}":                    {"get"},
	"/repos/{owner}/{repo}/pulls/{pull_number}/files":              {"get"},
	"/repos/{owner}/{repo}/pulls/{pull_number}/reviews":            {"get", "post"},
	"/repos/{owner}/{repo}/pulls/{pull_number}/comments":           {"get"},
	"/repos/{owner}/{repo}/pulls/comments/{comment_id}":            {"delete"},
	"/repos/{owner}/{repo}/issues/{issue_number}/comments":         {"get", "post"},
	"/repos/{owner}/{repo}/issues/comments/{comment_id}":           {"patch"},
	"/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": {"post"},
	"/repos/{owner}/{repo}/collaborators/{username}/permission":    {"get"},
	"/repos/{owner}/{repo}/code-scanning/sarifs":                   {"post"},
	"/app/installations/{installation_id}/access_tokens":           {"post"},
	"/repos/{owner}/{repo}/commits/{commit_sha}/pulls":             {"get"},
	"/repos/{owner}/{repo}/commits/{ref}/check-runs":               {"get"},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: trim api.github.com.json > openapi.json")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "trim:", err)
		os.Exit(1)
	}
}

func run(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	paths, _ := doc["paths"].(map[string]any)
	components, _ := doc["components"].(map[string]any)
	if paths == nil || components == nil {
		return fmt.Errorf("%s: no paths or components", file)
	}
	outPaths := map[string]any{}
	for path, methods := range operations {
		item, ok := paths[path].(map[string]any)
		if !ok {
			return fmt.Errorf("path %s not in the spec", path)
		}
		outItem := map[string]any{}
		if p, ok := item["parameters"]; ok {
			outItem["parameters"] = p
		}
		for _, m := range methods {
			op, ok := item[m]
			if !ok {
				return fmt.Errorf("%s %s not in the spec", strings.ToUpper(m), path)
			}
			outItem[m] = op
		}
		outPaths[path] = dropExamples(outItem)
	}

	// Follow $refs until no new components entry turns up.
	outComponents := map[string]map[string]any{}
	queue := refs(outPaths, nil)
	seen := map[string]bool{}
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[ref] {
			continue
		}
		seen[ref] = true
		parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
		if !strings.HasPrefix(ref, "#/components/") || len(parts) != 2 {
			return fmt.Errorf("unsupported $ref %q", ref)
		}
		kind, _ := components[parts[0]].(map[string]any)
		entry, ok := kind[parts[1]]
		if !ok {
			return fmt.Errorf("dangling $ref %q", ref)
		}
		entry = dropExamples(entry)
		if outComponents[parts[0]] == nil {
			outComponents[parts[0]] = map[string]any{}
		}
		outComponents[parts[0]][parts[1]] = entry
		queue = refs(entry, queue)
	}

	out := map[string]any{
		"openapi":    doc["openapi"],
		"info":       doc["info"],
		"servers":    doc["servers"],
		"paths":      outPaths,
		"components": outComponents,
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	var kinds []string
	for k, v := range outComponents {
		kinds = append(kinds, fmt.Sprintf("%s=%d", k, len(v)))
	}
	sort.Strings(kinds)
	fmt.Fprintf(os.Stderr, "trim: %d paths, components %s\n", len(outPaths), strings.Join(kinds, " "))
	return nil
}

// refs appends every $ref value found in v to acc.
func refs(v any, acc []string) []string {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok {
			acc = append(acc, r)
		}
		for _, e := range v {
			acc = refs(e, acc)
		}
	case []any:
		for _, e := range v {
			acc = refs(e, acc)
		}
	}
	return acc
}

// dropExamples removes references to components/examples and the
// "examples" maps left empty by that.
func dropExamples(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if m, ok := e.(map[string]any); ok {
				if r, ok := m["$ref"].(string); ok && strings.HasPrefix(r, "#/components/examples/") {
					delete(v, k)
					continue
				}
			}
			v[k] = dropExamples(e)
			if m, ok := v[k].(map[string]any); ok && k == "examples" && len(m) == 0 {
				delete(v, k)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = dropExamples(e)
		}
	}
	return v
}
