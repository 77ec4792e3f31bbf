#!/usr/bin/env bash
# sample.sh reproduces the precision sample of 2026-11-29 (issue 24): it
# runs `interleave check` with default settings on the modules listed in
# docs/precision-sample-2026-11-29.md, keeps every finding, samples at most
# 15 per module (random.Random(1) over the findings sorted by file, line,
# column, rule) and writes one triage packet per sampled finding.
#
# Usage: bench/precision/sample.sh [run|packets|all] [module@version ...]
#
#   run      download each module, copy it, run check -> $OUT/<module>/
#   packets  sample and write packets from $OUT into $PACKETS
#   all      both (default)
#
# WORKERS (default 1) modules are analyzed side by side, each worker taking
# the next module of the list not yet taken (a directory in $OUT/claims).
# OUT (default /tmp/interleave-sample-2026-11-29) keeps the copies and the
# JSON reports; PACKETS (default bench/precision/sample-2026-11-29) gets
# the packets, sample.json, findings-<module>.txt, counts.md and RULES.md.
# LIST (default docs/precision-sample-2026-11-29.md) is the list of modules;
# TIMEOUT (seconds, default none) stops a module's check after that long
# (its whole process group) and records exit "timeout". STOP (HH:MM UTC)
# starts no module from then on. BIN (with BIN_COMMIT) uses a binary built
# beforehand instead of building one.
# Needs Go, jq and python3; fetches modules through the module proxy.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-/tmp/interleave-sample-2026-11-29}"
packets="${PACKETS:-$repo/bench/precision/sample-2026-11-29}"
list="${LIST:-$repo/docs/precision-sample-2026-11-29.md}"
mode=all
case "${1:-}" in run | packets | all) mode="$1"; shift ;; esac
mods=("$@")
if [ ${#mods[@]} -eq 0 ]; then
	# The table rows of the list: "| n | module@version | why |".
	mapfile -t mods < <(sed -n 's/^| [0-9]* | \([^ |]*@[^ |]*\) |.*/\1/p' "$list")
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

run() {
	if [ -n "${BIN:-}" ]; then
		# A binary built before the run (BIN_COMMIT: the commit it was built at).
		cp "$BIN" "$out/interleave"
		echo "${BIN_COMMIT:?BIN needs BIN_COMMIT}" >"$out/commit"
	else
		(cd "$repo" && go build -o "$out/interleave.$$" ./cmd/interleave && mv "$out/interleave.$$" "$out/interleave")
		git -C "$repo" rev-parse HEAD >"$out/commit"
	fi
	mkdir -p "$out/claims"
	for mv in "${mods[@]}"; do
		name="${mv//\//_}"
		res="$out/$name"
		# Workers run side by side (WORKERS): each takes the next module
		# of the list that no worker has taken.
		# STOP (HH:MM, UTC): no module is started at or after it.
		if [ -n "${STOP:-}" ] && [[ "$(date -u +%H:%M)" > "$STOP" || "$(date -u +%H:%M)" == "$STOP" ]]; then
			echo "not run: $mv" >&2
			continue
		fi
		mkdir "$out/claims/$name" 2>/dev/null || continue
		rm -rf "$res"
		mkdir -p "$res"
		echo "== $mv $(date -u +%H:%M:%S)" >&2
		dir="$(cd "$out" && GOFLAGS=-mod=mod go mod download -json "$mv" | jq -r .Dir)" || dir=
		if [ -z "$dir" ] || [ "$dir" = null ]; then
			echo "download failed" >"$res/error"
			echo "   download failed" >&2
			continue
		fi
		cp -r "$dir" "$res/src"
		chmod -R u+w "$res/src"
		# Sibling modules replaced by ../dirs the zip lacks: use their
		# published versions (as scripts/precision.sh does).
		for r in $(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)\([[:space:]]v[^[:space:]]*\)\{0,1\}[[:space:]]*=>[[:space:]]*\.\{1,2\}/.*#\2#p' "$res/src/go.mod"); do
			echo "   dropping local replace of $r" >&2
			(cd "$res/src" && go mod edit -dropreplace="$r")
		done
		(cd "$res/src" && { GOFLAGS=-mod=mod go mod download all >/dev/null 2>&1 || GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true; })
		cmd="nice -n 10 interleave check -format json -o $res/findings.json ./..."
		echo "$cmd" >"$res/command"
		start=$SECONDS
		status=0
		if [ -n "${TIMEOUT:-}" ]; then
			# A session of its own, so the watchdog stops go vet's workers too.
			(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod exec setsid nice -n 10 "$out/interleave" check -format json -o "$res/findings.json" ./... 2>"$res/stderr") &
			pid=$!
			(for ((i = 0; i < TIMEOUT; i++)); do sleep 1; kill -0 "$pid" 2>/dev/null || exit 0; done
				touch "$res/timedout"; kill -TERM -- "-$pid" 2>/dev/null; sleep 10; kill -KILL -- "-$pid" 2>/dev/null) &
			wd=$!
			wait "$pid" || status=$?
			wait "$wd" || true
			[ -e "$res/timedout" ] && status=timeout
		else
			(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod nice -n 10 "$out/interleave" check -format json -o "$res/findings.json" ./... 2>"$res/stderr") || status=$?
		fi
		echo "$status" >"$res/exit"
		echo "$((SECONDS - start))" >"$res/seconds"
		case $status in
		0 | 1) echo "   $(jq .summary.total "$res/findings.json") findings in $((SECONDS - start))s" >&2 ;;
		*) echo "   could not run (exit $status): $res/stderr" >&2 ;;
		esac
	done
}

packets() {
	mkdir -p "$packets"
	python3 "$repo/bench/precision/packets.py" -out "$out" -packets "$packets" -list "$list" "${mods[@]}"
	python3 "$repo/bench/precision/rules.py" "$repo" "$packets/RULES.md" "$(cat "$out/commit")"
}

runall() {
	local i pids=()
	for ((i = 0; i < ${WORKERS:-1}; i++)); do
		run &
		pids+=($!)
		sleep 5
	done
	wait "${pids[@]}"
}

case $mode in
run) runall ;;
packets) packets ;;
all) runall; packets ;;
esac
