package lockorder

import (
	"golang.org/x/tools/go/analysis"

	"github.com/interleave-dev/interleave/checks/static/lockblock"
)

// InstanceAnalyzer reports IL2102 alone (no IL2101, no facts), for the
// instance testdata.
var InstanceAnalyzer = &analysis.Analyzer{
	Name:     "lockorderinstance",
	Doc:      "IL2102 only",
	Requires: []*analysis.Analyzer{lockblock.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		instanceInversions(pass, pass.ResultOf[lockblock.Analyzer].(*lockblock.Result).Locksets)
		return nil, nil
	},
}
