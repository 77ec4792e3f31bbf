package ghtest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

func mustParseURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic("ghtest: " + err.Error())
	}
	return u
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("ghtest: " + err.Error())
	}
	return string(b)
}

// validationError is GitHub's 422 "Validation Failed" body with one error;
// resource and field may be empty.
func validationError(resource, field, message string) map[string]any {
	e := map[string]any{"code": "custom", "message": message}
	if resource != "" {
		e["resource"] = resource
	}
	if field != "" {
		e["field"] = field
	}
	return map[string]any{
		"message":           "Validation Failed",
		"errors":            []any{e},
		"documentation_url": "https://docs.github.com/rest",
		"status":            "422",
	}
}

// hunk is one "@@ -a,b +c,d @@" block of a patch: the old and new line
// numbers it covers (context lines included).
type hunk struct {
	oldStart, oldLines int
	newStart, newLines int
}

func (h hunk) contains(side string, line int) bool {
	if side == "LEFT" {
		return line >= h.oldStart && line < h.oldStart+h.oldLines
	}
	return line >= h.newStart && line < h.newStart+h.newLines
}

// parseHunks reads the hunk headers of a unified patch and checks that each
// hunk's body has the line counts its header promises.
func parseHunks(patch string) ([]hunk, error) {
	var hunks []hunk
	if patch == "" {
		return nil, nil
	}
	lines := strings.Split(strings.TrimSuffix(patch, "\n"), "\n")
	for i := 0; i < len(lines); {
		l := lines[i]
		if !strings.HasPrefix(l, "@@ ") {
			return nil, fmt.Errorf("patch line %d: want a hunk header \"@@ -a,b +c,d @@\", got %q", i+1, l)
		}
		var h hunk
		if err := parseRange(l, &h); err != nil {
			return nil, fmt.Errorf("patch line %d: %v", i+1, err)
		}
		i++
		oldSeen, newSeen := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@ ") {
			switch {
			case strings.HasPrefix(lines[i], "\\"): // "\ No newline at end of file"
			case strings.HasPrefix(lines[i], "+"):
				newSeen++
			case strings.HasPrefix(lines[i], "-"):
				oldSeen++
			default: // context, with or without its leading space
				oldSeen++
				newSeen++
			}
			i++
		}
		if oldSeen != h.oldLines || newSeen != h.newLines {
			return nil, fmt.Errorf("hunk %q has %d old and %d new lines", l, oldSeen, newSeen)
		}
		hunks = append(hunks, h)
	}
	return hunks, nil
}

// parseRange parses "@@ -a[,b] +c[,d] @@ ...".
func parseRange(header string, h *hunk) error {
	f := strings.Fields(header)
	if len(f) < 4 || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return fmt.Errorf("bad hunk header %q", header)
	}
	var err error
	if h.oldStart, h.oldLines, err = parseStartCount(f[1][1:]); err != nil {
		return fmt.Errorf("bad hunk header %q: %v", header, err)
	}
	if h.newStart, h.newLines, err = parseStartCount(f[2][1:]); err != nil {
		return fmt.Errorf("bad hunk header %q: %v", header, err)
	}
	return nil
}

func parseStartCount(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}

// jsonRoundTrip converts v into out through its JSON encoding.
func jsonRoundTrip(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
