package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// ListFiles returns at most 3,000 files, 100 per page at most.
// https://docs.github.com/rest/pulls/pulls#list-pull-requests-files
const (
	maxListedFiles = 3000
	filesPerPage   = 100
)

// hunk is the new-side line range of one "@@ -a,b +c,d @@" block, context
// lines included: GitHub accepts review comments on any of them.
type hunk struct{ start, end int } // inclusive; end < start for an empty side

// diffIndex maps a file to its hunks. A file absent from the map, or with
// no hunks, takes no review comments.
type diffIndex struct {
	files   map[string][]hunk
	partial []string // why some files have no hunks (missing patch, diff too large)
}

// hunkOf returns the index of the hunk holding lines start..end of file, or
// -1 when no single hunk holds them all.
func (d *diffIndex) hunkOf(file string, start, end int) int {
	for i, h := range d.files[file] {
		if start >= h.start && end <= h.end {
			return i
		}
	}
	return -1
}

// loadDiff builds the diff index of pull request n from the files API and,
// for changed files the API sent without a patch (too large for it), from
// the whole diff. wanted names the files that carry findings: only their
// missing patches are worth the extra request.
func loadDiff(ctx context.Context, c *gh.Client, owner, repo string, n int, wanted map[string]bool) (*diffIndex, error) {
	d := &diffIndex{files: map[string][]hunk{}}
	var missing []string
	opts := &gh.ListOptions{PerPage: filesPerPage}
	total := 0
	for {
		files, resp, err := c.PullRequests.ListFiles(ctx, owner, repo, n, opts)
		if err != nil {
			return nil, fmt.Errorf("list files of pull request #%d: %w", n, err)
		}
		for _, f := range files {
			total++
			name := f.GetFilename()
			if f.Patch == nil {
				if wanted[name] && f.GetStatus() != "removed" {
					missing = append(missing, name)
				}
				continue
			}
			hs, err := parseHunks(f.GetPatch())
			if err != nil {
				d.partial = append(d.partial, fmt.Sprintf("%s: %v", name, err))
				continue
			}
			d.files[name] = hs
		}
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if total >= maxListedFiles {
		for name := range wanted {
			if _, ok := d.files[name]; !ok {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) == 0 {
		return d, nil
	}
	raw, _, err := c.PullRequests.GetRaw(ctx, owner, repo, n, gh.RawOptions{Type: gh.Diff})
	var er *gh.ErrorResponse
	switch {
	case errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotAcceptable:
		d.partial = append(d.partial, fmt.Sprintf("the diff is too large for GitHub to send (406); no review comments on %s", strings.Join(missing, ", ")))
		return d, nil
	case err != nil:
		return nil, fmt.Errorf("get diff of pull request #%d: %w", n, err)
	}
	whole := parseUnifiedDiff(raw)
	for _, name := range missing {
		if hs, ok := whole[name]; ok && len(hs) > 0 {
			d.files[name] = hs
		} else {
			d.partial = append(d.partial, fmt.Sprintf("%s: GitHub sent no patch for it", name))
		}
	}
	return d, nil
}

// parseHunks reads the hunk headers of a file's patch as the files API
// sends it: hunks only, no file header.
func parseHunks(patch string) ([]hunk, error) {
	var hs []hunk
	for i, line := range strings.Split(patch, "\n") {
		if !strings.HasPrefix(line, "@@ ") {
			continue
		}
		h, err := parseHunkHeader(line)
		if err != nil {
			return nil, fmt.Errorf("patch line %d: %w", i+1, err)
		}
		hs = append(hs, h)
	}
	return hs, nil
}

// parseHunkHeader reads the new-side range of "@@ -a[,b] +c[,d] @@ ...".
func parseHunkHeader(line string) (hunk, error) {
	f := strings.Fields(line)
	if len(f) < 4 || f[3] != "@@" || !strings.HasPrefix(f[2], "+") {
		return hunk{}, fmt.Errorf("bad hunk header %q", line)
	}
	startText, countText, hasCount := strings.Cut(f[2][1:], ",")
	start, err := strconv.Atoi(startText)
	if err != nil || start < 0 {
		return hunk{}, fmt.Errorf("bad hunk header %q", line)
	}
	count := 1
	if hasCount {
		if count, err = strconv.Atoi(countText); err != nil || count < 0 {
			return hunk{}, fmt.Errorf("bad hunk header %q", line)
		}
	}
	return hunk{start: start, end: start + count - 1}, nil
}

// parseUnifiedDiff reads a whole "git diff" and returns each new file's
// hunks. Deleted files ("+++ /dev/null") are left out; a malformed hunk
// header drops that file.
func parseUnifiedDiff(diff string) map[string][]hunk {
	out := map[string][]hunk{}
	var file string
	bad, inHeader := false, false
	for _, line := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			file, bad, inHeader = "", false, true
		case inHeader && strings.HasPrefix(line, "+++ "):
			name := strings.TrimSuffix(strings.TrimPrefix(line, "+++ "), "\t")
			if name == "/dev/null" {
				file = ""
				continue
			}
			file = strings.TrimPrefix(name, "b/")
		case strings.HasPrefix(line, "@@ ") && file != "" && !bad:
			inHeader = false
			h, err := parseHunkHeader(line)
			if err != nil {
				delete(out, file)
				bad = true
				continue
			}
			out[file] = append(out[file], h)
		}
	}
	return out
}
