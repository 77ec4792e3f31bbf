package lockorder

import (
	"fmt"
	"strings"

	"github.com/interleave-dev/interleave/checks/static/lockpair"
)

// classAcq is a lock class a function may acquire.
type classAcq struct {
	Class string
	Name  string // as written at the acquisition
	Mode  lockpair.Mode
	Where string   // file:line of the acquisition
	Chain []string // functions called to reach it, outermost first
}

// acquiresFact lists the lock classes an exported function may acquire,
// directly or through calls, so a caller holding another lock forms a pair;
// and the func-typed parameters it calls while holding a lock, so a caller
// passing a callback pairs those locks with the callback's.
type acquiresFact struct {
	Acquires    []classAcq
	CallsParams []paramCall
}

// paramCall is a call of parameter Param (receiver first) made while
// holding lock class Held.
type paramCall struct {
	Param    int
	Held     string
	HeldName string
	HeldMode lockpair.Mode
	Where    string // file:line of the call
}

// AFact implements analysis.Fact.AFact.
func (*acquiresFact) AFact() {}

func (f *acquiresFact) String() string {
	var cs []string
	for _, a := range f.Acquires {
		cs = append(cs, display(a.Class)+via(a.Chain))
	}
	out := ""
	if len(cs) > 0 {
		out = "acquires " + strings.Join(cs, ", ")
	}
	for _, p := range f.CallsParams {
		if out != "" {
			out += "; "
		}
		out += fmt.Sprintf("calls parameter %d holding %s", p.Param, display(p.Held))
	}
	return out
}

// orderFact is a package's observed "acquire B while holding A" pairs.
type orderFact struct {
	Edges []edge
}

// AFact implements analysis.Fact.AFact.
func (*orderFact) AFact() {}

func (f *orderFact) String() string {
	var ps []string
	for _, e := range f.Edges {
		ps = append(ps, fmt.Sprintf("%s -> %s", display(e.Held), display(e.Acq)))
	}
	return "order " + strings.Join(ps, ", ")
}
