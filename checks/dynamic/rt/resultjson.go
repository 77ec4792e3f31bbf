package rt

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Writing a Result as one line of JSON: its decisions by hand, the rest
// by encoding/json. A schedule of rill's stream tests makes 20,000
// decisions; encoding/json's reflection over them, and its buffer grown
// by doubling, took a sixth of such a test process's CPU under -race.

// decisionsNull is how encoding/json writes a nil Decisions field.
var decisionsNull = []byte(`,"decisions":null`)

// marshalResult returns r as encoding/json would write it (the same
// fields, decoded to the same Result).
func marshalResult(r Result) []byte {
	ds := r.Decisions
	r.Decisions = nil
	rest, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	// The field follows index, seed, outcome, message, site and
	// goroutines: its first occurrence is the top level's (a string value
	// holds its quotes escaped).
	i := bytes.Index(rest, decisionsNull)
	if i < 0 || ds == nil {
		return rest
	}
	out := make([]byte, 0, len(rest)+len(ds)*decisionSize)
	out = append(out, rest[:i]...)
	out = append(out, `,"decisions":`...)
	out = appendDecisions(out, ds)
	return append(out, rest[i+len(decisionsNull):]...)
}

// decisionSize is about what one decision takes in JSON.
const decisionSize = 64

// appendDecisions appends ds as a JSON array, each field as its tag says
// (omitempty ones left out when zero). Uninstrumented: with the race
// detector it took 13% longer (BenchmarkMarshalResult, 24 against 21 ms).
//
//go:norace
func appendDecisions(b []byte, ds []Decision) []byte {
	b = append(b, '[')
	for i := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		d := &ds[i]
		b = append(b, `{"g":`...)
		b = strconv.AppendInt(b, int64(d.G), 10)
		if d.Site != "" {
			b = append(b, `,"site":`...)
			b = appendJSONString(b, d.Site)
		}
		if d.Op != "" {
			b = append(b, `,"op":`...)
			b = appendJSONString(b, d.Op)
		}
		if d.Choice != nil {
			b = append(b, `,"choice":`...)
			b = strconv.AppendInt(b, int64(*d.Choice), 10)
		}
		if d.First != nil {
			b = append(b, `,"first":`...)
			b = strconv.AppendInt(b, int64(*d.First), 10)
		}
		if d.Partner != nil {
			b = append(b, `,"partner":`...)
			b = strconv.AppendInt(b, int64(*d.Partner), 10)
		}
		if d.Obj != 0 {
			b = append(b, `,"obj":`...)
			b = strconv.AppendInt(b, int64(d.Obj), 10)
		}
		if d.Early {
			b = append(b, `,"early":true`...)
		}
		if d.Clock != 0 {
			b = append(b, `,"clock":`...)
			b = strconv.AppendInt(b, d.Clock, 10)
		}
		if d.Paced != 0 {
			b = append(b, `,"paced":`...)
			b = strconv.AppendInt(b, d.Paced, 10)
		}
		if d.Done {
			b = append(b, `,"done":true`...)
		}
		if d.Solo {
			b = append(b, `,"solo":true`...)
		}
		if d.SoloRun != 0 {
			b = append(b, `,"soloRun":`...)
			b = strconv.AppendInt(b, int64(d.SoloRun), 10)
		}
		if d.NowOutside {
			b = append(b, `,"nowOutside":true`...)
		}
		if d.Path != "" {
			b = append(b, `,"path":`...)
			b = appendJSONString(b, d.Path)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSONString appends s quoted as encoding/json quotes it: '"' and
// '\\' escaped, control characters, '<', '>', '&', U+2028 and U+2029 as
// \u escapes (\n, \r, \t, \b, \f short), invalid UTF-8 as U+FFFD.
//
//go:norace
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
