//go:build tools

// Package interleave pins dependencies while the packages that use them are
// being written; removed once every dependency has a real importer.
package interleave

import (
	_ "github.com/bradleyfalzon/ghinstallation/v2"
	_ "github.com/getkin/kin-openapi/openapi3"
	_ "github.com/getkin/kin-openapi/openapi3filter"
	_ "github.com/getkin/kin-openapi/routers/gorillamux"
	_ "github.com/google/go-github/v60/github"
	_ "github.com/owenrumney/go-sarif/v3/pkg/report"
	_ "github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	_ "github.com/rhysd/actionlint"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/schollz/progressbar/v3"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/term"
	_ "golang.org/x/tools/go/analysis"
	_ "golang.org/x/tools/go/analysis/analysistest"
	_ "golang.org/x/tools/go/analysis/checker"
	_ "golang.org/x/tools/go/analysis/passes/buildssa"
	_ "golang.org/x/tools/go/analysis/passes/ctrlflow"
	_ "golang.org/x/tools/go/analysis/passes/inspect"
	_ "golang.org/x/tools/go/analysis/passes/waitgroup"
	_ "golang.org/x/tools/go/analysis/unitchecker"
	_ "golang.org/x/tools/go/callgraph/cha"
	_ "golang.org/x/tools/go/callgraph/vta"
	_ "golang.org/x/tools/go/packages"
	_ "golang.org/x/tools/go/ssa/ssautil"
)
