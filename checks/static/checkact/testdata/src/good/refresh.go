package good

// A credential refresh (stackit-sdk-go's KeyFlow): the first section
// reads the refresh token, the token endpoint is asked for a new token
// with it over HTTP, and the second section stores the server's answer
// whole. The refresh token is a request argument; the value written is
// what the server issued, not an update of the old token: a concurrent
// refresh stores another valid token, and nothing is lost.

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

type grant struct {
	Access  string `json:"access_token"`
	Refresh string `json:"refresh_token"`
}

type keyFlow struct {
	tokenMu sync.RWMutex
	token   *grant
	client  *http.Client
	url     string
}

func (k *keyFlow) requestToken(kind, value string) (*http.Response, error) {
	body := url.Values{"grant_type": {kind}, kind: {value}}
	req, err := http.NewRequest(http.MethodPost, k.url, strings.NewReader(body.Encode()))
	if err != nil {
		return nil, err
	}
	return k.client.Do(req)
}

func parseGrant(res *http.Response) (*grant, error) {
	g := new(grant)
	return g, json.NewDecoder(res.Body).Decode(g)
}

func (k *keyFlow) refresh() error {
	k.tokenMu.RLock()
	refreshToken := k.token.Refresh
	k.tokenMu.RUnlock()

	res, err := k.requestToken("refresh_token", refreshToken)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	token, err := parseGrant(res)
	if err != nil {
		return err
	}
	k.tokenMu.Lock()
	k.token = token // ok: the server's answer, the old token only sent
	k.tokenMu.Unlock()
	return nil
}

// The request built here, sent with the client directly.
func (k *keyFlow) refreshDirect() error {
	k.tokenMu.RLock()
	refreshToken := k.token.Refresh
	k.tokenMu.RUnlock()

	req, err := http.NewRequest(http.MethodPost, k.url+"?refresh_token="+refreshToken, nil)
	if err != nil {
		return err
	}
	res, err := k.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	token, err := parseGrant(res)
	if err != nil {
		return err
	}
	k.tokenMu.Lock()
	k.token = token // ok: the same, through client.Do
	k.tokenMu.Unlock()
	return nil
}
