// Package github posts interleave's findings on a pull request: a check run
// with annotations, one review whose comments sit on diff lines, a sticky
// summary comment, a SARIF upload for code scanning and the job summary.
// When the token cannot write (a fork's pull request), it degrades to
// workflow-command annotations and the job summary instead of failing.
//
// It is the only package that imports go-github; callers import it as
// ghreport ("github.com/interleave-dev/interleave/report/github").
package github
