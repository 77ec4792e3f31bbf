// Package checkact is being written; see checks/static/suite.go for its rules.
package checkact

import "golang.org/x/tools/go/analysis"

// Analyzer is replaced by the pass's real implementation.
var Analyzer = &analysis.Analyzer{
	Name: "checkact",
	Doc:  "checkact: placeholder until the pass lands",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
