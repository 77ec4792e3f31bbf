//go:build ignore

// The guardedby command runs the guardedby analyzer alone:
//
//	go run ./checks/static/guardedby/main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/guardedby"
)

func main() { singlechecker.Main(guardedby.Analyzer) }
