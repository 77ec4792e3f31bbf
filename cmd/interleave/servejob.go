package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/interleave-dev/interleave/app"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "serve-job",
		short: "Run one job of interleave serve inside its sandbox (started by serve, not by hand)",
		usage: "[-nproc N] [-fsize BYTES] [-net SOCKET] -- [interleave pr flags]",
		run:   runServeJob,
	})
}

// runServeJob is the sandboxed side of an App job. It runs interleave pr in
// this process, made undumpable first so that the tests it starts (same
// uid) can neither read its memory and environment nor open its file
// descriptors through /proc. The report leaves through fd 3, a pipe only
// this process holds (close-on-exec, so no child inherits it), after pr is
// done; nothing else of the job is read by the server.
func runServeJob(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("serve-job", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	nproc := fs.Uint64("nproc", 0, "RLIMIT_NPROC of the job's processes (0 leaves it)")
	fsize := fs.Uint64("fsize", 0, "RLIMIT_FSIZE, the largest file the job may write (0 leaves it)")
	netSock := fs.String("net", "", "Relay a loopback port to the server's network proxy on this unix `socket` and point HTTP(S)_PROXY there")
	if err := fs.Parse(args); err != nil {
		return exitError
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "interleave serve-job: "+format+"\n", a...)
		return exitError
	}
	out := os.NewFile(app.ReportFD, "report")
	if out == nil {
		return fail("no report pipe on fd %d", app.ReportFD)
	}
	if _, err := out.Stat(); err != nil {
		return fail("no report pipe on fd %d: %v", app.ReportFD, err)
	}
	if err := hardenJob(app.ReportFD, *nproc, *fsize); err != nil {
		return fail("%v", err)
	}
	if *netSock != "" {
		// Before any of the job's code: pr and every test inherit it.
		vars, err := app.StartJobNetwork(*netSock)
		if err != nil {
			return fail("%v", err)
		}
		for _, kv := range vars {
			k, v, _ := strings.Cut(kv, "=")
			os.Setenv(k, v)
		}
	}
	var rep bytes.Buffer
	penv := &cliEnv{stdout: &rep, stderr: env.stderr, dir: env.dir}
	opts, code, ok := parsePRFlags(penv, fs.Args(), func(string) string { return "" })
	if !ok {
		return code
	}
	opts.Format, opts.Output, opts.SARIF, opts.Summary = "json", "", "", ""
	code = runPR(ctx, penv, opts)
	res := app.JobResult{Exit: code}
	if code == exitOK || code == exitFindings {
		res.Report = json.RawMessage(rep.Bytes())
		res.Schedules = readSchedules(env.dir, rep.Bytes())
	}
	enc := json.NewEncoder(out)
	if err := enc.Encode(&res); err != nil {
		return fail("sending the report: %v", err)
	}
	if err := out.Close(); err != nil {
		return fail("sending the report: %v", err)
	}
	return code
}

// readSchedules returns the schedule files the report names, relative to
// the module root dir, as the server's post pastes them. Only small JSON
// files at local paths are sent; the server checks them again.
func readSchedules(dir string, raw []byte) map[string]string {
	var r report.JSONReport
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	out := map[string]string{}
	for _, f := range r.Findings {
		name := f.Schedule
		if name == "" || !filepath.IsLocal(filepath.FromSlash(name)) {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		st, err := os.Lstat(path)
		if err != nil || !st.Mode().IsRegular() || st.Size() > app.MaxScheduleBytes {
			continue
		}
		b, err := os.ReadFile(path)
		if err == nil && len(b) <= app.MaxScheduleBytes && json.Valid(b) {
			out[name] = string(b)
		}
	}
	return out
}
