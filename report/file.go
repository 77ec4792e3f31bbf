// The one atomic writer of report files.

package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// FileMode is the mode of a report file: readable by every user, since the
// next CI step (or a reviewer's tool) may run as another one.
const FileMode os.FileMode = 0o644

// WriteFile writes a report file atomically: write fills a temporary file
// next to name, which is synced, given FileMode and renamed into place, so
// a reader never sees half a report. On error name is left as it was.
func WriteFile(name string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write report %s: %w", name, err)
	}
	err = write(tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		// CreateTemp makes 0600 files.
		err = tmp.Chmod(FileMode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write report %s: %w", name, err)
	}
	return nil
}

// WriteFileBytes is WriteFile of data.
func WriteFileBytes(name string, data []byte) error {
	return WriteFile(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
