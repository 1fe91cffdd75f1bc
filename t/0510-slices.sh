#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# rt-app's dl-runtime on a fair task is its slice request
# (sched_attr.sched_runtime), as rt-app passes it: EEVDF kernels make it
# the task's slice, 6.1 ignores it. And what dl-runtime, dl-period and
# dl-deadline may go with.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a hog and a task waking every 2 ms for 200 us, both on CPU 0
workload() { # FILE EXTRA-KEYS-OF-THE-SHORT-TASK
	cat > "$1" <<JSON
{ "global": { "duration": 2, "default_policy": "SCHED_OTHER" },
  "tasks": {
    "hog": { "cpus": [0], "loop": -1, "run": 1000000 },
    "short": { "cpus": [0], $2 "loop": -1, "run": 200, "sleep": 2000 }
  } }
JSON
}
workload "$tmp/plain.json" ""
workload "$tmp/slice.json" '"dl-runtime": 100,'

p99() { json "$1" "r['metrics']['wakeup_latency_ns']['p99']"; }
for rev in $TEST_RELEASES; do
	for w in plain slice; do
		"$LINSCHED" run "$rev" --workload "$tmp/$w.json" --topology dual \
			--json "$tmp/$w-$rev.json" --quiet || echo "run failed: $rev $w" >&2
	done
done

# 6.1 has no custom slices: the request changes nothing
cmp -s <(json "$tmp/plain-$TEST_V61.json" "r['tasks'], r['metrics']") \
	<(json "$tmp/slice-$TEST_V61.json" "r['tasks'], r['metrics']")
ok $? "$TEST_V61 ignores a fair task's sched_runtime (same tasks and metrics)"
# without one, the wakee waits for the hog's slice to end: at a tick on
# 6.12 (p99 >= 1 ms), by the hrtick on 7.x (HRTICK on, as on x86: 400 us)
for rev in $TEST_V612 $TEST_V72 $TEST_V73; do
	a=$(p99 "$tmp/plain-$rev.json"); b=$(p99 "$tmp/slice-$rev.json")
	test_expect_success "$rev: a 100 us slice brings the short task's wake-up p99 down ($a -> $b ns)" \
		'[ "$a" -ge 300000 ] && [ "$b" -lt $((a / 2)) ]'
done

# what dl-runtime, dl-period and dl-deadline may go with
bad() { # NAME TASK-KEYS EXPECTED-MESSAGE
	printf '{ "tasks": { "t": { %s "loop": 1, "run": 100 } } }\n' "$2" > "$tmp/$1.json"
	"$LINSCHED" run "$TEST_V73" --workload "$tmp/$1.json" --topology dual \
		--duration 10ms --quiet 2> "$tmp/$1.err"
	status=$?
	local name=$1 expect=$3
	test_expect_success "$name: status $status, $(head -c 150 "$tmp/$name.err")" \
		'[ $status = 2 ] && grep -q "$expect" "$tmp/$name.err"'
}
bad period-on-fair '"dl-period": 1000,' "task 't': 'dl-period': goes with policy SCHED_DEADLINE"
bad runtime-on-fifo '"policy": "SCHED_FIFO", "dl-runtime": 100,' \
	"task 't': 'dl-runtime': goes with SCHED_DEADLINE, or with a fair policy as its slice"
bad deadline-on-fair '"dl-deadline": 1000,' "task 't': 'dl-deadline': goes with policy SCHED_DEADLINE"
done_testing
