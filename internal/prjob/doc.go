// Package prjob is the pull-request job: given a change (base and head
// commits of a module), it runs the static passes on the changed packages,
// the dynamic search over the tests that reach the change, confirms static
// findings with the schedules that reproduce them, tells a dynamic failure
// of the change from one the base commit has too, and writes the report,
// SARIF and the job summary.
//
// Run is its one entry point. interleave pr parses flags into Options,
// calls Run and maps the Result to an exit code; interleave action calls
// pr in process, and interleave serve runs the pr command in a scrubbed
// child process (app), so every path runs this code.
// MergeShards combines the reports of sharded runs for interleave merge.
package prjob
