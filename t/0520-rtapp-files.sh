#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Files written the way rt-app's own doc/examples are (comments of both
# kinds, trailing commas, keys rt-app never reads such as "frag", duplicate
# event keys, "sleep": 0, dl-runtime on SCHED_OTHER, a "resources" section,
# names sharing their first 15 characters, taskgroups on tasks and on
# phases) run unchanged on a 6.x and a 7.x revision, each with the one
# outcome it is written for.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 19
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=t/workloads/rtapp-style

run() { # REV NAME: results in $tmp/NAME-REV.json, stderr in $tmp/NAME-REV.err
	"$LINSCHED" run "$1" --workload "$dir/$2.json" --topology quad \
		--governor performance --json "$tmp/$2-$1.json" --quiet \
		2> "$tmp/$2-$1.err"
}
# pct FILE TASK: the task's share of the run, in % of one CPU
pct() {
	json "$1" "round(100.0 * [t['sum_exec_ns'] for t in r['tasks'] if t['name'] == a[0]][0] / r['duration_ns'], 2)" "$2"
}
switches() { json "$1" "[t['nr_switches'] for t in r['tasks'] if t['name'] == a[0]][0]" "$2"; }

for rev in $TEST_V61 $TEST_V73; do
	run "$rev" template; s=$?
	p=$(pct "$tmp/template-$rev.json" ticker)
	test_expect_success "$rev: template (comments, sleep 0, a unique timer): 10 ms every 100 ms is 10 % ($p %)" \
		'[ $s = 0 ] && within "$p" 9.8 10.2'

	run "$rev" frames; s=$?
	p=$(pct "$tmp/frames-$rev.json" Painter)
	test_expect_success "$rev: frames (trailing commas, duplicate keys, phases, frag): 25 frames of 4 ms each ($p % of 1 s)" \
		'[ $s = 0 ] && within "$p" 9.9 10.1'
	test_expect_success "$rev: frames: 'frag' is a warning, as rt-app never reads it" \
		'grep -q "warning: workload .*: '\''global.frag'\'': ignored, as rt-app ignores it" "$tmp/frames-$rev.err"'

	run "$rev" names; s=$?
	a=$(pct "$tmp/names-$rev.json" MediaDecoderThread-audio)
	v=$(pct "$tmp/names-$rev.json" MediaDecoderThread-video)
	test_expect_success "$rev: names sharing 15 characters run apart, under their whole names ($a %, $v %)" \
		'[ $s = 0 ] && within "$a" 19.8 20.2 && within "$v" 29.8 30.2'

	run "$rev" deadline; s=$?
	p=$(pct "$tmp/deadline-$rev.json" reserved)
	test_expect_success "$rev: deadline: the kernel's CBS holds an endless SCHED_DEADLINE task to 10 ms / 100 ms ($p %)" \
		'[ $s = 0 ] && within "$p" 9.8 10.2'

	run "$rev" tutorial; s=$?
	p0=$(pct "$tmp/tutorial-$rev.json" pinned-0)
	p2=$(pct "$tmp/tutorial-$rev.json" pinned-2)
	pr=$(pct "$tmp/tutorial-$rev.json" producer)
	co=$(pct "$tmp/tutorial-$rev.json" consumer)
	test_expect_success "$rev: tutorial (resources, instances on one CPU): three pinned hogs share CPU 1 ($p0 %, $p2 %)" \
		'[ $s = 0 ] && within "$p0" 32.8 33.8 && within "$p2" 32.8 33.8'
	test_expect_success "$rev: tutorial: each signal wakes the consumer for 2 ms of the producer's 1 ms ($co %, $pr %)" \
		'within "$(python3 -c "print($co / $pr)")" 1.9 2.1'

	run "$rev" taskgroups; s=$?
	t0=$(json "$tmp/taskgroups-$rev.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'thread0'][0]")
	g11=$(json "$tmp/taskgroups-$rev.json" "[g['usage_ns'] for g in r['taskgroups'] if g['path'] == a[0]][0]" /tg1/tg11)
	g1=$(json "$tmp/taskgroups-$rev.json" "[g['usage_ns'] for g in r['taskgroups'] if g['path'] == a[0]][0]" /tg1)
	t1=$(json "$tmp/taskgroups-$rev.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'thread1'][0]")
	test_expect_success "$rev: taskgroups: /tg1/tg11 has phases 0 and 1 of thread0, 2/3 of its time ($g11 of $t0 ns); /tg1 that and thread1's" \
		'[ $s = 0 ] && within "$(json "$tmp/taskgroups-$rev.json" "int(a[0]) / int(a[1])" "$g11" "$t0")" 0.66 0.67 &&
		 [ "$g1" = $((g11 + t1)) ]'
done

# dl-runtime on SCHED_OTHER, as rt-app's custom-slice example: a 100 ms
# slice against a default one on one CPU. 6.1 has no custom slices;
# 6.12 runs the long slice out; 7.x protects a running task only up to
# the smallest slice queued (run-to-parity's min_slice), so the default
# one sets the pace again.
for rev in $TEST_V61 $TEST_V612 $TEST_V73; do
	run "$rev" slice
	n1=$(switches "$tmp/slice-$rev.json" longslice)
	n2=$(switches "$tmp/slice-$rev.json" defaultslice)
	case $rev in
	"$TEST_V61") want="ignored: CFS's own turns"; check='[ "$n1" -gt 40 ]' ;;
	"$TEST_V612") want="100 ms turns"; check='[ "$n1" -le 12 ] && [ "$n2" -le 12 ]' ;;
	*) want="turns of the smallest slice queued"; check='[ "$n1" -gt 100 ]' ;;
	esac
	test_expect_success "$rev: slice: $want ($n1 and $n2 switches in 1 s)" "$check"
done
test_done
