package github

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	gh "github.com/google/go-github/v60/github"
)

// uploadSARIF sends the SARIF file to code scanning: gzip, then base64, on
// the analysed commit and the pull request's ref. The same file also works
// with github/codeql-action/upload-sarif (sarif_file: the -sarif path),
// which needs security-events: write and computes missing fingerprints.
func (p *publisher) uploadSARIF(ctx context.Context) error {
	if len(p.in.SARIF) == 0 {
		p.note("SARIF upload requested but no SARIF file was given")
		return nil
	}
	if !json.Valid(p.in.SARIF) {
		return errors.New("the SARIF file is not valid JSON")
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(p.in.SARIF)
	if err := zw.Close(); err != nil {
		return fmt.Errorf("gzip SARIF: %w", err)
	}
	if zipped.Len() > maxSARIFGzip {
		p.note("SARIF not uploaded: %d bytes gzip-compressed, over GitHub's limit of %d", zipped.Len(), maxSARIFGzip)
		return nil
	}
	analysis := &gh.SarifAnalysis{
		CommitSHA: gh.String(p.in.HeadSHA),
		Sarif:     gh.String(base64.StdEncoding.EncodeToString(zipped.Bytes())),
		ToolName:  gh.String(CheckRunName),
	}
	if p.in.Number > 0 {
		analysis.Ref = gh.String(fmt.Sprintf("refs/pull/%d/head", p.in.Number))
	}
	id, _, err := p.c.CodeScanning.UploadSarif(ctx, p.in.Owner, p.in.Repo, analysis)
	if err != nil {
		return fmt.Errorf("upload SARIF: %w", err)
	}
	p.res.SARIFID = id.GetID()
	return nil
}
