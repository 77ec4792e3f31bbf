// Package main holds examples, each a main of its own: the package does
// not compile, as in modules that keep runnable examples side by side.
package main

func main() {}
