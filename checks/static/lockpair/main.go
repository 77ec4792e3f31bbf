//go:build ignore

// Command lockpair runs the lockpair pass alone: go run main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/lockpair"
)

func main() { singlechecker.Main(lockpair.Analyzer) }
