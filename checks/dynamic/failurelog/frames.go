// Reading the frames of a Go traceback: the one parser, for the logs and for explore.

package failurelog

import (
	"strconv"
	"strings"

	"github.com/interleave-dev/interleave/checks"
)

// Frames reads every frame of a traceback text, innermost first: each
// function line followed by its indented "file.go:line" line, as printed
// by the Go runtime ("\t/a/b.go:12 +0x1d") and by the race detector
// ("      /a/b.go:12 +0x1d"). Frames of "created by" lines are skipped:
// they are where a goroutine was born, not where it was.
func Frames(text string) []checks.Frame {
	return frames(strings.Split(text, "\n"))
}

// frames is Frames of the lines of a traceback.
func frames(block []string) []checks.Frame {
	var out []checks.Frame
	for k := 1; k < len(block); k++ {
		m := fileLineRE.FindStringSubmatch(block[k])
		if m == nil {
			continue
		}
		fn := strings.TrimSpace(block[k-1])
		if fn == "" || fileLineRE.MatchString(block[k-1]) || strings.HasPrefix(fn, "created by ") {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		out = append(out, checks.Frame{Func: elideTypeArgs(trimArgs(fn)), File: m[1], Line: line})
	}
	return out
}

// trimArgs removes the argument list from "pkg.f(0x1, ...)" and "pkg.f()".
func trimArgs(fn string) string {
	if i := strings.LastIndex(fn, "("); i > 0 && strings.HasSuffix(fn, ")") {
		return fn[:i]
	}
	return fn
}

// elideTypeArgs writes the type arguments of a generic function's name as
// a traceback does, "[...]": the race detector prints them whole
// ("m/interleavert.MapIter[go.shape.map[string]m/p.item,…]"), and their
// package paths' slashes and dots would be taken for the function's.
func elideTypeArgs(fn string) string {
	i := strings.IndexByte(fn, '[')
	if i < 0 || strings.HasPrefix(fn[i:], "[...]") && !strings.Contains(fn[i+5:], "[") {
		return fn
	}
	var b strings.Builder
	depth := 0
	for _, r := range fn {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[...]")
			}
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// baseSite is "file.go:line" of a frame, with the file's base name.
func baseSite(f checks.Frame) string {
	file := f.File
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	return file + ":" + strconv.Itoa(f.Line)
}
