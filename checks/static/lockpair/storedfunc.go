package lockpair

// Releases through a helper object that keeps an unlock closure in a
// field: unlock := NewCleanup(func() { mu.Unlock() }); …; unlock.Run().

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// storedRel is a lock a stored closure releases: on every path (must)
// or on some.
type storedRel struct {
	r    lockRef
	mode Mode
	must bool
}

// storedReleases returns the locks that callee, a method calling a
// func-valued field of its receiver (c.f()), may release at call c: those
// the function literals stored in that field of the receiver release. The
// receiver is a value built here (&Cleanup{f: func(){…}}) or returned by a
// constructor storing its func parameter in the field. The method may
// skip the call (if !c.canceled), so a caller applies a release only to a
// lock it holds.
func (w *walker) storedReleases(c *ssa.CallCommon, callee *ssa.Function) []storedRel {
	if callee.Signature.Recv() == nil || len(c.Args) == 0 || len(callee.Params) == 0 {
		return nil
	}
	fields, seen := w.pc.fieldCall[callee]
	if !seen {
		fields = calledFields(callee)
		if w.pc.fieldCall == nil {
			w.pc.fieldCall = map[*ssa.Function]map[int]bool{}
		}
		w.pc.fieldCall[callee] = fields
	}
	if len(fields) == 0 {
		return nil
	}
	var out []storedRel
	for _, mc := range storedClosures(c.Args[0], fields) {
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok {
			continue
		}
		sum, known := w.pc.summaryOf(fn)
		if !known || sum == nil {
			continue
		}
		direct := &ssa.CallCommon{Value: mc}
		must := map[string]bool{}
		for _, a := range sum.releases {
			if r, ok := w.resolve(a, direct); ok {
				out = append(out, storedRel{r, a.Mode, true})
				must[r.key] = true
			}
		}
		for _, a := range sum.mayRelease {
			if r, ok := w.resolve(a, direct); ok && !must[r.key] {
				out = append(out, storedRel{r, a.Mode, false})
			}
		}
	}
	return out
}

// calledFields returns the indices of the func-valued fields of fn's
// receiver that fn calls (c.f()).
func calledFields(fn *ssa.Function) map[int]bool {
	recv := fn.Params[0]
	var out map[int]bool
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(ssa.CallInstruction)
			if !ok || call.Common().IsInvoke() {
				continue
			}
			load, ok := call.Common().Value.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			fa, ok := load.X.(*ssa.FieldAddr)
			if !ok || fa.X != recv {
				continue
			}
			if out == nil {
				out = map[int]bool{}
			}
			out[fa.Field] = true
		}
	}
	return out
}

// storedClosures returns the function literals stored in the given
// fields of the object v points to: v allocated in this function and its
// fields set here, or v the result of a call whose callee stores a func
// parameter in one of the fields (return &Cleanup{f: f}), the argument
// then being a literal.
func storedClosures(v ssa.Value, fields map[int]bool) []*ssa.MakeClosure {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		// A helper captured by a closure lives in a cell.
		if al, ok := u.X.(*ssa.Alloc); ok {
			if sv := onlyStored(al); sv != nil {
				v = sv
			}
		}
	}
	var out []*ssa.MakeClosure
	switch v := v.(type) {
	case *ssa.Alloc:
		for _, val := range fieldStores(v, fields) {
			if mc, ok := val.(*ssa.MakeClosure); ok {
				out = append(out, mc)
			}
		}
	case *ssa.Call:
		callee := v.Common().StaticCallee()
		if callee == nil || v.Common().IsInvoke() {
			return nil
		}
		for _, b := range callee.Blocks {
			for _, in := range b.Instrs {
				ret, ok := in.(*ssa.Return)
				if !ok || len(ret.Results) != 1 {
					continue
				}
				al, ok := ret.Results[0].(*ssa.Alloc)
				if !ok {
					continue
				}
				for _, val := range fieldStores(al, fields) {
					p, ok := val.(*ssa.Parameter)
					if !ok {
						continue
					}
					for i, q := range callee.Params {
						if q != p || i >= len(v.Common().Args) {
							continue
						}
						if mc, ok := v.Common().Args[i].(*ssa.MakeClosure); ok {
							out = append(out, mc)
						}
					}
				}
			}
		}
	}
	return out
}

// fieldStores returns the values stored in the given fields of al.
func fieldStores(al *ssa.Alloc, fields map[int]bool) []ssa.Value {
	var out []ssa.Value
	for _, r := range *al.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != al || !fields[fa.Field] {
			continue
		}
		for _, fr := range *fa.Referrers() {
			if st, ok := fr.(*ssa.Store); ok && st.Addr == fa {
				out = append(out, st.Val)
			}
		}
	}
	return out
}
