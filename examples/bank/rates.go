package bank

import (
	"context"
	"errors"
)

// RateSource quotes an interest rate in percent.
type RateSource func(ctx context.Context) (int64, error)

// FirstRate asks every source and returns the first successful quote.
//
// BUG(leak): results is unbuffered and FirstRate returns after the first
// quote, so every slower source blocks forever on its send: one leaked
// goroutine per extra source. A buffer of len(sources) fixes it.
func FirstRate(ctx context.Context, sources ...RateSource) (int64, error) {
	if len(sources) == 0 {
		return 0, errors.New("no rate sources")
	}
	type quote struct {
		rate int64
		err  error
	}
	results := make(chan quote)
	for _, src := range sources {
		go func() {
			r, err := src(ctx)
			results <- quote{r, err}
		}()
	}
	var lastErr error
	for range sources {
		q := <-results
		if q.err == nil {
			return q.rate, nil
		}
		lastErr = q.err
	}
	return 0, lastErr
}
