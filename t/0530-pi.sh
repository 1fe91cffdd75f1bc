#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Priority inheritance through the revision's own rt_mutex_setprio(): a
# FIFO task blocked on a mutex held by a fair task while a medium FIFO
# task runs (t/workloads/pi-inversion.json). With rt-app's pi_enabled the
# holder runs at the waiter's priority and the waiter's longest wait is
# the holder's 8 ms left; without it the medium task preempts the holder
# and the wait grows by its 30 ms. On a 6.x and a 7.x revision. And a
# chain (t/workloads/pi-chain.json): the boost travels from the waiter
# through a holder that waits in turn to the last holder.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 11
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/"pi_enabled" : true/"pi_enabled" : false/' t/workloads/pi-inversion.json > "$tmp/nopi.json"

waited() { json "$1" "[t['lock_wait_max_ns'] for t in r['tasks'] if t['name'] == 'waiter'][0]"; }
for rev in $TEST_V61 $TEST_V73; do
	"$LINSCHED" run "$rev" --workload t/workloads/pi-inversion.json --topology dual \
		--governor performance --json "$tmp/pi.json" --trace "$tmp/pi.trace" --quiet
	s1=$?
	"$LINSCHED" run "$rev" --workload "$tmp/nopi.json" --topology dual \
		--governor performance --json "$tmp/nopi.json.out" --trace "$tmp/nopi.trace" --quiet
	s2=$?
	pi=$(waited "$tmp/pi.json"); nopi=$(waited "$tmp/nopi.json.out")
	test_expect_success "$rev: with PI the waiter waits at most the holder's 8 ms ($pi ns)" \
		'[ $s1 = 0 ] && [ "$pi" -ge 8000000 ] && [ "$pi" -le 8500000 ]'
	test_expect_success "$rev: without PI the medium task's 30 ms come on top ($nopi ns)" \
		'[ $s2 = 0 ] && [ "$nopi" -ge 38000000 ] && [ "$nopi" -le 38500000 ]'
	boosts=$(grep -c "sched_pi_setprio: comm=holder pid=[0-9]* oldprio=120 newprio=49" "$tmp/pi.trace")
	test_expect_success "$rev: the kernel's rt_mutex_setprio boosts the holder to the waiter's prio 49, each period ($boosts times), and back" \
		'[ "$boosts" -ge 19 ] && grep -q "next_comm=holder next_pid=[0-9]* next_prio=49" "$tmp/pi.trace" &&
		 grep -q "sched_pi_setprio: comm=holder pid=[0-9]* oldprio=49 newprio=120" "$tmp/pi.trace"'
	test_expect_success "$rev: without PI the holder is never boosted" \
		'! grep -q "sched_pi_setprio\|next_comm=holder next_pid=[0-9]* next_prio=49" "$tmp/nopi.trace"'
done

# the chain: top waits for m2 held by link, which waits for m1 held by base
sed 's/"pi_enabled" : true/"pi_enabled" : false/' t/workloads/pi-chain.json > "$tmp/nochain.json"
"$LINSCHED" run "$TEST_V73" --workload t/workloads/pi-chain.json --topology dual \
	--governor performance --json "$tmp/chain.json" --trace "$tmp/chain.trace" --quiet
s1=$?
"$LINSCHED" run "$TEST_V73" --workload "$tmp/nochain.json" --topology dual \
	--governor performance --json "$tmp/nochain.out" --quiet
s2=$?
top() { json "$1" "[t['lock_wait_max_ns'] for t in r['tasks'] if t['name'] == 'top'][0]"; }
a=$(top "$tmp/chain.json"); b=$(top "$tmp/nochain.out")
test_expect_success "$TEST_V73: chain: top waits for base's 8 ms and link's 1 ms ($a ns), not for noise too ($b ns)" \
	'[ $s1 = 0 ] && [ $s2 = 0 ] && [ "$a" -ge 9000000 ] && [ "$a" -le 9500000 ] && [ "$b" -ge 39000000 ]'
first=$(grep -m2 "sched_pi_setprio" "$tmp/chain.trace" | sed 's/.*comm=\([a-z]*\) .*newprio=\([0-9]*\)/\1:\2/' | tr '\n' ' ')
test_expect_success "$TEST_V73: chain: one wait boosts link, then base, to prio 49 ($first)" \
	'[ "$first" = "link:49 base:49 " ]'
test_expect_success "$TEST_V73: chain: each holder goes back to 120 as it unlocks" \
	'grep -q "comm=base pid=[0-9]* oldprio=49 newprio=120" "$tmp/chain.trace" &&
	 grep -q "comm=link pid=[0-9]* oldprio=49 newprio=120" "$tmp/chain.trace"'
test_done
