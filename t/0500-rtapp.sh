#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# rt-app files run unchanged: every event type on a 6.1, a 6.12, a 7.2 and a 7.3 release,
# with outcomes read from the results and from the kernel's own
# sched_switch/sched_wakeup trace; bad files are refused with a message
# and a status.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan $((11 + 23 * NR_RELEASES))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
W=$LSB_ROOT/t/workloads

# At a fixed frequency (the highest OPP) and with polling idle CPUs, so
# that run work takes its nominal time and wakeups cost no exit latency:
# these tests are about the grammar, not about cpufreq or cpuidle.
run() { # run REV FILE [args]: results in $tmp/r.json, trace in $tmp/r.trace
	local rev=$1 f=$2; shift 2
	"$LINSCHED" run "$rev" --workload "$W/$f.json" --topology quad \
		--governor performance --cpuidle poll \
		--json "$tmp/r.json" --trace "$tmp/r.trace" --quiet "$@" 2>"$tmp/err"
}
share() { # share NAME: CPU share of task NAME
	json "$tmp/r.json" "'%.4f' % ([t['sum_exec_ns'] for t in r['tasks'] if t['name'] == a[0]][0] / r['duration_ns'])" "$1"
}
exec_ns() { json "$tmp/r.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == a[0]][0]" "$1"; }
near() { python3 -c "import sys; sys.exit(0 if abs($1 - $2) <= $3 else 1)"; }

# trace.py overlap A B: microseconds during which a task named A* and one
# named B* ran at once (on any CPUs), from sched_switch.
# trace.py latency NAME: the longest time from a sched_wakeup of NAME to
# the sched_switch that runs it, in microseconds.
cat >"$tmp/trace.py" <<'PY'
import re, sys
sw = re.compile(r'\[(\d+)\] \S+\s+([\d.]+): sched_switch: prev_comm=(.*?) prev_pid=\d+ .* next_comm=(.*?) next_pid=\d+')
wk = re.compile(r'([\d.]+): sched_wakeup: comm=(.*?) pid=\d+')
def us(s):
    # 6 or 9 decimals (traces have nanoseconds since issue 26)
    a, b = s.split('.')
    return int(a) * 1000000 + int(b[:6])
lines = open(sys.argv[1]).read().splitlines()
if sys.argv[2] == 'overlap':
    runs = {}
    cur = {}
    for l in lines:
        m = sw.search(l)
        if not m:
            continue
        cpu, t, prev, nxt = int(m.group(1)), us(m.group(2)), m.group(3), m.group(4)
        if cpu in cur:
            runs.setdefault(cur[cpu][0], []).append((cur[cpu][1], t))
        cur[cpu] = (nxt, t)
    def of(p):
        return sorted(iv for n, ivs in runs.items() if n.startswith(p) for iv in ivs)
    a, b = of(sys.argv[3]), of(sys.argv[4])
    both = 0
    for s1, e1 in a:
        for s2, e2 in b:
            if s2 >= e1:
                break
            both += max(0, min(e1, e2) - max(s1, s2))
    print(both, len(a), len(b))
else:
    name, woke, worst, n = sys.argv[3], None, 0, 0
    for l in lines:
        m = wk.search(l)
        if m and m.group(2) == name:
            woke = us(m.group(1))
            continue
        m = sw.search(l)
        if m and m.group(4) == name and woke is not None:
            worst = max(worst, us(m.group(2)) - woke)
            woke = None
            n += 1
    print(worst, n)
PY
trace() { python3 "$tmp/trace.py" "$tmp/r.trace" "$@"; }

