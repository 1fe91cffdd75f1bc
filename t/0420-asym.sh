#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Asymmetric capacity (big.LITTLE): run work stretches by 1024/capacity on
# a little CPU, and a task too big for a little CPU ends on a big one by
# the kernel's own misfit handling.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan $((1 + 6 * NR_RELEASES))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# biglittle-4+4: CPUs 0-3 little, 4-7 big (1024)
little=$("$LINSCHED" topology show biglittle-4+4 | python3 -c "
import json, sys
t = json.load(sys.stdin)
print(min(ty['capacity'] for ty in t['cpu_types'].values()))")
for rev in $TEST_RELEASES; do
	# at fixed highest frequencies and with polling idle CPUs, so that run
	# work stretches by capacity alone (and no exit latency counts)
	"$LINSCHED" run "$rev" --topology biglittle-4+4 --duration 2s --quiet \
		--governor performance --cpuidle poll --json "$tmp/r.json" --workload \
		'periodic*1:name=misfit:run=6ms:sleep=4ms:cpus=0:unpin=10ms+periodic*1:name=onlittle:run=10ms:sleep=10ms:loops=10:cpus=1+periodic*1:name=onbig:run=10ms:sleep=10ms:loops=10:cpus=5'
	cpu=$(json "$tmp/r.json" "[t['cpu'] for t in r['tasks'] if t['name'] == 'misfit-0'][0]")
	mig=$(json "$tmp/r.json" "[t['nr_migrations'] for t in r['tasks'] if t['name'] == 'misfit-0'][0]")
	test_expect_success "$rev: a task needing 60 % of a big CPU, started on a little one, ends on big CPU $cpu ($mig migrations)" \
		'[ "$cpu" -ge 4 ] && [ "$mig" -ge 1 ]'
	# a hog never wakes up: only the load balancer's misfit path, with
	# active balancing through the stopper, can move it
	"$LINSCHED" run "$rev" --topology biglittle-4+4 --duration 1s --quiet \
		--json "$tmp/h.json" --workload 'hog*1:cpus=0:unpin=10ms'
	cpu=$(json "$tmp/h.json" "r['tasks'][0]['cpu']")
	test_expect_success "$rev: an always-running task started on a little CPU is moved to big CPU $cpu (misfit)" \
		'[ "$cpu" -ge 4 ]'
	# forked, never pinned: the first hog goes to the idler big cluster;
	# the second, forked onto a little CPU, is a misfit from its first
	# ticks and must reach a big CPU within about 100 ms (real hardware)
	"$LINSCHED" run "$rev" --topology biglittle-4+4 --duration 1s --quiet \
		--json "$tmp/f.json" --trace "$tmp/f.trace" --workload 'hog*2'
	cpus=$(json "$tmp/f.json" "' '.join(str(t['cpu']) for t in r['tasks'])")
	ok "$(json "$tmp/f.json" "int(not all(t['cpu'] >= 4 for t in r['tasks']))")" \
		"$rev: two forked hogs end on big CPUs ($cpus)"
	moved=$(python3 - "$tmp/f.trace" <<'PY'
import re, sys
born, moved = {}, None
for l in open(sys.argv[1]):
    m = re.search(r'([\d.]+): sched_wakeup_new: comm=(hog-\d+) .*target_cpu=(\d+)', l)
    if m:
        born[m.group(2)] = int(m.group(3))
        continue
    m = re.search(r'([\d.]+): sched_migrate_task: comm=(hog-\d+) .*orig_cpu=(\d+) dest_cpu=(\d+)', l)
    if m and born.get(m.group(2), 4) < 4 and moved is None:
        moved = '%s %s %s %d' % (m.group(2), m.group(3), m.group(4),
                                 round(float(m.group(1)) * 1000))
print(moved or 'none')
PY
)
	read -r hog from to ms <<<"$moved"
	test_expect_success "$rev: a hog forked onto little CPU ${from:-?} reaches big CPU ${to:-?} after ${ms:-?} ms (misfit, active balance)" \
		'[ "$hog" != none ] && [ "$to" -ge 4 ] && [ "$ms" -le 100 ]'
	big=$(json "$tmp/r.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'onbig-0'][0]")
	small=$(json "$tmp/r.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'onlittle-0'][0]")
	test_expect_success "$rev: 10 x 10 ms of run on a big CPU take 100 ms ($big ns)" \
		'[ "$big" = 100000000 ]'
	python3 -c "import sys; r = $small / $big; e = 1024 / $little; sys.exit(0 if abs(r - e) / e < 0.01 else 1)"
	ok $? "$rev: on a little CPU (capacity $little) they take 1024/capacity times longer ($small ns)"
done
# SMT threads that share their core: with "smt_speed": 0.5, two hogs on
# the two threads of one core each get half a CPU's work done, on two
# cores a whole one each; a 1 ms run / 1 ms sleep task beside a hog runs
# 2 ms of every 3 (its work at half speed), and the hog goes at full speed
# the other third: 1/3 + 2/3 x 1/2 = 2/3 of a CPU.
cat >"$tmp/smt.json" <<'EOF'
{
	"name": "smt-half",
	"cpu_types": { "core": { "capacity": 1024, "idle_states": [], "smt_speed": 0.5 } },
	"cpus": [
		{ "id": 0, "core": 0 }, { "id": 1, "core": 0 },
		{ "id": 2, "core": 1 }, { "id": 3, "core": 1 }
	]
}
EOF
work() { json "$tmp/s.json" "' '.join(str(t['run_work_ns']) for t in r['tasks'])"; }
"$LINSCHED" run "$TEST_V61" --topology "$tmp/smt.json" --workload 'hog*1:cpus=0+hog*1:cpus=1' \
	--duration 1s --json "$tmp/s.json" --quiet
a=$(work)
"$LINSCHED" run "$TEST_V61" --topology "$tmp/smt.json" --workload 'hog*1:cpus=0+hog*1:cpus=2' \
	--duration 1s --json "$tmp/s.json" --quiet
b=$(work)
"$LINSCHED" run "$TEST_V61" --topology "$tmp/smt.json" \
	--workload 'hog*1:cpus=0+periodic*1:run=1ms:sleep=1ms:cpus=1' --duration 1s --json "$tmp/s.json" --quiet
c=$(work)
test_expect_success "smt_speed 0.5: siblings $a, two cores $b, a hog beside a half-busy sibling $c (ns of run work in 1 s)" \
	'[ "$a" = "500000000 500000000" ] && [ "$b" = "1000000000 1000000000" ] && [ "$c" = "666500000 333500000" ]'
done_testing
