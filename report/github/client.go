package github

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// ClientOptions configures NewClient.
type ClientOptions struct {
	Token string // required
	// APIURL is the REST API root, as $GITHUB_API_URL gives it
	// ("https://ghe.example.com/api/v3"); empty means the one derived from
	// ServerURL, or api.github.com.
	APIURL string
	// ServerURL is the web root, as $GITHUB_SERVER_URL gives it; used for
	// GitHub Enterprise Server when APIURL is empty.
	ServerURL string
	Transport http.RoundTripper // nil means http.DefaultTransport
	Clock     Clock             // nil means RealClock
	Logf      func(format string, args ...any)
	Timeout   time.Duration // per attempt of a request; 0 means a minute
}

// ClientOptionsFromEnv fills APIURL and ServerURL from $GITHUB_API_URL and
// $GITHUB_SERVER_URL, as GitHub Actions sets them (also on GitHub
// Enterprise Server).
func ClientOptionsFromEnv(token string, getenv func(string) string) ClientOptions {
	return ClientOptions{Token: token, APIURL: getenv("GITHUB_API_URL"), ServerURL: getenv("GITHUB_SERVER_URL")}
}

// NewClient returns a go-github client authenticated with opts.Token whose
// requests go through a Throttle.
func NewClient(opts ClientOptions) (*gh.Client, error) {
	if opts.Token == "" {
		return nil, errors.New("no GitHub token")
	}
	apiURL, uploadURL, err := endpoints(opts.APIURL, opts.ServerURL)
	if err != nil {
		return nil, err
	}
	th := &Throttle{Base: opts.Transport, Clock: opts.Clock, Logf: opts.Logf, AttemptTimeout: opts.Timeout, NoInterval: !hostedAPI(apiURL)}
	c := gh.NewClient(&http.Client{Transport: th}).WithAuthToken(opts.Token)
	c.BaseURL, c.UploadURL = apiURL, uploadURL
	c.UserAgent = "interleave"
	return c, nil
}

// hostedAPI reports whether api is GitHub's hosted API (github.com's, or a
// GHE.com subdomain's), whose secondary rate limits ask for a second
// between content-creating requests. GitHub Enterprise Server has its
// limits off unless its administrator turns them on; a rate-limited
// answer is still waited for and retried there.
func hostedAPI(api *url.URL) bool {
	h := strings.ToLower(api.Hostname())
	return h == "api.github.com" || strings.HasSuffix(h, ".ghe.com")
}

// endpoints returns the API and upload roots, each ending in "/".
func endpoints(apiURL, serverURL string) (api, upload *url.URL, err error) {
	parse := func(what, s string) (*url.URL, error) {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%s %q is not an http(s) URL", what, s)
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		return u, nil
	}
	serverURL = strings.TrimSpace(serverURL)
	dotcom := serverURL == "" || strings.EqualFold(strings.TrimSuffix(serverURL, "/"), "https://github.com")
	switch {
	case apiURL != "":
		if api, err = parse("GITHUB_API_URL", strings.TrimSpace(apiURL)); err != nil {
			return nil, nil, err
		}
	case dotcom:
		api, _ = url.Parse("https://api.github.com/")
	default:
		server, err := parse("GITHUB_SERVER_URL", serverURL)
		if err != nil {
			return nil, nil, err
		}
		api = server.JoinPath("api", "v3") // GitHub Enterprise Server
		api.Path += "/"
	}
	if dotcom {
		upload, _ = url.Parse("https://uploads.github.com/")
		if apiURL != "" && api.Host != "api.github.com" {
			upload = api // a test or proxy serving everything at one root
		}
		return api, upload, nil
	}
	server, err := parse("GITHUB_SERVER_URL", serverURL)
	if err != nil {
		return nil, nil, err
	}
	upload = server.JoinPath("api", "uploads")
	upload.Path += "/"
	return api, upload, nil
}
