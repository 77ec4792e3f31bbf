#!/usr/bin/env bash
# Runs app's TestAppUntrustedPullRequest with its two heaviest attacks: a
# pull request whose test takes 4 GiB of memory and one that writes 4 GiB
# into its build cache. Each must be stopped by interleave serve's
# watchdog limits, with a check run that says which. It takes minutes and
# gigabytes of memory and disk, so the default go test ./... leaves them out
# (docs/serve.md, section 5). Needs Linux and bubblewrap.
set -euo pipefail
cd "$(dirname "$0")/.."
INTERLEAVE_E2E_LIMITS=1 exec go test -count=1 -timeout 60m -run '^TestAppUntrustedPullRequest$' -v ./app "$@"
