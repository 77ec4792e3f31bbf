package checks

import "testing"

// TestOwnFunc: a closure compiled into an inlined copy of its function is
// named as the closure of that function.
func TestOwnFunc(t *testing.T) {
	for in, want := range map[string]string{
		"go.uber.org/zap/zapcore.(*lazyWithCore).With.(*lazyWithCore).initOnce.func1":  "go.uber.org/zap/zapcore.(*lazyWithCore).initOnce.func1",
		"go.uber.org/zap/zapcore.(*lazyWithCore).Check.(*lazyWithCore).initOnce.func1": "go.uber.org/zap/zapcore.(*lazyWithCore).initOnce.func1",
		"go.uber.org/zap/zapcore.(*lazyWithCore).initOnce.func1":                       "go.uber.org/zap/zapcore.(*lazyWithCore).initOnce.func1",
		"m.F.helper.func1":                       "m.helper.func1",
		"m.TestX.func3.TestX.func2.1":            "m.TestX.func2.1",
		"m.TestA.func1.(*L).Warm.(*L).init.1":    "m.(*L).init.func1",
		"m.TestNames.V.M.func1":                  "m.M.func1",
		"m.V.M.func1":                            "m.M.func1",
		"m.F.func1.2":                            "m.F.func1.2",
		"m.G[go.shape.int].H.func1":              "m.H.func1",
		"m.(*T).function":                        "m.(*T).function",
		"m/func1.F":                              "m/func1.F",
		"m.NewReader.gowrap1":                    "m.NewReader.gowrap1",
		"gopkg.in/yaml%2ev3.(*d).g.(*d).f.func1": "gopkg.in/yaml%2ev3.(*d).f.func1", // the last element's dots escaped
	} {
		if got := OwnFunc(in); got != want {
			t.Errorf("OwnFunc(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFingerprintInlinedClosure: two findings of one closure that differ
// only by the caller its function was inlined into have one fingerprint;
// another closure, or a static finding's name, keeps its own.
func TestFingerprintInlinedClosure(t *testing.T) {
	at := func(ev Evidence, fn string) *Finding {
		return &Finding{Rule: "IL9005", Package: "go.uber.org/zap/zapcore", Evidence: ev, Kind: DataRace,
			Func: fn, Snippet: "s.Core = s.Core.With(s.fields)"}
	}
	with := at(Dynamic, "go.uber.org/zap/zapcore.(*lazyWithCore).With.(*lazyWithCore).initOnce.func1")
	check := at(Dynamic, "go.uber.org/zap/zapcore.(*lazyWithCore).Check.(*lazyWithCore).initOnce.func1")
	plain := at(Dynamic, "go.uber.org/zap/zapcore.(*lazyWithCore).initOnce.func1")
	if a, b, c := with.Fingerprint(), check.Fingerprint(), plain.Fingerprint(); a != b || b != c {
		t.Errorf("one closure inlined into With, into Check and not inlined: fingerprints %s, %s, %s, want one", a, b, c)
	}
	if other := at(Dynamic, "go.uber.org/zap/zapcore.(*lazyWithCore).initOnce.func2"); other.Fingerprint() == with.Fingerprint() {
		t.Errorf("another closure (func2) has the fingerprint of func1's")
	}
	// A static pass names functions from the source, where nothing is
	// inlined: its name is hashed as it is.
	if s1, s2 := at(Static, "pkg.T.M.func1"), at(Static, "pkg.M.func1"); s1.Fingerprint() == s2.Fingerprint() {
		t.Errorf("static findings in T.M.func1 and M.func1 share a fingerprint")
	}
}
