//go:build ignore

// The lockblock command runs the lockblock analyzer alone:
//
//	go run ./checks/static/lockblock/main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/lockblock"
)

func main() { singlechecker.Main(lockblock.Analyzer) }
