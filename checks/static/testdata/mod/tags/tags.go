// Package tags has a file built only with -tags=integ.
package tags

func mark() {}
