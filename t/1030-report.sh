#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched report on a made-up history: the load-balancing regression is
# found and ranked, exit 1; the commits that changed what the builds read are
# named; every number of the text and the HTML is the JSON's, and the
# JSON's are what 'linsched run --json' gives; the verdicts follow the
# threshold and seed rule; the plots are valid, not blank and embedded;
# the same report again runs nothing; no change, exit 0; bad input, exit 2;
# a revision that does not build, exit 4.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 16
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
make_history "$work" "note lb hdr" 1 > "$tmp/history"
make_history "$work" "broken" 0 broken > /dev/null
id() { awk -v k="$1" '$2 == k { print $1; exit }' "$tmp/history"; }
note=$(id note); lb=$(id lb)
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
ARGS=(--repo "$work" --suite full --match 'hog-*' --match 'random-exponential-r4ms-*'
      --topology quad --topology numa-2 --seeds 2 --duration 1s --timelines 0)
r() { json "$tmp/a/report.json" "$@"; }

"$LINSCHED" report "$TEST_V61" bad "${ARGS[@]}" --out "$tmp/a" > "$tmp/a.out" 2> "$tmp/a.err"
status=$?
sed 's/^/# /' "$tmp/a.out" | head -12
test_expect_success "a report over a regression exits 1 (status $status)" \
	'[ $status = 1 ]'
for f in report.html report.txt report.json plots/; do
	grep -qx "$tmp/a/$f" "$tmp/a.out" || status=x
done
test_expect_success "it prints the paths of the HTML, the text, the JSON and the plots" \
	'[ "$status" = 1 ] && [ -s "$tmp/a/report.html" ]'

k=$(r "r['patterns'] == 26 and r['seeds'] == 2 and r['topologies'] == ['quad', 'numa-2'] and len(r['results']) == 52 and r['regressions'] == len(r['worst_regressions']) > 0")
test_expect_success "26 patterns x 2 topologies, $(r "r['regressions']") regressions" \
	'[ "$k" = True ]'
W="[(-1 if c['metric'] in ('fairness', 'throughput') else 1) * c['change_pct'] for c in r['worst_regressions']]"
k=$(r "any(c['metric'] == 'balance_score' and c['pattern'].startswith('hog-') and c['change_pct'] > 5 for c in r['worst_regressions']) and $W == sorted($W, reverse=True)")
test_expect_success "hog patterns' balance scores are among them, ranked worst first (the worst: $(r "r['worst_regressions'][0]['topology'], r['worst_regressions'][0]['pattern'], r['worst_regressions'][0]['metric'], round(r['worst_regressions'][0]['change_pct'], 1)"))" \
	'[ "$k" = True ]'
k=$(r "[(c['commit'], c['subject'].split(':')[0]) for c in r['subset_changes']] == [(a[0], 'sched/loadavg'), (a[1], 'sched/fair')] and 'kernel/sched/fair.c' in r['subset_changes'][1]['files'] and r['range_commits'] == 6 and r['range_note'].startswith('1 more commit changed only files neither build read')" "$note" "$lb")
test_expect_success "the two commits of six that changed what the builds read are named, with their files; the header no build reads is only counted" \
	'[ "$k" = True ]'

# the verdicts follow the rule: median change past the threshold (of the
# old median or the floor), every new seed beyond every old one
python3 - "$tmp/a/report.json" > "$tmp/rule.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
floor = {m['name']: m['floor'] for m in r['metrics']}
hib = {m['name']: m['better'] == 'higher' for m in r['metrics']}
bad = 0
counts = {}
for row in r['results']:
    for m, c in row['changes'].items():
        o, n = row['old']['seeds'][m], row['new']['seeds'][m]
        med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1:len(v) // 2 + 1]) / 2
        want = 'same'
        if None not in o + n:
            pct = 100 * (med(n) - med(o)) / max(abs(med(o)), floor[m])
            worse = -pct if hib[m] else pct
            if abs(pct - c['change_pct']) > 1e-9 * max(1, abs(pct)):
                bad += 1
            if abs(worse) > r['threshold_pct']:
                up = med(n) > med(o)
                beyond = min(n) > max(o) if up else max(n) < min(o)
                want = 'noise' if not beyond else 'regression' if worse > 0 else 'improvement'
        counts[want] = counts.get(want, 0) + 1
        if want != c['verdict']:
            bad += 1
            print('#', row['topology'], row['pattern'], m, c['verdict'], 'expected', want)
