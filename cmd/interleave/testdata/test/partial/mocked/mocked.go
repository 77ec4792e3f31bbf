// Package mocked has a test that needs a generated mock (NewMockStore)
// that is not in the module.
package mocked

type Store interface {
	Get(key string) (string, bool)
}

func Lookup(s Store, key string) string {
	v, _ := s.Get(key)
	return v
}
