#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Tasks go through the kernel's own paths: nice and policy through the
# setscheduler path, exit through do_task_dead, sched_yield, affinity.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan $((8 * NR_RELEASES))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Six tasks move between CPU 0 and CPU 1 by phases: a task's affinity
# change blocks it until a stopper has moved it, while others change theirs.
cat > "$tmp/aff.json" <<'EOF'
{ "tasks": { "mover": { "instance": 6, "loop": -1, "phases": {
	"on0": { "cpus": [0], "run": 10000, "sleep": 50000 },
	"on1": { "cpus": [1], "run": 1000, "timer": { "ref": "unique", "period": 51000 } } } } } }
EOF
# a nice-10 SCHED_BATCH parent forks children of the defaults: rt-app's new
# thread sets its own policy and nice, not the parent's
cat > "$tmp/forknice.json" <<'EOF'
{ "tasks": {
	"parent": { "priority": 10, "policy": "SCHED_BATCH", "loop": 5, "fork": "kid", "sleep": 5000 },
	"kid": { "instance": 0, "loop": 1, "run": 1000 } } }
EOF
# a parent pinned to CPU 2 forks children without CPUs of their own, and
# children with CPU 1: rt-app's default is the affinity a thread inherits
cat > "$tmp/forkaff.json" <<'EOF'
{ "tasks": {
	"parent": { "cpus": [2], "loop": 5, "fork": "kid", "fork": "own", "sleep": 5000 },
	"kid": { "instance": 0, "loop": 1, "run": 1000 },
	"own": { "instance": 0, "loop": 1, "cpus": [1], "run": 1000 } } }
EOF

# the affinities the trace gives a task (lsb_affinity, what the metrics
# get, said when the kernel takes it) that leave out the CPU the task runs
# on next
stale_affinity() {
	python3 - "$1" <<'PY'
import re, sys
told, bad = {}, 0
def cpus(s):
    out = set()
    for part in s.split(','):
        a, _, b = part.partition('-')
        out.update(range(int(a), int(b or a) + 1))
    return out
for line in open(sys.argv[1]):
    m = re.search(r'\[(\d+)\] .*sched_switch: .* next_pid=(\d+)', line)
    if m:
        mask = told.pop(m.group(2), None)
        if mask is not None and int(m.group(1)) not in mask:
            bad += 1
        continue
    m = re.search(r'lsb_affinity: pid=(\d+) cpus=(\S+)', line)
    if m:
        told[m.group(1)] = cpus(m.group(2))
print(bad)
PY
}

share() { # share FILE NAME: CPU share of task NAME
	json "$1" "'%.4f' % ([t['sum_exec_ns'] for t in r['tasks'] if t['name'] == a[0]][0] / r['duration_ns'])" "$2"
}
near() { python3 -c "import sys; sys.exit(0 if abs($1 - $2) <= $3 else 1)"; }

for rev in $TEST_RELEASES; do
	# run is work at full capacity: at the highest frequency 1 ms of it
	# is 1 ms of CPU time (schedutil may start the tasks lower). CPUs poll
	# when idle: a wakeup from C6 would add its 133 us exit latency to
	# the woken task's sum_exec_runtime (the kernel skips the clock update
	# of the schedule() that follows a remote wakeup, rq_clock_skip_update).
	"$LINSCHED" run "$rev" --topology quad --duration 4s --json "$tmp/r.json" --quiet \
		--governor performance --cpuidle poll \
		--workload 'hog*1:nice=5:cpus=3+hog*1:cpus=3+hog*1:policy=fifo:prio=10:cpus=2+hog*1:cpus=2+periodic*4:run=1ms:sleep=1ms:loops=10+yield*2:run=1ms:cpus=1'
	a=$(share "$tmp/r.json" hog-0); b=$(share "$tmp/r.json" hog-1)
	# CFS weights: nice 5 is 335, nice 0 is 1024
	near "$a" "$(python3 -c 'print(335 / (335 + 1024))')" 0.01
	ok $? "$rev: nice 5 against nice 0 on one CPU gets 335/1359 of it ($a vs $b)"
	a=$(share "$tmp/r.json" hog-2); b=$(share "$tmp/r.json" hog-3)
	# RT throttling (or 6.12's fair server) leaves fair tasks 5 %
	near "$b" 0.05 0.005 && near "$a" 0.95 0.005
	ok $? "$rev: a FIFO hog leaves a fair hog its 5 % ($a vs $b)"
	a=$(json "$tmp/r.json" "sum(t['sum_exec_ns'] for t in r['tasks'] if t['name'].startswith('periodic'))")
	test_expect_success "$rev: 4 tasks that exit after 10 x 1 ms ran 40 ms in all ($a ns)" \
		'[ "$a" = 40000000 ]'
	a=$(json "$tmp/r.json" "r['cpus'][0]['busy_ns']")
	test_expect_success "$rev: and the CPUs they left go idle (CPU 0 busy $a ns)" \
		'[ "$a" -lt 100000000 ]'
	a=$(share "$tmp/r.json" yield-0); b=$(json "$tmp/r.json" "[t['nr_switches'] for t in r['tasks'] if t['name'] == 'yield-0'][0]")
	near "$a" 0.5 0.01 && [ "$b" -ge 1900 ]
	ok $? "$rev: two tasks that yield every 1 ms alternate ($a, $b switches)"
	"$LINSCHED" run "$rev" --topology quad --duration 500ms --workload "$tmp/aff.json" \
		--trace "$tmp/aff.trace" --json "$tmp/aff.out" --quiet
	a=$(stale_affinity "$tmp/aff.trace")
	b=$(grep -c lsb_affinity "$tmp/aff.trace")
	test_expect_success "$rev: tasks whose affinity changes block in a stopper: the metrics get each one's own CPUs ($a of $b stale)" \
		'[ "$a" = 0 ] && [ "$b" -gt 20 ]'
	"$LINSCHED" run "$rev" --topology quad --duration 100ms --workload "$tmp/forknice.json" \
		--trace "$tmp/fn.trace" --json "$tmp/fn.out" --quiet
	a=$(grep -c "sched_wakeup_new: comm=kid-f[0-9]* pid=[0-9]* prio=120 " "$tmp/fn.trace")
	b=$(grep -c "sched_wakeup_new: comm=parent pid=[0-9]* prio=130 " "$tmp/fn.trace")
	test_expect_success "$rev: a nice-10 parent's forked children start at the nice 0 rt-app gives them ($a of 5, the parent $b)" \
		'[ "$a" = 5 ] && [ "$b" = 1 ]'
	"$LINSCHED" run "$rev" --topology quad --duration 100ms --workload "$tmp/forkaff.json" \
		--trace "$tmp/fa.trace" --json "$tmp/fa.out" --quiet
	a=$(grep -c "lsb_task: .* cpus=2 name=kid-f" "$tmp/fa.trace")
	b=$(grep -c "lsb_task: .* cpus=1 name=own-f" "$tmp/fa.trace")
	c=$(grep -o "\[00[0-9]\] .*next_comm=kid-f" "$tmp/fa.trace" | grep -vc "^\[002\]")
	d=$(grep -o "\[00[0-9]\] .*next_comm=own-f" "$tmp/fa.trace" | grep -vc "^\[001\]")
	test_expect_success "$rev: children forked by a task pinned to CPU 2 keep its CPU when they have none of their own ($a of 5; $b of 5 on their own CPU 1; $c and $d runs elsewhere)" \
		'[ "$a" = 5 ] && [ "$b" = 5 ] && [ "$c" = 0 ] && [ "$d" = 0 ]'
done
done_testing
