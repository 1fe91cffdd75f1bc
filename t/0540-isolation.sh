#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot parameters through the kernel's own __setup() handlers: with
# isolcpus=domain,3 (from --cmdline or a topology's "cmdline") CPU 3 is
# out of the sched domains and of init's affinity, so six free hogs keep
# to CPUs 0-2 and CPU 3 runs only the task pinned to it; without it they
# spread over all four. Bad parameters are exit 2 before any build.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
w=t/workloads/isolated.json
"$LINSCHED" topology show quad |
	python3 -c 'import json, sys; t = json.load(sys.stdin); t["name"] = "quad-iso3"; t["cmdline"] = "isolcpus=domain,3"; json.dump(t, sys.stdout, indent=1)' \
	> "$tmp/iso.json"

# on CPU 3: the tasks that ran there (from the trace's sched_switch), but
# its idle task and per-CPU kthreads (migration/3)
on_cpu3() { sed -n 's/.*\[003\].* sched_switch: .* next_comm=\([^ ]*\) .*/\1/p' "$1" | grep -v '^swapper\|/' | sort -u | tr '\n' ' '; }
for rev in $TEST_V61 $TEST_V73; do
	"$LINSCHED" run "$rev" --workload "$w" --topology quad --cmdline isolcpus=domain,3 \
		--json "$tmp/iso-$rev.json" --trace "$tmp/iso-$rev.trace" --quiet
	s=$?
	got=$(on_cpu3 "$tmp/iso-$rev.trace")
	test_expect_success "$rev: isolcpus=domain,3: CPU 3 runs the pinned task only ($got)" \
		'[ $s = 0 ] && [ "$got" = "pinned " ]'
	hogs=$(json "$tmp/iso-$rev.json" "round(sum(t['sum_exec_ns'] for t in r['tasks'] if t['name'].startswith('hog')) / r['duration_ns'], 2)")
	test_expect_success "$rev: the six hogs share the three other CPUs ($hogs CPUs' worth)" \
		'[ "$hogs" = 3.0 ]'
	"$LINSCHED" run "$rev" --workload "$w" --topology "$tmp/iso.json" \
		--json "$tmp/topo-$rev.json" --quiet
	test_expect_success "$rev: a topology's \"cmdline\" does the same (same results)" \
		'json "$tmp/iso-$rev.json" "r[\"tasks\"], r[\"cpus\"]" > "$tmp/a" &&
		 json "$tmp/topo-$rev.json" "r[\"tasks\"], r[\"cpus\"]" > "$tmp/b" && cmp -s "$tmp/a" "$tmp/b"'
	"$LINSCHED" run "$rev" --workload "$w" --topology quad \
		--trace "$tmp/free-$rev.trace" --quiet
	got=$(on_cpu3 "$tmp/free-$rev.trace")
	test_expect_success "$rev: without it the hogs run on CPU 3 too ($got)" \
		'echo "$got" | grep -q hog'
	"$LINSCHED" domains "$rev" --topology "$tmp/iso.json" > "$tmp/dom-$rev" 2>&1
	test_expect_success "$rev: the domains the kernel built span CPUs 0-2, CPU 3 has none" \
		'[ "$(grep -c "^  MC   span 0-2 " "$tmp/dom-$rev")" = 3 ] &&
		 [ "$(tail -n 1 "$tmp/dom-$rev")" = "cpu3 capacity 1024" ]'
done

# refused, naming the parameter, before anything is built
bad() { # CMDLINE EXPECTED
	local cmdline=$1 expect=$2 st
	"$LINSCHED" run no-such-rev --workload "$w" --topology quad --cmdline "$cmdline" 2> "$tmp/err"
	st=$?
	test_expect_success "--cmdline '$cmdline': exit $st, $(head -c 120 "$tmp/err")" \
		'[ $st = 2 ] && grep -qF "$expect" "$tmp/err"'
}
bad isolcpus=0-3 "isolates every CPU"
bad nohz_full=3 "nohz_full needs CONFIG_NO_HZ_FULL"
bad maxcpus=2 "expected isolcpus="
test_done
