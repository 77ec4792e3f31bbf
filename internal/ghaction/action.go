package ghaction

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Action is the part of an action.yml (a composite action) the tests read.
type Action struct {
	Name    string
	Inputs  []ActionInput // in the file's order
	Outputs map[string]string
	Using   string
	Steps   []ActionStep
}

// ActionInput is one input; Default is its default as written.
type ActionInput struct {
	Name, Description, Default string
	Required                   bool
}

// ActionStep is one step of a composite action.
type ActionStep struct {
	ID, Name, If, Uses, Shell, Run string
	With                           map[string]string
	Env                            map[string]string
}

// Input returns the input called name.
func (a *Action) Input(name string) (ActionInput, bool) {
	for _, in := range a.Inputs {
		if in.Name == name {
			return in, true
		}
	}
	return ActionInput{}, false
}

// Step returns the step whose id is id.
func (a *Action) Step(id string) (ActionStep, bool) {
	for _, s := range a.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return ActionStep{}, false
}

// ReadAction parses an action.yml file.
func ReadAction(name string) (*Action, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	a, err := ParseAction(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return a, nil
}

// ParseAction parses the text of an action.yml.
func ParseAction(b []byte) (*Action, error) {
	var raw struct {
		Name    string    `yaml:"name"`
		Inputs  yaml.Node `yaml:"inputs"`
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID    string            `yaml:"id"`
				Name  string            `yaml:"name"`
				If    string            `yaml:"if"`
				Uses  string            `yaml:"uses"`
				Shell string            `yaml:"shell"`
				Run   string            `yaml:"run"`
				With  map[string]string `yaml:"with"`
				Env   map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	a := &Action{Name: raw.Name, Outputs: map[string]string{}, Using: raw.Runs.Using}
	if raw.Inputs.Kind != 0 {
		if raw.Inputs.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("inputs is not a mapping")
		}
		c := raw.Inputs.Content
		for i := 0; i+1 < len(c); i += 2 {
			var in struct {
				Description string `yaml:"description"`
				Default     string `yaml:"default"`
				Required    bool   `yaml:"required"`
			}
			if err := c[i+1].Decode(&in); err != nil {
				return nil, fmt.Errorf("input %s: %w", c[i].Value, err)
			}
			a.Inputs = append(a.Inputs, ActionInput{Name: c[i].Value, Description: in.Description, Default: in.Default, Required: in.Required})
		}
	}
	for k, v := range raw.Outputs {
		a.Outputs[k] = v.Value
	}
	for _, s := range raw.Runs.Steps {
		a.Steps = append(a.Steps, ActionStep{ID: s.ID, Name: s.Name, If: s.If, Uses: s.Uses, Shell: s.Shell, Run: s.Run, With: s.With, Env: s.Env})
	}
	return a, nil
}

// Expression matches a ${{ }} expression.
var Expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// pinned matches a uses: reference pinned to a full commit SHA.
var pinned = regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$`)

// PinnedBySHA reports whether uses names a local action ("./…") or a
// remote one at a full commit SHA.
func PinnedBySHA(uses string) bool {
	return strings.HasPrefix(uses, "./") || pinned.MatchString(uses)
}
