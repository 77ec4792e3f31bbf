package rt

import "embed"

// Source holds this package's files so the rewriter can add the runtime to
// the module under test. The rewriter copies every non-test .go file except
// this one, and the assembly files.
//
//go:embed *.go *.s
var Source embed.FS

// AsmFiles need the package's directory on disk (the assembler runs there).
// Where the runtime is overlaid into the main module instead, the rewriter
// leaves them out and copies NoAsmFile without its build constraint: goid
// then reads the stack.
var AsmFiles = []string{"getg_amd64.s", "getg_amd64.go"}

// NoAsmFile is the fallback of AsmFiles (see there).
const NoAsmFile = "getg_other.go"
