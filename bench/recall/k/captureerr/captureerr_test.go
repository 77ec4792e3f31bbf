// Package captureerr: a goroutine assigns the err variable of the
// enclosing function, which that function reads without waiting.
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
	err := validate(a)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if e := validate(b); e != nil {
			err = e // writes the captured err
		}
	}()
	if err != nil { // reads it concurrently
		return err
	}
	<-done
	return err
}

func TestCheck(t *testing.T) {
	if err := check("a", "b"); err != nil {
		t.Fatal(err)
	}
	if err := check("", "b"); err == nil {
		t.Fatal("no error for an empty first field")
	}
}
