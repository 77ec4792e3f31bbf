#!/usr/bin/env bash
# Runs the heavy evaluations kept out of the default go test ./...: every
# test behind the heavy build tag (each names the default test that still
# fails when the behaviour it checks breaks), with the default tests
# beside them: go test -tags heavy -timeout 60m ./... (docs/developing.md,
# "Tests"). Extra arguments go to go test: scripts/heavy.sh -run TestX.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -tags heavy -timeout 60m "$@" ./...
