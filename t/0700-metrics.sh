#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The scores in --json "metrics", computed online from the kernel's own
# tracepoints: the balance score and work conservation against what their
# definitions give (metrics/README.md), checked with the CPU idle time the
# simulator accounts apart; the same scores with and without a trace.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan $((2 + 7 * NR_RELEASES))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

m() { json "$1" "r['metrics']$2"; }
near() { python3 -c "import sys; sys.exit(0 if abs($1 - ($2)) <= $3 else 1)"; }

D=2000000000
for rev in $TEST_RELEASES; do
	# Two hogs pinned to CPU 0: the greedy placement stacks them too, so
	# the definition gives 0, and CPU 1 idling does not count (no task
	# allowed there waits).
	"$LINSCHED" run "$rev" --metrics --workload 'hog*2:cpus=0' --topology dual \
		--duration 2s --json "$tmp/p.json" --quiet
	b=$(m "$tmp/p.json" "['balance_score']"); w=$(m "$tmp/p.json" "['work_conservation']")
	i1=$(json "$tmp/p.json" "r['cpus'][1]['idle_ns']")
	[ "$b" = 0 ] && [ "$w" = 0 ] && [ "$i1" = "$D" ]
	ok $? "$rev: two hogs pinned to CPU 0 of dual: balance 0, work conservation 0, though CPU 1 idles ($b, $w, CPU 1 idle $i1 ns)"

	# Two hogs start pinned to CPU 0 and are unpinned at X = 100 ms (each
	# when it next runs: the running one at X, the other after waiting its
	# turn, within a 6 ms slice); the balancer then moves one to CPU 1,
	# which idled from the start, at some time M = CPU 1's idle time (the
	# simulator's own accounting; idle CPUs poll, so no exit latency hides
	# in it). From X to M the loads are {2048, 0} against the greedy
	# {1024, 1024}, since the hog that unpinned may go anywhere; before X
	# the greedy placement stacks them too. So, over the duration D:
	#   balance = 2 x 1024^2 x (M - X) / D
	# and work conservation counts CPU 1's idle time while an unpinned hog
	# waits on CPU 0: all of [X, M) except up to one slice before the
	# waiting hog runs and unpins, out of 2 D of CPU time:
	#   (M - X - 6 ms) / 2D <= work conservation <= (M - X) / 2D.
	"$LINSCHED" run "$rev" --metrics --workload 'hog*2:cpus=0:unpin=100ms' \
		--topology dual --cpuidle poll --duration 2s --json "$tmp/u.json" --quiet
	b=$(m "$tmp/u.json" "['balance_score']"); w=$(m "$tmp/u.json" "['work_conservation']")
	i=$(json "$tmp/u.json" "r['cpus'][1]['idle_ns']")
	X=100000000
	python3 -c "import sys; sys.exit(0 if $i > $X and ($i - $X - 6e6) / (2 * $D) <= $w <= ($i - $X) / (2 * $D) else 1)"
	ok $? "$rev: two hogs unpinned at 100 ms on dual: work conservation within one slice of (M - X) / 2D ($w, M = $i ns)"
	near "$b" "2 * 1024**2 * ($i - $X) / $D" 1e-6
	ok $? "$rev: and balance score = 2 x 1024^2 x (M - X) / D exactly ($b)"
	python3 -c "import sys; sys.exit(0 if $i - $X < 50e6 else 1)"
	ok $? "$rev: the balancer spreads them within 50 ms of the unpin ($(( (i - X) / 1000 )) us)"

	# The same figures with a trace written: the probes feed the metrics
	# either way.
	"$LINSCHED" run "$rev" --metrics --workload 'hog*2:cpus=0:unpin=100ms' \
		--topology dual --cpuidle poll --duration 2s --json "$tmp/t.json" \
		--trace "$tmp/trace" --quiet
	a=$(m "$tmp/u.json" ""); c=$(m "$tmp/t.json" "")
	[ "$a" = "$c" ]
	ok $? "$rev: a trace does not change the metrics"

	# A mixed workload: the keys are there, the wakeups are counted and the
	# migrations a dual machine can make are between cores of one cluster.
	"$LINSCHED" run "$rev" --metrics --workload 'periodic*4:run=3ms:sleep=2ms+hog*1:nice=5' \
		--topology dual --duration 1s --json "$tmp/x.json" --quiet
	k=$(m "$tmp/x.json" "['wakeup_latency_ns']['count'] > 100 and r['metrics']['wakeup_latency_ns']['p50'] <= r['metrics']['wakeup_latency_ns']['p99'] <= r['metrics']['wakeup_latency_ns']['max'] and 0 < r['metrics']['fairness'] <= 1 and sorted(r['metrics']['migrations_per_s']) == ['MC', 'NUMA', 'PKG', 'SMT']")
	[ "$k" = True ]
	ok $? "$rev: periodic tasks: wakeup latency p50 <= p99 <= max, fairness in (0, 1], the four levels ($(m "$tmp/x.json" "['wakeup_latency_ns']"))"
	k=$(m "$tmp/x.json" "['migrations_per_s']['SMT'] == r['metrics']['migrations_per_s']['PKG'] == r['metrics']['migrations_per_s']['NUMA'] == 0 and r['metrics']['migrations']['MC'] <= sum(t['nr_migrations'] for t in r['tasks'])")
	[ "$k" = True ]
	ok $? "$rev: dual's migrations are all MC, at most the kernel's count ($(m "$tmp/x.json" "['migrations']"))"
done

# The scores (and the invariants, read from the same events) are on by
# default; --no-metrics leaves them out and changes nothing else.
"$LINSCHED" run "$TEST_V61" --workload 'periodic*4:run=3ms:sleep=2ms' --topology dual \
	--duration 1s --json "$tmp/d.json" --quiet
"$LINSCHED" run "$TEST_V61" --workload 'periodic*4:run=3ms:sleep=2ms' --topology dual \
	--duration 1s --json "$tmp/n.json" --quiet --no-metrics
k=$(python3 -c "
import json
d = json.load(open('$tmp/d.json')); n = json.load(open('$tmp/n.json'))
m = d.pop('metrics', None); i = d.pop('invariants', None)
print(m is not None and i is not None and 'metrics' not in n and 'invariants' not in n and d == n)")
[ "$k" = True ]
ok $? "metrics and invariants by default, none with --no-metrics, the rest identical"

# Throughput: a hog pinned to a little CPU (capacity 398) of biglittle-4+4
# and one on a big CPU, both at their highest OPP, get 398/1024 + 1 CPU of
# work done per second, less their start: the revision's menu has the
# CPUs in cpu-sleep at boot, whose 220 us exit latency each first wakeup
# pays, one CPU after the other (1.3860 where 1.3887 is the whole second).
"$LINSCHED" run "$TEST_V61" --workload 'hog*1:cpus=0+hog*1:cpus=4' --topology biglittle-4+4 \
	--governor performance --duration 1s --json "$tmp/w.json" --quiet
t=$(m "$tmp/w.json" "['throughput']")
near "$t" "1 + 398 / 1024" 5e-3
ok $? "throughput of a little and a big hog: 1 + 398/1024 ($t)"
done_testing
