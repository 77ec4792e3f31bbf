package lockset

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Kind classifies an access to a field or package-level variable.
type Kind uint8

// Access kinds.
const (
	Read      Kind = iota // load of the value
	Write                 // store: x.f = v, x.f++, x.f = append(x.f, v)
	MapWrite              // map assignment, delete or clear through the loaded map
	ElemWrite             // element store into a slice or array held in the location
	PtrWrite              // store through a pointer loaded from the location
	Atomic                // address passed to sync/atomic
	Ref                   // address taken for another use (pointer-receiver method call, argument): effect unknown
)

// IsWrite reports whether k modifies the location or memory it refers to.
func (k Kind) IsWrite() bool { return k >= Write && k <= PtrWrite }

func (k Kind) String() string {
	switch k {
	case Read:
		return "read"
	case Write, ElemWrite, PtrWrite:
		return "written"
	case MapWrite:
		return "map written"
	case Atomic:
		return "atomic"
	}
	return "referenced"
}

// Access is one access to a struct field or a package-level variable.
type Access struct {
	// Instr performs the access; the lock state that matters is the one
	// before it (Result.Before).
	Instr ssa.Instruction
	// Pos is the field selector, or the instruction for a variable.
	Pos  token.Pos
	Kind Kind
	// Field is the field accessed, nil for a package-level variable.
	Field *types.Var
	// Base is the path of the struct value whose field is accessed.
	Base Path
	// Struct is the struct type whose field is accessed (nil for a
	// variable).
	Struct *types.Struct
	// Global is the package-level variable accessed when Field is nil.
	Global *ssa.Global
	// Sub is the path of fields below Field that the access goes
	// through (".collection" for it.op.collection), empty when it
	// reads or writes Field as a whole; the access touches only that
	// part of the field.
	Sub string
	// Target is, for ElemWrite, MapWrite and PtrWrite, the path of the
	// object written through (the pointee); a lock under Target held
	// exclusively means the written object has a lock of its own.
	Target Path
}

// Loc returns the path of the accessed location.
func (a Access) Loc() Path {
	if a.Field == nil {
		return Path{Root: a.Global}
	}
	return a.Base.Child(a.Field.Name())
}

// Accesses returns the field and package-level variable accesses in r.Fn
// and the literals inlined into it, in instruction order.
func (r *Result) Accesses() []Access {
	var out []Access
	var ops []*ssa.Value // operand buffer, reused: one per instruction adds up on large packages
	for _, fn := range r.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch i := instr.(type) {
				case *ssa.FieldAddr:
					f := FieldOf(i)
					if f == nil {
						continue
					}
					st, _ := structOf(i.X.Type())
					proto := Access{Pos: i.Pos(), Field: f, Base: r.Path(i.X), Struct: st}
					r.addrUses(i, proto, Write, 0, &out)
				case *ssa.Field:
					f := FieldOf(i)
					if f == nil {
						continue
					}
					st, _ := structOf(i.X.Type())
					out = append(out, Access{Instr: i, Pos: i.Pos(), Kind: Read, Field: f, Base: r.Path(i.X), Struct: st})
				}
				ops = r.globalUses(instr, ops, &out)
			}
		}
	}
	return out
}

// globalUses records the direct uses of same-package variables by instr.
// ops is a buffer for instr's operands; globalUses returns it for reuse.
func (r *Result) globalUses(instr ssa.Instruction, ops []*ssa.Value, out *[]Access) []*ssa.Value {
	ops = instr.Operands(ops[:0])
	for _, op := range ops {
		g, ok := (*op).(*ssa.Global)
		if !ok || g.Pkg == nil || r.Fn.Pkg == nil || g.Pkg != r.Fn.Pkg || IsSyncType(g.Type().(*types.Pointer).Elem()) {
			continue
		}
		proto := Access{Pos: instr.Pos(), Global: g}
		switch i := instr.(type) {
		case *ssa.Store:
			if i.Addr == g {
				r.emit(out, proto, i, Write, Path{Root: g})
			}
		case *ssa.UnOp:
			if i.Op == token.MUL {
				r.emit(out, proto, i, Read, Path{})
				r.loaded(i, proto, 0, out)
			}
		case *ssa.IndexAddr:
			r.addrUses(i, proto, ElemWrite, 1, out)
		case *ssa.Call:
			if IsAtomicCall(&i.Call) {
				r.emit(out, proto, i, Atomic, Path{})
			}
		}
	}
	return ops
}

