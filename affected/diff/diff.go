// Package diff parses the output of `git diff` into files, statuses and line
// ranges. It only parses: deciding which findings a change concerns is the
// job of package affected, which runs git and uses this parser.
//
// The parser expects git's extended header format as produced by
//
//	git diff --no-color --no-ext-diff --no-textconv --src-prefix=a/ --dst-prefix=b/ -M
//
// with any -U value; with --unified=0 every hunk line is a change.
package diff

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Status is what happened to a file.
type Status string

const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
	Copied   Status = "copied"
)

// Range is an inclusive range of 1-based line numbers.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Contains reports whether line is inside r.
func (r Range) Contains(line int) bool { return r.Start <= line && line <= r.End }

func (r Range) String() string {
	if r.Start == r.End {
		return strconv.Itoa(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// Hunk is one @@ section. Lines counts are as in the header: a zero count
// means the side is empty, and Start is then the line before the hunk.
type Hunk struct {
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	Section  string `json:"section,omitempty"` // text after the second @@ (the enclosing function, as git guessed it)
	// Added are the new-side line numbers of '+' lines, as ranges.
	Added []Range `json:"added,omitempty"`
	// Removed counts the '-' lines.
	Removed int `json:"removed,omitempty"`
}

// File is one file of the diff.
type File struct {
	OldPath    string  `json:"oldPath,omitempty"` // empty for an added file
	NewPath    string  `json:"newPath,omitempty"` // empty for a deleted file
	Status     Status  `json:"status"`
	Binary     bool    `json:"binary,omitempty"`
	OldMode    string  `json:"oldMode,omitempty"`
	NewMode    string  `json:"newMode,omitempty"`
	Similarity int     `json:"similarity,omitempty"` // percent, for renames and copies
	Hunks      []*Hunk `json:"hunks,omitempty"`
}

// Path is the new path, or the old one for a deleted file.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// ModeChanged reports whether the file mode changed (for example +x).
func (f *File) ModeChanged() bool {
	return f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode
}

// AddedLines returns the new-side lines that were added or rewritten, merged
// into sorted, non-overlapping ranges.
func (f *File) AddedLines() []Range {
	var out []Range
	for _, h := range f.Hunks {
		for _, r := range h.Added {
			if n := len(out); n > 0 && out[n-1].End+1 >= r.Start {
				if r.End > out[n-1].End {
					out[n-1].End = r.End
				}
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

// DeletionPoints returns, for each hunk that only removes lines, the
// new-side line after which the lines were removed (0: at the top). A
// deleted file has none.
func (f *File) DeletionPoints() []int {
	if f.Status == Deleted {
		return nil
	}
	var out []int
	for _, h := range f.Hunks {
		if h.Removed > 0 && len(h.Added) == 0 {
			out = append(out, h.NewStart)
		}
	}
	return out
}

// Edit is one hunk's line ranges, as its header gives them: a zero count
// means the side is empty, and its Start is the line before.
type Edit struct {
	OldStart int `json:"oldStart"`
	OldLines int `json:"oldLines"`
	NewStart int `json:"newStart"`
	NewLines int `json:"newLines"`
}

// Edits returns the file's hunks' ranges, in order.
func (f *File) Edits() []Edit {
	out := make([]Edit, 0, len(f.Hunks))
	for _, h := range f.Hunks {
		out = append(out, Edit{OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines})
	}
	return out
}

// OldLine maps a new-side line to the old side of edits (in order): a
// line outside every edit moves by the lines the edits before it added
// and removed; a line an edit wrote maps to the old lines it replaced at
// the same offset (their last when fewer, the line before when it
// replaced none), and changed is true.
func OldLine(edits []Edit, line int) (old int, changed bool) {
	delta := 0 // old line minus new line, after the edits passed
	for _, e := range edits {
		if e.NewLines > 0 && line >= e.NewStart && line < e.NewStart+e.NewLines {
			if e.OldLines == 0 {
				return max(e.OldStart, 1), true
			}
			return e.OldStart + min(line-e.NewStart, e.OldLines-1), true
		}
		newAfter, oldAfter := e.NewStart+e.NewLines, e.OldStart+e.OldLines
		if e.NewLines == 0 {
			newAfter = e.NewStart + 1
		}
		if e.OldLines == 0 {
			oldAfter = e.OldStart + 1
		}
		if line < newAfter {
			break
		}
		delta = oldAfter - newAfter
	}
	return line + delta, false
}

// OldChanged returns the old-side lines the edits removed or rewrote.
func OldChanged(edits []Edit) []Range {
	var out []Range
	for _, e := range edits {
		if e.OldLines > 0 {
			out = append(out, Range{e.OldStart, e.OldStart + e.OldLines - 1})
		}
	}
	return out
}

// Parse reads a whole git diff.
func Parse(r io.Reader) ([]*File, error) {
	p := &parser{sc: bufio.NewScanner(r)}
	// Diff lines can be long (minified files); 64 MiB is far above any
	// line git prints for a text diff.
	p.sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	return p.parse()
}

// ParseBytes is Parse for a byte slice.
func ParseBytes(b []byte) ([]*File, error) { return Parse(bytes.NewReader(b)) }

type parser struct {
	sc     *bufio.Scanner
	line   string
	lineNo int
	peeked bool
}

func (p *parser) next() bool {
	if p.peeked {
		p.peeked = false
		return true
	}
	if !p.sc.Scan() {
		return false
	}
	p.line = p.sc.Text()
	p.lineNo++
	return true
}

func (p *parser) unread() { p.peeked = true }

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", p.lineNo, fmt.Sprintf(format, args...))
}

func (p *parser) parse() ([]*File, error) {
	var files []*File
	for p.next() {
		if !strings.HasPrefix(p.line, "diff --git ") {
			if p.line == "" && len(files) == 0 {
				continue
			}
			if strings.HasPrefix(p.line, "* Unmerged path ") {
				continue // a conflicted file during a merge: no diff to read
			}
			return nil, p.errorf("expected \"diff --git\", got %q", truncate(p.line))
		}
		f, err := p.file()
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if err := p.sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", p.lineNo+1, err)
	}
	return files, nil
}

// file parses one file starting at its "diff --git" line.
func (p *parser) file() (*File, error) {
	f := &File{Status: Modified}
	oldName, newName, err := headerNames(strings.TrimPrefix(p.line, "diff --git "))
	if err != nil {
		return nil, p.errorf("%v", err)
	}
	f.OldPath, f.NewPath = oldName, newName
	// Extended header lines.
	for p.next() {
		l := p.line
		switch {
		case strings.HasPrefix(l, "old mode "):
			f.OldMode = strings.TrimPrefix(l, "old mode ")
		case strings.HasPrefix(l, "new mode "):
			f.NewMode = strings.TrimPrefix(l, "new mode ")
		case strings.HasPrefix(l, "deleted file mode "):
			f.Status = Deleted
			f.OldMode = strings.TrimPrefix(l, "deleted file mode ")
		case strings.HasPrefix(l, "new file mode "):
			f.Status = Added
			f.NewMode = strings.TrimPrefix(l, "new file mode ")
		case strings.HasPrefix(l, "rename from "), strings.HasPrefix(l, "copy from "):
			s, _ := strings.CutPrefix(l, "rename from ")
			s, _ = strings.CutPrefix(s, "copy from ")
			if f.OldPath, err = unquote(s); err != nil {
				return nil, p.errorf("%v", err)
			}
			if strings.HasPrefix(l, "rename") {
				f.Status = Renamed
			} else {
				f.Status = Copied
			}
		case strings.HasPrefix(l, "rename to "), strings.HasPrefix(l, "copy to "):
			s, _ := strings.CutPrefix(l, "rename to ")
			s, _ = strings.CutPrefix(s, "copy to ")
			if f.NewPath, err = unquote(s); err != nil {
				return nil, p.errorf("%v", err)
			}
		case strings.HasPrefix(l, "similarity index "):
			f.Similarity, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(l, "similarity index "), "%"))
		case strings.HasPrefix(l, "dissimilarity index "):
			// A rewrite of a modified file (-B); nothing to record.
		case strings.HasPrefix(l, "index "):
			// "index abc..def 100644": the mode is unchanged and known.
			if fs := strings.Fields(l); len(fs) == 3 && f.OldMode == "" && f.NewMode == "" {
				f.OldMode, f.NewMode = fs[2], fs[2]
			}
		case strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ"):
			f.Binary = true
		case l == "GIT binary patch":
			f.Binary = true
			if err := p.skipBinaryPatch(); err != nil {
				return nil, err
			}
		case strings.HasPrefix(l, "--- "):
			if err := p.names(f); err != nil {
				return nil, err
			}
		case strings.HasPrefix(l, "@@ "):
			h, err := p.hunk()
			if err != nil {
				return nil, err
			}
			f.Hunks = append(f.Hunks, h)
		case strings.HasPrefix(l, "diff --git "):
			p.unread()
			return f.finish(), nil
		default:
			return nil, p.errorf("unexpected line in diff of %s: %q", f.Path(), truncate(l))
		}
	}
	return f.finish(), nil
}

func (f *File) finish() *File {
	switch f.Status {
	case Added:
		f.OldPath = ""
	case Deleted:
		f.NewPath = ""
	}
	return f
}

// names reads the ---/+++ pair; the current line is "--- ".
func (p *parser) names(f *File) error {
	oldName, err := patchName(strings.TrimPrefix(p.line, "--- "), "a/")
	if err != nil {
		return p.errorf("%v", err)
	}
	if !p.next() || !strings.HasPrefix(p.line, "+++ ") {
		return p.errorf("\"--- \" line not followed by \"+++ \"")
	}
	newName, err := patchName(strings.TrimPrefix(p.line, "+++ "), "b/")
	if err != nil {
		return p.errorf("%v", err)
	}
	// These names are unambiguous, unlike the "diff --git" line when a
	// path contains " b/"; prefer them.
	if oldName != "" {
		f.OldPath = oldName
	}
	if newName != "" {
		f.NewPath = newName
	}
	return nil
}

// hunk parses one hunk; the current line is its "@@ " header.
func (p *parser) hunk() (*Hunk, error) {
	h := &Hunk{}
	rest := strings.TrimPrefix(p.line, "@@ ")
	end := strings.Index(rest, " @@")
	if end < 0 {
		return nil, p.errorf("malformed hunk header %q", truncate(p.line))
	}
	ranges := strings.Fields(rest[:end])
	h.Section = strings.TrimSpace(rest[end+3:])
	if len(ranges) != 2 || !strings.HasPrefix(ranges[0], "-") || !strings.HasPrefix(ranges[1], "+") {
		return nil, p.errorf("malformed hunk header %q", truncate(p.line))
	}
	var err1, err2 error
	h.OldStart, h.OldLines, err1 = hunkRange(ranges[0][1:])
	h.NewStart, h.NewLines, err2 = hunkRange(ranges[1][1:])
	if err1 != nil || err2 != nil {
		return nil, p.errorf("malformed hunk header %q", truncate(p.line))
	}
	oldLeft, newLeft := h.OldLines, h.NewLines
	newLine := h.NewStart
	for oldLeft > 0 || newLeft > 0 {
		if !p.next() {
			return nil, p.errorf("hunk ends early: %d old and %d new lines missing", oldLeft, newLeft)
		}
		l := p.line
		if l == "" { // some tools strip the trailing space of an empty context line
			l = " "
		}
		switch l[0] {
		case ' ':
			oldLeft--
			newLeft--
			newLine++
		case '-':
			oldLeft--
			h.Removed++
		case '+':
			newLeft--
			if n := len(h.Added); n > 0 && h.Added[n-1].End == newLine-1 {
				h.Added[n-1].End = newLine
			} else {
				h.Added = append(h.Added, Range{newLine, newLine})
			}
			newLine++
		case '\\': // "\ No newline at end of file"
		default:
			return nil, p.errorf("unexpected line in hunk: %q", truncate(l))
		}
		if oldLeft < 0 || newLeft < 0 {
			return nil, p.errorf("hunk has more lines than its header %q says", h.header())
		}
	}
	// A trailing "\ No newline at end of file" belongs to the hunk.
	if p.next() && !strings.HasPrefix(p.line, `\`) {
		p.unread()
	}
	return h, nil
}

func (h *Hunk) header() string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
}

// hunkRange parses "start[,count]".
func hunkRange(s string) (start, count int, err error) {
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
	if start < 0 || count < 0 {
		return 0, 0, fmt.Errorf("negative range %q", s)
	}
	return start, count, nil
}

func (p *parser) skipBinaryPatch() error {
	// "literal N" / "delta N" blocks of base85 lines, each block ended by
	// an empty line; a forward and a reverse block.
	for p.next() {
		if strings.HasPrefix(p.line, "diff --git ") {
			p.unread()
			return nil
		}
	}
	return nil
}

// patchName parses the name on a ---/+++ line: /dev/null, or prefix+path,
// optionally C-quoted. A trailing tab (added by some tools before a
// timestamp) ends the name.
func patchName(s, prefix string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if !strings.HasPrefix(s, `"`) {
		if i := strings.IndexByte(s, '\t'); i >= 0 {
			s = s[:i]
		}
	}
	name, err := unquote(s)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(name, prefix) {
		return "", fmt.Errorf("file name %q lacks the %q prefix (is diff.noprefix or diff.mnemonicPrefix set?)", name, prefix)
	}
	return name[len(prefix):], nil
}

// headerNames splits the "a/X b/Y" of a "diff --git" line. Quoted names are
// unambiguous; unquoted ones with spaces are split the way git does: the
// names are equal unless the file was renamed, in which case the
// "rename from/to" lines give the real names.
func headerNames(s string) (oldName, newName string, err error) {
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s)
		if end < 0 {
			return "", "", fmt.Errorf("unterminated quoted name in %q", truncate(s))
		}
		if oldName, err = unquote(s[:end+1]); err != nil {
			return "", "", err
		}
		if newName, err = unquote(strings.TrimPrefix(s[end+1:], " ")); err != nil {
			return "", "", err
		}
	} else if i := strings.Index(s, ` "`); i >= 0 && strings.HasSuffix(s, `"`) {
		oldName = s[:i]
		if newName, err = unquote(s[i+1:]); err != nil {
			return "", "", err
		}
	} else {
		// Equal names: "a/N b/N", so the split is in the middle.
		if n := len(s); n%2 == 1 {
			half := (n - 1) / 2
			if s[half] == ' ' && strings.HasPrefix(s[half+1:], "b/") && s[2:half] == s[half+3:] {
				oldName, newName = s[:half], s[half+1:]
			}
		}
		if oldName == "" {
			// Renamed with spaces: any split will do, the extended
			// header corrects it.
			i := strings.Index(s, " b/")
			if i < 0 {
				return "", "", fmt.Errorf("cannot split file names in %q: no b/ prefix (is diff.noprefix or diff.mnemonicPrefix set?)", truncate(s))
			}
			oldName, newName = s[:i], s[i+1:]
		}
	}
	if !strings.HasPrefix(oldName, "a/") || !strings.HasPrefix(newName, "b/") {
		return "", "", fmt.Errorf("file names %q and %q lack the a/ and b/ prefixes (is diff.noprefix or diff.mnemonicPrefix set?)", oldName, newName)
	}
	return oldName[2:], newName[2:], nil
}

func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unquote undoes git's C-style quoting of unusual file names (core.quotePath):
// \a \b \t \n \v \f \r \" \\ and three-digit octal bytes.
func unquote(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	if len(s) < 2 || !strings.HasSuffix(s, `"`) {
		return "", fmt.Errorf("malformed quoted name %s", truncate(s))
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", fmt.Errorf("malformed quoted name %q", s)
		}
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(c)
		case '0', '1', '2', '3':
			if i+2 >= len(s) {
				return "", fmt.Errorf("malformed octal escape in quoted name %q", s)
			}
			v, err := strconv.ParseUint(s[i:i+3], 8, 8)
			if err != nil {
				return "", fmt.Errorf("malformed octal escape in quoted name %q", s)
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			return "", fmt.Errorf("unknown escape \\%c in quoted name %q", c, s)
		}
	}
	return b.String(), nil
}

func truncate(s string) string {
	const max = 120
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
