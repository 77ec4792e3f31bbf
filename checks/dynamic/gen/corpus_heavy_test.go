//go:build heavy

package gen

import (
	"testing"
	"time"
)

// TestCorpusHeavy searches every type of the corpus.
func TestCorpusHeavy(t *testing.T) {
	searchCorpus(t, brokenTypes, correctTypes, 1, DefaultPerType, 0, 120*time.Second)
}