for rev in $TEST_RELEASES; do
	# timer: a 2.5 ms run every 10 ms period is 25 % of a CPU, in absolute
	# and relative mode; a timer shared by two instances paces both
	run "$rev" periodic
	ok $? "$rev: periodic.json runs"
	a=$(share abs); b=$(share rel); c=$(share shared-0); d=$(share shared-1)
	near "$a" 0.25 0.02 && near "$b" 0.25 0.02
	ok $? "$rev: a periodic 25 % task gets 25 % +- 2 % of a CPU (absolute $a, relative $b)"
	near "$c" 0.05 0.005 && near "$d" 0.05 0.005
	ok $? "$rev: two instances sharing one 10 ms timer wake every 20 ms each ($c, $d)"
	a=$(json "$tmp/r.json" "r['duration_ns']")
	test_expect_success "$rev: global.duration sets the run's length ($a ns)" \
		'[ "$a" = 2000000000 ]'

	# run is work, runtime is wall time: next to hogs, 20 x run 10 ms is
	# exactly 200 ms of CPU; 20 x runtime 10 ms is less
	run "$rev" run-runtime
	a=$(exec_ns work); b=$(exec_ns wall)
	[ "$a" = 200000000 ] && within "$b" 10000000 190000000
	ok $? "$rev: run is work ($a ns), runtime is wall time, preemption included ($b ns)"

	# a FIFO task preempts a fair hog at once
	run "$rev" fifo
	read -r lat n <<<"$(trace latency rt)"
	a=$(share rt)
	[ "$n" -ge 30 ] && [ "$lat" -le 10 ] && near "$a" 0.1 0.01
	ok $? "$rev: a FIFO task runs within ${lat} us of each of its $n wakeups, over a fair hog ($a)"

	# lock/unlock: three tasks that run only with the mutex held never
	# run at the same time, and take turns
	run "$rev" mutex
	read -r both n _ <<<"$(trace overlap locker-0 locker-1)"
	read -r both2 _ _ <<<"$(trace overlap locker-1 locker-2)"
	a=$(json "$tmp/r.json" "sum(t['sum_exec_ns'] for t in r['tasks']) / r['duration_ns']")
	[ "$both" = 0 ] && [ "$both2" = 0 ] && [ "$n" -gt 100 ] && near "$a" 1.0 0.02
	ok $? "$rev: mutex holders never overlap ($n runs), one CPU's worth in all ($a)"

	# wait/signal/broad: a broadcast releases every waiter, a signal one
	run "$rev" condvar
	a=$(json "$tmp/r.json" "' '.join('%.3f' % (t['sum_exec_ns'] / r['duration_ns']) for t in r['tasks'] if t['name'].startswith('bcast'))")
	b=$(json "$tmp/r.json" "'%.3f' % (sum(t['sum_exec_ns'] for t in r['tasks'] if t['name'].startswith('single')) / r['duration_ns'])")
	python3 -c "import sys; sys.exit(0 if all(abs(float(x) - 0.1) <= 0.005 for x in '$a'.split()) else 1)"
	ok $? "$rev: broad wakes all 3 waiters every 10 ms period ($a)"
	near "$b" 0.1 0.005
	ok $? "$rev: signal wakes one of 2 waiters a period: 10 % between them ($b)"

	# sync: two tasks hand a condition to each other and never run together
	run "$rev" sync
	read -r both n _ <<<"$(trace overlap ping pong)"
	a=$(share ping); b=$(share pong)
	[ "$both" = 0 ] && near "$a" 0.5 0.01 && near "$b" 0.5 0.01
	ok $? "$rev: sync ping-pong alternates ($a, $b) and never overlaps ($n runs)"

	# barrier: three fast instances wait for the slow one each round
	run "$rev" barrier
	a=$(json "$tmp/r.json" "' '.join('%.3f' % (t['sum_exec_ns'] / r['duration_ns']) for t in r['tasks'] if t['name'].startswith('fast'))")
	b=$(share slow)
	python3 -c "import sys; sys.exit(0 if all(abs(float(x) - 0.1) <= 0.005 for x in '$a'.split()) else 1)" &&
		within "$b" 0.98 1.0
	ok $? "$rev: a barrier holds every instance until the last arrives (fast $a, slow $b)"
	read -r gap n same <<<"$(python3 - "$tmp/r.trace" <<'PY'
import re, sys
# the three fast instances wake together, once per slow 10 ms run
woke = {}
for l in open(sys.argv[1]):
    m = re.search(r'([\d.]+): sched_wakeup: comm=(fast-\d)', l)
    if m:
        a, b = m.group(1).split('.')
        woke.setdefault(m.group(2), []).append(int(a) * 1000000 + int(b[:6]))