print('#', counts)
print(bad)
PY
sed '$d' "$tmp/rule.out"
test_expect_success "every verdict and change follows the threshold-and-seeds rule (recomputed from the seeds)" \
	'[ "$(tail -1 "$tmp/rule.out")" = 0 ]'

# the JSON's seeds are what linsched run gives for the same spec
bad=
for rev in "$TEST_V61" bad; do
	for s in 1 2; do
		"$LINSCHED" run "$rev" --repo "$work" --workload "$tmp/a/workloads/8cpus/random-exponential-r4ms-u30-x2.0-cpus.json" \
			--topology numa-2 --duration 1s --seed $s --json "$tmp/run.json" -q > /dev/null 2>&1 || bad="$bad run:$rev:$s"
		k=$(python3 - "$tmp/run.json" "$tmp/a/report.json" "$rev" $s <<'PY'
import json, sys
run, rep = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
side = 'old' if sys.argv[3] != 'bad' else 'new'
row = [x for x in rep['results'] if x['topology'] == 'numa-2' and x['pattern'] == 'random-exponential-r4ms-u30-x2.0-cpus'][0]
s = int(sys.argv[4]) - 1
m = run['metrics']
want = {'balance_score': m['balance_score'], 'wakeup_latency_ns.p99': m['wakeup_latency_ns']['p99'],
        'throughput': m['throughput'], 'migrations_per_s': sum(m['migrations_per_s'].values()),
        'energy_j': run['power']['energy_j'], 'idle_entries_per_s': run['power']['idle_entries_per_s']}
print(all(row[side]['seeds'][k][s] == v for k, v in want.items()))
PY
)
		[ "$k" = True ] || bad="$bad $rev:$s"
	done
done
test_expect_success "one pattern's six metrics on both revisions and both seeds equal linsched run --json's${bad:+ (differ:$bad)}" \
	'[ -z "$bad" ]'

# every number of the text is the JSON's, in the text's formats
python3 - "$tmp/a/report.json" "$tmp/a/report.txt" "$tmp/a/report.html" > "$tmp/num.out" <<'PY'
import html, json, re, sys
r = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read().splitlines()
doc = open(sys.argv[3]).read()
v = lambda x: '-' if x is None else '%.6g' % x
p = lambda x: '-' if x is None else '%+.1f%%' % (x if x != 0 else 0.0)
bad, n = [], [0, 0]
def check(where, got, want):
    n[where] += len(want) if isinstance(want, list) else 1
    if got != want:
        bad.append('%s: %r != %r' % ('text' if where == 0 else 'html', got, want))
# text: ranked lines and per-topology lines
ranked = r['worst_regressions'][:20] + r['best_improvements'][:20]
lines = [l.split() for l in txt if re.match(r'^ *\d+\. ', l)]
check(0, len(lines), len(ranked))
for l, c in zip(lines, ranked):
    if c['metric'] == 'run':
        continue
    check(0, l[1:4] + [l[4], l[6], l[7]], [c['topology'], c['pattern'], c['metric'], v(c['old']), v(c['new']), p(c['change_pct'])])
