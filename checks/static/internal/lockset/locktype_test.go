package lockset

import (
	"go/token"
	"go/types"
	"runtime"
	"testing"
	"weak"

	"github.com/interleave-dev/interleave/internal/testctx"
)

// TestLockTypeRegistryLetsGo checks that a registered lock type is
// found while its object lives and that its entry goes with it: a
// long-running process (interleave serve) keeps no load alive.
func TestLockTypeRegistryLetsGo(t *testing.T) {
	ctx := testctx.New(t)
	k := func() weak.Pointer[types.TypeName] {
		pkg := types.NewPackage("example.com/lk", "lk")
		tn := types.NewTypeName(token.NoPos, pkg, "L", nil)
		named := types.NewNamed(tn, types.NewStruct(nil, nil), nil)
		RegisterLockType(tn, []string{"Lock", "Unlock"})
		if !CustomLock(types.NewPointer(named)) {
			t.Fatal("registered type L is not a custom lock")
		}
		return weak.Make(tn)
	}()
	for {
		runtime.GC()
		lockTypes.RLock()
		_, held := lockTypes.m[k]
		lockTypes.RUnlock()
		if !held {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("the entry of an unreachable lock type is still registered")
		default:
			runtime.Gosched()
		}
	}
}
