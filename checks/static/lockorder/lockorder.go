// Package lockorder is being written; see checks/static/suite.go for its rules.
package lockorder

import "golang.org/x/tools/go/analysis"

// Analyzer is replaced by the pass's real implementation.
var Analyzer = &analysis.Analyzer{
	Name: "lockorder",
	Doc:  "lockorder: placeholder until the pass lands",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