func (r *Result) emit(out *[]Access, proto Access, instr ssa.Instruction, k Kind, target Path) {
	a := proto
	a.Instr = instr
	a.Kind = k
	a.Target = target
	if a.Pos == token.NoPos {
		a.Pos = instr.Pos()
	}
	*out = append(*out, a)
}

// addrUses classifies the uses of addr, the address of (part of) the
// location described by proto. A store to addr is reported as kind w.
func (r *Result) addrUses(addr ssa.Value, proto Access, w Kind, depth int, out *[]Access) {
	refs := addr.Referrers()
	if refs == nil || depth > 4 {
		return
	}
	for _, u := range *refs {
		switch i := u.(type) {
		case *ssa.Store:
			if i.Addr == addr {
				r.emit(out, proto, i, w, r.Path(addr))
			} else {
				r.emit(out, proto, i, Ref, Path{})
			}
		case *ssa.UnOp:
			if i.Op == token.MUL {
				r.emit(out, proto, i, Read, Path{})
				r.loaded(i, proto, 0, out)
			}
		case *ssa.FieldAddr:
			// Part of a struct value held in the location: its stores
			// write the location too (s.inner.x = 1 writes s.inner).
			sub := proto
			if f := FieldOf(i); f != nil {
				sub.Sub += "." + f.Name()
			}
			r.addrUses(i, sub, w, depth+1, out)
		case *ssa.IndexAddr:
			if i.X == addr {
				r.addrUses(i, proto, ElemWrite, depth+1, out)
			}
		case *ssa.Call:
			if IsAtomicCall(&i.Call) {
				r.emit(out, proto, i, Atomic, Path{})
			} else {
				r.emit(out, proto, i, Ref, Path{})
			}
		case *ssa.DebugRef:
		default:
			r.emit(out, proto, u, Ref, Path{})
		}
	}
}

// loaded finds writes through v, a value loaded from the location: map
// updates, element stores, stores through the pointer.
func (r *Result) loaded(v ssa.Value, proto Access, depth int, out *[]Access) {
	refs := v.Referrers()
	if refs == nil || depth > 3 {
		return
	}
	for _, u := range *refs {
		switch i := u.(type) {
		case *ssa.MapUpdate:
			if i.Map == v {
				r.emit(out, proto, i, ptrKind(depth, MapWrite), r.Path(v))
			}
		case *ssa.Call:
			if b, ok := i.Call.Value.(*ssa.Builtin); ok && len(i.Call.Args) > 0 && i.Call.Args[0] == v {
				switch b.Name() {
				case "delete":
					r.emit(out, proto, i, ptrKind(depth, MapWrite), r.Path(v))
				case "clear":
					k := MapWrite
					if _, ok := v.Type().Underlying().(*types.Slice); ok {
						k = ElemWrite
					}
					r.emit(out, proto, i, ptrKind(depth, k), r.Path(v))
				}
			}
		case *ssa.Store:
			if i.Addr == v {
				r.emit(out, proto, i, PtrWrite, r.Path(v))
			}
		case *ssa.IndexAddr:
			if i.X != v {
				continue
			}
			r.through(i, proto, ptrKind(depth, ElemWrite), r.Path(v), depth, out)
		case *ssa.FieldAddr:
			if _, ok := v.Type().Underlying().(*types.Pointer); !ok {
				continue
			}
			r.through(i, proto, PtrWrite, r.Path(v), depth, out)
		}
	}
}

// through classifies the uses of addr, an address inside the object
// target that a loaded pointer, slice or map refers to.
func (r *Result) through(addr ssa.Value, proto Access, k Kind, target Path, depth int, out *[]Access) {
	refs := addr.Referrers()
	if refs == nil || depth > 4 {
		return
	}
	for _, u := range *refs {
		switch i := u.(type) {
		case *ssa.Store:
			if i.Addr == addr {
				r.emit(out, proto, i, k, target)
			}
		case *ssa.UnOp:
			if i.Op == token.MUL {
				r.loaded(i, proto, depth+1, out)
			}
		case *ssa.FieldAddr:
			// A field of the same object: the target stays the object.
			r.through(i, proto, k, target, depth+1, out)
		case *ssa.IndexAddr:
			if i.X == addr {
				r.through(i, proto, k, target, depth+1, out)
			}
		}
	}
}

func ptrKind(depth int, k Kind) Kind {
	if depth > 0 {
		return PtrWrite
	}
	return k
}
