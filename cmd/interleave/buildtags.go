// -tags of gen and repro: the flag, else .interleave.yaml's tags.

package main

import (
	"flag"
	"strings"

	"github.com/interleave-dev/interleave/internal/flagvalue"
	"github.com/interleave-dev/interleave/internal/prjob"
)

// tagsFlag defines -tags on fs.
func tagsFlag(fs *flag.FlagSet, what string) *string {
	return fs.String("tags", "", "Build `tags`, comma-separated, as for go build: "+what+" (default: tags of "+prjob.FileName+")")
}

// buildTags returns the tags of -tags when given, else those of the
// working tree's .interleave.yaml, and where they came from ("" when none).
func buildTags(env *cliEnv, fs *flag.FlagSet, flagValue string) (tags []string, from string, err error) {
	if prjob.FlagGiven(fs)("tags") != "" {
		return flagvalue.Split(flagValue), "flag -tags", nil
	}
	file, _, err := prjob.LoadFile(env.dir, "")
	if err != nil || file == nil || len(file.Tags) == 0 {
		return nil, "", err
	}
	return file.Tags, file.Name, nil
}

// tagsArg is the go test flag of tags, with a leading space ("" when none).
func tagsArg(tags []string) string {
	if len(tags) == 0 {
		return ""
	}
	return " -tags=" + strings.Join(tags, ",")
}
