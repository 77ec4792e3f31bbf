package ghtest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v4"
)

// createInstallationToken exchanges an App's JWT for an installation
// token, which the server accepts from then on as a writable token.
func (s *Server) createInstallationToken(c *call) *response {
	_, raw, _ := strings.Cut(c.r.Header.Get("Authorization"), " ")
	installationID := c.intParam("installation_id")

	var appID int64
	var a *app
	claims := &jwt.RegisteredClaims{}
	_, err := jwt.ParseWithClaims(raw, claims, func(tok *jwt.Token) (any, error) {
		if tok.Method.Alg() != jwt.SigningMethodRS256.Alg() {
			return nil, fmt.Errorf("signing method %s, want RS256", tok.Method.Alg())
		}
		id, err := strconv.ParseInt(claims.Issuer, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("iss %q is not an App ID", claims.Issuer)
		}
		s.mu.Lock()
		a = s.state.apps[id]
		s.mu.Unlock()
		if a == nil {
			return nil, fmt.Errorf("no App %d", id)
		}
		appID = id
		return a.key, nil
	})
	if err != nil {
		return errorResponse(http.StatusUnauthorized, "A JSON web token could not be decoded: "+err.Error())
	}
	if claims.ExpiresAt == nil || claims.IssuedAt == nil {
		return errorResponse(http.StatusUnauthorized, "'Expiration time' claim ('exp') and 'Issued at' claim ('iat') are required")
	}
	if claims.ExpiresAt.Sub(claims.IssuedAt.Time) > 10*time.Minute+time.Second {
		return errorResponse(http.StatusUnauthorized, "'Expiration time' claim ('exp') is too far in the future")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if !a.installations[installationID] {
		return notFound()
	}
	token := fmt.Sprintf("ghs_app%dinst%dtok%d", appID, installationID, s.state.newID())
	s.state.tokens[token] = true
	s.state.tokenApps[token] = appID
	body := map[string]any{
		"token":                token,
		"expires_at":           time.Now().UTC().Add(time.Hour).Truncate(time.Second).Format(time.RFC3339),
		"permissions":          map[string]any{"checks": "write", "pull_requests": "write", "issues": "write", "contents": "read", "metadata": "read", "security_events": "write"},
		"repository_selection": "all",
	}
	return jsonResponse(http.StatusCreated, fillSchema(responseSchema(c.in, http.StatusCreated), body))
}
