// The repository's config file, .interleave.yaml: parsing, its JSON Schema, positions in messages.

package prjob

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v4"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// FileName is the config file at the module root.
const FileName = ".interleave.yaml"

// MaxFileSize bounds the config file, which the App reads on its host.
const MaxFileSize = 64 << 10

// SchemaJSON is the JSON Schema of the config file; docs/interleave.schema.json
// is a copy (a test keeps them equal).
//
//go:embed interleave.schema.json
var SchemaJSON []byte

// Ignore is a known failure kept out of the report: a finding matches when
// it matches every field given.
type Ignore struct {
	Rule   string // rule ID (a slug is resolved to its ID)
	Test   string
	Path   string // file or directory relative to the module root, slash-separated
	Reason string
	Where  string // file:line of the entry
}

// File is a parsed and valid config file.
type File struct {
	Name      string // as messages name it
	Exclude   []string
	Enable    []string
	Disable   []string
	Budget    *time.Duration
	GenBudget string // "" when not set
	MaxSteps  *int
	Run, Skip string
	Tags      []string
	Ignore    []Ignore
	// Lines holds the line of each setting the file sets (FileSettings).
	Lines map[string]int
}

// FileSettings are the settings a config file may set, in the order
// interleave config prints them; a dot separates nested keys.
var FileSettings = []string{"exclude", "rules.enable", "rules.disable", "budget", "gen-budget", "max-steps", "tests.run", "tests.skip", "tags", "ignore"}

// maxStepsWant is what a bad max-steps is told.
const maxStepsWant = "want a positive number of scheduling steps, such as 500000"

// SettingFlag is the flag of interleave pr that sets a setting ("" for
// ignore, which only the file sets).
func SettingFlag(setting string) string {
	switch setting {
	case "rules.enable":
		return "enable"
	case "rules.disable":
		return "disable"
	case "tests.run":
		return "run"
	case "tests.skip":
		return "skip"
	case "ignore":
		return ""
	}
	return setting
}

var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(SchemaJSON)))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("interleave.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("interleave.schema.json")
})

// ParseFile parses and validates a config file's data; name is how
// messages call it. Every problem carries name:line:column.
func ParseFile(name string, data []byte) (*File, error) {
	f := &File{Name: name, Lines: map[string]int{}}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a config file may have", name, len(data), MaxFileSize)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return f, nil // empty file
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return f, nil // only comments
	}
	nodes := map[string]*yaml.Node{}
	v, err := yamlValue(name, root, "", nodes)
	if err != nil {
		return nil, err
	}
	sch, err := compiledSchema()
	if err != nil {
		return nil, fmt.Errorf("the embedded schema: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return nil, schemaErrors(name, ve, nodes, sch)
	}
	if err := f.decode(root, nodes); err != nil {
		return nil, err
	}
	return f, nil
}

// yamlValue converts a node to the JSON value the schema validates,
// recording each value's node by JSON pointer.
func yamlValue(name string, n *yaml.Node, ptr string, nodes map[string]*yaml.Node) (any, error) {
	at := func(n *yaml.Node, format string, a ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", name, n.Line, n.Column, fmt.Sprintf(format, a...))
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		// Aliases can make a small file expand without bound.
		return nil, at(n, "YAML anchors and aliases are not supported here: write the value out")
	}
	nodes[ptr] = n
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return nil, at(k, "a key must be a plain name")
			}
			if _, dup := m[k.Value]; dup {
				return nil, at(k, "key %q given twice", k.Value)
			}
			nodes[ptr+"/"+k.Value+"#key"] = k
			x, err := yamlValue(name, val, ptr+"/"+k.Value, nodes)
			if err != nil {
				return nil, err
			}
			m[k.Value] = x
		}
		return m, nil
	case yaml.SequenceNode:
		s := []any{}
		for i, e := range n.Content {
			x, err := yamlValue(name, e, ptr+"/"+strconv.Itoa(i), nodes)
			if err != nil {
				return nil, err
			}
			s = append(s, x)
		}
		return s, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, at(n, "%v", err)
			}
			return b, nil
		case "!!int", "!!float":
			var x float64
			if err := n.Decode(&x); err != nil {
				return nil, at(n, "%v", err)
			}
			return x, nil
		}
		return n.Value, nil
	}
	return nil, at(n, "unexpected YAML node")
}

