#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A finding in the bug catalogue (cgroup_concur): two task groups of equal
# cpu.weight on two CPUs, one always-running task in one and four in the
# other. 7.2.13 gives each group a CPU; 7.3.4's default cgroup_mode
# "concur" (upstream fb1050ac8e40) weighs the four-task group twice the
# lone task's and the lone task gets two thirds of its CPU. A finding has
# no upstream fix: its fixed side is 7.3.4 with that change taken out by
# the entry's edits, a commit the tool makes under
# refs/lsbisect/bugs/cgroup_concur, and it must bring the lone task back
# to a whole CPU. list and show say it is a finding; an entry with both a
# fix and a finding, or a finding without its change's subject, is an
# error naming the file and the key.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat=$LSB_O/share/lsbisect/bugs

"$LINSCHED" bugs list > "$tmp/list"
test_expect_success "list: the entry is a finding, with the upstream change it comes from" \
	'grep -q "^cgroup_concur  *7.3  *finding  *no upstream fix; from fb1050ac8e40 sched/fair: Change the default cgroup_mode to concur$" "$tmp/list"'
"$LINSCHED" bugs show cgroup_concur > "$tmp/show"
test_expect_success "show: no fix, the change, 7.3.4 as it is and with the change taken out by the edits" \
	'grep -q "^fix:       none (a finding)$" "$tmp/show" &&
	 grep -q "^change:    fb1050ac8e40 sched/fair: Change the default cgroup_mode to concur$" "$tmp/show" &&
	 grep -q "^buggy:     v7.3.4$" "$tmp/show" &&
	 grep -q "^fixed:     v7.3.4 with the edits below (the change taken out)$" "$tmp/show" &&
	 grep -q "^+ DEFINE_STATIC_CALL(calc_group_shares, calc_smp_shares);$" "$tmp/show"'

"$LINSCHED" bugs run cgroup_concur --out "$tmp/out" > "$tmp/run" 2> "$tmp/err"
s=$?
cat "$tmp/run" "$tmp/err" >&2
v=$tmp/out/cgroup_concur/verdict.json
# share SIDE: the lone task's CPU time as a fraction of the 2 s run
share() { json "$v" "round(r[a[0]]['value'] / 2e9, 4)" "$1"; }
b=$(share buggy) f=$(share fixed)
test_expect_success "run: reproduced, exit $s: the lone task gets $b of a CPU on 7.3.4" \
	'[ $s = 0 ] && [ "$(json "$v" "r[a[0]]" verdict)" = reproduced ] &&
	 grep -q "^cgroup_concur: finding, no upstream fix; from sched/fair: Change the default cgroup_mode to concur (fb1050ac8e40)$" "$tmp/run" &&
	 grep -q "^  fixed v7.3.4-change " "$tmp/run" && within "$b" 0.60 0.70'
test_expect_success "with the change taken out the lone task gets its CPU back ($f)" \
	'within "$f" 0.95 1.0'
fixed=$(json "$v" "r[a[0]][a[1]]" fixed commit)
test_expect_success "the fixed side is a commit on v7.3.4 that changes fair.c and debug.c only ($fixed); the buggy side is v7.3.4 itself" \
	'[ "$(git -C "$LSBISECT_REPO" rev-parse "$fixed^")" = "$(git -C "$LSBISECT_REPO" rev-parse "v7.3.4^{commit}")" ] &&
	 [ "$(git -C "$LSBISECT_REPO" diff --name-only "$fixed^" "$fixed" | tr "\n" " ")" = "kernel/sched/debug.c kernel/sched/fair.c " ] &&
	 git -C "$LSBISECT_REPO" diff "$fixed^" "$fixed" | grep -q "^+DEFINE_STATIC_CALL(calc_group_shares, calc_smp_shares);" &&
	 [ "$(git -C "$LSBISECT_REPO" rev-parse refs/lsbisect/bugs/cgroup_concur)" = "$fixed" ] &&
	 [ "$(json "$v" "r[a[0]][a[1]]" buggy commit)" = "$(git -C "$LSBISECT_REPO" rev-parse "v7.3.4^{commit}")" ] &&
	 [ "$(json "$v" "r[a[0]]" finding)" = fb1050ac8e40 ] && [ "$(json "$v" "a[0] in r" fix)" = False ]'
test_expect_success "the figure's legend says which side has the change taken out" \
	'grep -q "v7.3.4 with the change taken out" "$tmp/out/cgroup_concur/signal.svg" &&
	 ! grep -q "put back" "$tmp/out/cgroup_concur/signal.svg"'

# 7.2.13 spreads cpu.weight itself: the lone task has its CPU there too
"$LINSCHED" run "$TEST_V72" --workload "$cat/workloads/cgroup_concur.json" \
	--topology dual --duration 2s --json "$tmp/v72.json" --quiet
s=$?
l=$(json "$tmp/v72.json" "round([t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'lone'][0] / r['duration_ns'], 4)")
test_expect_success "$TEST_V72: the lone task gets $l of a CPU (exit $s)" \
	'[ $s = 0 ] && within "$l" 0.95 1.0'

# the catalogue's checks: a fix and a finding at once; a finding's subject
mkdir -p "$tmp/cat/workloads"
cp "$cat/workloads/cgroup_concur.json" "$tmp/cat/workloads/"
python3 - "$cat/cgroup_concur.json" "$tmp/cat" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
json.dump(dict(e, fix=e["finding"]), open(sys.argv[2] + "/both.json", "w"))
PY
"$LINSCHED" bugs list --catalogue "$tmp/cat" > /dev/null 2> "$tmp/err"
s=$?
test_expect_success "an entry with a fix and a finding is an error naming the file and both keys: exit $s, $(cat "$tmp/err")" \
	'[ $s = 1 ] && grep -q "^error: .*/both.json: .fix. and .finding.: expected one of them (a finding has no upstream fix)$" "$tmp/err"'
python3 - "$cat/cgroup_concur.json" "$tmp/cat" <<'PY'
import json, os, sys
e = json.load(open(sys.argv[1]))
del e["finding"]["subject"]
os.remove(sys.argv[2] + "/both.json")
json.dump(e, open(sys.argv[2] + "/nosubject.json", "w"))
PY
"$LINSCHED" bugs list --catalogue "$tmp/cat" > /dev/null 2> "$tmp/err"
s=$?
test_expect_success "a finding without its change's subject is an error naming the file and the key: exit $s, $(cat "$tmp/err")" \
	'[ $s = 1 ] && grep -q "^error: .*/nosubject.json: .subject.: expected the change.s subject$" "$tmp/err"'
test_done
