// Package item holds the element type that corpus.Batch names by an alias.
package item

// Item is one element of a batch.
type Item struct {
	Key string
	N   int
}
