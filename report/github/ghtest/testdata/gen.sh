#!/bin/sh
# Regenerates openapi.json and webhooks/*.json from GitHub's published
# OpenAPI description and webhook examples (npm packages, pinned below).
# Needs npm and go. Run from anywhere: report/github/ghtest/testdata/gen.sh
set -eu

OPENAPI_VERSION=23.0.2
WEBHOOKS_VERSION=7.6.1

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm pack --silent "@octokit/openapi@$OPENAPI_VERSION" "@octokit/webhooks-examples@$WEBHOOKS_VERSION" >/dev/null
mkdir openapi webhooks
tar xzf "octokit-openapi-$OPENAPI_VERSION.tgz" -C openapi
tar xzf "octokit-webhooks-examples-$WEBHOOKS_VERSION.tgz" -C webhooks

cd "$root"
go run ./report/github/ghtest/testdata/trim "$tmp/openapi/package/generated/api.github.com.json" >"$tmp/openapi.json"
mv "$tmp/openapi.json" "$here/openapi.json"
rm -rf "$here/webhooks"
mkdir "$here/webhooks"
go run ./report/github/ghtest/testdata/extract "$tmp/webhooks/package/api.github.com/index.json" "$here/webhooks"
