#!/usr/bin/env bash
# A -toolexec wrapper that logs each compile, link, asm and vet the go
# command runs (cached actions run no tool) with its CPU seconds:
#   TOOLCPU_LOG=/tmp/tools.log GOFLAGS=-toolexec=$PWD/scripts/toolcpu.sh go test ./PKG
# GOFLAGS reaches the go commands the tests start too. Each line: user,
# system and elapsed seconds, tool, package (link: its output file).
# Sum one tool's CPU: awk -F'\t' '$2=="link"{split($1,a," "); s+=a[1]+a[2]} END{print s}' LOG
tf=$(mktemp)
/usr/bin/time -f '%U %S %e' -o "$tf" "$@"
rc=$?
tool=$(basename "$1")
pkg=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	case "${args[$i]}" in
	-p) pkg="${args[$((i + 1))]}" ;;
	-o) out="${args[$((i + 1))]}" ;;
	esac
done
[ "$tool" = link ] && pkg="link:${out:-}"
printf '%s\t%s\t%s\t%s\n' "$(tail -1 "$tf")" "$tool" "$pkg" "${TOOLEXEC_IMPORTPATH:-}" >>"${TOOLCPU_LOG:-/tmp/toolcpu.log}"
rm -f "$tf"
exit $rc
