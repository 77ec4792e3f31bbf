#!/usr/bin/env bash
# Runs `interleave test` on the complete test suites of concurrency-heavy
# open-source modules, at pinned versions, with a fixed budget, and prints
# per module: the plain `go test` result, tests, tests that ran at least
# one schedule with no tool note, schedules per test and findings by rule.
# docs/applicability.md has the figures and the triage of every finding.
#
# Usage: bench/applicability.sh [-budget 60s] [-seed 1] [-out DIR] [-race-check] [-no-plain] [-driver cli|lib] [-set main|new|third|fourth|fifth|sixth|seventh|eighth|ninth] [module@version ...]
#
# -race-check also runs each suite under go test -race; -no-plain skips the
# plain go test run (its column then shows "-"). -set new measures the second
# set of modules (never used while fixing the first; docs/applicability.md),
# -set third a third one, -set fourth a fourth, -set fifth a fifth, -set
# sixth a sixth, -set seventh a seventh, -set eighth an eighth, -set ninth a ninth.
#
# Needs Go, git, jq and a C compiler (the race detector); fetches the
# modules through the module proxy. Raw output (go test -json, the search's
# JSON and standard error, the schedule files) is kept under DIR (default
# $TMPDIR/interleave-applicability); the summary is DIR/summary.md.
set -euo pipefail

budget=60s
seed=1
out="${TMPDIR:-/tmp}/interleave-applicability"
race_check=0
plain=1
driver=auto
set=main
mods=()
while [ $# -gt 0 ]; do
	case "$1" in
	-budget) budget="$2"; shift 2 ;;
	-seed) seed="$2"; shift 2 ;;
	-out) out="$2"; shift 2 ;;
	-race-check) race_check=1; shift ;;
	-no-plain) plain=0; shift ;;
	-driver) driver="$2"; shift 2 ;;
	-set) set="$2"; shift 2 ;;
	-h|-help|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "applicability: unknown flag $1" >&2; exit 2 ;;
	*) mods+=("$1"); shift ;;
	esac
