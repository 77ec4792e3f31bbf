// Package buildfiles is the testdata module of issue 21 item 6 and issue
// 26 item 2: the files a rewrite may touch and the tests a driver may
// list are those of the build. Its go.mod says go 1.16, older than the
// runtime's generic API; so do its dependencies: oldclock's go.mod says
// go 1.16 and nogoline's has no go line at all (as golang.org/x/time
// v0.3.0's), which the go command reads as go 1.16. usedeps searches code
// that waits on their timers; racetags has test files for -race only, for
// builds without it only and for a custom tag only.
package buildfiles
