#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# PI mutexes under contention (issue 25), on a 6.1, a 6.12 and a 7.3
# release. More contenders than CPUs (t/workloads/pi-contention.json):
# equal priorities, so the run goes as without pi_enabled and every task
# takes the mutex in turn to the end (the unlocker's hand-over left the
# new owner "blocked" on its mutex, and the next waiter's chain walk
# queued it there again: a lost wakeup that stopped the workload). A
# waiter that comes while the new owner still waits for the CPU boosts it
# (t/workloads/pi-handover.json). Along a chain, equal priorities keep
# their order of arrival (t/workloads/pi-fifo.json: a walk that changed no
# priority used to move the waiter behind its equals); a waiter boosted
# while queued goes ahead, and an unlock deboosts to the waiters left
# (pi-requeue.json); pthread_cond_wait() lets the mutex and the boost go
# (pi-condvar.json). lock_wait_ns and lock_wait_max_ns count a wait still
# going on at the end of the run (t/workloads/lock-held.json).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
REVS="$TEST_V61 $TEST_V612 $TEST_V73"
plan 21
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
W=$LSB_ROOT/t/workloads
nopi() { sed 's/"pi_enabled" : true/"pi_enabled" : false/' "$W/$1.json" > "$tmp/$1-nopi.json"; }
nopi pi-contention
nopi pi-handover

# run REV FILE OUT [args]: results in OUT.json, trace in OUT.trace. Idle
# CPUs poll (--cpuidle poll): the waits and hand-overs timed here are the
# mutex's and the scheduler's; the revision's menu would put a waiter's
# CPU in C6 between hand-overs and add its 133 us exit latency to each.
run() {
	local rev=$1 f=$2 out=$3
	shift 3
	"$LINSCHED" run "$rev" --workload "$f" --json "$out.json" \
		--trace "$out.trace" --quiet --cpuidle poll "$@" 2>"$out.err"
}
cpu_ns() { json "$1" "sum(t['sum_exec_ns'] for t in r['tasks'])"; }
task() { json "$1" "[t[a[1]] for t in r['tasks'] if t['name'] == a[0]][0]" "$2" "$3"; }
# late TRACE JSON SECONDS: the tasks that did less than 1 ms of run work
# or last ran before SECONDS (nothing when every task went on to the end)
late() {
	python3 - "$@" <<'PY'
import json, re, sys
trace, res, t_end = sys.argv[1], json.load(open(sys.argv[2])), float(sys.argv[3])
last = {}
for l in open(trace):
    m = re.search(r'([\d.]+): sched_switch: .* next_comm=(\S+) ', l)
    if m:
        last[m.group(2)] = float(m.group(1))
print(' '.join(t['name'] for t in res['tasks']
               if t['run_work_ns'] < 1000000 or last.get(t['name'], 0) < t_end))
PY
}

for rev in $REVS; do
	run "$rev" "$W/pi-contention.json" "$tmp/pi" --topology quad --duration 20ms
	s1=$?
	run "$rev" "$tmp/pi-contention-nopi.json" "$tmp/nopi" --topology quad --duration 20ms
	s2=$?
	pi=$(cpu_ns "$tmp/pi.json"); nopi=$(cpu_ns "$tmp/nopi.json")
	test_expect_success "$rev: 5 PI contenders on 4 CPUs use the CPU time they use without PI ($pi ns, $nopi ns)" \
		'[ $s1 = 0 ] && [ $s2 = 0 ] && [ "$nopi" -ge 8000000 ] && within "$pi" $((nopi * 95 / 100)) $((nopi * 105 / 100))'
	stuck=$(late "$tmp/pi.trace" "$tmp/pi.json" 0.0195)
	test_expect_success "$rev: every PI contender does its share of the work and runs in the last 0.5 ms (${stuck:-all do})" \
		'[ $s1 = 0 ] && [ -z "$stuck" ] && [ "$(grep -c "next_comm=t-" "$tmp/pi.trace")" -ge 500 ]'

	run "$rev" "$W/pi-handover.json" "$tmp/ho" --topology dual --governor performance --duration 100ms
	s1=$?
	run "$rev" "$tmp/pi-handover-nopi.json" "$tmp/honopi" --topology dual --governor performance --duration 100ms
	s2=$?
	a=$(task "$tmp/ho.json" top lock_wait_max_ns); b=$(task "$tmp/honopi.json" top lock_wait_max_ns)
	n=$(task "$tmp/ho.json" top run_work_ns)
	boosts=$(grep -c "sched_pi_setprio: comm=next pid=[0-9]* oldprio=120 newprio=49" "$tmp/ho.trace")
	test_expect_success "$rev: a waiter boosts the owner the mutex was handed to before it ran: top waits for its 1 ms ($a ns, $boosts boosts), not the holder's ($b ns)" \
		'[ $s1 = 0 ] && [ $s2 = 0 ] && [ "$a" = 1000000 ] && [ "$n" = 2500000 ] && [ "$boosts" = 5 ] && [ "$b" -ge 5500000 ]'
