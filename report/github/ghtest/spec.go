package ghtest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// spec is GitHub's trimmed OpenAPI description with its router, loaded
// once per process.
type spec struct {
	doc    *openapi3.T
	router routers.Router
	took   time.Duration
}

var (
	specOnce   sync.Once
	loadedSpec *spec
	specErr    error
)

// loadSpec loads testdata/openapi.json. doc.Validate is skipped on purpose:
// GitHub's description has examples that do not match their schemas.
func loadSpec() (*spec, error) {
	specOnce.Do(func() {
		start := time.Now()
		file := filepath.Join(testdataDir(), "openapi.json")
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(file)
		if err != nil {
			specErr = fmt.Errorf("ghtest: load %s: %v", file, err)
			return
		}
		// Match paths on any host: the fake runs on 127.0.0.1.
		doc.Servers = nil
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			specErr = fmt.Errorf("ghtest: router for %s: %v", file, err)
			return
		}
		loadedSpec = &spec{doc: doc, router: router, took: time.Since(start)}
	})
	return loadedSpec, specErr
}

// SpecLoadTime reports how long loading and routing the OpenAPI description
// took in this process, loading it first if needed.
func SpecLoadTime() (time.Duration, error) {
	sp, err := loadSpec()
	if err != nil {
		return 0, err
	}
	return sp.took, nil
}

// validateRequest finds the operation of r and validates r against it. body
// is r's body, already read.
func (sp *spec) validateRequest(r *http.Request, body []byte) (*openapi3filter.RequestValidationInput, error) {
	route, params, err := sp.router.FindRoute(r)
	if err != nil {
		return nil, fmt.Errorf("no operation %s %s in GitHub's API: %v", r.Method, r.URL.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    r.Clone(context.Background()),
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
			SkipSettingDefaults: true,
			MultiError:          true,
		},
	}
	// ghinstallation sends the JSON body "null" when it has no token
	// options, and GitHub accepts it: validate it as an absent body.
	if string(bytes.TrimSpace(body)) == "null" {
		body = nil
		in.Request.ContentLength = 0
	}
	in.Request.Body = readCloser(body)
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return in, fmt.Errorf("%s %s (%s) does not match GitHub's API: %s", r.Method, r.URL.Path, route.Operation.OperationID, compactError(err))
	}
	return in, nil
}

// validateResponse checks a response the fake is about to write against the
// operation's declared responses. Statuses the operation does not declare
// are not checked (GitHub sends undeclared 401/403s too).
func (sp *spec) validateResponse(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{MultiError: true},
	}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("ghtest's own %d response to %s %s (%s) does not match GitHub's API: %s",
			status, in.Request.Method, in.Request.URL.Path, in.Route.Operation.OperationID, compactError(err))
	}
	return nil
}

// responseSchema is the JSON schema of the operation's response status.
func responseSchema(in *openapi3filter.RequestValidationInput, status int) *openapi3.Schema {
	resp := in.Route.Operation.Responses.Status(status)
	if resp == nil || resp.Value == nil {
		return nil
	}
	mt := resp.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema.Value
}

// skeleton is a minimal value valid under s: required properties filled
// with their first enum value, default, null when nullable, or a zero value.
// The fake overlays its real state on it, so that responses always carry
// every field GitHub promises.
func skeleton(s *openapi3.Schema, depth int) any {
	if s == nil || depth > 12 {
		return nil
	}
	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		for _, sub := range s.AllOf {
			if m, ok := skeleton(sub.Value, depth+1).(map[string]any); ok {
				for k, v := range m {
					merged[k] = v
				}
			}
		}
		return merged
	}
	if alts := append(append(openapi3.SchemaRefs{}, s.OneOf...), s.AnyOf...); len(alts) > 0 {
		return skeleton(alts[0].Value, depth+1)
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	if s.Default != nil {
		return s.Default
	}
	switch {
	case s.Type.Is("object") || (s.Type.IsEmpty() && len(s.Properties) > 0):
		m := map[string]any{}
		for _, name := range s.Required {
			p := s.Properties[name]
			if p == nil || p.Value == nil {
				m[name] = nil
				continue
			}
			if p.Value.Nullable {
				m[name] = nil
				continue
			}
			m[name] = skeleton(p.Value, depth+1)
		}
		return m
	case s.Type.Is("array"):
		return []any{}
	case s.Type.Is("integer"), s.Type.Is("number"):
		if s.Min != nil {
			return *s.Min
		}
		return 0
	case s.Type.Is("boolean"):
		return false
	case s.Type.Is("string"):
		switch s.Format {
		case "date-time":
			return "2026-01-01T00:00:00Z"
		case "uri", "url":
			return "https://github.com/"
		case "email":
			return "octocat@github.com"
		}
		return ""
	}
	return nil
}

