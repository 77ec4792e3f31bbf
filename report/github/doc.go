// Package github posts interleave's findings on a pull request: a check run
// with annotations, one review whose comments sit on diff lines, a sticky
// summary comment, a SARIF upload for code scanning and the job summary.
// When the token cannot write (a fork's pull request), it degrades to
// workflow-command annotations and the job summary instead of failing.
// A rerun edits or skips what an earlier run posted, touching only comments
// written by a bot under interleave's own login; with Input.ExternalID, a
// repeated or interrupted post of the same results posts nothing twice.
//
// It is the only package that imports go-github; callers import it as
// ghreport ("github.com/interleave-dev/interleave/report/github").
package github
