// Package lockblock is being written; see checks/static/suite.go for its rules.
package lockblock

import "golang.org/x/tools/go/analysis"

// Analyzer is replaced by the pass's real implementation.
var Analyzer = &analysis.Analyzer{
	Name: "lockblock",
	Doc:  "lockblock: placeholder until the pass lands",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
