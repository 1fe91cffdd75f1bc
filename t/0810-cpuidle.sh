#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The revision's own cpuidle (issue 27): drivers/cpuidle's core and
# governors, through the arch's driver with the topology's states, pick
# idle states by default (--cpuidle menu|teo|ladder names one). On each
# test release whose tree has drivers/cpuidle/ (a history made from
# today's subset.list):
# - the idle loop takes cpuidle's governor branch, never the no-driver
#   default_idle_call() (the arch WARNs there; --fatal-warnings);
# - on a C1/C6 machine, 20 ms idle periods go to C6 and 200 us ones to
#   C1, under menu and teo;
# - the suite's periodic-d5-p1ms-x1.0-cpus on quad-smt, by default, runs
#   the revision's menu (the same results as --cpuidle menu) and costs
#   what a kernel without the got_tick no-driver artefact costs (~2.4 J in
#   2 s, 6.1 2.5 J: its menu polls where it put C1 before the POLL
#   state), not the 6.2 J of the simulator's own governor on the
#   no-driver branch (--cpuidle sim, measured on the newest release);
# - a tree made from an older subset.list (drivers/cpuidle/'s Kconfig
#   files, not its code) refuses the revision's governor before it boots,
#   and runs with --cpuidle sim as before.
# The cpuidle core's own counts in the results ("cpuidle", door 9), on the
# C1/C6 machine (C6's target residency 800 us):
# - 20 ms idle periods under menu: the states' usage (entries the core
#   finished) is the simulator's idle entries but a few: 406 of 418 on
#   6.1 (menu: 414 of 426), 6.12, 7.2 and 7.3, 4 of them under way at
#   the end (the core counts an entry as it leaves the state);
#   C6 has almost all of the core's time_ns; the tick is stopped for all
#   but the first few entries;
# - the arch's driver has a POLL state 0 (CPUIDLE_FLAG_POLLING), as
#   intel_idle and acpi_idle: 200 us idle periods go to C1 and menu keeps
#   the tick (its shortcut returns state 1 with stop_tick = !(state 0 is a
#   polling state)); teo keeps it too (its sleep length is below the tick
#   period and C1 fits it);
# - on a machine whose driver has no polling state (Arm's: "polling_state":
#   false), C1 is state 0: menu's shortcut returns it with stop_tick set,
#   and the tick stops (no timer-wheel timer is due within a tick);
# - 1 us idle periods, below C1's target residency: menu picks POLL, the
#   CPU spins (no idle state: busy, no exit latency) and the tick stays;
# - exponentially distributed idle periods (mean 1 ms around C6's 800 us):
#   the core counts wrong guesses, above (C6 woken early) or below (C1
#   when C6 would have fit);
# - with --cpuidle sim there is no "cpuidle" object; "kernel:teo" is
#   another spelling of teo.
. "$(dirname "$0")/lib.sh"

revs=
for rev in $TEST_RELEASES; do
	git -C "$LSBISECT_REPO" cat-file -e "$rev:drivers/cpuidle/cpuidle.c" 2>/dev/null &&
		revs="$revs $rev"
