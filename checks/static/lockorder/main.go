//go:build ignore

// Command lockorder runs the lockorder pass alone: go run main.go ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/interleave-dev/interleave/checks/static/lockorder"
)

func main() { singlechecker.Main(lockorder.Analyzer) }
