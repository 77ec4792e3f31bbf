#!/usr/bin/env bash
# run.sh: the guarded-by rules (IL1001, IL1007, IL1008 and the default
# sub-rule IL1009) alone on the modules of the earlier samples whose
# default check finished (modules.tsv: the checked rows with exit 0 or 1
# of sample-2026-11-30b and -30c, with their package patterns, and of
# sample-2026-11-29, whose patterns were ./...), one module at a time
# under nice -n 10, LIMIT seconds (default 300) each. Sources come from
# the Go module proxy (go mod download), copied to OUT/src.
# Usage: BIN=path/to/interleave OUT=dir [RULES=IL1001,...] [ONLY=regexp] [LIST=modules file] run.sh
set -u
here="$(cd "$(dirname "$0")" && pwd)"
B="${BIN:?BIN=interleave binary}"
OUT="${OUT:?OUT=output directory}"
RULES="${RULES:-IL1001,IL1007,IL1008,IL1009}"
LIMIT="${LIMIT:-300}"
ONLY="${ONLY:-.}"
mkdir -p "$OUT/src"
while IFS=$'\t' read -r mv sample pats; do
	echo "$mv" | grep -Eq "$ONLY" || continue
	name="${mv//\//_}"
	dir=$(GOFLAGS=-mod=mod go mod download -json "$mv" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$dir" ]; then echo "$mv $sample not served"; continue; fi
	src="$OUT/src/$name"
	if [ ! -d "$src" ]; then
		cp -r "$dir" "$src" && chmod -R u+w "$src"
		# As the samples' scripts did: a module from before modules gets
		# go mod init; replaces of sibling directories are dropped.
		(cd "$src" && {
			if [ ! -e go.mod ]; then GOFLAGS=-mod=mod go mod init "${mv%@*}" >/dev/null 2>&1; fi
			for r in $(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)\([[:space:]]v[^[:space:]]*\)\{0,1\}[[:space:]]*=>[[:space:]]*\.\{1,2\}/.*#\2#p' go.mod); do
				go mod edit -dropreplace="$r"
			done
			GOFLAGS=-mod=mod timeout 300 go mod download all >/dev/null 2>&1 || GOFLAGS=-mod=mod timeout 300 go mod tidy >/dev/null 2>&1 || true
		})
	fi
	start=$SECONDS
	(cd "$src" && GOWORK=off GOFLAGS=-mod=mod timeout "$LIMIT" nice -n 10 "$B" check -disable all -enable "$RULES" $pats >"$OUT/$name.txt" 2>"$OUT/$name.err")
	rc=$?
	counts=""
	for r in ${RULES//,/ }; do counts="$counts $r=$(grep -c ": $r " "$OUT/$name.txt")"; done
	echo "$mv $sample rc=$rc $((SECONDS - start))s$counts"
done <"${LIST:-$here/modules.tsv}"