done
[ -n "$revs" ] || skip_all "no test release in $LSBISECT_REPO has drivers/cpuidle/ (history from an older subset.list)"
plan $((16 * $(set -- $revs; echo $#) + 4))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/c1c6.json" <<'EOF'
{
	"name": "c1c6",
	"cpu_types": {
		"core": {
			"capacity": 1024,
			"idle_states": [
				{"name": "C1", "exit_latency_us": 2, "target_residency_us": 2, "power_mw": 500},
				{"name": "C6", "exit_latency_us": 100, "target_residency_us": 800, "power_mw": 10}
			],
			"opps": [{"khz": 2000000, "capacity": 1024, "power_mw": 2000}]
		}
	},
	"cpus": [{"id": 0, "type": "core", "core": 0}, {"id": 1, "type": "core", "core": 1},
		 {"id": 2, "type": "core", "core": 2}, {"id": 3, "type": "core", "core": 3}]
}
EOF
sed '0,/"capacity": 1024,/s//"capacity": 1024, "polling_state": false,/' "$tmp/c1c6.json" > "$tmp/c1c6-arm.json"
"$LINSCHED" suite write "$tmp/suite" --topology quad-smt --match periodic-d5-p1ms-x1.0-cpus >/dev/null
cat >"$tmp/vary.json" <<'EOF'
{
	"global": {"duration": -1},
	"tasks": {
		"vary": {
			"instance": 4, "loop": -1, "run": 50,
			"lsb-sleep": {"distribution": "exponential", "mean": 1000}
		}
	}
}
EOF
share() {	# FILE STATE: the share of idle time in STATE over all CPUs
	json "$1" "sum(c.get(a[0], 0) for c in r['power']['idle_residency'].values()) / sum(sum(c.values()) for c in r['power']['idle_residency'].values())" "$2"
}
kept() {	# FILE: the share of idle entries that kept the tick
	json "$1" "r['cpuidle']['tick_kept'] / (r['cpuidle']['tick_stopped'] + r['cpuidle']['tick_kept'])"
}

for rev in $revs; do
	for gov in menu kernel:teo; do
		"$LINSCHED" run "$rev" --topology "$tmp/c1c6.json" --cpuidle $gov \
			--workload 'periodic*4:run=50us:sleep=20ms' --duration 2s \
			--fatal-warnings --json "$tmp/long.json" --quiet
		s=$(share "$tmp/long.json" C6)
		within "$s" 0.95 1
		ok $? "$rev: $gov puts 20 ms idle periods in C6 ($s of idle time)"
		[ $gov = menu ] && cp "$tmp/long.json" "$tmp/long-menu.json"
	done
	# the kernel's own counts, menu, 20 ms idle periods
	u=$(json "$tmp/long-menu.json" "r['cpuidle']['usage'] / r['power']['idle_entries']")
	within "$u" 0.9 1
	ok $? "$rev: menu, 20 ms: the core's usage is $u of the simulator's idle entries" ||
		diag "$(json "$tmp/long-menu.json" "r['cpuidle']")"
	t=$(json "$tmp/long-menu.json" "sum(c['states']['C6']['time_ns'] for c in r['cpuidle']['cpus'].values()) / sum(s['time_ns'] for c in r['cpuidle']['cpus'].values() for s in c['states'].values())")
	within "$t" 0.95 1
	ok $? "$rev: menu, 20 ms: C6 has $t of the core's idle time_ns"
	st=$(json "$tmp/long-menu.json" "r['cpuidle']['tick_stopped']")
	kp=$(json "$tmp/long-menu.json" "r['cpuidle']['tick_kept']")
	[ "$st" -gt "$kp" ]
	ok $? "$rev: menu, 20 ms: the tick stopped in $st idle entries, kept in $kp"
	"$LINSCHED" run "$rev" --topology "$tmp/c1c6.json" --cpuidle menu \
		--workload 'periodic*4:run=50us:sleep=200us' --duration 2s \
		--fatal-warnings --json "$tmp/short.json" --quiet
	s=$(share "$tmp/short.json" C1)
	within "$s" 0.95 1
	ok $? "$rev: menu puts 200 us idle periods in C1 ($s of idle time)"
	k=$(kept "$tmp/short.json")
	within "$k" 0.95 1
	ok $? "$rev: menu, 200 us: state 0 polls, so menu keeps the tick (kept in $k of entries)"
	"$LINSCHED" run "$rev" --topology "$tmp/c1c6-arm.json" \
		--workload 'periodic*4:run=50us:sleep=200us' --duration 2s \
		--fatal-warnings --json "$tmp/short-arm.json" --quiet
	s=$(share "$tmp/short-arm.json" C1)
	json "$tmp/short-arm.json" "'POLL' in r['cpuidle']['cpus']['0']['states'] and sys.exit(1)" >/dev/null &&
		within "$s" 0.95 1
	ok $? "$rev: without a polling state, 200 us idle periods go to C1, the driver's state 0 ($s of idle time)"
	k=$(kept "$tmp/short-arm.json")
	within "$k" 0 0.05
	ok $? "$rev: without a polling state, menu stops the tick on C1 (kept in $k of entries)"
	"$LINSCHED" run "$rev" --topology "$tmp/c1c6.json" --cpuidle menu \
		--workload 'periodic*4:run=50us:sleep=1us' --duration 2s \
		--fatal-warnings --json "$tmp/poll.json" --quiet
	polls="sum(c['states']['POLL'][a[0]] for c in r['cpuidle']['cpus'].values())"
	pu=$(json "$tmp/poll.json" "$polls" usage)
	pt=$(json "$tmp/poll.json" "$polls" time_ns)
	n=$(json "$tmp/poll.json" "r['cpuidle']['usage']")
	json "$tmp/poll.json" "$pu > 0.9 * $n and $pt > 0 or sys.exit(1)" >/dev/null
	ok $? "$rev: menu, 1 us idle periods: POLL has $pu of $n entries, $pt ns"
	k=$(kept "$tmp/poll.json")
	within "$k" 0.99 1
	ok $? "$rev: menu, 1 us: the tick is kept in $k of idle entries"
	"$LINSCHED" run "$rev" --topology "$tmp/c1c6.json" --cpuidle teo \
		--workload 'periodic*4:run=50us:sleep=200us' --duration 2s \
		--fatal-warnings --json "$tmp/short-teo.json" --quiet
	k=$(kept "$tmp/short-teo.json")
	s=$(share "$tmp/short-teo.json" C1)
	within "$k" 0.95 1 && within "$s" 0.95 1
	ok $? "$rev: teo puts 200 us idle periods in C1 ($s of idle time) and keeps the tick (in $k of idle entries)"
	"$LINSCHED" run "$rev" --topology "$tmp/c1c6.json" --cpuidle menu \
		--workload "$tmp/vary.json" --duration 2s \
		--fatal-warnings --json "$tmp/vary-out.json" --quiet 2>/dev/null
	m=$(json "$tmp/vary-out.json" "'above=%d below=%d usage=%d' % (r['cpuidle']['above'], r['cpuidle']['below'], r['cpuidle']['usage'])")
	json "$tmp/vary-out.json" "r['cpuidle']['above'] + r['cpuidle']['below'] > 0 or sys.exit(1)" >/dev/null
	ok $? "$rev: menu, exponential idle periods: the core counts misses ($m)"

	"$LINSCHED" run "$rev" --topology quad-smt \
		--workload "$tmp/suite/periodic-d5-p1ms-x1.0-cpus.json" --duration 2s \
		--fatal-warnings --json "$tmp/d5.json" --quiet
	ok $? "$rev: by default, the idle loop never halts through the no-driver branch (--fatal-warnings)"
	"$LINSCHED" run "$rev" --topology quad-smt --cpuidle menu \
		--workload "$tmp/suite/periodic-d5-p1ms-x1.0-cpus.json" --duration 2s \
		--fatal-warnings --json "$tmp/d5-menu.json" --quiet
	g=$(json "$tmp/d5.json" "r['cpuidle']['governor']")
	[ "$g" = menu ] && cmp -s "$tmp/d5.json" "$tmp/d5-menu.json"
	ok $? "$rev: the default is the revision's menu (\"$g\"; the same results as --cpuidle menu)"
	e=$(json "$tmp/d5.json" "r['power']['energy_j']")
	diag "$rev: periodic-d5-p1ms-x1.0-cpus on quad-smt, by default: $e J, $(json "$tmp/d5.json" "r['power']['idle_entries'] / 2") idle entries/s"
	within "$e" 2 3.6
	ok $? "$rev: periodic-d5-p1ms-x1.0-cpus under the revision's menu: $e J, not the no-driver branch's 6.2 J"
done

# the same pattern with the simulator's governor: the no-driver branch
last=$(set -- $revs; eval echo "\${$#}")
"$LINSCHED" run "$last" --topology quad-smt --cpuidle sim \
	--workload "$tmp/suite/periodic-d5-p1ms-x1.0-cpus.json" --duration 2s \
	--json "$tmp/d5-sim.json" --quiet
e=$(json "$tmp/d5-sim.json" "r['power']['energy_j']")
within "$e" 5 7.5
ok $? "$last: the simulator's governor on the no-driver branch: $e J"
json "$tmp/d5-sim.json" "'cpuidle' in r and sys.exit(1)" >/dev/null
ok $? "$last: with --cpuidle sim the results have no \"cpuidle\""

# an older subset: the tree keeps drivers/cpuidle/'s Kconfig files only
git clone -q --shared --no-checkout "$LSBISECT_REPO" "$tmp/old"
git -C "$tmp/old" reset -q --soft "$last"
git -C "$tmp/old" read-tree "$last"
git -C "$tmp/old" ls-files drivers/cpuidle | grep -v '/Kconfig' |
	xargs git -C "$tmp/old" rm -q --cached
git -C "$tmp/old" -c user.name=t -c user.email=t@t commit -qm "an older subset: no drivers/cpuidle/ code"
"$LINSCHED" run --repo "$tmp/old" HEAD --topology quad-smt --workload hog \
	--duration 100ms --quiet 2> "$tmp/old.err"
status=$?
[ $status = 2 ] && grep -q "^error: --cpuidle (default: the revision's): this tree was built without drivers/cpuidle/" "$tmp/old.err"
ok $? "a tree without drivers/cpuidle/'s code refuses the revision's governor before it boots (exit $status)" ||
	diag "$(cat "$tmp/old.err")"
"$LINSCHED" run --repo "$tmp/old" HEAD --topology quad-smt --workload hog \
	--duration 100ms --cpuidle sim --quiet > /dev/null 2>&1
ok $? "that tree runs with --cpuidle sim, the simulator's governor"
test_done
