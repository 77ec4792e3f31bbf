# The interleave GitHub Action: the interleave binary on top of a Go
# toolchain, since the tests under review are built and run (with -race,
# which needs cgo, gcc and libc: golang:*-bookworm has them, and git).
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
# The workspace is mounted from the runner with another owner.
RUN git config --system --add safe.directory '*' && git --version && gcc --version
COPY --from=build /out/interleave /usr/local/bin/interleave
ENTRYPOINT ["interleave", "action"]
