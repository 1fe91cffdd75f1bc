#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds made from a neighbour's objects: on a history of 10 commits on
# v6.1.192 where 8 only change a header no scheduler object includes,
# lsbisect finds the culprit with no more builds than the commits that
# change what the build reads (the others are their neighbour's build),
# a one-file change compiles one object, a change to a Makefile, a Kconfig
# file or a header only the generated ones read is kbuild's own
# incremental build from the neighbour's outputs, the executable and the
# results are byte-identical to a full kbuild's, a damaged donor or two
# builds of one revision at once change nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared --bare "$LSBISECT_REPO" "$work"
# read by the build: lb (fair.c) and note (loadavg.c); hdr: drm_file.h
make_history "$work" "hdr hdr hdr lb hdr hdr note hdr hdr hdr" 0 > "$tmp/history"
id() { awk -v k="$1" '$2 == k { print $1; exit }' "$tmp/history"; }
lb=$(id lb)
bad=$(tail -n1 "$tmp/history" | cut -d' ' -f1)

# The exports are shared; the builds are this test's own, from nothing.
shared=$LSBISECT_CACHE
mkdir -p "$tmp/cache" "$tmp/full" "$shared/trees"
ln -s "$shared/trees" "$tmp/cache/trees"
ln -s "$shared/trees" "$tmp/full/trees"
export LSBISECT_CACHE=$tmp/cache
ARGS=(--repo "$work" --topology quad --duration 1s)
W=$BISECT_W

"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --out "$tmp/out" > "$tmp/out.txt" 2>&1
status=$?
tail -n 3 "$tmp/out.txt" | sed 's/^/# /'
test_expect_success "the culprit is the lb commit (status $status)" \
	'[ $status = 0 ] && [ "$(json "$tmp/out/report.json" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'

builds=$tmp/cache/builds
real=$(find "$builds" -mindepth 1 -maxdepth 1 -type d ! -name '*.tmp.*' | wc -l)
runs=$(grep -c '"event": *"run"' "$tmp/out/log.jsonl" || true)
joined=$(grep -c 'same build as class' "$tmp/out/log.jsonl" || true)
diag "builds: $real; runs: $runs; classes joined to a tested neighbour: $joined"
test_expect_success "no more builds than GOOD and the 2 commits that change what the build reads ($real)" \
	'[ "$real" -ge 2 ] && [ "$real" -le 3 ]'
test_expect_success "classes that change only unread files take a tested neighbour's verdict, unbuilt and unrun ($joined joined, $runs runs)" \
	'[ "$joined" -ge 4 ] && [ "$runs" -le 3 ]'

# A one-file change on top of GOOD: the one object that includes it.
make_history "$work" "note" 0 one > "$tmp/one"
one=$(cut -d' ' -f1 "$tmp/one")
"$LINSCHED" build "$one" --repo "$work" > "$tmp/one.exe"
first=$(head -n1 "$(dirname "$(cat "$tmp/one.exe")")/build.log")
diag "$first"
test_expect_success "a loadavg.c change compiles one object again" \
	'case $first in "from "*": 1 of "*) true ;; *) false ;; esac'

# A Makefile is read by make, a Kconfig file by conf, neither recorded per
# target: kbuild decides from the neighbour's outputs, made this build's
# (a new allnoconfig first for the Kconfig change: a "default y" option
# stays off). The same bytes as a full kbuild's.
make_history "$work" "mk" 0 mk > "$tmp/mk"
make_history "$work" "kconf" 0 kconf > "$tmp/kconf"
for kind in mk kconf; do
	rev=$(cut -d' ' -f1 "$tmp/$kind")
	exe=$("$LINSCHED" build "$rev" --repo "$work")
	first=$(head -n1 "$(dirname "$exe")/build.log")
	diag "$kind: $first"
	full=$(LSBISECT_REUSE=0 LSBISECT_CACHE=$tmp/full "$LINSCHED" build "$rev" --repo "$work")
	test_expect_success "a $kind change: kbuild from the neighbour, the executable a full kbuild's" \
		'case $first in "from "*": kbuild, "*) true ;; *) false ;; esac && cmp "$exe" "$full"'
