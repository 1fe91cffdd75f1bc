#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Real upstream bugs found by bisection: a 44-commit history on v6.12.118
# in which one commit puts the bug catalogue's uclamp_inversion back and a
# later one long_balance (the edits `linsched bugs run` makes). lsbisect
# names each: the first by the boosted task's CPU time, through task
# groups; the second by the kernel's own work, in builds made with
# --instrument work (nothing the tasks see differs there).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bugs=$LSB_O/share/lsbisect/bugs

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
HISTORY_BASE=$TEST_V612 make_history "$work" \
	"note note note bug:uclamp_inversion note note note note bug:long_balance note note" 3 \
	> "$tmp/history"
uclamp=$(awk '$2 == "bug:uclamp_inversion" { print $1 }' "$tmp/history")
longbal=$(awk '$2 == "bug:long_balance" { print $1 }' "$tmp/history")
test_expect_success "a history of $(wc -l < "$tmp/history") commits on $TEST_V612 puts back uclamp_inversion ($uclamp) and long_balance ($longbal)" \
	'[ "$(wc -l < "$tmp/history")" -ge 40 ] && [ -n "$uclamp" ] && [ -n "$longbal" ] &&
	 [ "$(git -C "$work" diff --name-only "$uclamp^" "$uclamp")" = kernel/sched/core.c ]'

# culprit DIR: the commit a bisection's report names
culprit() { json "$1/report.json" "r[a[0]][a[1]]" culprit commit; }

"$LSBISECT" "$TEST_V612" bad "$bugs/workloads/uclamp_inversion.json" \
	--repo "$work" --topology biglittle-4+4 --duration 2s \
	--metric tasks.ui.sum_exec_ns --out "$tmp/uclamp" > "$tmp/uclamp.txt" 2>&1
s=$?
sed 's/^/# /' "$tmp/uclamp.txt" | tail -n 8
test_expect_success "lsbisect by the boosted task's CPU time names the commit that puts uclamp_inversion back (exit $s)" \
	'[ $s = 0 ] && [ "$(culprit "$tmp/uclamp")" = "$uclamp" ] &&
	 grep -q "^first bad commit: $uclamp" "$tmp/uclamp.txt"'

"$LSBISECT" "$TEST_V612" bad "$bugs/workloads/long_balance.json" \
	--repo "$work" --topology hex --duration 1s --instrument work \
	--metric kernel_work.max_irq_calls --out "$tmp/longbal" > "$tmp/longbal.txt" 2>&1
s=$?
sed 's/^/# /' "$tmp/longbal.txt" | tail -n 8
test_expect_success "lsbisect --instrument work by the worst interrupt's kernel calls names the commit that puts long_balance back (exit $s)" \
	'[ $s = 0 ] && [ "$(culprit "$tmp/longbal")" = "$longbal" ] &&
	 grep -q "^first bad commit: $longbal" "$tmp/longbal.txt"'
good=$(json "$tmp/longbal/report.json" "r[a[0]][a[1]]" culprit value_parent)
bad=$(json "$tmp/longbal/report.json" "r[a[0]][a[1]]" culprit value)
test_expect_success "its figures: $good calls in the culprit's parent, $bad in the culprit" \
	'within "$good" 500 1000 && within "$bad" 20000 30000'

# continued without the work build: refused before anything is touched,
# saying the metric needs it
"$LSBISECT" --continue "$TEST_V612" bad "$bugs/workloads/long_balance.json" \
	--repo "$work" --topology hex --duration 1s \
	--metric kernel_work.max_irq_calls --out "$tmp/longbal" > "$tmp/cont.txt" 2>&1
s=$?
test_expect_success "--continue without --instrument work: exit $s, $(head -n 1 "$tmp/cont.txt")" \
	'[ $s = 2 ] && grep -q "only a build made with --instrument work has it (this one is plain): add --instrument work" "$tmp/cont.txt"'
test_done