done
if [ ${#mods[@]} -eq 0 ] && [ "$set" = new ]; then
	# The second set: a worker pool, circuit breakers, resiliency patterns
	# (breaker, deadline, semaphore, batcher, retrier), a cache with a
	# janitor, a debouncer, a rate limiter, a job scheduler, an event bus.
	mods=(
		github.com/gammazero/workerpool@v1.3.0
		github.com/sony/gobreaker/v2@v2.4.0
		github.com/eapache/go-resiliency@v1.7.0
		github.com/patrickmn/go-cache@v2.1.0+incompatible
		github.com/bep/debounce@v1.2.1
		go.uber.org/ratelimit@v0.3.1
		github.com/reugn/go-quartz@v0.15.2
		github.com/asaskevich/EventBus@v0.0.0-20200907212545-49d423059eef
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = third ]; then
	# The third set, first run on 2026-11-27 with no change made for it
	# before: resource and worker pools, a cron scheduler, an LRU cache, a
	# sharded cache, retries with backoff, actor groups, two clock
	# libraries (real and mock timers) and a goroutine leak checker.
	mods=(
		github.com/jackc/puddle/v2@v2.2.3
		github.com/Jeffail/tunny@v0.1.4
		github.com/robfig/cron/v3@v3.0.1
		github.com/hashicorp/golang-lru/v2@v2.0.7
		github.com/allegro/bigcache/v3@v3.1.0
		github.com/cenkalti/backoff/v5@v5.0.3
		github.com/oklog/run@v1.2.0
		github.com/jonboulle/clockwork@v0.5.0
		github.com/benbjohnson/clock@v1.3.5
		go.uber.org/goleak@v1.3.0
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = fourth ]; then
	# The fourth set, chosen on 2026-12-05 from modules no earlier run had
	# used (first run with no change made for it): concurrent data
	# structures with a batcher and tries, metrics with reporters and
	# sinks, logging with a flush daemon, error groups, a resource pool,
	# token buckets and a rate limiter.
	mods=(
		github.com/Workiva/go-datastructures@v1.1.7
		github.com/uber-go/tally/v4@v4.1.17
		github.com/armon/go-metrics@v0.7.0
		github.com/jackc/puddle@v1.3.0
		github.com/juju/ratelimit@v1.0.2
		github.com/golang/glog@v1.2.5
		github.com/hashicorp/go-multierror@v1.1.1
		github.com/throttled/throttled/v2@v2.15.0
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = fifth ]; then
	# The fifth set, chosen on 2026-12-05 (fifty-third session) from
	# modules no earlier run had used, before its first run: sharded and
	# lock-free maps, a lock wrapper that detects deadlocks, an unbounded
	# channel, a token-bucket store with a sweeper, generic caches with
	# janitors, an in-memory database with watch channels, metrics with
	# meters and tickers, and a cache with singleflight groups.
	mods=(
		github.com/orcaman/concurrent-map/v2@v2.0.1
		github.com/sasha-s/go-deadlock@v0.3.9
		github.com/smallnest/chanx@v1.2.0
		github.com/alphadose/haxmap@v1.4.0
		github.com/sethvargo/go-limiter@v0.7.1
		github.com/Code-Hex/go-generics-cache@v1.5.1
		github.com/hashicorp/go-memdb@v1.3.5
		github.com/rcrowley/go-metrics@v0.0.0-20250401214520-65e299d6c5c9
		github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = sixth ]; then
	# The sixth set, chosen on 2026-12-06 (sixty-first session) from
	# modules no earlier run had used, before its first run: two
	# concurrent caches with eviction goroutines, concurrent maps and
	# locks, a sharded byte cache, a log roller with a background mill,
	# an HTTP client with retries (test servers), an MQTT client (its
	# network tests on pipes), a logger with locked sinks, a logger with
	# a lock-free diode, and a WebSocket library.
	mods=(
		github.com/dgraph-io/ristretto/v2@v2.4.2
		github.com/maypok86/otter/v2@v2.4.0
		github.com/puzpuzpuz/xsync/v4@v4.5.0
		github.com/VictoriaMetrics/fastcache@v1.13.2
		gopkg.in/natefinch/lumberjack.v2@v2.2.1
		github.com/hashicorp/go-retryablehttp@v0.7.8
		github.com/eclipse/paho.mqtt.golang@v1.5.1
		github.com/hashicorp/go-hclog@v1.6.3
		github.com/rs/zerolog@v1.35.1
		github.com/coder/websocket@v1.8.15
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = seventh ]; then
	# The seventh set, chosen on 2026-12-06 (sixty-third session) from
	# modules no earlier dynamic run had used, before its first run: an
	# embedded database with concurrent transactions, a consensus library
	# on an in-memory transport, a worker pool, a batching processor with
	# timers, a JSON-RPC connection, an HTTP resource cache with refresh
	# workers, a circuit breaker with a clock, a logger with a locked
	# writer, a toolkit of pools and lock-free structures, and a gossip
	# membership library on loopback sockets.
	mods=(
		go.etcd.io/bbolt@v1.5.0
		github.com/hashicorp/raft@v1.8.0
		github.com/alitto/pond@v1.9.2
		go.opentelemetry.io/collector/processor/batchprocessor@v0.165.0
		github.com/sourcegraph/jsonrpc2@v0.2.3
		github.com/lestrrat-go/httprc/v3@v3.0.6
		github.com/rubyist/circuitbreaker@v2.2.1+incompatible
		github.com/go-kit/log@v0.2.1
		github.com/bytedance/gopkg@v0.1.4
		github.com/hashicorp/memberlist@v0.7.0
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = eighth ]; then
	# The eighth set, chosen on 2026-12-07 (sixty-ninth session) from
	# modules no earlier dynamic run had used, before its first run: a
	# connection multiplexer on loopback listeners, a WebSocket library,
	# a JSON-RPC server and client on channels, an HTTP rate limiter, a
	# generic worker pool with batches, a clock with a test clock and
	# alarms, a file tailer, a Redis-protocol server with pub/sub,
	# retries with timers and contexts, and a message router with an
	# in-memory pub/sub.
	mods=(
		github.com/soheilhy/cmux@v0.1.5
		github.com/gorilla/websocket@v1.5.3
		github.com/creachadair/jrpc2@v1.3.6
		github.com/go-chi/httprate@v0.16.1
		github.com/go-pkgz/pool@v0.9.0
		github.com/juju/clock@v1.1.1
		github.com/nxadm/tail@v1.4.11
		github.com/tidwall/redcon@v1.6.4
		github.com/avast/retry-go/v4@v4.7.0
		github.com/ThreeDotsLabs/watermill@v1.5.1
	)
elif [ ${#mods[@]} -eq 0 ] && [ "$set" = ninth ]; then
	# The ninth set, chosen on 2026-12-07 (seventy-first session) from
	# modules no earlier run had used, before its first run (committed
	# after it): a cache with a singleflight group, an object pool with
	# condition variables and an abandoned-object sweeper, a state machine
	# whose callbacks may start transitions, and an embedded database with
	# a background manager.
	mods=(
		github.com/bluele/gcache@v0.0.2
		github.com/jolestar/go-commons-pool/v2@v2.1.2
		github.com/looplab/fsm@v1.0.3
		github.com/tidwall/buntdb@v1.3.0
	)
elif [ "$set" != main ]; then
	echo "applicability: unknown set $set (main, new, third, fourth, fifth, sixth, seventh, eighth or ninth)" >&2
	exit 2
fi
if [ ${#mods[@]} -eq 0 ]; then
	# Pools, a structured-concurrency library, a cache, a job scheduler,
	# pub/sub, a rate limiter and errgroup/semaphore/singleflight, a
	# stream multiplexer (RPC transport).
	mods=(
		github.com/panjf2000/ants/v2@v2.12.1
		github.com/alitto/pond/v2@v2.7.1
		github.com/sourcegraph/conc@v0.3.0
		github.com/jellydator/ttlcache/v3@v3.4.1
		github.com/go-co-op/gocron/v2@v2.21.2
		github.com/cskr/pubsub/v2@v2.0.2
		golang.org/x/time@v0.16.0
		golang.org/x/sync@v0.25.0
		github.com/hashicorp/yamux@v0.1.2
	)
fi
for t in go jq gcc; do
	command -v "$t" >/dev/null || { echo "applicability: $t not found" >&2; exit 2; }
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out/bin"
out="$(cd "$out" && pwd)"
# GOWORK=off: each module runs alone, as the proxy serves it; a go.work in
# its zip (dataloadgen's) names directories the zip lacks, and workspace
# mode refuses -mod=mod (as bench/precision's scripts do).
export CGO_ENABLED=1 GOFLAGS=-mod=mod GOWORK=off
echo "applicability: building interleave from $repo ($(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown))" >&2
(cd "$repo" && go build -o "$out/bin/interleave" ./cmd/interleave && go build -o "$out/bin/applicability" ./bench/applicability)
git -C "$repo" rev-parse HEAD >"$out/commit" 2>/dev/null || true
if [ "$driver" = auto ]; then
	# The CLI is used when its JSON carries per-test schedule counts
	# (it then documents -v); older checkouts use the library driver.
	help="$("$out/bin/interleave" test -h 2>&1 || true)"
	if printf '%s\n' "$help" | grep -q -- '^  -v'; then driver=cli; else driver=lib; fi
fi
echo "applicability: driver $driver, budget $budget, seed $seed, results in $out" >&2

for mv in "${mods[@]}"; do
	name="$(echo "$mv" | tr '/@' '__')"
	res="$out/$name"
	rm -rf "$res"
	mkdir -p "$res"
	echo "$mv" >"$res/module"
	echo "$driver" >"$res/driver"
	echo "== $mv" >&2
	dir="$(go mod download -json "$mv" | jq -r .Dir)"
	if [ -z "$dir" ] || [ "$dir" = null ]; then
		echo "applicability: cannot download $mv" >&2
		echo "download failed" >"$res/plain.exit"
		continue
	fi
	src="$res/src"
	cp -r "$dir" "$src"
	chmod -R u+w "$src"
	# A module from before go.mod (a +incompatible or untagged version)
	# gets one at go 1.16, the version the go command assumes for it.
	if [ ! -f "$src/go.mod" ]; then
		(cd "$src" && go mod init "${mv%@*}" >/dev/null 2>&1 && go mod edit -go=1.16 && go mod tidy >/dev/null 2>&1 || true)
	fi
	# A module of a multi-module repository (go.opentelemetry.io/otel/sdk)
	# replaces its siblings with directories ("=> ../", "=> ./metric")
	# that the proxy's zip does not hold (no go.mod there): those are dropped, so the
	# siblings come from the proxy at the versions go.mod requires (as
	# bench/regressions/run.sh does for "../").
	for rep in $( (cd "$src" && go mod edit -json 2>/dev/null | jq -r '.Replace[]? | select(.New.Path | startswith("./") or startswith("../")) | .Old.Path + (if .Old.Version then "@" + .Old.Version else "" end) + "=" + .New.Path') || true); do
		[ -f "$src/${rep#*=}/go.mod" ] || (cd "$src" && go mod edit -dropreplace="${rep%%=*}") || true
	done
	# Test dependencies too; a module whose go.sum misses some gets them.
	(cd "$src" && go mod download all >/dev/null 2>&1 || go mod tidy >/dev/null 2>&1 || true)

	set +e
	if [ "$plain" = 1 ]; then
		(cd "$src" && go test -json -count=1 ./... >"$res/plain.json" 2>"$res/plain.stderr")
		echo $? >"$res/plain.exit"
	fi
	if [ "$race_check" = 1 ]; then
		(cd "$src" && go test -race -json -count=1 ./... >"$res/race.json" 2>"$res/race.stderr")
		echo $? >"$res/race.exit"
	fi
	start=$(date +%s)
	if [ "$driver" = cli ]; then
		(cd "$src" && "$out/bin/interleave" test -budget "$budget" -seed "$seed" -format json \
			-schedules "$res/schedules" -o "$res/interleave.json" ./... 2>"$res/interleave.stderr")
		echo $? >"$res/interleave.exit"
	else
		(cd "$src" && "$out/bin/applicability" run -budget "$budget" -seed "$seed" \
			-o "$res/interleave.json" ./... 2>"$res/interleave.stderr")
		echo $? >"$res/interleave.exit"
		if [ -d "$src/.interleave/schedules" ]; then cp -r "$src/.interleave/schedules" "$res/schedules"; fi
	fi
	set -e
	echo "$(( $(date +%s) - start ))s" >"$res/interleave.wall"
	tail -n 1 "$res/interleave.stderr" >&2 || true
done

"$out/bin/applicability" summary "$out" | tee "$out/summary.md"
