//go:build ignore

// The rlockwrite command runs the rlockwrite analyzer alone:
//
//	go run ./checks/static/rlockwrite/main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
)

func main() { singlechecker.Main(rlockwrite.Analyzer) }
