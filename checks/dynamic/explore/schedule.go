package explore

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// WriteSchedule writes a schedule file atomically, creating its directory.
func WriteSchedule(path string, s *rt.Schedule) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write schedule: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schedule-*")
	if err != nil {
		return fmt.Errorf("write schedule: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write schedule %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write schedule %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write schedule %s: %w", path, err)
	}
	return nil
}

// ReadSchedule reads and checks a schedule file.
func ReadSchedule(path string) (*rt.Schedule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s rt.Schedule
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s is not a schedule file: %w", path, err)
	}
	switch {
	case s.Version == 0:
		return nil, fmt.Errorf("%s is not a schedule file: no version", path)
	case s.Version > rt.ScheduleVersion:
		return nil, fmt.Errorf("%s has schedule version %d; this interleave reads version %d", path, s.Version, rt.ScheduleVersion)
	case s.Package == "" || s.Test == "":
		return nil, fmt.Errorf("%s is not a schedule file: package or test missing", path)
	}
	return &s, nil
}
