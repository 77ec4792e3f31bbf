package lockorder

import (
	"go/token"
	"testing"
)

// Sites are ordered by file name and offset, not by the order their files
// joined the file set (go/packages parses in parallel, so that order
// varies from run to run and differs from go vet's).
func TestBeforeIgnoresFileSetOrder(t *testing.T) {
	fset := token.NewFileSet()
	ledger := fset.AddFile("/m/ledger.go", -1, 100) // joined first
	bank := fset.AddFile("/m/bank.go", -1, 100)
	l58, b36 := ledger.Pos(58), bank.Pos(36)
	if !before(fset, b36, l58) || before(fset, l58, b36) {
		t.Errorf("bank.go:36 must come before ledger.go:58 whatever order the files were added")
	}
	if !before(fset, bank.Pos(1), bank.Pos(2)) || before(fset, token.NoPos, token.NoPos) || !before(fset, token.NoPos, b36) {
		t.Error("offsets within a file, or NoPos, misordered")
	}
}
