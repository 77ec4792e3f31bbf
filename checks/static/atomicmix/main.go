//go:build ignore

// The atomicmix command runs the atomicmix analyzer on its own:
//
//	go run ./checks/static/atomicmix/main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/atomicmix"
)

func main() { singlechecker.Main(atomicmix.Analyzer) }
