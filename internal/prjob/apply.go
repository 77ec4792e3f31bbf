// Layering the config file under flags and inputs: finding it, applying it, saying where each setting came from.

package prjob

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// Sources says where each setting (FileSettings) came from: "default",
// "FILE:LINE", "flag -NAME" or "input NAME".
type Sources map[string]string

// ModuleRoot is the directory of the go.mod that holds dir, or dir when
// none does.
func ModuleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// LoadFile reads the config file of the module holding dir: as it is in
// the commit base when base names one (a change is reviewed under its
// base's settings, so a pull request cannot change its own review), from
// the working tree when base is "" or affected.Empty. It returns nil and
// no error when there is no file; note, when not "", says why a file in
// the working tree is not used.
func LoadFile(dir, base string) (f *File, note string, err error) {
	mod := ModuleRoot(dir)
	local := filepath.Join(mod, FileName)
	if base == "" || base == affected.Empty {
		data, err := os.ReadFile(local)
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", nil
		}
		if err != nil {
			return nil, "", err
		}
		f, err := ParseFile(relName(dir, local), data)
		return f, "", err
	}
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = mod
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	if _, err := git("rev-parse", "--verify", "--quiet", base+"^{commit}"); err != nil {
		return nil, "", nil // not a commit: the job says so
	}
	listed, err := git("ls-tree", "--name-only", base+"^{commit}", "--", FileName)
	if err != nil {
		return nil, "", err
	}
	if len(bytes.TrimSpace(listed)) == 0 {
		if _, err := os.Stat(local); err == nil {
			note = fmt.Sprintf("%s is not in the base %s, so its settings are not used: a change is reviewed under its base's settings", relName(dir, local), base)
		}
		return nil, note, nil
	}
	data, err := git("cat-file", "blob", base+":./"+FileName)
	if err != nil {
		return nil, "", err
	}
	f, err = ParseFile(base+":"+relName(dir, local), data)
	return f, "", err
}

// relName names file relative to dir when it is inside it.
func relName(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
}

// ApplyFile sets on c what f (nil: no file) sets, except the settings
// given explicitly: given returns their source ("flag -budget", "input
// budget") and "" for the others. It returns where each setting came from.
func ApplyFile(c *Config, f *File, given func(setting string) string) Sources {
	src := Sources{}
	for _, s := range FileSettings {
		if g := given(s); g != "" {
			src[s] = g
			continue
		}
		line, ok := 0, false
		if f != nil {
			line, ok = f.Lines[s]
		}
		if !ok {
			src[s] = "default"
			continue
		}
		src[s] = fmt.Sprintf("%s:%d", f.Name, line)
		switch s {
		case "exclude":
			c.Exclude = f.Exclude
		case "rules.enable":
			c.Enable = f.Enable
		case "rules.disable":
			c.Disable = f.Disable
		case "budget":
			c.Budget = *f.Budget
		case "gen-budget":
			c.GenBudget, c.GenAuto, _ = ParseGenBudget(f.GenBudget) // checked by ParseFile
		case "max-steps":
			c.MaxSteps = *f.MaxSteps
		case "tests.run":
			c.Run = rt.MustParseRun(f.Run) // checked by ParseFile
		case "tests.skip":
			c.Skip = rt.MustParseRun(f.Skip)
		case "tags":
			c.Tags = f.Tags
		case "ignore":
			c.Ignore = f.Ignore
		}
	}
	return src
}

// PrintSettings writes c's file settings with their sources, one a line.
func PrintSettings(w io.Writer, c *Config, src Sources) {
	PrintSome(w, c, src, FileSettings)
}

// PrintSome is PrintSettings for some of the settings, in the order of
// FileSettings; a setting not among them is printed with its source only.
func PrintSome(w io.Writer, c *Config, src Sources, settings []string) {
	list := func(v []string, none string) string {
		if len(v) == 0 {
			return none
		}
		return strings.Join(v, ", ")
	}
	re := func(r *rt.RunFilter, none string) string {
		if r == nil {
			return none
		}
		return r.String()
	}
	gen := "auto"
	if !c.GenAuto {
		gen = c.GenBudget.String()
	}
	maxSteps := strconv.Itoa(c.MaxSteps)
	if c.MaxSteps == 0 {
		maxSteps = "(per test)"
	}
	values := map[string]string{
		"exclude":       list(c.Exclude, "(none)"),
		"rules.enable":  list(c.Enable, "(the default rules)"),
		"rules.disable": list(c.Disable, "(none)"),
		"budget":        c.Budget.String(),
		"gen-budget":    gen,
		"max-steps":     maxSteps,
		"tests.run":     re(c.Run, "(every affected test)"),
		"tests.skip":    re(c.Skip, "(none)"),
		"tags":          list(c.Tags, "(none)"),
		"ignore":        ignoreCount(len(c.Ignore)),
	}
	for _, s := range FileSettings {
		v := values[s]
		if !slices.Contains(settings, s) {
			v = "-"
		}
		fmt.Fprintf(w, "%-14s %-30s %s\n", s, v, src[s])
	}
	for _, ig := range c.Ignore {
		var what []string
		for _, kv := range [][2]string{{"rule", ig.Rule}, {"test", ig.Test}, {"path", ig.Path}} {
			if kv[1] != "" {
				what = append(what, kv[0]+" "+kv[1])
			}
		}
		fmt.Fprintf(w, "  ignore %s: %s (%s)\n", strings.Join(what, ", "), ig.Reason, ig.Where)
	}
}

func ignoreCount(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// FlagGiven tells ApplyFile which settings fs's command line gave.
func FlagGiven(fs *flag.FlagSet) func(setting string) string {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return func(setting string) string {
		if name := SettingFlag(setting); name != "" && set[name] {
			return "flag -" + name
		}
		return ""
	}
}
