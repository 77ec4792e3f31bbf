#!/usr/bin/env bash
# Checks the GitHub Action's image.
#
# With a Docker engine: builds the image, then runs `interleave version`, a
# bad-input `interleave action` (must exit 2 with a clear message) and checks
# the toolchain the user's tests need (go, git, gcc; GOTOOLCHAIN=auto).
# Without one: repeats the Dockerfile's own go build command line on a copy
# of the build context that honors .dockerignore, and runs the binary
# (internal/ghaction TestDockerfileBuild, which go test ./... runs only up
# to the build: INTERLEAVE_DOCKERFILE_BUILD=1 enables the rest).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
	tag=interleave-action:check
	docker build -t "$tag" .
	docker run --rm --entrypoint interleave "$tag" version
	set +e
	out=$(docker run --rm -e INPUT_BUDGET=soon "$tag" 2>&1)
	code=$?
	set -e
	printf '%s\n' "$out"
	if [ "$code" != 2 ] || ! grep -q 'input budget: "soon" is not a duration' <<<"$out"; then
		echo "docker-build-check: a bad input did not give exit 2 and a clear message (exit $code)" >&2
		exit 1
	fi
	docker run --rm --entrypoint sh "$tag" -c \
		'go version && git --version && gcc --version | head -n 1 && test "$(go env GOTOOLCHAIN)" = auto'
	echo "docker-build-check: image $tag is good"
else
	echo "docker-build-check: no Docker engine; repeating the Dockerfile's build outside Docker" >&2
	INTERLEAVE_DOCKERFILE_BUILD=1 go test -count=1 -v -run 'TestDockerfileBuild|TestParseDockerfile|TestDockerIgnored' ./internal/ghaction/
fi