done

# setprios TRACE: the kernel's priority changes, "comm:old>new" each
setprios() {
	sed -n 's/.*sched_pi_setprio: comm=\([a-z]*\) pid=[0-9]* oldprio=\([0-9]*\) newprio=\([0-9]*\)/\1:\2>\3/p' "$1" |
		head -n "$2" | tr '\n' ' '
}
for rev in $REVS; do
	run "$rev" "$W/pi-fifo.json" "$tmp/ff" --topology quad --governor performance --duration 20ms
	s=$?
	a=$(task "$tmp/ff.json" a lock_wait_max_ns); b=$(task "$tmp/ff.json" b lock_wait_max_ns)
	# a waits from 1 ms, b from 2 ms: a gets m2 first (about 10 ms), b
	# after a's 1 ms (about 11 ms)
	test_expect_success "$rev: a chain walk that changes no priority keeps a ahead of b, which came after it: a waits $a ns from 1 ms, b $b ns from 2 ms" \
		'[ $s = 0 ] && [ $((1000000 + a)) -lt $((2000000 + b)) ] && within "$a" 8900000 9100000 && within "$b" 8900000 9100000 && [ -z "$(setprios "$tmp/ff.trace" 1)" ]'
	run "$rev" "$W/pi-requeue.json" "$tmp/rq" --topology quad --governor performance --duration 20ms
	s=$?
	p=$(setprios "$tmp/rq.trace" 6)
	a=$(task "$tmp/rq.json" a lock_wait_max_ns); b=$(task "$tmp/rq.json" b lock_wait_max_ns)
	test_expect_success "$rev: a, boosted to 49 while queued behind b (110), goes ahead of it ($a ns, $b ns); unlocks deboost to the waiters left ($p)" \
		'[ $s = 0 ] && [ "$p" = "c:120>110 a:120>49 c:110>49 c:49>120 a:49>110 a:110>120 " ] && within "$a" 8900000 9100000 && within "$b" 9400000 9600000'
	run "$rev" "$W/pi-condvar.json" "$tmp/cv" --topology quad --governor performance --duration 20ms
	s=$?
	p=$(setprios "$tmp/cv.trace" 3)
	f=$(task "$tmp/cv.json" f lock_wait_max_ns)
	test_expect_success "$rev: h's cond_wait hands m to f, which waited $f ns, and ends h's boost ($p)" \
		'[ $s = 0 ] && [ "$p" = "h:120>49 h:49>120 " ] && within "$f" 400000 600000 &&
		 [ "$(setprios "$tmp/cv.trace" 100 | wc -w)" = 2 ]'
done

# blocked_at TRACE NAME: in ns, when NAME last went to sleep (the trace
# has 9 decimals; 6 are microseconds)
blocked_at() {
	sed -n "s/.* \([0-9]*\)\.\([0-9]*\): sched_switch: prev_comm=$2 .*prev_state=S .*/\1 \2/p" "$1" |
		tail -n1 | awk '{ f = $2; while (length(f) < 9) f = f "0"; s = $1 f; sub(/^0+/, "", s); print s }'
}
sed 's/"duration" : 1 }/"duration" : 1, "pi_enabled" : true }/' "$W/lock-held.json" > "$tmp/lock-held-pi.json"
for f in "$W/lock-held.json" "$tmp/lock-held-pi.json"; do
	run "$TEST_V73" "$f" "$tmp/held" --topology dual --governor performance --duration 10ms
	s=$?
	at=$(blocked_at "$tmp/held.trace" b)
	a=$(task "$tmp/held.json" b lock_wait_ns); b=$(task "$tmp/held.json" b lock_wait_max_ns)
	test_expect_success "$TEST_V73: $(basename "$f"): b, waiting since $at ns, waited to the end of the run ($a ns, longest $b ns)" \
		'[ $s = 0 ] && [ "$at" -ge 1000000 ] && [ "$a" = $((10000000 - at)) ] && [ "$b" = "$a" ]'
done
# a wait done (1 ms in the first period) and one going on at the end
run "$TEST_V73" "$W/pi-handover.json" "$tmp/ho" --topology dual --governor performance --duration 22500us
s=$?
at=$(blocked_at "$tmp/ho.trace" top)
a=$(task "$tmp/ho.json" top lock_wait_ns); b=$(task "$tmp/ho.json" top lock_wait_max_ns)
test_expect_success "$TEST_V73: top's 1 ms wait and the one since $at ns add up ($a ns), the longest is the 1 ms ($b ns)" \
	'[ $s = 0 ] && [ "$at" -gt 20000000 ] && [ "$a" = $((1000000 + 22500000 - at)) ] && [ "$b" = 1000000 ]'
test_done
