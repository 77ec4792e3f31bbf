// Package atomicmix is being written; see checks/static/suite.go for its rules.
package atomicmix

import "golang.org/x/tools/go/analysis"

// Analyzer is replaced by the pass's real implementation.
var Analyzer = &analysis.Analyzer{
	Name: "atomicmix",
	Doc:  "atomicmix: placeholder until the pass lands",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
