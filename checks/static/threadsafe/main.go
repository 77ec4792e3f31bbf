//go:build ignore

// The threadsafe command runs the threadsafe analyzer on its own:
//
//	go run ./checks/static/threadsafe/main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/threadsafe"
)

func main() { singlechecker.Main(threadsafe.Analyzer) }
