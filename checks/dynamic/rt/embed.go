package rt

import "embed"

// Source holds this package's files so the rewriter can add the runtime to
// the module under test. The rewriter copies every non-test .go file except
// this one.
//
//go:embed *.go
var Source embed.FS
