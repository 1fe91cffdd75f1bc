#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The invariants checked online, on real kernels: Wasted Cores' (an idle
# CPU beside a task that may run there, for longer than a window), the
# starvation bound, and what --check makes of a violation. A pinned pair
# beside an idle CPU is no violation; an unpinned waiter is one, from the
# moment it may move, for as long as the kernel takes to move it. The
# real fork-placement bug (the catalogue's fork_affinity) breaks the first
# invariant hundreds of times, and lsbisect --metric violations finds the
# commit that puts it back into a made-up history of 44 commits.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 16
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

inv() { json "$1" "r['invariants'][a[0]][a[1]]" "$2" "$3"; }
first() { json "$1" "r['invariants'][a[0]]['first'][a[1]]" "$2" "$3"; }

for rev in $TEST_V61 $TEST_V73; do
	"$LINSCHED" run "$rev" --workload 'hog*2:cpus=0' --topology dual --duration 1s \
		--window 100us --json "$tmp/pinned.json" --check > "$tmp/out"
	s=$?
	test_expect_success "$rev: a pinned pair beside an idle CPU is no violation, even with a 100 us window (--check: exit $s)" \
		'[ $s = 0 ] && [ "$(inv "$tmp/pinned.json" idle_while_waiting count)" = 0 ] &&
		 [ "$(json "$tmp/pinned.json" "r[a[0]][a[1]]" metrics violations)" = 0 ]'

	"$LINSCHED" run "$rev" --workload 'hog*2:cpus=0:unpin=10ms' --topology dual --duration 1s \
		--window 1ms --json "$tmp/free.json" --quiet
	t=$(first "$tmp/free.json" idle_while_waiting time_ns)
	len=$(first "$tmp/free.json" idle_while_waiting length_ns)
	test_expect_success "$rev: unpinned at 10 ms, a waiter beside the idle CPU is one violation of the 1 ms window, from $t ns for $len ns" \
		'[ "$(inv "$tmp/free.json" idle_while_waiting count)" = 1 ] &&
		 within "$t" 10e6 20e6 && within "$len" 1e6 20e6 &&
		 [ "$(inv "$tmp/free.json" idle_while_waiting time_ns)" = "$len" ] &&
		 [ "$(first "$tmp/free.json" idle_while_waiting idle_cpu)" = 1 ] &&
		 [ "$(first "$tmp/free.json" idle_while_waiting task_cpu)" = 0 ]'
	"$LINSCHED" run "$rev" --workload 'hog*2:cpus=0:unpin=10ms' --topology dual --duration 1s \
		--window 50ms --json "$tmp/free50.json" --quiet
	test_expect_success "$rev: the same run with a 50 ms window has none" \
		'[ "$(inv "$tmp/free50.json" idle_while_waiting count)" = 0 ]'
done

# CPU bandwidth: a task whose group ran out of quota waits for quota, not
# for a CPU, and the balancer moves no task to a CPU its group is
# throttled on (the kernel's throttle_cfs_rq(), can_migrate_task(); no
# tracepoint shows either). The suite's groupbw-q25-p100ms-nested, 8 hogs
# in /lim/child under a quota of 2 CPUs beside 4 free hogs: 10 violations
# on 6.12 when throttled tasks counted as waiting; groupbw-q25-p10ms-flat
# (the quota of /lim itself, a 10 ms period): 1 on 7.3, a /lim task
# beside CPUs /lim was throttled on.
cat > "$tmp/bw.json" <<'EOF'
{ "tasks": { "lim": { "instance": 8, "run": 100000, "taskgroup": "/lim/child" },
             "free": { "instance": 4, "run": 100000 } },
  "lsb-taskgroups": { "/lim": { "cpu.max": "200000 100000" } } }
