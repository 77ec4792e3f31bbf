//go:build ignore

// The checkact command runs the checkact analyzer on its own:
//
//	go run ./checks/static/checkact/main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/checkact"
)

func main() { singlechecker.Main(checkact.Analyzer) }
