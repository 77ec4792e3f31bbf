package prjob

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// AbsIn makes name absolute relative to dir.
func AbsIn(dir, name string) string {
	if name == "" || filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// Fails reports whether a finding reaches failOn: the run fails the check.
func Fails(fs []checks.Finding, failOn checks.Severity) bool {
	for _, f := range fs {
		if f.Severity >= failOn {
			return true
		}
	}
	return false
}

// Outputs is where a report goes. Relative file names are taken relative
// to Dir.
type Outputs struct {
	Dir     string
	Stdout  io.Writer // the report, when Output is ""
	Format  string    // of the report: report.Formats
	Output  string    // the report's file; "" means Stdout
	SARIF   string    // also SARIF 2.1.0 to this file, when set
	Summary string    // also the markdown summary to this file, when set
	Extra   string    // markdown appended to the summary
}

// WriteOutputs renders rep to the outputs; each file is replaced
// atomically.
func WriteOutputs(rep *report.Report, o Outputs) error {
	w, err := report.New(o.Format)
	if err != nil {
		return err
	}
	if o.Output == "" {
		if err := w.Write(o.Stdout, rep); err != nil {
			return fmt.Errorf("write %s report: %w", o.Format, err)
		}
	} else if err := renderTo(AbsIn(o.Dir, o.Output), w, rep, ""); err != nil {
		return err
	}
	if o.SARIF != "" {
		if err := renderTo(AbsIn(o.Dir, o.SARIF), report.SARIF{}, rep, ""); err != nil {
			return err
		}
	}
	if o.Summary != "" {
		if err := renderTo(AbsIn(o.Dir, o.Summary), report.Markdown{}, rep, o.Extra); err != nil {
			return err
		}
	}
	return nil
}

// renderTo writes rep (plus extra text) to name atomically.
func renderTo(name string, w report.Writer, rep *report.Report, extra string) error {
	return report.WriteFile(name, func(f io.Writer) error {
		if err := w.Write(f, rep); err != nil {
			return err
		}
		_, err := io.WriteString(f, extra)
		return err
	})
}
