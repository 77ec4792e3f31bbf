package github

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/report"
)

// Bounds on a report Publish accepts. The report may come from an
// untrusted artifact (the pull_request → workflow_run split), so it is
// checked before anything is posted.
const (
	MaxFindings    = 10000
	MaxReportBytes = 50 << 20
)

// CheckReport reports why r is not a report Publish may post: an unknown
// envelope version, too many findings, or a file name that is absolute or
// leaves the repository.
func CheckReport(r *report.JSONReport) error {
	if r.Version < 1 || r.Version > report.JSONVersion {
		return fmt.Errorf("report envelope version %d is not supported (this interleave reads version %d)", r.Version, report.JSONVersion)
	}
	if len(r.Findings) > MaxFindings {
		return fmt.Errorf("report has %d findings, more than the %d accepted", len(r.Findings), MaxFindings)
	}
	for i, f := range r.Findings {
		where := fmt.Sprintf("finding %d (%s)", i+1, f.Rule)
		if f.Rule == "" {
			return fmt.Errorf("finding %d has no rule", i+1)
		}
		if err := checkRepoPath(f.Pos.File, true); err != nil {
			return fmt.Errorf("%s: file: %w", where, err)
		}
		if f.Pos.Line < 0 || f.Pos.EndLine < 0 || f.Pos.Column < 0 || f.Pos.EndColumn < 0 {
			return fmt.Errorf("%s: negative line or column", where)
		}
		if f.Pos.File != "" && f.Pos.Line == 0 {
			return fmt.Errorf("%s: file %s without a line", where, f.Pos.File)
		}
		for _, rel := range f.Related {
			if err := checkRepoPath(rel.File, true); err != nil {
				return fmt.Errorf("%s: related location: %w", where, err)
			}
		}
		if err := checkRepoPath(f.Schedule, true); err != nil {
			return fmt.Errorf("%s: schedule: %w", where, err)
		}
	}
	return nil
}

// checkRepoPath accepts a clean, slash-separated path relative to the
// repository root.
func checkRepoPath(p string, emptyOK bool) error {
	switch {
	case p == "":
		if emptyOK {
			return nil
		}
		return fmt.Errorf("empty path")
	case strings.ContainsAny(p, "\\\x00\r\n"):
		return fmt.Errorf("path %q has a backslash or control character", p)
	case path.IsAbs(p) || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
		return fmt.Errorf("path %q is absolute; report paths must be relative to the repository root", p)
	case path.Clean(p) != p:
		return fmt.Errorf("path %q is not clean (want %q)", p, path.Clean(p))
	case p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %q leaves the repository", p)
	}
	return nil
}
