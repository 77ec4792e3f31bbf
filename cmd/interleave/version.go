package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set with -ldflags "-X main.version=v1.2.3" by release builds.
var version = "devel"

func init() {
	register(&command{
		name:  "version",
		short: "Print the version of interleave",
		usage: "",
		run: func(ctx context.Context, env *cliEnv, args []string) int {
			fs := newFlagSet(env, commands["version"])
			if code, ok := parseFlags(fs, args); !ok {
				return code
			}
			fmt.Fprintf(env.stdout, "interleave %s %s %s/%s\n", toolVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return exitOK
		},
	})
}

// toolVersion is the -ldflags version or the module version from build info.
func toolVersion() string {
	if version != "devel" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}
