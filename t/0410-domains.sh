#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every preset boots on each test release (6.1, 6.12, 7.2, 7.3), and the kernel's own topology code
# builds the levels and flags expected for it (CPU 0's hierarchy).
. "$(dirname "$0")/lib.sh"

ensure_kernels
# preset|expected levels of CPU 0 as "LEVEL span", then flags that must appear
expect=(
	"up||"
	"dual|MC 0-1|"
	"quad|MC 0-3|"
	"dual-socket-dual-core|MC 0-1;PKG 0-3|"
	"quad-smt|SMT 0,4;MC 0-7|SD_SHARE_CPUCAPACITY"
	"dual-socket-quad-core|MC 0-3;PKG 0-7|"
	"hex|MC 0-5|"
	"dual-socket-hex-smt|SMT 0,12;MC 0-5,12-17;PKG 0-23|SD_SHARE_CPUCAPACITY"
	"biglittle-4+4|MC 0-3;PKG 0-7|SD_ASYM_CPUCAPACITY"
	"dynamiq-1+3+4|MC 0-7|SD_ASYM_CPUCAPACITY"
	"numa-2|MC 0-3;NUMA 0-7|SD_NUMA"
	"numa-4|MC 0-3;NUMA 0-7,12-15;NUMA 0-15|SD_NUMA"
	"server-64|SMT 0,32;MC 0-15,32-47;NUMA 0-63|SD_NUMA"
)
plan $((NR_RELEASES * ${#expect[@]}))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for rev in $TEST_RELEASES; do
	for e in "${expect[@]}"; do
		IFS='|' read -r preset levels flags <<< "$e"
		"$LINSCHED" domains "$rev" --topology "$preset" > "$tmp/d" 2>&1
		status=$?
		got=$(awk '/^cpu/ { n++ } n == 1 && /^  / { printf "%s%s %s", sep, $1, $3; sep = ";" }' "$tmp/d")
		good=0
		[ $status = 0 ] && [ "$got" = "$levels" ] || good=1
		if [ -n "$flags" ] && ! sed -n '2,/^cpu1/p' "$tmp/d" | grep -q "$flags"; then
			good=1
		fi
		ok $good "$rev $preset: ${got:-no domains}${flags:+ with $flags}"
		[ $good = 0 ] || { diag "expected: $levels $flags"; sed 's/^/# /' "$tmp/d" | head -8; }
	done
done
done_testing
