package good

import (
	"bytes"
	"io"
	"sync"
	"testing"
)

// A test's pipe buffer whose lock is handed across calls: writeMode
// locks, readMode unlocks. The test's value is its own local; an error
// return drops it locked and nothing can reach it again.
type pipeBuf struct {
	buf   bytes.Buffer
	mu    sync.RWMutex
	ready chan bool
}

func newPipeBuf() *pipeBuf { return &pipeBuf{ready: make(chan bool, 1)} }

func (b *pipeBuf) Read(p []byte) (int, error) { // want Read:`acquires b.mu \(read\)`
	b.mu.RLock()
	n, err := b.buf.Read(p)
	b.mu.RUnlock()
	return n, err
}

func (b *pipeBuf) Write(p []byte) (int, error) { return b.buf.Write(p) }

func (b *pipeBuf) writeMode() { b.mu.Lock() }

func (b *pipeBuf) readMode() {
	b.mu.Unlock()
	select {
	case b.ready <- true:
	default:
	}
}

type squeezer struct{ w io.Writer }

func newSqueezer(w io.Writer, level int) (*squeezer, error) {
	if level < 0 {
		return nil, io.ErrShortWrite
	}
	return &squeezer{w: w}, nil
}

func (s *squeezer) Write(p []byte) (int, error) { return s.w.Write(p) }

type unsqueezer struct {
	r      io.Reader
	window []byte
}

// newUnsqueezer sets its reader up through a chain of helpers (deeper
// than a few calls) none of which starts a goroutine.
func newUnsqueezer(r io.Reader) io.ReadCloser { return withOpts(r, 1) }

func withOpts(r io.Reader, n int) io.ReadCloser { return withDict(r, n, nil) }

func withDict(r io.Reader, n int, dict []byte) io.ReadCloser {
	return withWindow(r, n+len(dict))
}

func withWindow(r io.Reader, n int) io.ReadCloser { return initUnsqueezer(&unsqueezer{r: r}, n) }

func initUnsqueezer(u *unsqueezer, n int) io.ReadCloser {
	u.window = make([]byte, n)
	return u
}

func (u *unsqueezer) Close() error { return nil }

func (u *unsqueezer) Read(p []byte) (int, error) { return u.r.Read(p) }

func roundTrip(t *testing.T, level int, input []byte) {
	buf := newPipeBuf()
	copyTo := new(bytes.Buffer)
	buf.writeMode()
	w, err := newSqueezer(io.MultiWriter(buf, copyTo), level)
	if err != nil {
		t.Errorf("newSqueezer: %v", err)
		return
	}
	r := newUnsqueezer(buf)
	for i := range 2 {
		if _, err := w.Write(input[i:]); err != nil {
			t.Errorf("write: %v", err)
			return
		}
		buf.readMode()
		out := make([]byte, len(input))
		if n, err := io.ReadAtLeast(r, out, 1); err != nil {
			t.Errorf("read %d: %v (%d left)", n, err, buf.buf.Len())
			return
		}
		buf.writeMode()
	}
	buf.readMode()
}

// A local mutex dropped at an early return: no one else has it.
func sumLocal(xs []int) int {
	var st struct {
		sync.Mutex
		n int
	}
	st.Lock()
	for _, x := range xs {
		if x < 0 {
			return -1
		}
		st.n += x
	}
	st.Unlock()
	return st.n
}