// schemaErrors turns the schema's verdict into one line per bad value,
// at the value's (or the unknown key's) line and column, in file order.
func schemaErrors(name string, ve *jsonschema.ValidationError, nodes map[string]*yaml.Node, sch *jsonschema.Schema) error {
	type problem struct {
		line, col int
		msg       string
	}
	byPtr := map[string]problem{}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				leaves(c)
			}
			return
		}
		ptr := ""
		for _, tok := range e.InstanceLocation {
			ptr += "/" + tok
		}
		where := strings.TrimPrefix(strings.ReplaceAll(ptr, "/", "."), ".")
		n := nodes[ptr]
		if n == nil {
			n = &yaml.Node{}
		}
		var p problem
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, prop := range k.Properties {
				key := nodes[ptr+"/"+prop+"#key"]
				if key == nil {
					key = n
				}
				msg := fmt.Sprintf("unknown key %q", prop)
				if where != "" {
					msg += " in " + where
				}
				if valid := schemaKeys(sch, e.InstanceLocation); len(valid) > 0 {
					msg += ": valid keys are " + strings.Join(valid, ", ")
				}
				byPtr[ptr+"/"+prop+"#key"] = problem{key.Line, key.Column, msg}
			}
			return
		case *kind.Type:
			if l := e.InstanceLocation; len(l) == 1 && (l[0] == "budget" || l[0] == "gen-budget") {
				return // the duration's own message says it
			}
			if l := e.InstanceLocation; len(l) == 1 && l[0] == "max-steps" {
				p = problem{n.Line, n.Column, "max-steps: " + maxStepsWant}
				break
			}
			p = problem{n.Line, n.Column, fmt.Sprintf("want %s, got %s", strings.Join(k.Want, " or "), k.Got)}
			if where != "" {
				p.msg = where + ": " + p.msg
			}
		default:
			msg := strings.TrimPrefix((&jsonschema.ValidationError{ErrorKind: k}).Error(), "at '': ")
			switch last := e.InstanceLocation; {
			case len(last) > 0 && (last[len(last)-1] == "budget" || last[len(last)-1] == "gen-budget"):
				msg = "want a duration such as 5m, 90s or 0"
				if last[len(last)-1] == "gen-budget" {
					msg = "want auto, 0 or a duration such as 1m"
				}
			case len(last) == 1 && last[0] == "max-steps":
				msg = maxStepsWant
			case slices.Contains(last, "exclude"):
				msg = "want a package pattern relative to the module root: ., ./dir or ./dir/..."
			case len(last) > 0 && slices.Contains(last, "ignore") && len(last) == 2:
				if _, ok := k.(*kind.MinProperties); ok {
					msg = "an ignore entry needs a reason and at least one of rule, test or path"
				}
				if r, ok := k.(*kind.Required); ok {
					msg = "missing " + strings.Join(r.Missing, ", ") + ": every ignore entry says why"
				}
			}
			p = problem{n.Line, n.Column, where + ": " + msg}
			if where == "" {
				p.msg = msg
			}
		}
		if old, ok := byPtr[ptr]; ok {
			if strings.Contains(old.msg, p.msg) {
				return
			}
			if _, req := e.ErrorKind.(*kind.Required); !req {
				p.msg = old.msg + "; " + strings.TrimPrefix(p.msg, where+": ")
			} else {
				p.msg += "; " + strings.TrimPrefix(old.msg, where+": ")
			}
		}
		byPtr[ptr] = p
	}
	leaves(ve)
	ps := make([]problem, 0, len(byPtr))
	for _, p := range byPtr {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].line != ps[j].line {
			return ps[i].line < ps[j].line
		}
		if ps[i].col != ps[j].col {
			return ps[i].col < ps[j].col
		}
		return ps[i].msg < ps[j].msg
	})
	var lines []string
	for _, p := range ps {
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", name, p.line, p.col, p.msg))
	}
	return errors.New(strings.Join(lines, "\n"))
}

