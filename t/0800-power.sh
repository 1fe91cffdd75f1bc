#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Power and idle, on a 6.1, a 6.12, a 7.2 and a 7.3 release: idle states chosen by the
# simulator's governor, energy from the topology's model against a hand
# calculation, the revision's own schedutil moving frequencies (and run
# work stretching with them), and the revision's energy-aware placement on
# big.LITTLE with its energy model.
#
# The energy-aware test uses its own machine: in the RK3588 numbers of
# the biglittle-4+4 preset (upstream dynamic-power-coefficients), a big
# CPU at a low OPP costs about what a little one does for the same
# capacity, so the kernel rightly has no reason to prefer the little ones.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan $((10 * NR_RELEASES))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

near() { python3 -c "import sys; sys.exit(0 if abs($1 - ($2)) <= $3 else 1)"; }

# One CPU at one fixed frequency: 1000 mW busy, WFI 100 mW, deep 10 mW.
cat >"$tmp/one.json" <<'EOF'
{
	"name": "one-fixed",
	"cpu_types": {
		"core": {
			"capacity": 1024,
			"idle_states": [
				{"name": "WFI", "exit_latency_us": 1, "target_residency_us": 1, "power_mw": 100},
				{"name": "deep", "exit_latency_us": 100, "target_residency_us": 500, "power_mw": 10}
			],
			"opps": [{"khz": 2000000, "capacity": 1024, "power_mw": 1000}]
		}
	},
	"cpus": [{"id": 0, "type": "core"}]
}
EOF
# 1 ms of run every 10 ms (an absolute timer): 10 % busy
printf '{"tasks": {"t": {"run": 1000, "timer": {"ref": "tick", "period": 10000, "mode": "absolute"}}}}' \
	>"$tmp/p10.json"
# big.LITTLE whose little CPUs are four times as efficient as the big ones
cat >"$tmp/bl.json" <<'EOF'
{
	"name": "bl-efficient",
	"cpu_types": {
		"little": {
			"capacity": 512,
			"idle_states": [
				{"name": "WFI", "exit_latency_us": 1, "target_residency_us": 1, "power_mw": 5},
				{"name": "sleep", "exit_latency_us": 100, "target_residency_us": 500, "power_mw": 1}
			],
			"opps": [
				{"khz": 500000, "capacity": 256, "power_mw": 40},
				{"khz": 1000000, "capacity": 512, "power_mw": 100}
			]
		},
		"big": {
			"capacity": 1024,
			"idle_states": [
				{"name": "WFI", "exit_latency_us": 1, "target_residency_us": 1, "power_mw": 20},
				{"name": "sleep", "exit_latency_us": 100, "target_residency_us": 500, "power_mw": 2}
			],
			"opps": [
				{"khz": 1000000, "capacity": 512, "power_mw": 400},
				{"khz": 2000000, "capacity": 1024, "power_mw": 1200}
			]
		}
	},
	"cpus": [
		{"id": 0, "type": "little", "cluster": 0, "core": 0},
		{"id": 1, "type": "little", "cluster": 0, "core": 1},
		{"id": 2, "type": "little", "cluster": 0, "core": 2},
		{"id": 3, "type": "little", "cluster": 0, "core": 3},
		{"id": 4, "type": "big", "cluster": 1, "core": 4},
		{"id": 5, "type": "big", "cluster": 1, "core": 5},
		{"id": 6, "type": "big", "cluster": 1, "core": 6},
		{"id": 7, "type": "big", "cluster": 1, "core": 7}
	]
}
EOF
# OPPs on the little type only
cat >"$tmp/mixed.json" <<'EOF'
{
	"name": "mixed",
	"cpu_types": {
		"little": { "capacity": 512, "opps": [ {"khz": 500000, "power_mw": 40}, {"khz": 1000000, "power_mw": 100} ] },
		"big": { "capacity": 1024 }
	},
	"cpus": [ { "id": 0, "type": "little", "cluster": 0 }, { "id": 1, "type": "little", "cluster": 0 },
		  { "id": 2, "type": "big", "cluster": 1 }, { "id": 3, "type": "big", "cluster": 1 } ]
}
EOF
# a task that sleeps for ever: the machine is idle
printf '{"tasks": {"t": {"sleep": 100000000}}}' >"$tmp/idle.json"