topo = None
for l in txt:
    if l in r['topologies']:
        topo = l
    m = re.match(r'^  (\S+) +(\d+) regressions +(\d+) improvements(?: +(\d+) noise)? +of (\d+)(?:, median (\S+))?$', l)
    if topo and m:
        s = [x for x in r['summary'] if x['topology'] == topo and x['metric'] == m.group(1)][0]
        got = [m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)]
        want = [str(s['regressions']), str(s['improvements']), None if s['metric'] == 'run' else str(s['noise']),
                str(s['compared']), None if s['metric'] == 'run' else p(s['median_change_pct_worse'])]
        check(0, got, want)
check(0, sum(1 for l in txt if re.match(r'^  \S+ +\d+ regressions', l)), len(r['summary']))
head = re.search(r'verdict: (\d+) regressions?, (\d+) improvements?', '\n'.join(txt))
check(0, [int(head.group(1)), int(head.group(2))], [r['regressions'], r['improvements']])
# html: ranked rows, summary rows, every result row
cells = lambda row: [html.unescape(re.sub('<[^>]*>', '', c)) for c in re.findall(r'<td[^>]*>(.*?)</td>', row)]
rows = re.findall(r'<tr class="change"[^>]*>(.*?)</tr>', doc)
check(1, len(rows), len(ranked))
for row, c in zip(rows, ranked):
    if c['metric'] != 'run':
        check(1, cells(row)[1:7], [c['topology'], c['pattern'], c['metric'], v(c['old']), v(c['new']), p(c['change_pct'])])
for key, row in re.findall(r'<tr class="summary" data-key="([^"]*)">(.*?)</tr>', doc):
    t, m = key.rsplit('/', 1)
    s = [x for x in r['summary'] if x['topology'] == t and x['metric'] == m][0]
    c = cells(row)
    check(1, [c[2], c[3], c[4], c[5], c[6]], [str(s['regressions']), str(s['improvements']),
          '-' if m == 'run' else str(s['noise']), str(s['compared']), '-' if m == 'run' else p(s['median_change_pct_worse'])])
res = {(x['topology'], x['pattern']): x for x in r['results']}
seen = 0
for key, row in re.findall(r'<tr class="result" id="p-[^"]*" data-key="([^"]*)">(.*?)</tr>', doc):
    t, pat = key.split('/', 1)
    x = res[(t, pat)]
    c = cells(row)[2:]
    want = []
    for m in [m['name'] for m in r['metrics']]:
        ch = x['changes'][m]
        want += [v(ch['old']), v(ch['new']), p(ch['change_pct'])]
    check(1, c, want)
    seen += 1
check(1, seen, len(r['results']))
print('# text: %d numbers, html: %d numbers' % tuple(n))
for b in bad[:10]:
    print('#', b)
print(len(bad))
PY
head -n -1 "$tmp/num.out"
test_expect_success "every number in report.txt and report.html equals report.json's" \
	'[ "$(tail -1 "$tmp/num.out")" = 0 ]'

# plots: gnuplot again, valid PNGs of the stated size, SVGs that parse
n=0
for gp in "$tmp"/a/plots/*.gp; do
	(cd "$tmp/a/plots" && gnuplot "${gp##*/}") 2>> "$tmp/gp.err" && n=$((n + 1))
done
test_expect_success "gnuplot runs the 4 scripts again, exit 0, no warnings" \
	'[ $n = 4 ] && ! grep -q . "$tmp/gp.err"'
bad=
for t in quad numa-2; do
	for p in heat-$t:1000x620 plane-$t:900x700; do
		c=$(png_check "$tmp/a/plots/${p%%:*}.png" "${p#*:}")
		[ "${c:-0}" -gt 20 ] || bad="$bad ${p%%:*}.png($c)"
		svg_check "$tmp/a/plots/${p%%:*}.svg" 50 || bad="$bad ${p%%:*}.svg"
	done
done
test_expect_success "4 PNGs of their sizes with many colours, 4 SVGs that parse${bad:+ (bad:$bad)}" \
	'[ -z "$bad" ]'
