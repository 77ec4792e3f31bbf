# The image of the GitHub App: `interleave serve` on top of a Go toolchain,
# since the pull requests' tests are built and run (with -race, which needs
# cgo, gcc and libc: golang:*-bookworm has them, and git). The GitHub Action
# does not use it: action.yml is a composite action on the runner's own Go.
# The base is pinned by tag and digest; see docs/github.md, "Known gaps".

FROM golang:1.26.8-bookworm@sha256:a688600ca24f8a4d3ca77f95b0dd40704a9fc787c826660eb7ba0b641b8b175d AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags="-s -w -X main.version=${VERSION}" -o /out/interleave ./cmd/interleave

FROM golang:1.26.8-bookworm@sha256:a688600ca24f8a4d3ca77f95b0dd40704a9fc787c826660eb7ba0b641b8b175d
# The go and toolchain lines of the project under review choose its Go.
ENV GOTOOLCHAIN=auto
# Each job runs in a bubblewrap sandbox (docs/serve.md, "Security model"):
# user, pid, net, ipc and uts namespaces, only its clone writable, the
# network only through the server's proxy to -sandbox-allow-host. The server itself is not root either, so it gets no cgroup per
# job: its watchdog enforces -sandbox-memory and -sandbox-disk. The queue and the clones
# live in /var/lib/interleave (mount a volume there).
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \
	&& rm -rf /var/lib/apt/lists/* \
	&& useradd --create-home --uid 10001 interleave \
	&& mkdir -p /var/lib/interleave && chown interleave:interleave /var/lib/interleave \
	&& git --version && gcc --version && bwrap --version
COPY --from=build /out/interleave /usr/local/bin/interleave
USER interleave
WORKDIR /var/lib/interleave
EXPOSE 8080
ENTRYPOINT ["interleave", "serve", "-db", "/var/lib/interleave/queue.db", "-workdir", "/var/lib/interleave/work"]
