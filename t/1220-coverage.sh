#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# gcov coverage of kernel/sched over a set of runs, on 6.12: a build made
# with --instrument coverage, whose simulator writes its counts where
# --coverage says; 'linsched coverage' over a few suite patterns on a
# dual, 1 s each. Bandwidth (cpu.max) reaches throttle_cfs_rq(); groups of
# unequal weight without a quota never do. The same set again, from the
# cache, gives the same bytes; a result whose counts were removed is run
# again. Bad patterns and revisions are refused with their names.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 12
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rev=$TEST_V612
set_bw='groupbw-q50-p10ms-*'
set_nobw='groupweight-g2-w2to1-*'

# fn FILE NAME KEY: a function's KEY in coverage.json
fn() {
	json "$1" "[f[a[1]] for f in r['functions'] if f['file'] == 'kernel/sched/fair.c' and f['function'] == a[0]][0]" "$2" "$3"
}
# unreached FILE NAME: whether fair.c lists NAME among its never-reached
unreached() {
	json "$1" "a[0] in [f['function'] for f in r['unreached']['kernel/sched/fair.c']]" "$2"
}

exe=$("$LINSCHED" build --instrument coverage "$rev")
s=$?
"$exe" --topology dual --workload 'hog*2' --duration 100ms --coverage "$tmp/counts"
t=$?
# gcc named the counts after the directory the build was made in, BUILD.tmp.PID
build=$(dirname "$exe")
test_expect_success "the coverage build's simulator writes its counts under --coverage DIR as o/kernel/sched/*.gcda (exit $s, $t), none where the build was made" \
	'[ $s = 0 ] && [ $t = 0 ] && [ -s "$tmp/counts/o/kernel/sched/fair.gcda" ] &&
	 [ -s "$tmp/counts/o/kernel/sched/core.gcda" ] &&
	 ! ls -d "$build".tmp.* 2>/dev/null'

plain=$("$LINSCHED" build "$rev")
"$plain" --topology dual --workload hog --duration 10ms --coverage "$tmp/none" 2> "$tmp/plain.err"
s=$?
test_expect_success "a plain build's simulator refuses --coverage (exit $s): $(cat "$tmp/plain.err")" \
	'[ $s = 2 ] && grep -q "no gcov counters" "$tmp/plain.err" && [ ! -e "$tmp/none" ]'

"$LINSCHED" coverage "$rev" --topology dual --duration 1s --match "$set_bw" \
	--top 1000 --out "$tmp/bw" > "$tmp/bw.out" 2> "$tmp/bw.err"
s=$?
"$LINSCHED" coverage "$rev" --topology dual --duration 1s --match "$set_nobw" \
	--top 1000 --out "$tmp/nobw" > "$tmp/nobw.out" 2> "$tmp/nobw.err"
t=$?
fair=$(json "$tmp/nobw/coverage.json" "[f['percent'] for f in r['files'] if f['file'] == a[0]][0]" kernel/sched/fair.c)
core=$(json "$tmp/nobw/coverage.json" "[f['percent'] for f in r['files'] if f['file'] == a[0]][0]" kernel/sched/core.c)
test_expect_success "coverage of two patterns with cpu.max and four of weighted groups (exit $s, $t): 2 and 4 runs, all with counts; fair.c $fair %, core.c $core %" \
	'[ $s = 0 ] && [ $t = 0 ] &&
	 [ "$(json "$tmp/bw/coverage.json" "(r[a[0]], r[a[1]], r[a[2]])" runs finished without_counts)" = "(2, 2, 0)" ] &&
	 [ "$(json "$tmp/nobw/coverage.json" "(r[a[0]], r[a[1]], r[a[2]])" runs finished without_counts)" = "(4, 4, 0)" ] &&
	 within "$fair" 40 100 && within "$core" 20 100'

# shares FILE: each file's executed lines within its lines, its percent
# their share (0 to 100), and the total the files' sum
shares() {
	json "$1" "all(0 <= f[a[0]] <= f[a[1]] and 0 <= f[a[2]] <= 100 and abs(f[a[2]] - 100 * f[a[0]] / f[a[1]]) < 0.01 for f in r[a[3]])" executed lines percent files | grep -qx True &&
	json "$1" "r[a[0]][a[1]] == sum(f[a[1]] for f in r[a[2]]) and r[a[0]][a[3]] == sum(f[a[3]] for f in r[a[2]])" total lines files executed | grep -qx True
}
test_expect_success "every figure is a share from 0 to 100 of its lines, and the total is the files' sum" \
	'shares "$tmp/bw/coverage.json" && shares "$tmp/nobw/coverage.json"'

