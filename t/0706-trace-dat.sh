#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --trace FILE.dat: trace-cmd's binary trace.dat, with each event's format
# as the revision's TRACE_EVENT defines it. The real trace-cmd reads it
# back into the same events, fields and timestamps as the text trace of
# the same run, event by event; linsched score gives the same scores from
# either.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan $((5 + 10 * NR_RELEASES))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each CPU's events in order: "CPU COMM-PID SECONDS EVENT: FIELDS". What
# trace-cmd's formatting differs in and nothing else is normalised: the
# flags column (ours "....." or "...."; trace-cmd report prints none
# without -l), the widths of the comm and event columns (trace-cmd pads
# the event name), and the order of events of one timestamp on different CPUs
# (trace-cmd merges the CPUs' buffers by time, the text is in the order
# the run made them): each CPU's own sequence is compared whole.
per_cpu() {
	python3 - "$1" <<'PY'
import re, sys
pat = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\.{4,5}\s+)?(\d+\.\d{9}): ([a-z_]+):\s+(.*?)\s*$')
cpus = {}
for line in open(sys.argv[1]):
    m = pat.match(line)
    if m:
        comm, pid, cpu, ts, ev, fields = m.groups()
        cpus.setdefault(int(cpu), []).append(f"{cpu} {comm}-{pid} {ts} {ev}: {fields}")
for cpu in sorted(cpus):
    print("\n".join(cpus[cpu]))
PY
}