// schemaKeys lists the keys the schema allows in the object at loc.
func schemaKeys(sch *jsonschema.Schema, loc []string) []string {
	for _, tok := range loc {
		switch {
		case sch.Properties[tok] != nil:
			sch = sch.Properties[tok]
		case sch.Items2020 != nil:
			sch = sch.Items2020
		default:
			return nil
		}
		for sch.Ref != nil {
			sch = sch.Ref
		}
	}
	var keys []string
	for k := range sch.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decode fills f from a document the schema accepted and checks what the
// schema cannot: rule names, patterns, regular expressions.
func (f *File) decode(root *yaml.Node, nodes map[string]*yaml.Node) error {
	var errs []error
	at := func(n *yaml.Node, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s:%d:%d: %s", f.Name, n.Line, n.Column, fmt.Sprintf(format, a...)))
	}
	strs := func(ptr string) []string {
		n := nodes[ptr]
		if n == nil {
			return nil
		}
		var out []string
		for _, e := range n.Content {
			out = append(out, e.Value)
		}
		return out
	}
	set := func(setting string) *yaml.Node {
		ptr := "/" + strings.ReplaceAll(setting, ".", "/")
		n := nodes[ptr]
		if n != nil && !(n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
			f.Lines[setting] = nodes[ptr+"#key"].Line
			return n
		}
		return nil
	}
	if n := set("exclude"); n != nil {
		for i, p := range strs("/exclude") {
			if err := CheckPattern(p); err != nil {
				at(n.Content[i], "exclude: %v", err)
			}
			if p == "./..." {
				at(n.Content[i], "exclude: ./... leaves out every package; set budget: 0 and rules: {disable: [all]} to turn interleave off")
			}
			f.Exclude = append(f.Exclude, p)
		}
	}
	rules := func(setting string) []string {
		n := set(setting)
		if n == nil {
			return nil
		}
		var out []string
		for _, e := range n.Content {
			if e.Value != "all" && !StaticRule(e.Value) {
				at(e, "%s: %s", setting, unknownStaticRule(e.Value))
				continue
			}
			out = append(out, e.Value)
		}
		return out
	}
	f.Enable, f.Disable = rules("rules.enable"), rules("rules.disable")
	if n := set("budget"); n != nil {
		d, err := time.ParseDuration(n.Value)
		if err != nil {
			at(n, "budget: want a duration such as 5m, 90s or 0")
		}
		f.Budget = &d
	}
	if n := set("gen-budget"); n != nil {
		if _, _, err := ParseGenBudget(n.Value); err != nil {
			at(n, "gen-budget: %v", err)
		}
		f.GenBudget = n.Value
	}
	if n := set("max-steps"); n != nil {
		v, err := strconv.Atoi(n.Value)
		if err != nil || v < 1 {
			at(n, "max-steps: "+maxStepsWant)
		}
		f.MaxSteps = &v
	}
	for _, s := range []struct {
		setting string
		dst     *string
	}{{"tests.run", &f.Run}, {"tests.skip", &f.Skip}} {
		if n := set(s.setting); n != nil {
			if _, err := rt.ParseRun(n.Value); err != nil {
				at(n, "%s: %v", s.setting, err)
			}
			*s.dst = n.Value
		}
	}
	if set("tags") != nil {
		f.Tags = strs("/tags")
	}
	if n := set("ignore"); n != nil {
		for i, e := range n.Content {
			ptr := "/ignore/" + strconv.Itoa(i)
			field := func(k string) string {
				if v := nodes[ptr+"/"+k]; v != nil {
					return v.Value
				}
				return ""
			}
			ig := Ignore{Rule: field("rule"), Test: field("test"), Path: strings.TrimSuffix(strings.TrimPrefix(field("path"), "./"), "/"),
				Reason: strings.TrimSpace(field("reason")), Where: fmt.Sprintf("%s:%d", f.Name, e.Line)}
			if ig.Rule != "" {
				r, ok := checks.LookupRule(ig.Rule)
				if !ok {
					at(nodes[ptr+"/rule"], "ignore: unknown rule %q (docs/rules.md lists them)", ig.Rule)
				}
				ig.Rule = r.ID
			}
			if ig.Reason == "" {
				at(e, "ignore: the reason is empty: every ignore entry says why")
			}
			if ig.Path != "" && (strings.HasPrefix(ig.Path, "/") || slices.Contains(strings.Split(ig.Path, "/"), "..")) {
				at(nodes[ptr+"/path"], "ignore: path %q must be relative to the module root and stay inside it", ig.Path)
			}
			f.Ignore = append(f.Ignore, ig)
		}
	}
	return errors.Join(errs...)
}

// StaticRule reports whether name is a static rule that -enable and
// -disable take (an ID or a slug).
func StaticRule(name string) bool {
	r, ok := checks.LookupRule(name)
	return ok && !r.Removed && !dynamicRule(r.ID)
}

// dynamicRule reports whether id is a rule of the dynamic search, which
// cannot be switched off by rule.
func dynamicRule(id string) bool {
	for _, k := range checks.FailureKinds {
		if checks.DynamicRuleID(k) == id {
			return true
		}
	}
	return false
}

// unknownStaticRule is the message for a name that is no static rule.
func unknownStaticRule(name string) string {
	var ids []string
	for _, r := range checks.Rules() {
		if !r.Removed && !dynamicRule(r.ID) {
			ids = append(ids, r.ID)
		}
	}
	return fmt.Sprintf("unknown static rule %q: valid values are all, %s (or their slugs)", name, strings.Join(ids, ", "))
}