w = list(woke.values())
gaps = [y - x for x, y in zip(w[0], w[0][1:])]
print(min(gaps), len(w[0]), int(len(w) == 3 and w[0] == w[1] == w[2]))
PY
)"
	[ "$n" -ge 190 ] && [ "$gap" -ge 9990 ] && [ "$same" = 1 ]
	ok $? "$rev: the fast instances wake together, $n times, at least ${gap} us apart"

	# suspend/resume ping-pong: never at the same time
	run "$rev" suspend
	read -r both n _ <<<"$(trace overlap a b)"
	a=$(share a); b=$(share b)
	[ "$both" = 0 ] && [ "$n" -gt 500 ] && near "$a" 0.5 0.01 && near "$b" 0.5 0.01
	ok $? "$rev: suspend/resume ping-pong never runs both at once ($n runs; $a, $b)"

	# fork: three children from a template; yield: two tasks alternate
	run "$rev" fork-yield
	a=$(json "$tmp/r.json" "' '.join(str(t['sum_exec_ns']) for t in r['tasks'] if t['name'].startswith('child'))")
	test_expect_success "$rev: fork starts a task from a template 3 times, each runs its 10 ms ($a)" \
		'[ "$a" = "10000000 10000000 10000000" ]'
	a=$(share yield-0); b=$(json "$tmp/r.json" "[t['nr_switches'] for t in r['tasks'] if t['name'] == 'yield-0'][0]")
	near "$a" 0.5 0.01 && [ "$b" -ge 900 ]
	ok $? "$rev: two tasks that yield every 1 ms alternate ($a, $b switches)"

	# policies: DEADLINE's CBS, RR's round robin, IDLE under BATCH, nice
	run "$rev" policies
	a=$(share dl)
	near "$a" 0.2 0.005
	ok $? "$rev: SCHED_DEADLINE 2 ms / 10 ms throttles a hog to 20 % ($a)"
	a=$(share rr-0); b=$(share rr-1)
	within "$a" 0.4 0.55 && within "$b" 0.4 0.55 && near "$a" "$b" 0.06
	ok $? "$rev: two SCHED_RR hogs share their CPU ($a, $b)"
	a=$(share idle); b=$(share batch)
	[ "$(python3 -c "print(int($a < 0.01 and $b > 0.98))")" = 1 ]
	ok $? "$rev: SCHED_IDLE yields to SCHED_BATCH ($a vs $b)"
	a=$(share nice5)
	near "$a" "$(python3 -c 'print(335 / (335 + 1024))')" 0.01
	ok $? "$rev: priority 5 of a fair task is nice 5 ($a)"

	# our extension: distributions from the seeded PRNG; phases with cpus
	run "$rev" phases-random --seed 3
	cp "$tmp/r.json" "$tmp/s3.json"
	a=$(json "$tmp/r.json" "' '.join('%.3f' % (sum(t['sum_exec_ns'] for t in r['tasks'] if t['name'].startswith(p)) / 4 / r['duration_ns']) for p in ('exp', 'logn', 'norm'))")
	python3 -c "import sys; sys.exit(0 if all(0.2 <= float(x) <= 0.26 for x in '$a'.split()) else 1)"
	ok $? "$rev: exponential, lognormal/uniform and normal 2 ms / 6 ms draws give about 25 % each ($a)"
	a=$(exec_ns mover); b=$(json "$tmp/r.json" "[t['cpu'] for t in r['tasks'] if t['name'] == 'mover'][0]")
	[ "$a" = 20000000 ] && [ "$b" = 2 ]
	ok $? "$rev: a task's phases run in order with their own CPUs ($a ns, ends on CPU $b)"
	run "$rev" phases-random --seed 3
	cmp -s "$tmp/r.json" "$tmp/s3.json"
	ok $? "$rev: the same seed draws the same lengths"
	run "$rev" phases-random --seed 4
	! cmp -s "$tmp/r.json" "$tmp/s3.json"
	ok $? "$rev: another seed draws others"
done

# bad input: the message names the file and what was expected; status 2
bad() { # bad NAME TEXT EXPECT
	printf '%s' "$2" >"$tmp/$1.json"
	"$LINSCHED" run "$TEST_V61" --workload "$tmp/$1.json" --topology quad \
		--quiet 2>"$tmp/err" >/dev/null
	local st=$?
	grep -qF "error: workload '$tmp/$1.json'" "$tmp/err" && grep -qF "$3" "$tmp/err" &&
		[ "$st" = "${4:-2}" ]
	ok $? "$1: status $st, $(head -n1 "$tmp/err")"
}
bad malformed '{"tasks": {"t": {"run": 10,, }}}' "line 1, column"
bad cpu-beyond '{"tasks": {"t": {"cpus": [0, 7], "run": 10}}}' "CPU 7 is beyond the topology's 4 CPUs"
bad unknown-event '{"tasks": {"t": {"mem": 10}}}' "'mem': unsupported event"
bad zero-run '{"tasks": {"t": {"run": 0, "sleep": 10}}}' "expected a positive duration"
bad trailing-comma-twice '{"tasks": {"t": {"run": 10,,}}}' "line 1, column 28: a ',' where a value or key was expected"
bad out-of-range '{"tasks": {"t": {"run": 1e20}}}' "'run': 1e+20 is out of range"
bad too-deep "{\"tasks\": {\"t\": {\"run\": 10}}, \"x\": $(printf '[%.0s' {1..40})$(printf ']%.0s' {1..40})}" \
	"nested deeper than 32 levels"
bad sleep-zero-only '{"tasks": {"t": {"sleep": 0}}}' "every event of the phase is a sleep of 0"
bad same-name '{"tasks": {"t": {"run": 10}, "t": {"run": 5}}}' "line 1, column 30: task 't': a second task of this name (the first is at line 1, column 12)"
# random bytes: the message shows them escaped, never raw
printf '{"tasks": \377\376}' > "$tmp/bytes.json"
"$LINSCHED" run "$TEST_V61" --workload "$tmp/bytes.json" --topology quad --quiet 2> "$tmp/err"
st=$?
test_expect_success "bytes: status $st, printable: $(head -n1 "$tmp/err")" \
	'[ $st = 2 ] && grep -qF "near '\''\\xff\\xfe}'\''" "$tmp/err" && ! LC_ALL=C grep -q "[^[:print:]]" "$tmp/err"'
# a path to nothing is a missing file, not an unknown kind of task
"$LINSCHED" run "$TEST_V61" --workload "$tmp/no/such" --topology quad --quiet 2> "$tmp/err"
st=$?
test_expect_success "missing file: status $st, $(head -n1 "$tmp/err")" \
	'[ $st = 2 ] && grep -qF "workload '\''$tmp/no/such'\'': cannot read it" "$tmp/err"'
done_testing
