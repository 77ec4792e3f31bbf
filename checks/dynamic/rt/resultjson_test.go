package rt

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// manyDecisions is a schedule's worth of decisions with every field set
// somewhere, and strings JSON must escape; invalid UTF-8 too if invalid.
func manyDecisions(n int, invalid bool) []Decision {
	ds := make([]Decision, n)
	for i := range ds {
		d := Decision{G: i % 7, Site: "helpers.go:31", Op: "chan send", Obj: i % 5}
		switch i % 9 {
		case 1:
			c := i % 3
			d.Choice = &c
			if c > 0 {
				f := c - 1
				d.First = &f
			}
		case 2:
			p := 0
			d.Partner = &p
		case 3:
			d.Early, d.Clock = true, int64(i)*1000
		case 4:
			d.Done, d.Clock, d.Paced, d.Solo, d.SoloRun, d.NowOutside = true, -5, int64(i)*700, true, int32(i%250+1), true
		case 5:
			d.Path = `a.go:1 b.go:2 "quoted" back\slash <html> & é tab	end`
		case 6:
			d.Site, d.Op = "", ""
		case 7:
			d.Op = "select\n\x00\u2028\u2029\b\f\r\x1f ok"
		case 8:
			if invalid {
				d.Site = "bad\xff\xe2\x80utf8.go:1"
			}
		}
		ds[i] = d
	}
	return ds
}

// manyDecisions sets every field of Decision somewhere, so that a field
// the hand-written encoder forgets fails TestMarshalResultDecodesTheSame.
func TestManyDecisionsSetsEveryField(t *testing.T) {
	ds := manyDecisions(200, true)
	typ := reflect.TypeFor[Decision]()
	for i := range typ.NumField() {
		set := false
		for _, d := range ds {
			if !reflect.ValueOf(d).Field(i).IsZero() {
				set = true
				break
			}
		}
		if !set {
			t.Errorf("manyDecisions never sets Decision.%s: the encoder's handling of it goes untested", typ.Field(i).Name)
		}
	}
}

// A result line decodes as encoding/json's does, with decisions or
// without (nil: "decisions":null, as before), and is its line byte for
// byte where the strings are valid UTF-8 (Go 1.27's encoding/json writes
// an invalid byte as U+FFFD itself, not as the escape 1.26 writes).
func TestMarshalResultDecodesTheSame(t *testing.T) {
	base := Result{
		Index: 3, Seed: 7, Outcome: "deadlock", Message: `msg with ,"decisions":null inside`, Site: "x.go:1",
		Goroutines: []GoroutineState{{ID: 1, Op: "chan receive", Site: "y.go:2", Stack: `"decisions":null`}},
		Steps:      12, Elapsed: time.Second, Inconclusive: "step bound: x", ClockBase: time.Unix(5, 6).UTC(),
		TargetHits: map[string]int{"a.go:1": 2}, Choices: 4,
	}
	for _, ds := range [][]Decision{nil, {}, manyDecisions(200, false), manyDecisions(200, true)} {
		r := base
		r.Decisions = ds
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got := marshalResult(r)
		if string(got) != string(want) && !bytes.Contains(want, []byte("utf8.go")) {
			t.Errorf("%d decisions: not encoding/json's line:\n got %s\nwant %s", len(ds), got, want)
		}
		var a, b Result
		if err := json.Unmarshal(want, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &b); err != nil {
			t.Fatalf("%v: %s", err, got)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%d decisions: decoded differently:\n got %s\nwant %s", len(ds), got, want)
		}
	}
}

// BenchmarkMarshalResult writes a result of 20,000 decisions (go test
// -bench MarshalResult -benchmem); BenchmarkMarshalResultEncodingJSON
// the same with encoding/json, as before.
func BenchmarkMarshalResult(b *testing.B) {
	r := Result{Outcome: "pass", Steps: 20000, Decisions: manyDecisions(20000, false)}
	b.ReportAllocs()
	for b.Loop() {
		marshalResult(r)
	}
}

func BenchmarkMarshalResultEncodingJSON(b *testing.B) {
	r := Result{Outcome: "pass", Steps: 20000, Decisions: manyDecisions(20000, false)}
	b.ReportAllocs()
	for b.Loop() {
		json.Marshal(r)
	}
}
