# samplerun.sh is sourced by the sample scripts (sample-b2.sh, sample-c2.sh,
# sample-30d.sh, sample-30e.sh, ...): the loop that fetches each module of a
# sample's list.md, counts its checked lines, and runs `interleave check`.
# The sourcing script sets, before calling samplerun_main "$@":
#   SCRIPT     its own name, for messages
#   here       the sample directory (list.md in, counts.tsv and the lists out)
#   LIMIT      seconds a check may run; STOP (HH:MM UTC, or a date and time
#              for a run that crosses midnight) no module starts from
#   OUT        the work directory
#   COUNT_RE   awk regex of the lines counted as lock/atomic lines
#   COUNT_MIN  fewer such lines than this: skipped (over 60,000 lines too)
#   OPTIN      1: after a default check that finished, a second one with
#              `-enable IL1008,IL1009` (findings-optin.json), and CPU seconds
#              and the opt-in columns in counts.tsv; empty: neither
#   MAXFINDINGS  no module starts once the findings so far (at most 15 a
#              module) reach it; default 60, "none": no such cut
#   ENABLE     rule IDs (IL1008,IL1009,...): one check only, with `-enable
#              $ENABLE` (OPTIN is then ignored); findings-<module>.txt gets
#              the other (default) rules' findings, optin-<module>.txt
#              these rules'; counts.tsv as with OPTIN, the opt-in columns
#              taken from the same run (status, count, seconds repeated)
#   WARMUP     non-empty (with OPTIN empty): an untimed `go vet` of the
#              patterns before the check, at most WARMLIMIT seconds
#              (default 300); counts.tsv gets CPU seconds, the warm-up's
#              exit and seconds as columns 9-11
#   WARMSKIP   non-empty (with WARMUP): a module whose warm-up hits
#              WARMLIMIT is not checked; counts.tsv records it with the
#              status warmup-timeout (no findings, check seconds 0)
# Modes: run (FROM=N starts at row N), render (findings-<module>.txt from
# $OUT, optin-<module>.txt too), plan (fetch and count only, print the
# first four columns counts.tsv would get: module, checked|skipped|
# download-failed, lock/atomic lines, lines; no check, no STOP or 60-finding
# cut, nothing written under $here).

samplefmt='.findings[]? | "\(.pos.file):\(.pos.line):\(.pos.column): \(.rule) \(.message)" + ([.related[]? | "\n\t\(.file):\(.line):\(.column): \(.message)"] | join("")) + ([.sameCause[]? | "\n\tsame cause: \(tojson)"] | join(""))'

# optrule: a jq expression, true for a finding of a rule in $ENABLE.
optrule() {
	echo "(.rule as \$r | \"${ENABLE:-IL1008,IL1009}\" | split(\",\") | index(\$r) != null)"
}

render() {
	# findings-<module>.txt: each default finding with its related positions;
	# optin-<module>.txt: the IL1008 and IL1009 findings of the second run
	# (with ENABLE: the default and the enabled rules' findings of the one run).
	for d in "$OUT"/*/; do
		[ -e "$d/findings.json" ] || continue
		name="$(basename "$d")"
		if [ -n "${ENABLE:-}" ]; then
			jq -r ".findings |= map(select($(optrule) | not)) | $samplefmt" "$d/findings.json" >"$here/findings-$name.txt"
			jq -r ".findings |= (map(select($(optrule))) | sort_by(.rule, .pos.file, .pos.line, .pos.column)) | $samplefmt" "$d/findings.json" >"$here/optin-$name.txt"
			continue
		fi
		jq -r "$samplefmt" "$d/findings.json" >"$here/findings-$name.txt"
		[ -e "$d/findings-optin.json" ] || continue
		jq -r '.findings |= map(select(.rule == "IL1008" or .rule == "IL1009")) | '"$samplefmt" "$d/findings-optin.json" >"$here/optin-$name.txt"
	done
}

# cpu FILE writes the user+sys seconds of this shell's reaped children so
# far (times runs in this shell: a command substitution would fork).
cpu() {
	times >"$1"
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1" >"$1.s"
}

# check OUT ARGS... runs the check in $res/src with the limit; sets status.
check() {
	local out="$1"
	shift
	status=0
	# A session of its own, so the watchdog stops go vet's workers too.
	(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod exec setsid nice -n 10 "$OUT/interleave" check -format json -o "$res/$out.json" "$@" $pats 2>"$res/$out.stderr") &
	pid=$!
	rm -f "$res/timedout"
	(for ((t = 0; t < LIMIT; t++)); do sleep 1; kill -0 "$pid" 2>/dev/null || exit 0; done
		touch "$res/timedout"; kill -TERM -- "-$pid" 2>/dev/null; sleep 10; kill -KILL -- "-$pid" 2>/dev/null) &
	wd=$!
	wait "$pid" || status=$?
	wait "$wd" || true
	[ -e "$res/timedout" ] && status=timeout
	return 0
}

# count ROOT sets n (lock/atomic lines) and lines of the non-test Go files
# the patterns $pats select under ROOT ("." its directory only, "./x/..."
# the subtree; vendor/ and testdata/ excluded).
count() {
	local root="$1" p d
	files=()
	for p in $pats; do
		case "$p" in
		*/...) d="$root/${p%/...}"; mapfile -t -O "${#files[@]}" files < <(find "$d" \( -name vendor -o -name testdata \) -prune -o -name '*.go' ! -name '*_test.go' -type f -print) ;;
		*) d="$root/$p"; mapfile -t -O "${#files[@]}" files < <(find "$d" -maxdepth 1 -name '*.go' ! -name '*_test.go' -type f -print) ;;
		esac
	done
	read -r n lines < <(cat /dev/null "${files[@]}" | awk "/$COUNT_RE/"' {n++} {l++} END {print n+0, l+0}')
}

