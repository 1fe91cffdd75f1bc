#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched score: a run's own --trace scored afterwards gives exactly its
# --json's "metrics" and "invariants" (the same bytes), for hogs, periodic
# tasks, task groups, pinned tasks, affinity changed by lsb-events
# (cpuset, hotplug), nice phases and a group held by its bandwidth, on
# three releases; a trace of this machine's own kernel (tracefs) gives
# each rt-app thread's CPU time within 2 % of what /proc said; a
# malformed line is exit 2 naming the file and line, a trace without
# scheduler events a clear error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 24
tmp=$(mktemp -d)
inst=
cleanup() {
	[ -n "$inst" ] && rmdir "$inst" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
w=t/workloads

# ---- 1. a run's own trace: exactly its scores ----
mkdir "$tmp/wl"
cat > "$tmp/wl/cpuset.json" <<'EOF'
{
	/* /box's tasks lose CPUs 2-3 at 200 ms: their affinity changes */
	"lsb-taskgroups": { "/box": { "cpuset.cpus": "0-3" } },
	"lsb-events": [ { "time": 200000, "taskgroup": "/box", "cpuset.cpus": "0-1" } ],
	"tasks": {
		"boxed": { "instance": 3, "taskgroup": "/box", "run": 3000, "sleep": 1000 },
		"free": { "instance": 2, "run": 2000, "sleep": 2000 }
	},
	"global": { "duration": 1 }
}
EOF
cat > "$tmp/wl/nice.json" <<'EOF'
{
	/* nice phases change the weights the scores use */
	"tasks": {
		"hog": { "instance": 3, "run": 1000000 },
		"waver": { "instance": 2, "loop": -1, "phases": {
			"low": { "priority": 10, "run": 20000 },
			"high": { "priority": -5, "run": 20000 },
			"moved": { "cpus": [1], "priority": 0, "run": 5000, "sleep": 5000 } } }
	},
	"global": { "duration": 1 }
}
EOF
cat > "$tmp/wl/hotplug.json" <<'EOF'
{
	/* CPU 3 goes offline under four always-running tasks, then comes back */
	"lsb-events": [
		{ "time": 100000, "cpu": 3, "online": false },
		{ "time": 300000, "cpu": 3, "online": true }
	],
	"tasks": { "hog": { "instance": 4, "run": 1000000 } },
	"global": { "duration": 1 }
}
EOF
# name:topology:workload
cases=(
	"hogs:quad:hog*6"
	"periodic:quad-smt:periodic*10:run=2ms:sleep=6ms"
	"groups:dual:$w/groups-weights.json"
	"pinned:quad:hog*2:cpus=0+periodic*4:run=1ms:sleep=3ms"
	"cpuset:quad:$tmp/wl/cpuset.json"
	"hotplug:quad:$tmp/wl/hotplug.json"
	"nice:quad:$tmp/wl/nice.json"
	"bandwidth:dual:$w/groups-bandwidth.json"
)
# section FILE KEY: the lines of top-level object KEY, as cJSON printed them
section() { sed -n "/^\t\"$2\":\t{/,/^\t}/p" "$1"; }
for rev in $TEST_V61 $TEST_V612 $TEST_V73; do
	same= differ= empty=
	for c in "${cases[@]}"; do
		name=${c%%:*}; rest=${c#*:}; topo=${rest%%:*}; wl=${rest#*:}
		"$LINSCHED" run "$rev" --topology "$topo" --workload "$wl" \
			--duration 500ms --trace "$tmp/$name.trace" \
			--json "$tmp/$name.json" --quiet 2> "$tmp/$name.err" ||
			{ differ+=" $name(run $?: $(head -c 200 "$tmp/$name.err"))"; continue; }
		"$LINSCHED" score "$tmp/$name.trace" --topology "$topo" \
			--workload "$wl" --json "$tmp/$name.score" -q 2> "$tmp/$name.err" ||
			{ differ+=" $name(score $?: $(head -c 200 "$tmp/$name.err"))"; continue; }
		for k in metrics invariants; do
			section "$tmp/$name.json" $k > "$tmp/a"
			section "$tmp/$name.score" $k > "$tmp/b"
			[ -s "$tmp/a" ] || empty+=" $name.$k"
			if cmp -s "$tmp/a" "$tmp/b"; then
				same+=" $name.$k"
			else
				differ+=" $name.$k"
				diag "$rev $name $k: $(diff "$tmp/a" "$tmp/b" | head -6 | tr '\n\t' '  ')"
			fi
		done
	done
	test_expect_success "$rev: score of each run's --trace is its --json's metrics and invariants, byte for byte (differ:${differ:- none})" \
		'[ -z "$differ" ] && [ -z "$empty" ] && [ "$(echo $same | wc -w)" = $((2 * ${#cases[@]})) ]'
	# what the exactness rests on is in the traces, and is scored
	test_expect_success "$rev: the traces carry nanoseconds and our lsb_ lines: task, affinity, weight, a throttled prev, hotplug, end" \
		'grep -q "^ *<idle>-0 *\[000\] \.\.\.\. *0\.[0-9]\{9\}: lsb_task: pid=[0-9]* class=fair weight=1024 cpus=all name=hog-0$" "$tmp/hogs.trace" &&
		 grep -q "lsb_task: pid=[0-9]* class=fair weight=1024 cpus=0 name=hog-0$" "$tmp/pinned.trace" &&
		 grep -q "lsb_affinity: pid=[0-9]* cpus=0-1$" "$tmp/cpuset.trace" &&
		 grep -q "lsb_weight: pid=[0-9]* weight=110$" "$tmp/nice.trace" &&
		 grep -q "lsb_weight: pid=[0-9]* weight=3121$" "$tmp/nice.trace" &&
		 grep -q "lsb_prev_blocked: prev_pid=[0-9]* throttled=1$" "$tmp/bandwidth.trace" &&
		 grep -q "lsb_cpu_offline: cpu=3 prev_pid=" "$tmp/hotplug.trace" &&
		 grep -q "lsb_cpu_online: cpu=3$" "$tmp/hotplug.trace" &&
		 [ "$(tail -n1 "$tmp/hogs.trace" | sed "s/.*: lsb_end: //")" = "duration_ns=500000000 kernel_warnings=0 $(grep -o "run_work_ns=[0-9]*" "$tmp/hogs.trace" | tail -n1) cpuidle=menu" ]'
	# the group workload: per-task and per-group CPU time, from the switches
	gs=$(json "$tmp/groups.score" "sum(t['cpu_ns'] for t in r['tasks'] if t['taskgroup'] == '/fg')")
	gj=$(json "$tmp/groups.json" "sum(t['sum_exec_ns'] for t in r['tasks'] if t['taskgroup'] == '/fg')")
	test_expect_success "$rev: per-group CPU time from the switches is the group's tasks' ($gs ns, the kernel's sum_exec $gj ns)" \
		'[ "$gs" = "$(json "$tmp/groups.score" "[g[\"cpu_ns\"] for g in r[\"taskgroups\"] if g[\"path\"] == \"/fg\"][0]")" ] &&
		 within "$gs" "$(echo "$gj * 0.99" | bc)" "$(echo "$gj * 1.01" | bc)" &&
		 [ "$(json "$tmp/groups.score" "len(r[\"tasks\"])")" = 8 ]'
done

# Without the lsb_ lines (a real kernel's trace has none) the workload's
# tasks, class and weight are inferred: hogs on their own CPUs are
# balanced either way, and every hog is scored.
grep -v ': lsb_' "$tmp/hogs.trace" > "$tmp/bare.trace"
"$LINSCHED" score "$tmp/bare.trace" --topology quad --workload 'hog*6' --json "$tmp/bare.score" -q
s=$?
fb=$(json "$tmp/bare.score" "r['metrics']['fairness']"); fr=$(json "$tmp/hogs.json" "r['metrics']['fairness']")
test_expect_success "a trace without lsb_ lines: the six hogs inferred from their comms, fairness as the run's to 0.01 ($fb, $fr; exit $s)" \
	'[ $s = 0 ] && [ "$(json "$tmp/bare.score" "sorted(t[\"name\"] for t in r[\"tasks\"])")" = "$(json "$tmp/hogs.score" "sorted(t[\"name\"] for t in r[\"tasks\"])")" ] &&
	 [ "$(json "$tmp/bare.score" "r[\"trace_kind\"]")" = kernel ] &&
	 [ "$(json "$tmp/bare.score" "r[\"metrics\"][\"fairness_tasks\"]")" = 6 ] &&
	 within "$fb" "$(echo "$fr - 0.01" | bc)" "$(echo "$fr + 0.01" | bc)"'
"$LINSCHED" score "$tmp/bare.trace" --topology quad --json "$tmp/bare2.score" -q
test_expect_success "without --workload every task but the system's is scored: the hogs, not init, kthreads or swapper" \
	'[ "$(json "$tmp/bare2.score" "sorted(set(t[\"name\"].split(\"-\")[0] for t in r[\"tasks\"]))")" = "['"'"'hog'"'"']" ]'

# a switch missing from a trace: the next one on that CPU names another
# prev; the tasks on both sides are marked, the gap's time said
n=$(grep -n ': sched_switch: prev_comm=hog-' "$tmp/bare.trace" | sed -n 20p | cut -d: -f1)
sed "${n}d" "$tmp/bare.trace" > "$tmp/gap.trace"
gone=$(sed -n "${n}p" "$tmp/bare.trace")
gp=$(echo "$gone" | sed 's/.* prev_pid=\([0-9]*\) .*/\1/'); gn=$(echo "$gone" | sed 's/.* next_pid=\([0-9]*\) .*/\1/')
"$LINSCHED" score "$tmp/gap.trace" --topology quad --json "$tmp/gap.score" -q 2> "$tmp/gap.err"
s=$?
test_expect_success "a switch taken out of a trace is a gap: counted, its time said, the tasks around it marked (exit $s; $(cat "$tmp/gap.err"))" \
	'[ $s = 0 ] && json_is "$tmp/gap.score" trace_gaps 1 &&
	 [ "$(json "$tmp/bare2.score" "r[\"trace_gaps\"]")" = 0 ] &&
	 [ "$(json "$tmp/gap.score" "sorted(t[\"pid\"] for t in r[\"tasks\"] if t.get(\"trace_gaps\"))")" = "$(python3 -c "print(sorted({$gp, $gn} - {0}))")" ] &&
	 grep -q "^warning: trace '\''$tmp/gap.trace'\'': 1 sched_switch events name a prev task other than the one the trace put on that CPU, the first at [0-9]*\.[0-9]\{6\}: events are missing" "$tmp/gap.err"'

# ---- 2. a trace of this machine's kernel ----
real_trace() {
	local tr=/sys/kernel/tracing e pid tid n
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	command -v rt-app >/dev/null || { echo "no rt-app"; return 1; }
	[ -d $tr/instances ] || mount -t tracefs nodev $tr 2>/dev/null
	[ -d $tr/instances ] || { echo "no tracefs"; return 1; }
	inst=$tr/instances/lsb-score-$$
	mkdir "$inst" 2>/dev/null || { inst=; echo "cannot make a tracefs instance"; return 1; }
	echo 16384 > "$inst/buffer_size_kb"
	for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task; do
		echo 1 > "$inst/events/sched/$e/enable" || { echo "cannot enable $e"; return 1; }
	done
	# three CPU-bound threads for 1.5 s, then asleep while /proc is read
	cat > "$tmp/wl/rt.json" <<EOF
{ "tasks": { "burn": { "instance": 3, "loop": 1, "phases": {
	"work": { "runtime": 1500000 }, "rest": { "sleep": 3000000 } } } },
  "global": { "duration": 6, "default_policy": "SCHED_OTHER", "calibration": 100,
	"logdir": "$tmp", "log_basename": "rt" } }
EOF
	echo 1 > "$inst/tracing_on"
	rt-app "$tmp/wl/rt.json" > "$tmp/rt.log" 2>&1 &
	pid=$!
	sleep 2.5
	local asleep=0
	for tid in $(ls /proc/$pid/task 2>/dev/null); do
		[ "$(cat /proc/$pid/task/$tid/comm 2>/dev/null)" = burn ] &&
			[ "$(awk '{print $3}' /proc/$pid/task/$tid/stat)" = S ] &&
			asleep=$((asleep + 1))
	done
	: > "$tmp/proc"
	for tid in $(ls /proc/$pid/task 2>/dev/null); do
		[ "$(cat /proc/$pid/task/$tid/comm 2>/dev/null)" = burn ] &&
			echo "$tid $(awk '{print $1}' /proc/$pid/task/$tid/schedstat)" >> "$tmp/proc"
	done
	echo 0 > "$inst/tracing_on"
	cat "$inst/trace" > "$tmp/real.trace"
	kill $pid 2>/dev/null; wait $pid 2>/dev/null
	for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task; do
		echo 0 > "$inst/events/sched/$e/enable"
	done
	rmdir "$inst" && inst=
	[ $asleep = 3 ] && [ "$(wc -l < "$tmp/proc")" = 3 ] ||
		{ echo "rt-app's three threads were not seen asleep after their work ($asleep; $(head -c 300 "$tmp/rt.log"))"; return 1; }
}
real_trace > "$tmp/why"
why=$(cat "$tmp/why")
if [ -n "$why" ] || [ ! -s "$tmp/real.trace" ]; then
	ok 0 "# SKIP this kernel's trace: ${why:-no trace}"
	ok 0 "# SKIP this kernel's trace: ${why:-no trace}"
	ok 0 "# SKIP this kernel's trace: ${why:-no trace}"
else
	ncpu=$(getconf _NPROCESSORS_ONLN)
	"$LINSCHED" score "$tmp/real.trace" --topology "1x${ncpu}x1" --workload "$tmp/wl/rt.json" \
		--json "$tmp/real.score" > "$tmp/real.out" 2> "$tmp/real.err"
	s=$?
	test_expect_success "this machine's trace ($(wc -l < "$tmp/real.trace") lines) is scored (exit $s): three burn threads, $(head -c 200 "$tmp/real.err")" \
		'[ $s = 0 ] && [ "$(json "$tmp/real.score" "len(r[\"tasks\"])")" = 3 ] &&
		 [ "$(json "$tmp/real.score" "r[\"trace_kind\"]")" = kernel ]'
	# a container's tracefs drops the events of tasks outside it (a switch
	# away from one of them): a thread next to such a gap has a bound, not
	# a measure, and the score says which (trace_gaps)
	cmpl=$(python3 - "$tmp/real.score" "$tmp/proc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = {t['pid']: (t['cpu_ns'], t.get('trace_gaps', 0)) for t in r['tasks']}
out = []
for l in open(sys.argv[2]):
    tid, ns = map(int, l.split())
    cpu, gaps = got.get(tid, (0, 0))
    out.append('%d:%d:%d:%d:%.4f' % (tid, cpu, ns, gaps, abs(cpu - ns) / ns))
print(' '.join(out))
PY
)
	gaps=$(json "$tmp/real.score" "r['trace_gaps']")
	test_expect_success "each thread's CPU time from the switches is within 2 % of /proc's schedstat, or no more when gaps bound it (tid:score:proc:gaps:error $cmpl; $gaps gaps)" \
		'bad=0
		 for x in $cmpl; do
			IFS=: read -r tid c p g e <<< "$x"
			if [ "$g" = 0 ]; then within "$e" 0 0.02 || bad=1
			else [ "$gaps" -gt 0 ] && within "$c" 0 "$((p + p / 50))" || bad=1
			fi
		 done
		 [ $bad = 0 ]'
	test_expect_success "its scores are numbers: work conservation in 0..1, wakeups counted" \
		'within "$(json "$tmp/real.score" "r[\"metrics\"][\"work_conservation\"]")" 0 1 &&
		 [ "$(json "$tmp/real.score" "r[\"metrics\"][\"wakeup_latency_ns\"][\"count\"] >= 0")" = True ]'
fi

# ---- 3. bad input ----
head -n 40 "$tmp/hogs.trace" > "$tmp/bad.trace"
echo "          hog-0-6       [001] ..... garbage" >> "$tmp/bad.trace"
"$LINSCHED" score "$tmp/bad.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a malformed line: exit 2, its file and line named ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && [ "$(cat "$tmp/err")" = "error: trace '\''$tmp/bad.trace'\'': line 41: expected '\''COMM-PID [CPU] SECONDS.FRACTION: EVENT: FIELDS'\''" ]'
head -n 40 "$tmp/hogs.trace" > "$tmp/bad2.trace"
sed -n '41,$p' "$tmp/hogs.trace" | grep -m1 ': sched_switch: ' | sed 's/ next_pid=[0-9]*//' >> "$tmp/bad2.trace"
"$LINSCHED" score "$tmp/bad2.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a switch without next_pid: exit 2, the line and the field named ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && [ "$(cat "$tmp/err")" = "error: trace '\''$tmp/bad2.trace'\'': line 41: sched_switch: no next_comm= field before next_pid=" ]'
grep -m1 ': sched_switch: ' "$tmp/hogs.trace" | sed 's/\[00[0-9]\]/[009]/' > "$tmp/bad3.trace"
"$LINSCHED" score "$tmp/bad3.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a CPU the topology does not have: exit 2, named ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && grep -qx "error: trace '\''$tmp/bad3.trace'\'': line 1: sched_switch: CPU 9, but topology '\''quad'\'' has 4 CPUs" "$tmp/err"'
printf '# tracer: nop\n#\n' > "$tmp/empty.trace"
"$LINSCHED" score "$tmp/empty.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a trace with no events: exit 2, said ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && grep -qx "error: trace '\''$tmp/empty.trace'\'': no scheduler events (2 lines): expected .*" "$tmp/err"'
head -n -1 "$tmp/hogs.trace" > "$tmp/cut.trace"
"$LINSCHED" score "$tmp/cut.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a simulation's trace cut before its lsb_end: exit 2, said ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && grep -q "lsb_end line: cut short?" "$tmp/err"'
"$LINSCHED" run "$TEST_V73" --topology quad --workload 'hog*2' --duration 100ms \
	--no-metrics --trace "$tmp/nometrics.trace" --quiet
"$LINSCHED" score "$tmp/nometrics.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a run's trace made with --no-metrics (no lsb_task lines): exit 2, said ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && grep -q ": a simulation'"'"'s trace without lsb_task lines: was it run with --no-metrics?$" "$tmp/err"'
"$LINSCHED" score "$tmp/nowhere.trace" --topology quad 2> "$tmp/err"
s=$?
test_expect_success "a trace that is not there: exit 2, named ($s: $(cat "$tmp/err"))" \
	'[ $s = 2 ] && grep -q "nowhere.trace" "$tmp/err"'
"$LINSCHED" score "$tmp/hogs.trace" 2> "$tmp/err"
s=$?
test_expect_success "no --topology: a usage error ($s)" \
	'[ $s = 2 ] && grep -q "^error: --topology is needed" "$tmp/err"'
"$LINSCHED" score --help > "$tmp/help"
test_expect_success "--help says the rule of the tasks scored in a real trace" \
	'grep -q "kernel threads (swapper, migration/N" "$tmp/help" && grep -q "trace-cmd report" "$tmp/help"'
test_done
