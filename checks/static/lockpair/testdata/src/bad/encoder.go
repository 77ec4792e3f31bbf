package bad

import "sync"

// The encoder idiom with a path that does not end the encoder.
type conn struct {
	encMu sync.Mutex
	buf   []byte
}

type encoder struct {
	c   *conn
	buf []byte
}

func newEncoder(c *conn) *encoder {
	c.encMu.Lock()
	return &encoder{c: c}
}

func (e *encoder) end() {
	e.c.buf = append(e.c.buf, e.buf...)
	e.c.encMu.Unlock()
}

// writeFlags forgets end when the flags are empty.
func (c *conn) writeFlags(flags []string) error {
	enc := newEncoder(c)
	if len(flags) == 0 {
		return nil // want `c\.encMu locked at line 28 is still held at this return, but released before 1 other return\(s\)`
	}
	enc.buf = append(enc.buf, flags[0]...)
	enc.end()
	return nil
}

// begin returns the encoder still holding encMu: a caller must end it.
func (c *conn) begin(s string) *encoder {
	enc := newEncoder(c)
	enc.buf = append(enc.buf, s...)
	return enc
}

// twice ends the second encoder only: the first still holds encMu.
func (c *conn) twice() {
	c.begin("a")
	c.begin("b").end() // want `call to c.begin locks c.encMu, which is already held here`
}

// crossed ends d's encoder, not c's: the class matches, the helper's
// call does not.
func crossed(c, d *conn) {
	e := newEncoder(c)
	newEncoder(d).end()
	e.buf = nil
	newEncoder(c).end() // want `call to newEncoder locks c.encMu, which is already held here`
}
