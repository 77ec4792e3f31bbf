package github

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// GitHub's secondary rate limits for content-creating requests (POST, PATCH,
// PUT, DELETE): "no more than 80 content-generating requests per minute and
// no more than 500 per hour", and "wait at least one second between each
// request" when making many of them.
// https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
const (
	maxWritesPerMinute = 80
	maxWritesPerHour   = 500
	minWriteInterval   = time.Second
)

// Retry bounds. The docs say to wait "at least one minute" after a
// secondary rate limit without Retry-After; longer waits than maxRetryWait
// are not worth a CI job's time, so the response is returned as it is.
const (
	defaultMaxRetries     = 3
	secondaryLimitWait    = time.Minute
	defaultMaxRetryWait   = 15 * time.Minute
	defaultAttemptTimeout = time.Minute
	maxErrorBodyForProbe  = 64 << 10
)

// Clock is the time source of a Throttle; tests inject a fake one.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, whichever comes first; it returns
	// ctx.Err() in the second case.
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep implements Clock.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Throttle is an http.RoundTripper that paces content-creating requests to
// stay under GitHub's secondary rate limits and, when GitHub answers 403 or
// 429 for a rate limit anyway, waits as told (Retry-After, or the primary
// limit's X-RateLimit-Reset) and retries, a bounded number of times.
type Throttle struct {
	Base       http.RoundTripper // nil means http.DefaultTransport
	Clock      Clock             // nil means RealClock
	MaxRetries int               // 0 means defaultMaxRetries; negative means none
	MaxWait    time.Duration     // longest single wait; 0 means defaultMaxRetryWait
	// AttemptTimeout bounds one attempt, body included; 0 means
	// defaultAttemptTimeout. (An http.Client.Timeout would also cut the
	// waits between attempts.)
	AttemptTimeout time.Duration
	// Logf, when set, is told about every wait.
	Logf func(format string, args ...any)
	// NoInterval drops the minimum interval between writes (the limits
	// per minute and per hour stay): for an API whose secondary limits
	// are not GitHub's (see hostedAPI).
	NoInterval bool

	mu        sync.Mutex
	writes    []time.Time // start times of content-creating requests in the last hour
	nextWrite time.Time   // earliest start of the next one
}

var _ http.RoundTripper = (*Throttle)(nil)

func (t *Throttle) clock() Clock {
	if t.Clock == nil {
		return RealClock{}
	}
	return t.Clock
}

func (t *Throttle) base() http.RoundTripper {
	if t.Base == nil {
		return http.DefaultTransport
	}
	return t.Base
}

func (t *Throttle) logf(format string, args ...any) {
	if t.Logf != nil {
		t.Logf(format, args...)
	}
}