// fill returns v (a JSON value) completed with skeleton values for every
// required field it lacks, recursively along s.
func fill(s *openapi3.Schema, v any) any {
	switch v := v.(type) {
	case map[string]any:
		out, ok := skeleton(s, 0).(map[string]any)
		if !ok {
			out = map[string]any{}
		}
		for k, e := range v {
			out[k] = fill(propertySchema(s, k), e)
		}
		return out
	case []any:
		var items *openapi3.Schema
		if s = firstAlternative(s); s != nil && s.Items != nil {
			items = s.Items.Value
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = fill(items, e)
		}
		return out
	}
	return v
}

// firstAlternative is s, or its first oneOf/anyOf alternative.
func firstAlternative(s *openapi3.Schema) *openapi3.Schema {
	for s != nil {
		alts := append(append(openapi3.SchemaRefs{}, s.OneOf...), s.AnyOf...)
		if len(alts) == 0 {
			return s
		}
		s = alts[0].Value
	}
	return nil
}

// propertySchema is the schema of property name of object schema s.
func propertySchema(s *openapi3.Schema, name string) *openapi3.Schema {
	s = firstAlternative(s)
	if s == nil {
		return nil
	}
	if p := s.Properties[name]; p != nil {
		return p.Value
	}
	for _, sub := range s.AllOf {
		if p := propertySchema(sub.Value, name); p != nil {
			return p
		}
	}
	return nil
}

// fillSchema returns v's JSON form completed along s; see fill.
func fillSchema(s *openapi3.Schema, v any) any {
	var src any
	if err := jsonRoundTrip(v, &src); err != nil {
		panic("ghtest: " + err.Error())
	}
	return fill(s, src)
}

func readCloser(b []byte) *nopCloser { return &nopCloser{bytes.NewReader(b)} }

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// maxErrorLen bounds a reported violation; kin-openapi's own messages
// embed whole schemas and values.
const maxErrorLen = 2000

// compactError renders a kin-openapi validation error as one line per
// violation: where it is and why, without the schema dumps.
func compactError(err error) string {
	var parts []string
	var walk func(prefix string, err error)
	walk = func(prefix string, err error) {
		switch e := err.(type) {
		case openapi3.MultiError:
			for _, sub := range e {
				walk(prefix, sub)
			}
		case *openapi3filter.RequestError:
			p := prefix
			switch {
			case e.Parameter != nil:
				p += fmt.Sprintf("parameter %q in %s: ", e.Parameter.Name, e.Parameter.In)
			case e.RequestBody != nil:
				p += "request body: "
			}
			if e.Err == nil {
				parts = append(parts, p+e.Reason)
				return
			}
			walk(p, e.Err)
		case *openapi3filter.ResponseError:
			if e.Err == nil {
				parts = append(parts, prefix+e.Reason)
				return
			}
			if e.Reason != "" {
				prefix += e.Reason + ": "
			}
			walk(prefix, e.Err)
		case *openapi3.SchemaError:
			if me, ok := e.Origin.(openapi3.MultiError); ok {
				walk(prefix, me)
				return
			}
			parts = append(parts, fmt.Sprintf("%sat %q: %s", prefix, "/"+strings.Join(e.JSONPointer(), "/"), e.Reason))
		default:
			parts = append(parts, prefix+err.Error())
		}
	}
	walk("", err)
	msg := strings.Join(parts, "; ")
	if len(msg) > maxErrorLen {
		msg = msg[:maxErrorLen] + "…"
	}
	return msg
}
