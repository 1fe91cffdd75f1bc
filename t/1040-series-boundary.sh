#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Across the series boundary, on 6.12 and 7.x: trend over
# v6.12.118..v7.3.4 (every release of the history in that range), a
# release report of v6.12.118 against v7.3.4, and a sweep of 7.3.4; their
# numbers are those of 'linsched run --json'.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache

W='hog*8+periodic*8:run=500us:sleep=5ms'
"$LINSCHED" trend "$TEST_V612..$TEST_V73" --workload "$W" --topology quad-smt \
	--duration 1s --out "$tmp/t" > "$tmp/t.out" 2> "$tmp/t.err"
ok $? "trend $TEST_V612..$TEST_V73 exits 0"
D=$(ls -d "$tmp"/t/*/ | head -1)
# the releases of the history in the range: each its own build subset
tags="$TEST_V612 $(git -C "$LSBISECT_REPO" tag -l 'v*' --sort=v:refname --contains "$TEST_V612" |
	grep -vx "$TEST_V612" | awk -v b="$TEST_V73" '{ print } $0 == b { exit }' | tr '\n' ' ')"
trend_dat "$D" "ok = ' '.join(r['label'] for r in d) == '$tags'.strip() and all(r['status'] == 'ok' for r in d)"
ok $? "one row per release, each ran ($tags)"
c=$(png_check "$D/metrics.png" 1000x900)
test_expect_success "its small multiples are a real image ($c colours)" \
	'[ "${c:-0}" -gt 20 ]'
"$LINSCHED" run "$TEST_V73" --workload "$W" --topology quad-smt --duration 1s \
	--json "$tmp/run73.json" --quiet
trend_dat "$D" "
j = json.load(open('$tmp/run73.json'))
row = [r for r in d if r['label'] == '$TEST_V73'][0]
ok = all(abs(row[m] - metric(j, m)) <= 1e-9 * max(1, abs(metric(j, m))) for m in METRICS)
print('# %s: %s' % ('$TEST_V73', ', '.join('%s %g' % (m, row[m]) for m in METRICS)))"
ok $? "the $TEST_V73 row's six metrics are those of 'linsched run --json'"

"$LINSCHED" report "$TEST_V612" "$TEST_V73" --suite quick --topology dynamiq-1+3+4 \
	--seeds 1 --duration 1s --out "$tmp/r" > "$tmp/r.out" 2> "$tmp/r.err"
status=$?
sed 's/^/# /' "$tmp/r.out" | head -8
test_expect_success "report $TEST_V612 $TEST_V73 over the quick suite finishes (status $status)" \
	'[ $status -le 1 ]'
k=$(json "$tmp/r/report.json" "r['patterns'] > 20 and len(r['results']) == r['patterns'] and all(x['old']['status'] == x['new']['status'] == 'finished' for x in r['results'])")
test_expect_success "every pattern ran on both releases ($(json "$tmp/r/report.json" "r['patterns']") patterns; $(json "$tmp/r/report.json" "r['regressions'], r['improvements']") regressions, improvements)" \
	'[ "$k" = True ]'

"$LINSCHED" sweep "$TEST_V73" --suite quick --topology numa-2 --duration 1s \
	--out "$tmp/s" > "$tmp/s.out" 2> "$tmp/s.err"
status=$?
n=$(grep -c . "$tmp/s/results.jsonl")
k=$(python3 -c "
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(all(r['status'] == 'ok' for r in rows))" "$tmp/s/results.jsonl")
test_expect_success "a sweep of $TEST_V73 over the quick suite on numa-2: $n units, all ok (status $status)" \
	'[ $status = 0 ] && [ "$n" -gt 20 ] && [ "$k" = True ]'
python3 - "$tmp/s/results.jsonl" "$LINSCHED" "$TEST_V73" "$tmp" <<'PY'
import json, subprocess, sys
rows, linsched, rev, tmp = [json.loads(l) for l in open(sys.argv[1])], sys.argv[2], sys.argv[3], sys.argv[4]
u = rows[0]
subprocess.run([linsched, 'run', rev, '--workload', u['result']['workload'], '--topology', 'numa-2',
                '--duration', '1s', '--seed', str(u['seed']), '--json', tmp + '/one.json', '--quiet'], check=True)
j = json.load(open(tmp + '/one.json'))
same = u['result']['metrics'] == j['metrics'] and u['result']['tasks'] == j['tasks'] and u['result']['power'] == j['power']
print('# %s: the same metrics, power and tasks as run --json: %s' % (u['workload'], same))
sys.exit(0 if same else 1)
PY
ok $? "its first unit's metrics, power and tasks are those of 'linsched run --json'"
done_testing