EOF
sed -e 's|/lim/child|/lim|' -e 's|200000 100000|20000 10000|' "$tmp/bw.json" > "$tmp/bw10.json"
for rev in $TEST_V612 $TEST_V73; do
	"$LINSCHED" run "$rev" --workload "$tmp/bw.json" --topology quad-smt --duration 1s \
		--json "$tmp/bw.out" --trace "$tmp/bw.trace" --quiet
	"$LINSCHED" run "$rev" --workload "$tmp/bw10.json" --topology quad-smt --duration 1s \
		--json "$tmp/bw10.out" --quiet
	n=$(inv "$tmp/bw.out" idle_while_waiting count)
	n10=$(inv "$tmp/bw10.out" idle_while_waiting count)
	test_expect_success "$rev: tasks of a group throttled by its cpu.max are held where it is throttled, not waiting: $n violations ($n10 with a 10 ms period; $(grep -c "lsb_throttle:" "$tmp/bw.trace") lsb_throttle lines, $(grep -c "lsb_unthrottle:" "$tmp/bw.trace") lsb_unthrottle)" \
		'[ "$n" = 0 ] && grep -q "lsb_throttle: pid=[0-9]* cpu=[0-7]$" "$tmp/bw.trace" &&
		 grep -q "lsb_unthrottle: pid=[0-9]* cpu=[0-7]$" "$tmp/bw.trace" &&
		 { [ $rev != $TEST_V73 ] || [ "$n10" = 0 ]; }'
done

# A task that goes to sleep at the instant its group uses up the quota is
# asleep, not held: when the period refills the quota it does not wait
# beside an idle CPU (the hunt's campaign, c612 06: counted 40 ms of
# waiting on 6.12, seed 1, whose bandwidth timer starts at a random
# offset; on 6.1 with a 150 ms timer, 40 ms as well). The run's online
# metrics and the trace's replay (linsched score) agree.
cat > "$tmp/sleep.json" <<'EOF'
{ "lsb-taskgroups": { "/g0": { "cpu.max": "20000 100000" } },
  "tasks": { "t0": { "loop": -1, "taskgroup": "/g0", "run": 20000,
                     "timer": { "ref": "unique", "period": 70000 } } } }
EOF
sed -e 's|"period": 70000|"period": 150000|' "$tmp/sleep.json" > "$tmp/sleep150.json"
for x in "$TEST_V612 sleep 62ms" "$TEST_V61 sleep150 200ms"; do
	set -- $x
	"$LINSCHED" run "$1" --workload "$tmp/$2.json" --topology 1x4x2 --duration "$3" \
		--seed 1 --json "$tmp/sl.out" --trace "$tmp/sl.trace" --quiet
	"$LINSCHED" score "$tmp/sl.trace" --topology 1x4x2 --workload "$tmp/$2.json" \
		--json "$tmp/sl.score" > /dev/null 2>&1
	n=$(inv "$tmp/sl.out" idle_while_waiting count)
	ns=$(inv "$tmp/sl.score" idle_while_waiting count)
	test_expect_success "$1: a task asleep as its group's quota ran out does not wait when it is refilled: $n violations, $ns from the trace ($(grep -c "lsb_unthrottle:" "$tmp/sl.trace") lsb_unthrottle)" \
		'[ "$n" = 0 ] && [ "$ns" = 0 ] && grep -q "lsb_unthrottle:" "$tmp/sl.trace"'
done

# --check: exit 7, the first violation in words and the trace around it
"$LINSCHED" run "$TEST_V61" --workload 'hog*2:cpus=0:unpin=10ms' --topology dual \
	--duration 1s --window 1ms --check --quiet > "$tmp/check" 2>&1
s=$?
test_expect_success "--check makes it a failure: exit $s, $(head -n 1 "$tmp/check")" \
	'[ $s = 7 ] &&
	 grep -q "^idle CPU while a task that may run there waits: 1 violation; the first at 0\.0[01][0-9]* s: task hog-[01] (pid [0-9]*) waited on CPU 0 while CPU 1 was idle for [0-9.]* ms$" "$tmp/check" &&
	 grep -q "^trace around " "$tmp/check" && grep -q "sched_switch:" "$tmp/check"'
