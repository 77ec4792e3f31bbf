package github

import (
	"context"
	"fmt"

	gh "github.com/google/go-github/v60/github"
)

// VerifyPullHead checks that pull request n's head is still sha, the
// commit the findings are about. In the workflow_run split the report is
// an artifact of an untrusted run: posting it on a pull request whose head
// moved, or on another pull request, would put findings on the wrong code.
func VerifyPullHead(ctx context.Context, c *gh.Client, owner, repo string, n int, sha string) error {
	pr, _, err := c.PullRequests.Get(ctx, owner, repo, n)
	if err != nil {
		return fmt.Errorf("get pull request #%d: %w", n, err)
	}
	if head := pr.GetHead().GetSHA(); head != sha {
		return fmt.Errorf("pull request #%d's head is %.12s, not the analysed commit %.12s: refusing to post (a newer push will be analysed by its own run)", n, head, sha)
	}
	return nil
}
