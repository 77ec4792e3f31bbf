// Package prjob is the pull-request job: given a change (base and head
// commits of a module), it runs the static passes on the changed packages,
// the dynamic search over the tests that reach the change, confirms static
// findings with the schedules that reproduce them, tells a dynamic failure
// of the change from one the base commit has too, and writes the report,
// SARIF and the job summary.
//
// Config is the job as its front ends state it, with its defaults, its
// flags (Register, Check) and its argv (Args): interleave pr parses its
// flags into one, interleave action builds one from action.yml's inputs,
// and the App (app) writes one as the argv of its sandboxed serve-job.
// Run is the one entry point: it takes Options (a Config and what the
// command adds) and returns the reported findings, already restricted to
// Config.Packages, so every path runs this code.
// MergeShards combines the reports of sharded runs for interleave merge.
package prjob
