// Package captureerr: a goroutine assigns the err variable of the
// enclosing function, which that function assigns too.
package captureerr

import (
	"errors"
	"testing"
)

func validate(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	return nil
}

func check(a, b string) error {
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		err = validate(b) // writes the captured err
	}()
	err = validate(a) // and so does the caller: the later write wins
	if err != nil {
		return err
	}
	<-done
	return err
}

func TestCheck(t *testing.T) {
	if err := check("a", ""); err == nil {
		t.Fatal("no error for an empty second field")
	}
}
