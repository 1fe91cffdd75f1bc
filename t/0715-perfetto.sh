#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The text trace in Perfetto: on each test release a run's --trace passes
# t/systrace-import.pl (Perfetto's systrace importer, written from its
# sources: no trace processor is packaged) with no line dropped; its
# per-CPU sched slices are the trace's sched_switch lines of each CPU; the
# counters are there (nr_running of every CPU, util_avg/load_avg of every
# CPU and task where the tree declares pelt_cfs_tp/pelt_se_tp, a
# bandwidth-limited group's throttled 1 and 0); sched_waking, once the
# arch traces it, parses too; linsched score still reads the trace as it
# scores the run. The importer's test: it drops a line of five flags.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan $((NR_RELEASES * 7 + 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
import=$LSB_ROOT/t/systrace-import.pl

cat > "$tmp/mix.json" <<'EOF'
{
	/* /lim may run 20 ms of every 100 ms: throttled on its CPUs */
	"lsb-taskgroups": { "/lim": { "cpu.max": "20000 100000" } },
	"tasks": {
		"limited": { "instance": 2, "taskgroup": "/lim", "run": 1000000 },
		"periodic": { "instance": 6, "run": 1000, "sleep": 3000 },
		"hog": { "instance": 2, "run": 1000000 }
	},
	"global": { "duration": 1 }
}
EOF

# per_cpu FILE: "CPU COUNT" of the sched_switch lines of FILE, read apart
# from the importer: the [CPU] column of each line whose event it is
per_cpu() {
	awk '$0 !~ /^#/ && / sched_switch: / {
		match($0, /\[[0-9]+\]/); n[substr($0, RSTART + 1, RLENGTH - 2) + 0]++ }
	     END { for (c in n) print c, n[c] }' "$1" | sort -n
}

