#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Task groups through the revision's own group scheduling, on a 6.x and a
# 7.x revision: weights split the CPU time between groups, not tasks
# (t/workloads/groups-weights.json); cpu.max holds a group to its quota
# every period, and a child group without a limit of its own to its
# parent's (groups-bandwidth.json); a cpu.idle group yields to a normal
# one (groups-idle.json); a uclamp.max group keeps its task's big CPU at
# a low frequency (groups-uclamp.json). The trace has the kernel's
# cgroup_mkdir and cgroup_attach_task events; a refused value is exit 2.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 16
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
w=t/workloads

# group FILE PATH FIELD: a task group's figure in the results
group() { json "$1" "[g[a[1]] for g in r['taskgroups'] if g['path'] == a[0]][0]" "$2" "$3"; }
# share FILE PATH: its CPU time as a fraction of one CPU over the run
share() { json "$1" "round([g['usage_ns'] for g in r['taskgroups'] if g['path'] == a[0]][0] / r['duration_ns'], 4)" "$2"; }
for rev in $TEST_V61 $TEST_V73; do
	"$LINSCHED" run "$rev" --workload $w/groups-weights.json --topology dual \
		--json "$tmp/w.json" --trace "$tmp/w.trace" --quiet
	s=$?
	ratio=$(json "$tmp/w.json" "round(sum(t['sum_exec_ns'] for t in r['tasks'] if t['name'].startswith('fg')) / sum(t['sum_exec_ns'] for t in r['tasks'] if t['name'].startswith('bg')), 3)")
	test_expect_success "$rev: weights 200:100 split the two CPUs 2:1, four tasks in each ($ratio)" \
		'[ $s = 0 ] && within "$ratio" 1.94 2.06'
	fg=$(group "$tmp/w.json" /fg usage_ns)
	test_expect_success "$rev: each group's CPU time, as the kernel charged it, is its tasks' ($fg ns)" \
		'[ "$fg" = "$(json "$tmp/w.json" "sum(t[\"sum_exec_ns\"] for t in r[\"tasks\"] if t[\"taskgroup\"] == a[0])" /fg)" ]'
	test_expect_success "$rev: the trace has the kernel's cgroup_mkdir and cgroup_attach_task" \
		'grep -q "cgroup_mkdir: root=1 id=1 level=1 path=/fg" "$tmp/w.trace" &&
		 [ "$(grep -c "cgroup_attach_task: .* dst_path=/bg pid=" "$tmp/w.trace")" = 4 ]'

	"$LINSCHED" run "$rev" --workload $w/groups-bandwidth.json --topology dual \
		--json "$tmp/b.json" --quiet
	s=$?
	lim=$(share "$tmp/b.json" /lim)
	periods=$(group "$tmp/b.json" /lim nr_periods); thr=$(group "$tmp/b.json" /lim nr_throttled)
	test_expect_success "$rev: cpu.max 50000 100000 gives its always-running task 50 % ± 2 % ($lim)" \
		'[ $s = 0 ] && within "$lim" 0.48 0.52'
	test_expect_success "$rev: it is throttled in every period but the last ($thr of $periods)" \
		'[ "$periods" -ge 19 ] && [ "$periods" -le 20 ] && [ "$thr" -ge $((periods - 1)) ] &&
		 [ "$(group "$tmp/b.json" /lim throttled_ns)" -gt 900000000 ]'
	nest=$(share "$tmp/b.json" /nest/child)
	test_expect_success "$rev: a child group without a limit of its own is held to its parent's ($nest)" \
		'within "$nest" 0.48 0.52 &&
		 [ "$(group "$tmp/b.json" /nest/child nr_periods)" = 0 ]'

	"$LINSCHED" run "$rev" --workload $w/groups-idle.json --topology dual \
		--json "$tmp/i.json" --quiet
	s=$?
	idle=$(json "$tmp/i.json" "round([g['usage_ns'] for g in r['taskgroups'] if g['path'] == a[0]][0] / 2 / r['duration_ns'], 4)" /background)
	test_expect_success "$rev: a cpu.idle group yields to a normal one of nice-19 tasks ($idle of the CPUs)" \
		'[ $s = 0 ] && within "$idle" 0 0.03'
done

# uclamp.max through the group: schedutil keeps the big cluster low
sed 's/"cpu.uclamp.max": "20"/"cpu.uclamp.max": "max"/' $w/groups-uclamp.json > "$tmp/free.json"
low() { json "$1" "round(r['power']['freq_residency']['4']['600000'] / r['duration_ns'], 3)"; }
"$LINSCHED" run "$TEST_V73" --workload $w/groups-uclamp.json --topology biglittle-4+4 \
	--json "$tmp/u.json" --quiet
s1=$?
"$LINSCHED" run "$TEST_V73" --workload "$tmp/free.json" --topology biglittle-4+4 \
	--json "$tmp/f.json" --quiet
s2=$?
test_expect_success "$TEST_V73: cpu.uclamp.max 20 keeps the capped task's big CPU at 600 MHz ($(low "$tmp/u.json") of the time), not at the top (max: $(low "$tmp/f.json"))" \
	'[ $s1 = 0 ] && [ $s2 = 0 ] && within "$(low "$tmp/u.json")" 0.95 1 &&
	 within "$(low "$tmp/f.json")" 0 0.05'

# the kernel refuses a value its handler does not take: exit 2, named
printf '{"lsb-taskgroups": {"/g": {"cpu.weight": 0}}, "tasks": {"t": {"taskgroup": "/g", "run": 1000}}}' > "$tmp/zero.json"
"$LINSCHED" run "$TEST_V73" --workload "$tmp/zero.json" --topology dual --quiet 2> "$tmp/err"
s=$?
test_expect_success "cpu.weight 0 is refused by the revision's handler: exit $s, $(head -c 150 "$tmp/err")" \
	'[ $s = 2 ] && grep -q "taskgroup .*/g.*cpu.weight.*0.*the kernel refused it: Numerical result out of range" "$tmp/err"'
test_done