done
test_expect_success "the new option is off, as allnoconfig leaves it" \
	'grep -q "^# CONFIG_LSB_TEST_0 is not set" "$(dirname "$exe")/o/.config"'
# A header only the generated ones read: kbuild makes bounds.h again, the
# same, so no object changes: the executable is GOOD's, byte for byte.
make_history "$work" "gen" 0 gen > "$tmp/gen"
exe=$("$LINSCHED" build "$(cut -d' ' -f1 "$tmp/gen")" --repo "$work")
first=$(head -n1 "$(dirname "$exe")/build.log")
diag "gen: $first"
by=other
case $first in "from "*": kbuild, as 'include/linux/kbuild.h' changed") by=kbuild ;; esac
test_expect_success "a header only bounds.c reads: kbuild from the neighbour ($by), GOOD's executable" \
	'[ $by = kbuild ] && cmp "$exe" "$("$LINSCHED" build "$TEST_V61" --repo "$work")"'

# The same revision with every build a full kbuild: the same bytes.
for rev in "$bad"; do
	"$LINSCHED" run "$rev" --workload "$W" "${ARGS[@]}" --json "$tmp/r.json" \
		--trace "$tmp/r.trace" --quiet 2>/dev/null &&
	LSBISECT_REUSE=0 LSBISECT_CACHE=$tmp/full "$LINSCHED" run "$rev" --workload "$W" \
		"${ARGS[@]}" --json "$tmp/f.json" --trace "$tmp/f.trace" --quiet 2>/dev/null &&
	cmp "$tmp/r.json" "$tmp/f.json" && cmp "$tmp/r.trace" "$tmp/f.trace" &&
	cmp "$("$LINSCHED" build "$rev" --repo "$work")" \
		"$(LSBISECT_REUSE=0 LSBISECT_CACHE=$tmp/full "$LINSCHED" build "$rev" --repo "$work")"
	ok $? "${rev:0:12}: results, trace and executable byte-identical to a full kbuild's"
done
test_expect_success "those were full builds" \
	'! grep -q "^from " "$tmp"/full/builds/*/build.log'

# Two builds of one new revision at once (from a neighbour, before the
# donors are damaged below: after it they would be two full kbuilds).
make_history "$work" "note note" 0 three > "$tmp/three"
three=$(tail -n1 "$tmp/three" | cut -d' ' -f1)
"$LINSCHED" build "$three" --repo "$work" > "$tmp/a.exe" 2> "$tmp/a.err" &
pa=$!
"$LINSCHED" build "$three" --repo "$work" > "$tmp/b.exe" 2> "$tmp/b.err" &
pb=$!
wait $pa; sa=$?
wait $pb; sb=$?
diag "three: $(head -n1 "$(dirname "$(cat "$tmp/a.exe")")/build.log" 2>/dev/null)"
test_expect_success "two builds at once give one executable ($sa, $sb)" \
	'[ $sa = 0 ] && [ $sb = 0 ] && cmp "$tmp/a.exe" "$tmp/b.exe" && [ -x "$(cat "$tmp/a.exe")" ] &&
	 [ -z "$(find "$builds" -maxdepth 1 -name "*.tmp.*")" ]'

# Damaged donors: no build's objects match what it recorded any more:
# a full build, whose result is the reused one's of the revision before.
for d in $(find "$builds" -mindepth 1 -maxdepth 1 -type d ! -name '*.failed'); do
	echo damage >> "$d/o/kernel/sched/core.o"
done
make_history "$work" "hdr note" 0 two > "$tmp/two"
two=$(tail -n1 "$tmp/two" | cut -d' ' -f1)
two_exe=$("$LINSCHED" build "$two" --repo "$work") &&
"$LINSCHED" run "$two" --workload "$W" "${ARGS[@]}" --json "$tmp/r.json" --trace "$tmp/r.trace" \
	--quiet 2>/dev/null &&
"$LINSCHED" run "$one" --workload "$W" "${ARGS[@]}" --json "$tmp/o.json" --trace "$tmp/o.trace" \
	--quiet 2>/dev/null &&
cmp "$tmp/r.trace" "$tmp/o.trace"
ok $? "a damaged donor is not used: the same trace as the build it would have been"
test_expect_success "that was a full build" \
	'! grep -q "^from " "$(dirname "$two_exe")/build.log"'

test_done