for rev in $TEST_RELEASES; do
	t=$tmp/$rev.trace
	"$LINSCHED" run "$rev" --topology quad-smt --workload "$tmp/mix.json" \
		--duration 400ms --trace "$t" --json "$tmp/$rev.json" --quiet \
		--trace-events nr_running,pelt 2> "$tmp/$rev.err"
	s=$?
	perl "$import" "$t" > "$tmp/$rev.imp" 2> "$tmp/$rev.rej"
	i=$?
	test_expect_success "$rev: the run's trace imports with no line dropped (run $s, import $i: $(head -c 300 "$tmp/$rev.rej" "$tmp/$rev.err" | tr '\n' ' '))" \
		'[ $s = 0 ] && [ $i = 0 ] && grep -qx "rejected 0" "$tmp/$rev.imp" &&
		 [ "$(sed -n "s/^lines //p" "$tmp/$rev.imp")" = "$(grep -vc "^#" "$t")" ]'

	sed -n 's/^slices cpu//p' "$tmp/$rev.imp" > "$tmp/$rev.slices"
	per_cpu "$t" > "$tmp/$rev.switches"
	test_expect_success "$rev: per-CPU sched slices are each CPU's sched_switch lines ($(tr '\n' ' ' < "$tmp/$rev.slices"))" \
		'[ -s "$tmp/$rev.slices" ] && cmp -s "$tmp/$rev.slices" "$tmp/$rev.switches" &&
		 [ "$(wc -l < "$tmp/$rev.slices")" = 8 ]'

	# every CPU's runqueue length; PELT where the tree declares it
	pelt=
	git -C "$LSBISECT_REPO" show "$rev:include/trace/events/sched.h" |
		grep -Eq '^DECLARE_TRACE\(pelt_cfs(_tp)?,' && pelt=1
	want=
	for c in 0 1 2 3 4 5 6 7; do
		want+=" nr_running cpu$c"
		[ -n "$pelt" ] && want+=" util_avg cpu$c load_avg cpu$c"
	done
	missing=
	while read -r a b; do
		grep -q "^counter $a $b [1-9]" "$tmp/$rev.imp" || missing+=" $a $b"
	done < <(echo $want | xargs -n2)
	test_expect_success "$rev: nr_running${pelt:+, util_avg and load_avg} counters of all 8 CPUs (missing:${missing:- none})" \
		'[ -z "$missing" ]'

	# each fair task's PELT under its own pid
	missing=
	for pid in $(json "$tmp/$rev.json" "' '.join(str(t['pid']) for t in r['tasks'])"); do
		for c in util_avg load_avg; do
			grep -q "^counter $c T-$pid [1-9]" "$tmp/$rev.imp" ||
				missing+=" $c T-$pid"
			grep -q "tracing_mark_write: C|$pid|$c T-$pid|" "$t" ||
				missing+=" C|$pid"
		done
	done
	test_expect_success "$rev: util_avg and load_avg of each of the 10 tasks, under its pid (missing:${missing:- none})" \
		'[ -n "$pelt" ] && [ -z "$missing" ] || [ -z "$pelt" ]'

	# /lim throttled, then running again, on a CPU
	thr=$(grep -o 'C|0|throttled /lim cpu[0-9]*|[01]$' "$t" | sort -u | tr '\n' ' ')
	test_expect_success "$rev: the bandwidth-limited group's throttled counter goes 1 and back to 0 ($thr)" \
		'grep -q "C|0|throttled /lim cpu[0-9]*|1$" "$t" &&
		 grep -q "C|0|throttled /lim cpu[0-9]*|0$" "$t" &&
		 [ "$(json "$tmp/$rev.json" "[g[\"nr_throttled\"] for g in r[\"taskgroups\"] if g[\"path\"] == \"/lim\"][0] > 0")" = True ]'

	"$LINSCHED" score "$t" --topology quad-smt --workload "$tmp/mix.json" \
		--json "$tmp/$rev.score" -q 2> "$tmp/$rev.serr"
	s=$?
	test_expect_success "$rev: linsched score reads the trace, counters and all, as the run scored itself (exit $s: $(head -c 200 "$tmp/$rev.serr"))" \
		'[ $s = 0 ] && [ "$(json "$tmp/$rev.score" "r[\"metrics\"]")" = "$(json "$tmp/$rev.json" "r[\"metrics\"]")" ]'

	# sched_waking, once the arch traces it (the trace.dat work): parsed
	# as Perfetto's importer reads it (rejected 0 above), about one per
	# sched_wakeup (a wakeup queued on a CPU at the end has no wakeup)
	if grep -q ' sched_waking: ' "$t"; then
		wk=$(sed -n "s/^events sched_waking //p" "$tmp/$rev.imp")
		wu=$(sed -n "s/^events sched_wakeup //p" "$tmp/$rev.imp")
		test_expect_success "$rev: sched_waking lines import, one per sched_wakeup ($wk, $wu)" \
			'[ "$wk" -gt 0 ] && [ $((wk - wu)) -ge -8 ] && [ $((wk - wu)) -le 8 ]'
	else
		ok 0 "# SKIP $rev: no sched_waking in the trace yet (the arch's probe comes with the trace.dat work)"
	fi
done

# the importer is strict where Perfetto is: five flag characters (ftrace
# since 5.12, our traces before) are past its oldest tokenizer's four
t=$tmp/$TEST_V61.trace
awk '!done && / sched_switch: / { sub(/\] \.\.\.\. /, "] ..... "); done = 1 } 1' "$t" > "$tmp/five.trace"
perl "$import" "$tmp/five.trace" > "$tmp/five.imp" 2> "$tmp/five.rej"
i=$?
test_expect_success "a line with five flags is dropped and named, and the slices lose it (exit $i)" \
	'[ $i = 1 ] && grep -qx "rejected 1" "$tmp/five.imp" &&
	 grep -q "five.trace:[0-9]*: not a known systrace event format: .*sched_switch" "$tmp/five.rej" &&
	 [ "$(awk "/^slices/ { n += \$3 } END { print n }" "$tmp/five.imp")" = $(($(grep -c " sched_switch: " "$t") - 1)) ]'

# without the '# tracer' header the importer does not take the file as a
# systrace (Perfetto would not open it as one)
grep -v '^#' "$t" | sed 's/^ *//' > "$tmp/bare.trace"
perl "$import" "$tmp/bare.trace" > /dev/null 2> "$tmp/bare.rej"
i=$?
test_expect_success "a file without '# tracer' is not taken as systrace (exit $i)" \
	'[ $i = 2 ] && grep -q "not a systrace text trace" "$tmp/bare.rej"'

test_done