for rev in $TEST_RELEASES; do
	# Idle: the predicted idle time (the next timer, far away once the
	# tick stops) allows the deepest state; quad's is C6.
	"$LINSCHED" run "$rev" --topology quad --workload "$tmp/idle.json" \
		--duration 10s --json "$tmp/i.json" --quiet
	f=$(json "$tmp/i.json" "min(c['C6'] for c in r['power']['idle_residency'].values()) / r['duration_ns']")
	python3 -c "import sys; sys.exit(0 if $f >= 0.99 else 1)"
	ok $? "$rev: an idle quad spends >= 99 % of its time in C6 on every CPU (least: $f)"

	# 10 % busy at the one OPP for 10 s: 1 s x 1000 mW + 9 s in the deep
	# state (9 ms between runs >> its 500 us target residency) x 10 mW
	# = 1.09 J; within 1 %.
	"$LINSCHED" run "$rev" --topology "$tmp/one.json" --workload "$tmp/p10.json" \
		--duration 10s --json "$tmp/e.json" --quiet
	e=$(json "$tmp/e.json" "r['power']['energy_j']")
	near "$e" 1.09 0.0109
	ok $? "$rev: a 10 %-busy task at a fixed frequency costs 1 x 1.0 + 9 x 0.010 = 1.09 J by hand ($e J)"
	w=$(json "$tmp/e.json" "r['power']['mean_power_w']")
	near "$w" 0.109 0.00109
	ok $? "$rev: mean power 0.109 W ($w W)"

	# schedutil: a hog on big CPU 4 drives its cluster to the highest OPP;
	# a 5 % task on little CPU 0 leaves its cluster at the lowest.
	W='hog*1:cpus=4+periodic*1:name=small:run=500us:sleep=9500us:cpus=0'
	"$LINSCHED" run "$rev" --topology biglittle-4+4 --workload "$W" \
		--duration 2s --json "$tmp/s.json" --quiet
	hi=$(json "$tmp/s.json" "(lambda f: f[max(f, key=int)])(r['power']['freq_residency']['4']) / r['duration_ns']")
	lo=$(json "$tmp/s.json" "(lambda f: f[min(f, key=int)])(r['power']['freq_residency']['0']) / r['duration_ns']")
	python3 -c "import sys; sys.exit(0 if $hi >= 0.9 and $lo >= 0.8 else 1)"
	ok $? "$rev: schedutil keeps a hog's big CPU at its highest OPP ($hi of the time) and a 5 % task's little CPU at its lowest ($lo)"

	# The same run at the highest OPPs: the small task's 500 us of work
	# takes ~1800/408 times longer at 408 MHz than at 1.8 GHz.
	"$LINSCHED" run "$rev" --topology biglittle-4+4 --workload "$W" \
		--duration 2s --governor performance --json "$tmp/f.json" --quiet
	a=$(json "$tmp/s.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'small-0'][0]")
	b=$(json "$tmp/f.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'small-0'][0]")
	python3 -c "import sys; sys.exit(0 if $a / $b >= 2.0 else 1)"
	ok $? "$rev: run work stretches at the lower frequency: $a ns of CPU under schedutil, $b ns at the highest OPP"
	e1=$(json "$tmp/s.json" "r['power']['energy_j']")
	e2=$(json "$tmp/f.json" "r['power']['energy_j']")
	python3 -c "import sys; sys.exit(0 if $e1 < $e2 else 1)"
	ok $? "$rev: and schedutil spends less energy ($e1 J) than the highest OPPs ($e2 J)"

	# One policy for quad's four CPUs: a CPU's tick changes the others'
	# frequency, here at the very instant their tasks' 500 us of work
	# end. Every task still finishes each round (5 % of the time at the
	# highest OPP, under 4 x that at the lowest).
	"$LINSCHED" run "$rev" --topology quad --workload 'periodic*4:run=500us:sleep=9500us' \
		--duration 2s --json "$tmp/q.json" --quiet
	most=$(json "$tmp/q.json" "max(t['sum_exec_ns'] for t in r['tasks']) / r['duration_ns']")
	python3 -c "import sys; sys.exit(0 if $most < 0.2 else 1)"
	ok $? "$rev: a shared policy's frequency change as a task's work ends does not keep it running (busiest task $most of the time)"

	# Energy-aware placement, on a machine whose little CPUs do the same
	# work for a quarter of the big ones' energy (bl.json). A hog goes to
	# a big CPU (4-7) while a small periodic task stays on the little ones
	# (0-3)...
	W='hog*1+periodic*1:name=small:run=500us:sleep=9500us'
	"$LINSCHED" run "$rev" --topology "$tmp/bl.json" --workload "$W" \
		--duration 2s --json "$tmp/eas.json" --trace "$tmp/eas.trace" --quiet
	hog=$(json "$tmp/eas.json" "r['tasks'][0]['cpu']")
	small=$(awk '/sched_switch:.*next_comm=small-0/ { sub(/.*\[/, ""); print int($0) }' \
		"$tmp/eas.trace" | sort -u | tr '\n' ' ')
	python3 -c "import sys; sys.exit(0 if $hog >= 4 and all(int(c) < 4 for c in '$small'.split()) else 1)"
	ok $? "$rev: a hog ends on big CPU $hog, a small task runs only on little CPUs ($small)"
	# ... and with nothing overutilizing the machine, find_energy_efficient_cpu()
	# packs four small tasks onto the little CPUs, which the placement
	# without the energy model does not: energy falls by more than 30 %.
	W='periodic*4:run=500us:sleep=9500us'
	"$LINSCHED" run "$rev" --topology "$tmp/bl.json" --workload "$W" \
		--duration 2s --json "$tmp/eas.json" --quiet
	"$LINSCHED" run "$rev" --topology "$tmp/bl.json" --workload "$W" \
		--duration 2s --no-energy-model --json "$tmp/noeas.json" --quiet
	on=$(json "$tmp/eas.json" "' '.join(str(t['cpu']) for t in r['tasks'])")
	off=$(json "$tmp/noeas.json" "' '.join(str(t['cpu']) for t in r['tasks'])")
	e1=$(json "$tmp/eas.json" "r['power']['energy_j']")
	e2=$(json "$tmp/noeas.json" "r['power']['energy_j']")
	python3 -c "import sys; sys.exit(0 if all(int(c) < 4 for c in '$on'.split()) and any(int(c) >= 4 for c in '$off'.split()) and $e1 < 0.7 * $e2 else 1)"
	ok $? "$rev: with the energy model small tasks end on CPUs $on and cost $e1 J; without it on $off, $e2 J"
	# A machine whose big type has no OPPs (a fixed frequency, no power
	# figure): only the little CPUs get a cpufreq policy and an energy
	# model, and 6.12's energy model re-checks the CPUs without a policy
	# every second (delayed work); the run finishes, and its energy is
	# flagged incomplete.
	"$LINSCHED" run "$rev" --topology "$tmp/mixed.json" \
		--workload 'hog*2+periodic*2:run=1ms:sleep=4ms' --duration 3s \
		--json "$tmp/m.json" --quiet --timeout 60
	s=$?
	c=$(json "$tmp/m.json" "r['power']['energy_complete']")
	test_expect_success "$rev: OPPs on one type only: runs (status $s), energy_complete $c" \
		'[ $s = 0 ] && [ "$c" = False ]'
done
done_testing