# stopreached: true once STOP is reached. STOP is HH:MM (UTC, compared as
# text: a run must not cross midnight) or a date and time `date -d` reads
# ("2026-12-02 00:10 UTC"), for a run that crosses midnight.
stopreached() {
	case "$STOP" in
	[0-2][0-9]:[0-5][0-9]) [[ "$now" > "$STOP" || "$now" == "$STOP" ]] ;;
	*) [ "$(date -u +%s)" -ge "$(date -u -d "$STOP" +%s)" ] ;;
	esac
}

samplerun_main() {
	LIST="${LIST:-$here/list.md}" # sample-30g.sh sets LIST
	mkdir -p "$OUT"
	OUT="$(cd "$OUT" && pwd)"
	mapfile -t rows < <(sed -n 's/^| [0-9]* | \([^ |]*@[^ |]*\) | \(.*\) |$/\1\t\2/p' "$LIST")
	counts="$here/counts.tsv"
	local mode="${1:-run}"
	case "$mode" in
	render) render; return 0 ;;
	run | plan) ;;
	*) echo "usage: $SCRIPT run|render|plan" >&2; exit 2 ;;
	esac
	if [ "$mode" = run ]; then
		[ -n "${BIN:-}" ] && [ -n "${BIN_COMMIT:-}" ] || { echo "BIN and BIN_COMMIT are needed" >&2; exit 2; }
		cp "$BIN" "$OUT/interleave"
		echo "$BIN_COMMIT" >"$OUT/commit"
		[ -n "${FROM:-}" ] || : >"$counts"
	fi
	for ((i = ${FROM:-1} - 1; i < ${#rows[@]}; i++)); do
		mv="${rows[i]%%$'\t'*}"
		pats="${rows[i]#*$'\t'}"
		name="${mv//\//_}"
		res="$OUT/$name"
		now="$(date -u +%H:%M)"
		if [ "$mode" = run ]; then
			total="$(awk -F'\t' '$2 == "checked" && $6 ~ /^[0-9]+$/ {t += ($6 > 15 ? 15 : $6)} END {print t + 0}' "$counts")"
			if stopreached || { [ "${MAXFINDINGS:-60}" != none ] && [ "$total" -ge "${MAXFINDINGS:-60}" ]; }; then
				printf '%s\tnot-started\t\t\t\t\t%s\n' "$mv" "$now" >>"$counts"
				continue
			fi
			echo "== $((i + 1)) $mv $(date -u +%H:%M:%S)" >&2
			rm -rf "$res"
			mkdir -p "$res"
		fi
		dir="$(cd "$OUT" && GOFLAGS=-mod=mod timeout 300 go mod download -json "$mv" 2>/dev/null | jq -r .Dir)" || dir=
		if [ -z "$dir" ] || [ "$dir" = null ]; then
			if [ "$mode" = plan ]; then
				printf '%s\tdownload-failed\n' "$mv"
			else
				printf '%s\tdownload-failed\t\t\t\t\t%s\n' "$mv" "$now" >>"$counts"
			fi
			continue
		fi
		if [ "$mode" = plan ]; then
			count "$dir"
			if [ "$lines" -gt 60000 ] || [ "$n" -lt "$COUNT_MIN" ]; then
				printf '%s\tskipped\t%s\t%s\n' "$mv" "$n" "$lines"
			else
				printf '%s\tchecked\t%s\t%s\n' "$mv" "$n" "$lines"
			fi
			continue
		fi
		cp -r "$dir" "$res/src"
		chmod -R u+w "$res/src"
		count "$res/src"
		if [ "$lines" -gt 60000 ] || [ "$n" -lt "$COUNT_MIN" ]; then
			printf '%s\tskipped\t%s\t%s\t\t\t%s\n' "$mv" "$n" "$lines" "$now" >>"$counts"
			echo "   skipped ($n lock/atomic lines, $lines lines)" >&2
			continue
		fi
		# A zip without go.mod (a module from before modules): the module line
		# and its requirements, as `go mod init` and `go mod tidy` make them.
		(cd "$res/src" && {
			if [ ! -e go.mod ]; then GOFLAGS=-mod=mod go mod init "${mv%@*}" >/dev/null 2>&1; fi
			for r in $(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)\([[:space:]]v[^[:space:]]*\)\{0,1\}[[:space:]]*=>[[:space:]]*\.\{1,2\}/.*#\2#p' go.mod); do
				go mod edit -dropreplace="$r"
			done
			GOFLAGS=-mod=mod timeout 300 go mod download all >/dev/null 2>&1 || GOFLAGS=-mod=mod timeout 300 go mod tidy >/dev/null 2>&1 || true
		})
		# WARMUP: `go vet` of the patterns first, untimed (WARMLIMIT seconds at
		# most), so the check's limit and CPU seconds are the analysis's, not
		# the compiling of dependencies; its exit and seconds go to warmup.
		wnote=
		if [ -n "${WARMUP:-}" ]; then
			wstart=$SECONDS
			wstatus=0
			(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod timeout -k 10 "${WARMLIMIT:-300}" nice -n 10 go vet $pats >"$res/warmup.log" 2>&1) || wstatus=$?
			echo "$wstatus $((SECONDS - wstart))" >"$res/warmup"
			wnote=" after a ${wstatus}-exit warm-up of $((SECONDS - wstart))s"
			# timeout's exit when the limit is hit (124), or when its -k
			# kill was needed (137).
			if [ -n "${WARMSKIP:-}" ] && { [ "$wstatus" = 124 ] || [ "$wstatus" = 137 ]; }; then
				echo warmup-timeout >"$res/exit"
				printf '%s\tchecked\t%s\t%s\twarmup-timeout\t\t%s\t0\t0\t%s\n' "$mv" "$n" "$lines" "$now" "$(tr ' ' '\t' <"$res/warmup")" >>"$counts"
				echo "   warm-up hit ${WARMLIMIT:-300}s (exit $wstatus): not checked" >&2
				continue
			fi
		fi
		echo "interleave check -format json ${ENABLE:+-enable $ENABLE }-o findings.json $pats" >"$res/command"
		start=$SECONDS
		cpu "$res/cpu0"
		check findings ${ENABLE:+-enable "$ENABLE"}
		secs=$((SECONDS - start))
		cpu "$res/cpu1"
		cpus="$(awk -v a="$(cat "$res/cpu0.s")" -v b="$(cat "$res/cpu1.s")" 'BEGIN {printf "%.0f", b - a}')"
		echo "$status" >"$res/exit"
		echo "$secs" >"$res/seconds"
		nf=
		dsel=.
		[ -z "${ENABLE:-}" ] || dsel="select($(optrule) | not)"
		case $status in
		0 | 1) nf="$(jq "[.findings[]? | $dsel] | length" "$res/findings.json")" ;;
		esac
		if [ -n "${ENABLE:-}" ]; then
			no=
			case $status in
			0 | 1) no="$(jq "[.findings[]? | select($(optrule))] | length" "$res/findings.json")" ;;
			esac
			printf '%s\tchecked\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mv" "$n" "$lines" "$status" "$nf" "$now" "$secs" "$cpus" "$status" "$no" "$secs" >>"$counts"
			echo "   exit $status, ${nf:-no} default and ${no:-no} $ENABLE findings in ${secs}s (${cpus} CPU s)" >&2
			render
			continue
		fi
		if [ -z "${OPTIN:-}" ]; then
			if [ -n "${WARMUP:-}" ]; then
				# The CPU seconds and the warm-up's exit and seconds as columns 9-11.
				printf '%s\tchecked\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mv" "$n" "$lines" "$status" "$nf" "$now" "$secs" "$cpus" "$(tr ' ' '\t' <"$res/warmup")" >>"$counts"
			else
				printf '%s\tchecked\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mv" "$n" "$lines" "$status" "$nf" "$now" "$secs" >>"$counts"
			fi
			echo "   exit $status, ${nf:-no} findings in ${secs}s (${cpus} CPU s)$wnote" >&2
			render
			continue
		fi
		# The opt-in guard rules, only where the default check finished.
		ostatus=
		no=
		osecs=
		case $status in
		0 | 1)
			start=$SECONDS
			check findings-optin -enable IL1008,IL1009
			ostatus=$status
			osecs=$((SECONDS - start))
			case $ostatus in
			0 | 1) no="$(jq '[.findings[]? | select(.rule == "IL1008" or .rule == "IL1009")] | length' "$res/findings-optin.json")" ;;
			esac
			;;
		esac
		printf '%s\tchecked\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mv" "$n" "$lines" "$(cat "$res/exit")" "$nf" "$now" "$secs" "$cpus" "$ostatus" "$no" "$osecs" >>"$counts"
		echo "   exit $(cat "$res/exit"), ${nf:-no} findings in ${secs}s (${cpus} CPU s); opt-in exit ${ostatus:--}, ${no:-no} IL1008/IL1009 in ${osecs:--}s" >&2
		render
	done
}
