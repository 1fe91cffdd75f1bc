#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# 7.x is built with the preemption model real x86 kernels of it run:
# PREEMPT_LAZY (issue 26, part 3). x86 selects ARCH_HAS_PREEMPT_LAZY from
# 6.13 on, and the tree's kernel/Kconfig.preempt then makes PREEMPT_LAZY
# the default and no longer offers PREEMPT_VOLUNTARY (PREEMPT_NONE needs
# ARCH_NO_PREEMPT); Debian's amd64 configs of 7.2 and 7.3 have
# PREEMPT_LAZY (PREEMPT_DYNAMIC, booting lazy). The arch selects
# ARCH_HAS_PREEMPT_LAZY too where the tree has it (probe 'preempt_lazy');
# 6.x trees stay PREEMPT_NONE.
#
# What lazy changes: a fair wakeup preemption only sets
# TIF_NEED_RESCHED_LAZY (resched_curr_lazy()), and on a remote CPU
# without an IPI (__resched_curr()); the tick makes it TIF_NEED_RESCHED
# (sched_tick()), and the return to user mode acts on both bits
# (exit_to_user_mode_loop()). So a wakee pinned beside a hog and woken
# from the other CPU waits for that CPU's next interrupt, where a
# PREEMPT_NONE kernel's resched IPI runs it at once. With HRTICK (on in
# 7.x as on x86: t/0547) that interrupt is mostly at once too: the
# enqueue beside the lone hog starts the hog's hrtick through an IPI to
# its CPU (hrtick_update(), hrtick_start()), whose return acts on the
# lazy bit; when the hrtick is already queued there is no IPI, and the
# wakee runs at the next tick (up to 1 ms at HZ=1000). Woken on its own
# CPU (its timer's interrupt) it preempts the hog at once in both.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache

# A hog on CPU 1 and a short task pinned beside it, woken every 3.3 ms by
# a task on CPU 0 (remote) or by its own timer (local).
cat > "$tmp/remote.json" <<'EOF'
{
	"global": { "duration": 1 },
	"tasks": {
		"hog": { "cpus": [1], "run": 1000000000 },
		"waker": { "cpus": [0], "timer": { "ref": "t", "period": 3300 },
			   "run": 50, "resume": "wakee" },
		"wakee": { "cpus": [1], "suspend": "wakee", "run": 100 }
	}
}
EOF
cat > "$tmp/local.json" <<'EOF'
{
	"global": { "duration": 1 },
	"tasks": {
		"hog": { "cpus": [1], "run": 1000000000 },
		"wakee": { "cpus": [1], "timer": { "ref": "t", "period": 3300 },
			   "run": 100 }
	}
}
EOF

# config REV: the generated .config of REV's build
config() {
	local sim
	sim=$("$LINSCHED" build "$1") || return 1
	echo "$(dirname "$sim")/o/.config"
}

# run REV NAME WORKLOAD: a 1 s run on 'dual' with --json and --trace
run() {
	"$LINSCHED" run "$1" --workload "$3" --topology dual --duration 1s \
		--json "$tmp/$2.json" --trace "$tmp/$2.trace" --quiet
}

# wakee_latency TRACE: "N IMMEDIATE ATTICK MAXUS" over the wakee's wakeups:
# how many, how many ran at the wakeup's instant, how many ran at a tick
# of CPU 1 (a whole millisecond), and the longest wait in microseconds
wakee_latency() {
	python3 - "$1" <<'PY'
import re, sys
# a trace's time: 6 decimals, or 9 (ns)
ev = re.compile(r'\[(\d+)\] \S+\s+(\d+)\.(\d{9}|\d{6}): (sched_wakeup|sched_switch): (.*)')
pend, n, now, tick, worst = None, 0, 0, 0, 0
for line in open(sys.argv[1]):
    m = ev.search(line)
    if not m:
        continue
    ns = int(m.group(2)) * 10**9 + int(m.group(3)) * 10**(9 - len(m.group(3)))
    if m.group(4) == 'sched_wakeup' and 'comm=wakee ' in m.group(5):
        pend = ns
    elif m.group(4) == 'sched_switch' and 'next_comm=wakee ' in m.group(5) \
            and pend is not None:
        n += 1
        now += ns == pend
        tick += m.group(1) == '001' and ns % 1000000 == 0
        worst = max(worst, (ns - pend) // 1000)
        pend = None
print(n, now, tick, worst)
PY
}

# ---- 1. the builds' models ----
c73=$(config $TEST_V73)
test_expect_success "$TEST_V73 is built PREEMPT_LAZY, as x86 selects ARCH_HAS_PREEMPT_LAZY" '
	grep -qx CONFIG_ARCH_HAS_PREEMPT_LAZY=y "$c73" &&
	grep -qx CONFIG_PREEMPT_LAZY=y "$c73" &&
	! grep -q "^CONFIG_PREEMPT_\(NONE\|VOLUNTARY\)=y" "$c73"'

c612=$(config $TEST_V612)
test_expect_success "$TEST_V612 stays PREEMPT_NONE (its tree has no lazy preemption)" '
	grep -qx CONFIG_PREEMPT_NONE=y "$c612" &&
	! grep -q "^CONFIG_\(ARCH_HAS_\)\?PREEMPT_LAZY=y" "$c612" &&
	! grep -q "^CONFIG_PREEMPTION=y" "$c612"'

# ---- 2. the results say which ----
run $TEST_V73 remote73 "$tmp/remote.json"; s1=$?
run $TEST_V612 remote612 "$tmp/remote.json"; s2=$?
test_expect_success "--json names the model: lazy on $TEST_V73, none on $TEST_V612 (status $s1 $s2)" '
	[ $s1 = 0 ] && [ $s2 = 0 ] &&
	json_is "$tmp/remote73.json" preempt lazy &&
	json_is "$tmp/remote612.json" preempt none'

# ---- 3. a remote wakeup preemption waits for an interrupt under lazy ----
read -r n now tick worst < <(wakee_latency "$tmp/remote73.trace")
diag "$TEST_V73 remote: $n wakeups, $now at once, $tick at a tick, longest ${worst} us"
# (a few, 1 or 2 in 300, run when the hog's own hrtick ends its slice
# between two ticks: the lazy bit is acted on at that interrupt too)
test_expect_success "$TEST_V73: a wakee woken from CPU 0 runs at once on the hrtick's IPI, else at CPU 1's next tick, never later" '
	[ "$n" -ge 290 ] && [ "$now" -ge $((n / 2)) ] && [ "$tick" -gt 0 ] &&
	[ $((now + tick)) -ge $((n - 3)) ] && [ "$worst" -le 1000 ]'

read -r n now tick worst < <(wakee_latency "$tmp/remote612.trace")
diag "$TEST_V612 remote: $n wakeups, $now at once, $tick at a tick, longest ${worst} us"
test_expect_success "$TEST_V612 (PREEMPT_NONE): the resched IPI runs most of them at once" '
	[ "$n" -ge 290 ] && [ "$now" -ge $((n * 3 / 4)) ]'

# ---- 4. a local wakeup preemption is at once under lazy too ----
run $TEST_V73 local73 "$tmp/local.json"; s=$?
read -r n now tick worst < <(wakee_latency "$tmp/local73.trace")
diag "$TEST_V73 local: $n wakeups, $now at once, $tick at a tick, longest ${worst} us"
test_expect_success "$TEST_V73: woken by its timer on CPU 1, the return from that interrupt preempts at once (status $s)" '
	[ $s = 0 ] && [ "$n" -ge 290 ] && [ "$now" -ge $((n * 3 / 4)) ]'

test_done
