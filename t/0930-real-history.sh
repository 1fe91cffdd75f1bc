#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# lsbisect on the real bundled history: every 6.1 release Debian serves,
# bisected for the throughput of a misfit task on an asymmetric machine
# whose big core has two SMT threads, the other one busy (make demo runs the
# same). Linux 6.1.190 added "!env->dst_core_idle" to the misfit test of
# update_sd_pick_busiest(): a misfit task is no longer pulled onto a core
# whose sibling is busy. The simulator runs SMT siblings at full speed each,
# so there the task stays on its little CPU (capacity 400) instead of
# getting a big thread (1024): throughput 1.98 -> 1.39 CPUs.
. "$(dirname "$0")/lib.sh"

ensure_kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every 6.1 release the archive serves (cached .debs are not fetched again)
if ! "$LINSCHED" kernels --series 6.1 >&2; then
	echo "Bail out! cannot add the 6.1 releases to the bundled history"
	exit 1
fi
first=$(git -C "$LSBISECT_REPO" tag -l 'v6.1.*' --sort=v:refname | head -n1)
last=$(git -C "$LSBISECT_REPO" tag -l 'v6.1.*' --sort=v:refname | tail -n1)
if ! git -C "$LSBISECT_REPO" rev-parse -q --verify "v6.1.190^{commit}" >/dev/null ||
   [ "$first" = v6.1.190 ] || [ "$last" = v6.1.187 ]; then
	skip_all "the archive no longer serves releases on both sides of 6.1.190 ($first..$last)"
fi
want=$(git -C "$LSBISECT_REPO" rev-parse "v6.1.190^{commit}")
plan 5

"$LSBISECT" "$first" "$last" 'hog*1:cpus=2+hog*1:name=misfit:cpus=0:unpin=10ms' \
	--topology "$LSB_ROOT/topologies/examples/asym-smt.json" --metric throughput \
	--duration 1s --out "$tmp/out" > "$tmp/out.txt" 2>&1
status=$?
r() { json "$tmp/out/report.json" "$@"; }
test_expect_success "$first..$last: the first bad commit is Linux 6.1.190 (status $status): $(grep -A1 '^first bad commit' "$tmp/out.txt" | tail -n1)" \
	'[ $status = 0 ] && [ "$(r "r['\''culprit'\'']['\''commit'\'']")" = "$want" ]'
k=$(r "(lambda c: abs(c['value_good'] - 1.98) < 0.01 and abs(c['value'] - 1.39) < 0.01 and c['value_parent'] == c['value_good'])(r['culprit'])")
test_expect_success "throughput at GOOD, the culprit's parent and the culprit: $(grep '^throughput:' "$tmp/out.txt")" \
	'[ "$k" = True ]'
files=$(r "' '.join(f for f in r['culprit']['files'] if f.startswith('kernel/sched/'))")
test_expect_success "its kernel/sched changes include fair.c ($files)" \
	'[[ " $files " == *" kernel/sched/fair.c "* ]]'
magic=$(head -c 4 "$tmp/out/plot.png" | od -An -c | tr -d ' ')
test_expect_success "and the plot of every tested release is drawn" \
	'[ "$magic" = '\''211PNG'\'' ]'
# The same range on the same machine whose big core's threads share it
# ("smt_speed": 0.6, each thread at 60 % while the other is busy): the
# misfit task beside the busy thread would get 614 of capacity and slow the
# hog to 614 too, against 400 on its little CPU with the hog at 1024, so
# 6.1.190's rule is the gain upstream meant: no regression (status 1),
# throughput up from 1.20 to 1.39.
python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))
t['cpu_types']['big']['smt_speed'] = 0.6
json.dump(t, open(sys.argv[2], 'w'))" "$LSB_ROOT/topologies/examples/asym-smt.json" "$tmp/shared.json"
"$LSBISECT" "$first" "$last" 'hog*1:cpus=2+hog*1:name=misfit:cpus=0:unpin=10ms' \
	--topology "$tmp/shared.json" --metric throughput --duration 1s --out "$tmp/shared" \
	> "$tmp/shared.txt" 2>&1
status=$?
k=$(json "$tmp/shared/report.json" "(lambda v: v[-1] > v[0] + 0.15)([s['value'] for s in sorted(r['steps'], key=lambda s: s['class']) if s.get('value') is not None])")
test_expect_success "with SMT threads sharing their core it is no regression but a gain (status $status): $(grep -m1 '^no regression' "$tmp/shared.txt")" \
	'[ $status = 1 ] && [ "$k" = True ]'
done_testing
