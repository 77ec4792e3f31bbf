package bad

// Near misses of a credential refresh: the old value reaches the write
// by a path other than the HTTP request.

import (
	"encoding/json"
	"net/http"
	"sync"
)

type session struct {
	mu     sync.RWMutex
	claims map[string]string
	token  string
	url    string
}

func fetchClaims(url string) (map[string]string, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	out := map[string]string{}
	return out, json.NewDecoder(res.Body).Decode(&out)
}

func mergeClaims(old, fresh map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range old {
		out[k] = v
	}
	for k, v := range fresh {
		out[k] = v
	}
	return out
}

// The answer merged with the old claims: claims another goroutine added
// in between are lost.
func (s *session) refreshClaims() error {
	s.mu.RLock()
	old := s.claims
	s.mu.RUnlock()
	fresh, err := fetchClaims(s.url)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.claims = mergeClaims(old, fresh) // want `s\.claims is written from old, read under s\.mu`
	s.mu.Unlock()
	return nil
}

func rotate(tok string) string { return tok + "'" }

// The new token computed here from the old one, no request made.
func (s *session) rotate() {
	s.mu.RLock()
	tok := s.token
	s.mu.RUnlock()
	next := rotate(tok)
	s.mu.Lock()
	s.token = next // want `s\.token is written from next, read under s\.mu`
	s.mu.Unlock()
}

// The old value sent with the request and also put back beside the answer.
func (s *session) refreshKeep() error {
	s.mu.RLock()
	tok := s.token
	s.mu.RUnlock()
	res, err := http.Get(s.url + "?t=" + tok)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	s.mu.Lock()
	s.token = tok + res.Header.Get("X-Suffix") // want `s\.token is written from tok, read under s\.mu`
	s.mu.Unlock()
	return nil
}