k=$(python3 - "$tmp/a" <<'PY'
import base64, re, sys
d = sys.argv[1]
doc = open(d + '/report.html').read()
imgs = re.findall(r'<img alt="([^"]*)" src="([^"]*)"', doc)
files = re.findall(r'<a href="plots/([^"]*)">png</a>', doc)
same = all(src == 'data:image/png;base64,' + base64.b64encode(open(d + '/plots/' + f, 'rb').read()).decode()
           for (alt, src), f in zip(imgs, files))
print(len(imgs) == 4 and len(files) == 4 and same and not re.search(r'(src|href)="(http|//)', doc) and
      'class="timeline"' not in doc and not re.search(r'id="timelines"', doc))
PY
)
test_expect_success "the HTML embeds the 4 PNGs byte for byte and links nothing outside; --timelines 0: no timeline" \
	'[ "$k" = True ]'

# the same report again runs nothing and says the same
"$LINSCHED" report "$TEST_V61" bad "${ARGS[@]}" --out "$tmp/b" > "$tmp/b.out" 2> "$tmp/b.err"
status=$?
k=$(python3 -c "
import json, sys
a, b = json.load(open('$tmp/a/report.json')), json.load(open('$tmp/b/report.json'))
del a['wall_s'], b['wall_s']
print(a == b)")
grep -q '^report: 208 runs, 208 from the cache' "$tmp/b.err" && [ $status = 1 ] && [ "$k" = True ] &&
	cmp -s "$tmp/a/report.txt" "$tmp/b/report.txt"
ok $? "the same report again: 208 runs all from the cache, the same JSON and text ($(cat "$tmp/b.err"))"

# no change in the build subset's behaviour: nothing to report
"$LINSCHED" report "$TEST_V61" "$note" "${ARGS[@]}" --out "$tmp/c" > "$tmp/c.out" 2> "$tmp/c.err"
status=$?
k=$(json "$tmp/c/report.json" "r['regressions'] == 0 and r['improvements'] == 0 and len(r['subset_changes']) == 1")
test_expect_success "a comment-only change: 0 regressions, exit 0 (status $status)" \
	'[ $status = 0 ] && [ "$k" = True ] && grep -q '\''^verdict: 0 regressions, 0 improvements'\'' "$tmp/c.out"'

# bad input and a revision that does not build
"$LINSCHED" report "$TEST_V61" > /dev/null 2> "$tmp/e1"; s1=$?
"$LINSCHED" report "$TEST_V61" bad --suite nosuch > /dev/null 2> "$tmp/e2"; s2=$?
"$LINSCHED" report "$TEST_V61" bad --topology nosuch > /dev/null 2> "$tmp/e3"; s3=$?
"$LINSCHED" report "$TEST_V61" bad --threshold x > /dev/null 2> "$tmp/e4"; s4=$?
[ $s1 = 2 ] && [ $s2 = 2 ] && [ $s3 = 2 ] && [ $s4 = 2 ] &&
	grep -q 'takes two revisions' "$tmp/e1" && grep -q "suite 'nosuch': expected full, quick or a family" "$tmp/e2" &&
	grep -q "nosuch" "$tmp/e3" && grep -q "threshold 'x'" "$tmp/e4"
ok $? "bad arguments exit 2 and say what was expected"
"$LINSCHED" report "$TEST_V61" broken --repo "$work" --suite hog --topology quad --seeds 1 --duration 1s \
	--out "$tmp/d" > /dev/null 2> "$tmp/d.err"
status=$?
test_expect_success "NEW does not build: exit 4 with the compiler's error, no report (status $status)" \
	'[ $status = 4 ] && grep -q "error: NEW broken does not build: build failed: kernel/sched/idle.c" "$tmp/d.err" && [ ! -e "$tmp/d/report.json" ]'
grep -q '^usage: linsched report OLD NEW' <<<"$("$LINSCHED" report --help)"
ok $? "--help"

done_testing