// isWrite reports whether a request creates content, in GitHub's sense.
func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// RoundTrip implements http.RoundTripper.
func (t *Throttle) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	maxRetries := t.MaxRetries
	if maxRetries == 0 {
		maxRetries = defaultMaxRetries
	}
	for attempt := 0; ; attempt++ {
		if isWrite(req.Method) {
			if err := t.pace(ctx); err != nil {
				return nil, err
			}
		}
		send := req
		if attempt > 0 {
			var err error
			if send, err = rewind(req); err != nil {
				return nil, err
			}
		}
		timeout := t.AttemptTimeout
		if timeout == 0 {
			timeout = defaultAttemptTimeout
		}
		actx, cancel := context.WithTimeout(ctx, timeout)
		resp, err := t.base().RoundTrip(send.WithContext(actx))
		if err != nil {
			timedOut := actx.Err() != nil && ctx.Err() == nil
			cancel()
			if !timedOut {
				return nil, err
			}
			// A read that hung is safe to repeat; a write may have been
			// done by GitHub, so it is not sent again.
			if req.Method != http.MethodGet || attempt >= maxRetries {
				return nil, fmt.Errorf("%s %s: no response within %v: %w", req.Method, req.URL.Path, timeout, err)
			}
			wait := time.Second << attempt
			t.logf("%s %s: no response within %v; waiting %v before retry %d of %d", req.Method, req.URL.Path, timeout, wait, attempt+1, maxRetries)
			if err := t.clock().Sleep(ctx, wait); err != nil {
				return nil, err
			}
			continue
		}
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
		if attempt >= maxRetries {
			return resp, nil
		}
		wait, why, ok := t.retryAfter(resp)
		if !ok && req.Method == http.MethodGet && isGatewayError(resp.StatusCode) {
			// Reads are safe to repeat; GitHub's front end sometimes
			// answers 502/503/504 to slow requests.
			wait, why, ok = time.Second<<attempt, fmt.Sprintf("server error %d", resp.StatusCode), true
		}
		if !ok {
			return resp, nil
		}
		if req.Body != nil && req.GetBody == nil {
			return resp, nil // the body cannot be sent twice
		}
		drain(resp)
		t.logf("%s %s: %s; waiting %v before retry %d of %d", req.Method, req.URL.Path, why, wait, attempt+1, maxRetries)
		if err := t.clock().Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// pace blocks until one more content-creating request keeps the client
// within the per-minute and per-hour limits and the minimum interval, and
// records it.
func (t *Throttle) pace(ctx context.Context) error {
	for {
		t.mu.Lock()
		now := t.clock().Now()
		hourAgo, minuteAgo := now.Add(-time.Hour), now.Add(-time.Minute)
		kept := t.writes[:0]
		for _, w := range t.writes {
			if w.After(hourAgo) {
				kept = append(kept, w)
			}
		}
		t.writes = kept
		var inMinute []time.Time
		for _, w := range t.writes {
			if w.After(minuteAgo) {
				inMinute = append(inMinute, w)
			}
		}
		until := t.nextWrite
		if len(inMinute) >= maxWritesPerMinute {
			until = later(until, inMinute[len(inMinute)-maxWritesPerMinute].Add(time.Minute))
		}
		if len(t.writes) >= maxWritesPerHour {
			until = later(until, t.writes[len(t.writes)-maxWritesPerHour].Add(time.Hour))
		}
		if !until.After(now) {
			t.writes = append(t.writes, now)
			if !t.NoInterval {
				t.nextWrite = now.Add(minWriteInterval)
			}
			t.mu.Unlock()
			return nil
		}
		t.mu.Unlock()
		if err := t.clock().Sleep(ctx, until.Sub(now)); err != nil {
			return err
		}
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// retryAfter decides whether resp is a rate limit worth waiting for, and
// how long.
func (t *Throttle) retryAfter(resp *http.Response) (wait time.Duration, why string, ok bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, "", false
	}
	maxWait := t.MaxWait
	if maxWait == 0 {
		maxWait = defaultMaxRetryWait
	}
	bounded := func(d time.Duration, why string) (time.Duration, string, bool) {
		if d > maxWait {
			t.logf("%s, but the wait of %v exceeds %v: giving up", why, d, maxWait)
			return 0, "", false
		}
		if d < 0 {
			d = 0
		}
		return d, why, true
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if secs, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return bounded(time.Duration(secs)*time.Second, fmt.Sprintf("rate limited (%d, Retry-After %s)", resp.StatusCode, s))
		}
		if at, err := http.ParseTime(s); err == nil {
			return bounded(at.Sub(t.clock().Now()), fmt.Sprintf("rate limited (%d, Retry-After %s)", resp.StatusCode, s))
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			// One extra second: the reset is rounded down to the second.
			return bounded(time.Unix(reset, 0).Sub(t.clock().Now())+time.Second, fmt.Sprintf("primary rate limit exhausted (%d)", resp.StatusCode))
		}
	}
	if isSecondaryLimit(resp) {
		return bounded(secondaryLimitWait, fmt.Sprintf("secondary rate limit (%d)", resp.StatusCode))
	}
	return 0, "", false
}

func isGatewayError(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// isSecondaryLimit reports whether resp's body is GitHub's secondary rate
// limit message. It reads the body and puts it back.
func isSecondaryLimit(resp *http.Response) bool {
	if resp.Body == nil {
		return false
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyForProbe))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil {
		return false
	}
	lower := strings.ToLower(string(b))
	return strings.Contains(lower, "secondary rate limit") || strings.Contains(lower, "abuse detection")
}

// rewind returns a copy of req with a fresh body for a retry.
func rewind(req *http.Request) (*http.Request, error) {
	r := req.Clone(req.Context())
	if req.Body == nil || req.GetBody == nil {
		return r, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, fmt.Errorf("retry %s %s: %w", req.Method, req.URL.Path, err)
	}
	r.Body = body
	return r, nil
}

func drain(resp *http.Response) {
	if resp.Body != nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBodyForProbe))
		resp.Body.Close()
	}
}

// cancelOnClose ends an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