wl='random*12:run=2ms:sleep=3ms+hog*2'
for rev in $TEST_RELEASES; do
	# every event, the optional ones too (sched_stat_runtime, counters)
	for t in trace dat; do
		"$LINSCHED" run "$rev" --workload "$wl" --topology quad-smt \
			--duration 1s --seed 5 --trace "$tmp/run.$t" --quiet \
			--trace-events all
	done
	"$LINSCHED" run "$rev" --workload "$wl" --topology quad-smt \
		--duration 1s --seed 5 --trace "$tmp/fmt.out" --trace-format dat --quiet \
		--trace-events all
	cmp -s "$tmp/run.dat" "$tmp/fmt.out"
	ok $? "$rev: --trace-format dat writes what --trace FILE.dat writes"

	trace-cmd report -t -N "$tmp/run.dat" > "$tmp/report" 2> "$tmp/report.err"
	ok $? "$rev: trace-cmd report reads the trace.dat ($(wc -l < "$tmp/report") lines)"
	per_cpu "$tmp/run.trace" > "$tmp/a"
	per_cpu "$tmp/report" > "$tmp/b"
	test_expect_success "$rev: trace-cmd report prints the text trace's $(wc -l < "$tmp/a") events, fields and timestamps" \
		'[ -s "$tmp/a" ] && diff "$tmp/a" "$tmp/b" > "$tmp/diff" || { head "$tmp/diff"; false; }'
	n=0
	for ev in sched_switch sched_waking sched_wakeup sched_migrate_task cpu_idle cpu_frequency sched_process_fork sched_stat_runtime; do
		c=$(grep -c " $ev: " "$tmp/b")
		[ "$c" -gt 0 ] || { echo "# no $ev in trace-cmd's report"; n=1; }
	done
	ok $n "$rev: the report has sched_switch, sched_waking, sched_wakeup, sched_migrate_task, cpu_idle, cpu_frequency, sched_process_fork and sched_stat_runtime events"
	waking=$(grep -c ' sched_waking: ' "$tmp/run.trace")
	wakeup=$(grep -c ' sched_wakeup: ' "$tmp/run.trace")
	test_expect_success "$rev: a sched_waking for every sched_wakeup ($waking, $wakeup)" \
		'[ "$waking" -ge "$wakeup" ]'

	# the format is the tree's: its sched_switch TP_printk, word for word
	fmt=$(git -C "$LSBISECT_REPO" show "$rev:include/trace/events/sched.h" |
		grep -o 'TP_printk("prev_comm=[^"]*"' | sed 's/^TP_printk(//')
	trace-cmd report --events "$tmp/run.dat" 2>/dev/null |
		sed -n '/^name: sched_switch$/,/^print fmt:/p' > "$tmp/switch.fmt"
	test_expect_success "$rev: sched_switch's print fmt is the tree's TP_printk ($fmt)" \
		'[ -n "$fmt" ] && grep -qF "print fmt: $fmt" "$tmp/switch.fmt"'

	trace-cmd report --stat "$tmp/run.dat" > "$tmp/stat" 2>&1
	ok $? "$rev: trace-cmd report --stat succeeds"

	for t in trace dat; do
		"$LINSCHED" score "$tmp/run.$t" --topology quad-smt --workload "$wl" \
			--json "$tmp/score.$t.json" --quiet
	done
	a=$(json "$tmp/score.trace.json" "json.dumps({k: v for k, v in r.items() if k != 'trace'}, sort_keys=True)" | sha1sum)
	b=$(json "$tmp/score.dat.json" "json.dumps({k: v for k, v in r.items() if k != 'trace'}, sort_keys=True)" | sha1sum)
	test_expect_success "$rev: linsched score of the trace.dat equals that of the text" \
		'[ -s "$tmp/score.dat.json" ] && [ "$a" = "$b" ]'

	# task groups (the kernel's cgroup events, cgroup.h's formats) and
	# tasks that end (sched_process_exit)
	for case in groups-bandwidth:cgroup_attach_task run-runtime:sched_process_exit; do
		file=t/workloads/${case%%:*}.json ev=${case#*:}
		for t in trace dat; do
			"$LINSCHED" run "$rev" --workload "$file" --topology dual \
				--duration 1s --seed 5 --trace "$tmp/case.$t" --quiet
		done
		trace-cmd report -t -N "$tmp/case.dat" > "$tmp/report" 2>&1
		per_cpu "$tmp/case.trace" > "$tmp/a"
		per_cpu "$tmp/report" > "$tmp/b"
		test_expect_success "$rev: ${file##*/}: trace-cmd report prints the text trace's $(wc -l < "$tmp/a") events, $ev among them" \
			'grep -q " $ev: " "$tmp/b" && diff "$tmp/a" "$tmp/b" > "$tmp/diff" || { head "$tmp/diff"; false; }'
	done
done

# a cut trace.dat is refused by name, not scored
head -c 3000 "$tmp/run.dat" > "$tmp/cut.dat"
"$LINSCHED" score "$tmp/cut.dat" --topology quad-smt 2> "$tmp/err" > /dev/null
rc=$?
test_expect_success "linsched score refuses a cut trace.dat by name (status $rc)" \
	'[ $rc -ne 0 ] && grep -q "cut.dat" "$tmp/err"'
"$LINSCHED" run "$TEST_V73" --workload hog --topology quad --duration 10ms \
	--trace "$tmp/x" --trace-format binary 2> "$tmp/err"
rc=$?
test_expect_success "--trace-format takes text or dat (status $rc)" \
	'[ $rc -eq 2 ] && grep -q "text or dat" "$tmp/err"'
"$LINSCHED" run "$TEST_V73" --workload hog --topology quad --duration 10ms \
	--trace "$tmp/x" --trace-events pelt,sched_switch 2> "$tmp/err"
rc=$?
test_expect_success "--trace-events names the optional events it takes (status $rc)" \
	'[ $rc -eq 2 ] && grep -q "sched_stat_runtime, nr_running, pelt" "$tmp/err"'
# the frequent events only when asked for; each one alone
"$LINSCHED" run "$TEST_V73" --workload "$wl" --topology quad-smt \
	--duration 200ms --trace "$tmp/plain" --quiet
"$LINSCHED" run "$TEST_V73" --workload "$wl" --topology quad-smt \
	--duration 200ms --trace "$tmp/pelt" --trace-events pelt --quiet
test_expect_success "a default trace has sched_switch but no sched_stat_runtime nor counters" \
	'grep -q " sched_switch: " "$tmp/plain" &&
	 ! grep -q -e " sched_stat_runtime: " -e " tracing_mark_write: C|" "$tmp/plain"'
test_expect_success "--trace-events pelt adds util_avg/load_avg counters, not nr_running" \
	'grep -q "tracing_mark_write: C|[0-9]*|util_avg cpu" "$tmp/pelt" &&
	 ! grep -q -e "|nr_running cpu" -e " sched_stat_runtime: " "$tmp/pelt"'
test_done
