#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# HRTICK as x86 kernels of each tree have it (issue 26: found through the
# VM). The arch is built with HIGH_RES_TIMERS, so SCHED_HRTICK, in every
# version. 7.x's features.h turns HRTICK on with HRTIMER_REARM_DEFERRED,
# which x86 selects and this arch cannot: the arch turns it on at boot
# where the tree ties it to that option (probe hrtick_rearm_deferred);
# 6.x keeps it off, as its tree does. With it, a fair slice ends by an
# hrtimer between ticks, and a loop beside one pinned to CPU 0 moves
# between the CPUs as on the real 7.3.4 (0.63/0.76/0.60 of a CPU, 4.5
# migrations/s in the VM); without it 7.x never moved that loop.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache

# build REV: the directory of REV's build
build() {
	local sim
	sim=$("$LINSCHED" build "$1") || return 1
	dirname "$sim"
}
b73=$(build $TEST_V73); b612=$(build $TEST_V612)
adapter=src/arch/linsched/include/asm/linsched_adapter.h
test_expect_success "SCHED_HRTICK built in both; HRTICK on at boot in $TEST_V73 only (its features.h ties it to HRTIMER_REARM_DEFERRED)" '
	grep -qx CONFIG_SCHED_HRTICK=y "$b73/o/.config" &&
	grep -qx CONFIG_SCHED_HRTICK=y "$b612/o/.config" &&
	grep -qx "#define LINSCHED_HRTICK_AS_X86 1" "$b73/$adapter" &&
	! grep -q LINSCHED_HRTICK_AS_X86 "$b612/$adapter"'

# off_tick REV: "SWITCHES OFF" for three loops on two CPUs: the switches
# away from a loop, and how many of them fell between ticks (HZ=1000)
off_tick() {
	"$LINSCHED" run "$1" --workload 'hog*3' --topology 1x2x1 --duration 2 \
		--trace "$tmp/$1.trace" --quiet || return 1
	python3 - "$tmp/$1.trace" <<'PY'
import re, sys
ev = re.compile(r'\] \S+\s+(\d+)\.(\d{9}): sched_switch: prev_comm=hog')
n = off = 0
for line in open(sys.argv[1]):
    m = ev.search(line)
    if m:
        n += 1
        off += (int(m.group(1)) * 10**9 + int(m.group(2))) % 1000000 != 0
print(n, off)
PY
}
read -r n73 off73 < <(off_tick $TEST_V73)
read -r n612 off612 < <(off_tick $TEST_V612)
test_expect_success "slices end between ticks on $TEST_V73 ($off73 of $n73 switches), on the tick on $TEST_V612 ($off612 of $n612)" '
	[ "$n73" -gt 500 ] && [ "$off73" -gt $((n73 / 2)) ] &&
	[ "$n612" -gt 500 ] && [ "$off612" = 0 ]'

# pinned REV: "MIGRATIONS SHARE0 SHARE1 SHARE2" of a loop pinned to CPU 0
# and two free ones on two CPUs, 4 s
pinned() {
	"$LINSCHED" run "$1" --workload 'hog*1:cpus=0+hog*2' --topology 1x2x1 \
		--duration 4 --json "$tmp/$1.json" --quiet || return 1
	json "$tmp/$1.json" "' '.join([str(r['metrics']['migrations']['MC'])] + ['%.3f' % (t['sum_exec_ns'] / r['duration_ns']) for t in r['tasks']])"
}
for rev in $TEST_V73 $TEST_V72; do
	read -r m s0 s1 s2 < <(pinned $rev)
	test_expect_success "$rev: the pinned loop's neighbours move (migrations $m; shares $s0 $s1 $s2; the real 7.3.4: 18, 0.63 0.76 0.60)" '
		[ "$m" -ge 8 ] && within "$s0" 0.55 0.72 && within "$s1" 0.55 0.85 &&
		within "$s2" 0.5 0.8'
done

test_done