test_expect_success "the files are kernel/sched's own C files, those build_policy.c and build_utility.c include among them (rt.c, idle.c, topology.c)" \
	'json "$tmp/nobw/coverage.json" "sorted(f[a[0]] for f in r[a[1]])" file files > "$tmp/files" &&
	 grep -q "kernel/sched/rt.c" "$tmp/files" && grep -q "kernel/sched/idle.c" "$tmp/files" &&
	 grep -q "kernel/sched/topology.c" "$tmp/files" && ! grep -q "build_policy\|\.h" "$tmp/files"'

calls=$(fn "$tmp/bw/coverage.json" throttle_cfs_rq calls)
test_expect_success "with cpu.max, throttle_cfs_rq() ran: $calls calls, $(fn "$tmp/bw/coverage.json" throttle_cfs_rq executed) of its $(fn "$tmp/bw/coverage.json" throttle_cfs_rq lines) lines" \
	'[ "$calls" -gt 0 ] && [ "$(fn "$tmp/bw/coverage.json" throttle_cfs_rq executed)" -gt 0 ] &&
	 [ "$(unreached "$tmp/bw/coverage.json" throttle_cfs_rq)" = False ]'

test_expect_success "weighted groups without a quota never reach throttle_cfs_rq() nor unthrottle_cfs_rq(): both are never-reached functions of fair.c" \
	'[ "$(fn "$tmp/nobw/coverage.json" throttle_cfs_rq executed)" = 0 ] &&
	 [ "$(fn "$tmp/nobw/coverage.json" throttle_cfs_rq calls)" = 0 ] &&
	 [ "$(unreached "$tmp/nobw/coverage.json" throttle_cfs_rq)" = True ] &&
	 [ "$(unreached "$tmp/nobw/coverage.json" unthrottle_cfs_rq)" = True ]'

test_expect_success "coverage.txt has the figures and fair.c's and core.c's never-reached functions; standard output shows it" \
	'grep -q "^kernel/sched/fair.c .* $fair$" "$tmp/nobw/coverage.txt" &&
	 grep -q "functions of kernel/sched/fair.c no run reached" "$tmp/nobw/coverage.txt" &&
	 grep -q "functions of kernel/sched/core.c no run reached" "$tmp/nobw/coverage.txt" &&
	 grep -q "throttle_cfs_rq .* fair.c:" "$tmp/nobw/coverage.txt" &&
	 grep -qF "$(head -n 1 "$tmp/nobw/coverage.txt")" "$tmp/nobw.out"'

ndirs=$(ls "$LSBISECT_CACHE/coverage" | wc -l)
"$LINSCHED" coverage "$rev" --topology dual --duration 1s --match "$set_nobw" \
	--top 1000 --out "$tmp/again" > /dev/null 2>&1
s=$?
test_expect_success "the same set again (exit $s) runs nothing and gives the same coverage.json, byte for byte" \
	'[ $s = 0 ] && cmp "$tmp/nobw/coverage.json" "$tmp/again/coverage.json" &&
	 [ "$(ls "$LSBISECT_CACHE/coverage" | wc -l)" = "$ndirs" ]'

key=$(json "$tmp/nobw/coverage.json" "r[a[0]][0][a[1]]" workloads key)
rm -rf "${LSBISECT_CACHE:?}/coverage/$key"
"$LINSCHED" coverage "$rev" --topology dual --duration 1s --match "$set_nobw" \
	--top 1000 --out "$tmp/rerun" > /dev/null 2>&1
s=$?
test_expect_success "a cached result whose counts were removed is run again (exit $s): its counts are back, the figures the same" \
	'[ $s = 0 ] && [ -d "$LSBISECT_CACHE/coverage/$key/o/kernel/sched" ] &&
	 cmp "$tmp/nobw/coverage.json" "$tmp/rerun/coverage.json"'

"$LINSCHED" coverage "$rev" --topology dual --match 'groupbw-nope*' > "$tmp/out" 2> "$tmp/err"
s=$?
test_expect_success "a --match no pattern matches is refused before any run (exit $s): $(cat "$tmp/err")" \
	'[ $s = 2 ] && grep -q "^error: --match .groupbw-nope\*.: no suite pattern matches" "$tmp/err" &&
	 [ ! -s "$tmp/out" ]'

"$LINSCHED" coverage v9.9 --topology dual --match "$set_bw" > "$tmp/out" 2> "$tmp/err"
s=$?
test_expect_success "an unknown revision is an error naming it (exit $s): $(cat "$tmp/err")" \
	'[ $s = 1 ] && grep -q "^error: revision .v9.9. not found" "$tmp/err" && [ ! -s "$tmp/out" ]'

test_done
