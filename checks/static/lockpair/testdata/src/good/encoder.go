package good

import "sync"

// conn's writes go through an encoder that a helper returns holding
// encMu; the encoder's end method releases it (go-imap's imapserver:
// enc := newResponseEncoder(c); defer enc.end()).
type conn struct {
	encMu sync.Mutex
	buf   []byte
}

type encoder struct {
	c   *conn
	buf []byte
}

func newEncoder(c *conn) *encoder {
	c.encMu.Lock() // released by encoder.end
	return &encoder{c: c}
}

func (e *encoder) end() {
	e.c.buf = append(e.c.buf, e.buf...)
	e.c.encMu.Unlock()
}

func (e *encoder) atom(s string) *encoder {
	e.buf = append(e.buf, s...)
	return e
}

func (c *conn) writeExists(n int) error {
	enc := newEncoder(c)
	defer enc.end()
	enc.atom("EXISTS")
	return nil
}

func (e *encoder) list(n int, f func(int)) {
	for i := 0; i < n; i++ {
		f(i)
	}
}

// writeFlags's closure captures enc: enc lives in a cell.
func (c *conn) writeFlags(flags []string) error {
	enc := newEncoder(c)
	defer enc.end()
	enc.list(len(flags), func(i int) {
		enc.atom(flags[i])
	})
	return nil
}

func (c *conn) writeStatus(text string) error {
	enc := newEncoder(c)
	enc.atom(text)
	enc.end()
	return nil
}

// selectMailbox writes several responses, one encoder each.
func (c *conn) selectMailbox() error {
	if err := c.writeStatus("CLOSED"); err != nil {
		return err
	}
	if err := c.writeExists(1); err != nil {
		return err
	}
	if err := c.writeFlags([]string{"a"}); err != nil {
		return err
	}
	return c.writeExists(2)
}
