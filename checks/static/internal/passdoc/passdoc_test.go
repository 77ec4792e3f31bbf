package passdoc

import (
	"strings"
	"testing"
)

func TestMustExtract(t *testing.T) {
	src := "// Package p does things.\n//\n// # Analyzer p\n//\n// p reports x.\n//\n// # Examples\n//\n// y\npackage p\n"
	got := MustExtract(src, "p")
	if !strings.HasPrefix(got, "p reports x.") || !strings.Contains(got, "# Examples") {
		t.Errorf("MustExtract = %q, want the text after the heading", got)
	}
}

func TestMustExtractPanics(t *testing.T) {
	for name, src := range map[string]string{
		"no heading": "// Package p does things.\npackage p\n",
		"other name": "// # Analyzer q\n//\n// q.\npackage p\n",
		"no comment": "package p\n",
		"bad syntax": "// # Analyzer p\npackage\n",
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("MustExtract did not panic")
				}
			}()
			MustExtract(src, "p")
		})
	}
}
