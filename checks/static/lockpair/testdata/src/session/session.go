// Package session: a lock held across calls by an object's own protocol
// (cayley's quadWriter): WriteQuads takes the store's writer lock when it
// opens a transaction and keeps it while w.tx != nil; Close releases it
// exactly then. The held state follows the field: no IL2002.
package session

import (
	"errors"
	"sync"
)

type Tx struct{ n int }

func (t *Tx) Commit() error { return nil }
func (t *Tx) Close() error  { return nil }

type DB struct{}

func (db *DB) Tx() (*Tx, error) { return &Tx{}, nil }

type Store struct {
	writer sync.Mutex
	db     *DB
}

func (s *Store) apply(tx *Tx, n int) error {
	if n < 0 {
		return errors.New("negative")
	}
	tx.n += n
	return nil
}

type writer struct {
	qs  *Store
	tx  *Tx
	err error
	n   int
}

// Write opens the session on first use: the lock stays held after it
// returns, while w.tx != nil.
func (w *writer) Write(n int) (int, error) {
	if w.tx == nil {
		w.qs.writer.Lock()
		tx, err := w.qs.db.Tx()
		if err != nil {
			w.qs.writer.Unlock()
			w.err = err
			return 0, err
		}
		w.tx = tx
	}
	if err := w.qs.apply(w.tx, n); err != nil {
		w.err = err
		return 0, err
	}
	w.n += n
	return n, nil
}

// Close ends the session: it releases the lock exactly when one is open.
func (w *writer) Close() error {
	if w.tx == nil {
		return w.err
	}
	defer w.qs.writer.Unlock()
	if w.err != nil {
		_ = w.tx.Close()
		w.tx = nil
		return w.err
	}
	err := w.tx.Commit()
	w.tx = nil
	return err
}

// A session with no method that ends it: the lock is never released.
type leaky struct {
	qs *Store
	tx *Tx
}

func (w *leaky) Write(n int) error {
	if w.tx == nil {
		w.qs.writer.Lock()
		tx, err := w.qs.db.Tx()
		if err != nil {
			w.qs.writer.Unlock()
			return err
		}
		w.tx = tx
	}
	return w.qs.apply(w.tx, n) // want `w.qs.writer locked at line 86 is still held at this return`
}

func (w *leaky) Close() error {
	if w.tx == nil {
		return nil
	}
	err := w.tx.Commit()
	w.tx = nil
	return err
}

// A return that keeps the lock before the session is open (w.tx still
// nil): Close will not release it.
type early struct {
	qs *Store
	tx *Tx
}

func (w *early) Write(n int) error {
	if w.tx == nil {
		w.qs.writer.Lock()
		if n == 0 {
			return nil // want `w.qs.writer locked at line 115 is still held at this return`
		}
		tx, err := w.qs.db.Tx()
		if err != nil {
			w.qs.writer.Unlock()
			return err
		}
		w.tx = tx
	}
	return w.qs.apply(w.tx, n)
}

func (w *early) Close() error {
	if w.tx == nil {
		return nil
	}
	defer w.qs.writer.Unlock()
	err := w.tx.Commit()
	w.tx = nil
	return err
}

// Close releases the lock whether or not a session is open: no field
// says when it is held, so the kept lock is still reported.
type unconditional struct {
	qs *Store
	tx *Tx
}

func (w *unconditional) Write(n int) error {
	if w.tx == nil {
		w.qs.writer.Lock()
		tx, err := w.qs.db.Tx()
		if err != nil {
			w.qs.writer.Unlock()
			return err
		}
		w.tx = tx
	}
	return w.qs.apply(w.tx, n) // want `w.qs.writer locked at line 148 is still held at this return`
}

func (w *unconditional) Close() error { // want Close:"releases w.qs.writer"
	defer w.qs.writer.Unlock()
	if w.tx == nil {
		return nil
	}
	err := w.tx.Commit()
	w.tx = nil
	return err
}
