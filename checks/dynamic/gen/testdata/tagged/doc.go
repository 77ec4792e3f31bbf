// Package tagged has its one type in a file that only the build tag
// interleavegentag includes: gen must load, run and search with it.
package tagged
