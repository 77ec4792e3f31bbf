// Package rt is interleave's controlled scheduler, compiled into the program
// under test through `go test -overlay`.
//
// It imports only the standard library: the rewriter copies these files into
// the user's module as a package of its own, so any other import would have to
// be resolvable from a module we do not control.
package rt