"$LINSCHED" run "$TEST_V61" --workload 'hog' --topology dual --window 0 --quiet 2> "$tmp/err"
s=$?
test_expect_success "a window of 0 is a usage error: exit $s, $(cat "$tmp/err")" \
	'[ $s = 2 ] && grep -q "error: --window .0.: expected a positive duration" "$tmp/err"'

# starvation: a fair task beside a FIFO hog waits for RT throttling or
# the fair deadline server
cat > "$tmp/starve.json" <<'EOF'
{ "global": { "duration": 2 },
  "tasks": {
    "rt": { "policy": "SCHED_FIFO", "priority": 50, "cpus": [0], "loop": -1, "run": 1000000 },
    "fair": { "cpus": [0], "loop": -1, "run": 1000000 } } }
EOF
for rev in $TEST_V61 $TEST_V73; do
	"$LINSCHED" run "$rev" --workload "$tmp/starve.json" --topology dual \
		--starvation 500ms --json "$tmp/starve.out" --quiet
	m=$(inv "$tmp/starve.out" starvation max_ns)
	fair=$(json "$tmp/starve.out" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'fair'][0]")
	test_expect_success "$rev: beside a FIFO hog a fair task waits 950 ms of each second (RT throttling; the fair server from 6.12 on), starved past 500 ms ($m ns), then runs 50 ms ($fair ns in 2 s)" \
		'[ "$(inv "$tmp/starve.out" starvation count)" -ge 2 ] && within "$m" 0.94e9 0.96e9 &&
		 [ "$(first "$tmp/starve.out" starvation task)" = fair ] && within "$fair" 0.095e9 0.105e9'
done

# a real bug breaks the invariant; bisecting on the count finds it
need=
for rev in v6.1.176 v6.1.187; do
	git -C "$LSBISECT_REPO" rev-parse -q --verify "$rev^{commit}" >/dev/null ||
		need+=${need:+,}${rev#v}
done
[ -z "$need" ] || "$LINSCHED" kernels --versions "$need" >&2
W=bugs/catalogue/workloads/fork_affinity.json
"$LINSCHED" run v6.1.176 --workload $W --topology numa-2 --json "$tmp/b.json" --quiet
"$LINSCHED" run v6.1.187 --workload $W --topology numa-2 --json "$tmp/f.json" --quiet
b=$(inv "$tmp/b.json" idle_while_waiting count); f=$(inv "$tmp/f.json" idle_while_waiting count)
test_expect_success "fork placement before its affinity fix (v6.1.176) leaves CPU 4 idle beside waiting children $b times; after (v6.1.187) $f" \
	'[ "$b" -gt 100 ] && [ "$f" = 0 ] &&
	 [ "$(first "$tmp/b.json" idle_while_waiting idle_cpu)" = 4 ] &&
	 [ "$(first "$tmp/b.json" idle_while_waiting task_cpu)" = 0 ]'

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
HISTORY_BASE=v6.1.187 make_history "$work" "note note note note note forkaff note note note note note" 3 > "$tmp/history"
culprit=$(awk '$2 == "forkaff" { print $1 }' "$tmp/history")
"$LSBISECT" v6.1.187 bad "$W" --repo "$work" --topology numa-2 --duration 1s \
	--metric violations --out "$tmp/bisect" > "$tmp/bisect.txt" 2>&1
s=$?
sed 's/^/# /' "$tmp/bisect.txt" | tail -n 12
test_expect_success "lsbisect --metric violations over $(wc -l < "$tmp/history") commits names the one that puts the bug back (exit $s)" \
	'[ $s = 0 ] && [ "$(json "$tmp/bisect/report.json" "r[\"culprit\"][\"commit\"]")" = "$culprit" ] &&
	 grep -q "^first bad commit: $culprit" "$tmp/bisect.txt"'
test_done
