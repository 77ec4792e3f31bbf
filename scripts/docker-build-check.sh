#!/usr/bin/env bash
# Checks the GitHub App's image (the Dockerfile: `interleave serve`).
#
# With a Docker engine: builds the image, then runs `interleave version`, the
# entrypoint without the App's id and key (must exit 2 with a clear message),
# and checks what the pull requests' tests need (go, git, gcc, bwrap for
# the job sandbox; GOTOOLCHAIN=auto) and that the server does not run as
# root.
# Without one: repeats the Dockerfile's own go build command line on a copy
# of the build context that honors .dockerignore, and runs the binary
# (internal/ghaction TestDockerfileBuild, which runs only with
# INTERLEAVE_DOCKERFILE=1).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
	tag=interleave-app:check
	docker build -t "$tag" .
	docker run --rm --entrypoint interleave "$tag" version
	set +e
	out=$(docker run --rm "$tag" 2>&1)
	code=$?
	set -e
	printf '%s\n' "$out"
	if [ "$code" != 2 ] || ! grep -q -- '-app-id is required' <<<"$out"; then
		echo "docker-build-check: serve without -app-id did not give exit 2 and a clear message (exit $code)" >&2
		exit 1
	fi
	docker run --rm --entrypoint sh "$tag" -c \
		'go version && git --version && gcc --version | head -n 1 && bwrap --version && test "$(go env GOTOOLCHAIN)" = auto && test "$(id -u)" != 0'
	echo "docker-build-check: image $tag is good"
else
	echo "docker-build-check: no Docker engine; repeating the Dockerfile's build outside Docker" >&2
	INTERLEAVE_DOCKERFILE=1 go test -count=1 -v -run 'TestDockerfileBuild|TestParseDockerfile|TestDockerIgnored' ./internal/ghaction/
fi
