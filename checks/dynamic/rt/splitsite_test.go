package rt

import "testing"

func TestSplitSite(t *testing.T) {
	for _, c := range []struct {
		in   string
		file string
		line int
		ok   bool
	}{
		{"file.go:12", "file.go", 12, true},
		{"dir/file.go:12:3", "dir/file.go", 12, true},
		{"C:/dir/file.go:7", "C:/dir/file.go", 7, true},
		{"file.go", "", 0, false},
		{"file.go:x", "", 0, false},
		{"file.go:0", "", 0, false},
		{"a:b:c", "", 0, false},
	} {
		file, line, ok := splitSite(c.in)
		if file != c.file || line != c.line || ok != c.ok {
			t.Errorf("splitSite(%q) = %q, %d, %v; want %q, %d, %v", c.in, file, line, ok, c.file, c.line, c.ok)
		}
	}
	if a := testing.AllocsPerRun(100, func() { splitSite("dir/file.go:12:3") }); a != 0 {
		t.Errorf("splitSite: %v allocations, want 0", a)
	}
}
