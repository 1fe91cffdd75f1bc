#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched check, the pre-submit gate, in a clone of a release: an
# uncommitted one-token load-balancing slip (staged or not) fails with its
# patterns and metrics, and the clone's refs, index, work tree, objects and
# file times are what they were; a comment does not. The same slip as a
# format-patch mbox gives the same verdict; a series names the patch that
# regresses; a patch that does not apply names its hunk (exit 2); one that
# does not build names itself and the compiler's words (exit 3). The
# invariants gate (--check) fails a change on its own; the bug gate names
# the catalogued bug a change puts back. The JUnit XML has the structure
# CI reads, and prove accepts the TAP.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 21
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a clone with objects of its own (a pack, not an alternate), so that
# every file the check could touch is the clone's
work=$tmp/work
git clone -q --no-hardlinks -b "$TEST_V61" "$LSBISECT_REPO" "$work" 2> /dev/null
# results of our own (the builds are the shared ones); the object store
# of the clone's changes goes under it too, and away with it
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
ARGS=(--suite full --match 'hog-x1.25-cpus' --match 'hog-x2.0-cpus'
      --topology quad-smt --seeds 2 --duration 1s -q --bugs none --out "$tmp/out")
G=(git -c user.name=T -c user.email=t@example.com)
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

# The slip: nr_running evened out against the busiest group instead of the
# local one, one token; the imbalance comes out 0 and two tasks of a core
# stay beside an idle one.
slip() {
	python3 - "$1/kernel/sched/fair.c" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "\t\t\tlsub_positive(&nr_diff, local->sum_nr_running);\n"
assert s.count(old) == 1
open(p, 'w').write(s.replace(old, old.replace("local->", "busiest->")))
PY
}
# everything git and the file system say about the clone
state() {
	git -C "$work" for-each-ref
	sha1sum < "$work/.git/index"
	(cd "$work" && find . -printf '%p %T@ %s %m\n' | LC_ALL=C sort)
}
check() { (cd "$work" && "$LINSCHED" check "$@"); }
# JUnit: testsuites > testsuite (a change) > testcase (pattern x machine)
junit() {
	python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
want = sys.argv[2:]
assert root.tag == 'testsuites', root.tag
cases, names, failed = 0, set(), []
for s in root:
    assert s.tag == 'testsuite'
    n = [c for c in s if c.tag == 'testcase']
    assert int(s.get('tests')) == len(n) and len(n) == len(list(s))
    assert int(s.get('failures')) == sum(1 for c in n if c.find('failure') is not None)
    for c in n:
        key = (c.get('classname'), c.get('name'))
        assert None not in key and key not in names, key
        names.add(key)
        f = c.find('failure')
        if f is not None:
            assert f.get('message') and f.text
            failed.append('%s %s: %s' % (key[0], key[1], f.get('message')))
    cases += len(n)
assert int(root.get('tests')) == cases
assert int(root.get('failures')) == len(failed)
print(cases, '|'.join(failed))
PY
}

# the change table's lines (the kernel test robot's form) against
# report.json: every median, stddev, change and name is the JSON's, and
# every change the JSON does not call "same" has its line. Prints "N lines
# agree", or the first disagreement.
table_vs_json() {
	python3 - "$@" <<'PY'
import json, math, re, sys
text, rep = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
pm = '\u00b1'
def rsd(vals):
    v = [x for x in vals if x is not None]
    if len(v) < 2 or sum(v) == 0:
        return None
    mean = sum(v) / len(v)
    return 100 * math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1)) / abs(mean)
def side(r, name, m, k, med):
    s = rsd(r[name]['seeds'][m])
    val = '-' if med is None else '%.6g' % (med * k)
    return val + (' %s%.0f%%' % (pm, s) if s is not None and s >= 1 else '')
want = {}
for r in rep['results']:
    for m, c in r['changes'].items():
        if c['verdict'] == 'same':
            continue
        # a fraction in percent, its change in points
        f = m == 'work_conservation'
        k = 100 if f else 1
        if f:
            d = (c['new'] - c['old']) * 100
            pct = '%+.3g' % (d if d else 0.0)
        else:
            pct = '-' if c['change_pct'] is None else '%+.1f%%' % (c['change_pct'] or 0.0)
        name = '%s/%s.%s%s' % (r['topology'], r['pattern'], m, '%' if f else '')
        want[name] = (side(r, 'old', m, k, c['old']), pct,
                      side(r, 'new', m, k, c['new']), c['verdict'])
val = r'(\S+(?: %s *\d+%%)?)' % pm
line = re.compile(r'^ *%s +(\S+) +%s +(\S+)  \((\w+)\)$' % (val, val))
got = {}
for l in text.splitlines():
    g = line.match(l)
    if g:
        got[g.group(4)] = (re.sub(pm + ' *', pm, g.group(1)), g.group(2),
                           re.sub(pm + ' *', pm, g.group(3)), g.group(5))
want = {n: (w[0].replace(pm + ' ', pm), w[1], w[2].replace(pm + ' ', pm), w[3])
        for n, w in want.items()}
for n in sorted(set(want) | set(got)):
    if want.get(n) != got.get(n):
        print('disagree on %s: table %s, report.json %s' % (n, got.get(n), want.get(n)))
        sys.exit(0)
print('%d lines agree' % len(got))
PY
}

slip "$work"
state > "$tmp/before"
t0=$(date +%s)
check "${ARGS[@]}" --junit "$tmp/wt.xml" --tap "$tmp/wt.tap" > "$tmp/wt.out" 2> "$tmp/wt.err"
status=$?
t1=$(date +%s)
sed 's/^/# /' "$tmp/wt.out" "$tmp/wt.err"
test_expect_success "an uncommitted one-token slip in fair.c fails the check: exit $status in $((t1 - t0)) s, naming the pattern and the metric" \
	'[ $status = 1 ] &&
	 grep -q "^  FAIL quad-smt hog-x1.25-cpus$" "$tmp/wt.out" &&
	 grep -q "^    balance_score: .* -> .* (+[0-9.]*%, threshold 5%)$" "$tmp/wt.out" &&
	 grep -q "quad-smt/hog-x1.25-cpus.balance_score  (regression)$" "$tmp/wt.out" &&
	 grep -q "^verdict: the work tree of \. regresses" "$tmp/wt.out" &&
	 grep -q "changes 1 file of the build subset against HEAD" "$tmp/wt.err"'
# a wider table: two machines, a 1% threshold, noise and a fraction
check --suite full --match 'hog-x1.25-cpus' --match 'random-exponential-r1ms-u10-x2.0-cpus' \
	--topology quad-smt --topology numa-2 --seeds 3 --duration 1s --threshold 1 \
	-q --bugs none --out "$tmp/tab" > "$tmp/tab.out" 2>&1
k=$(table_vs_json "$tmp/tab.out" "$tmp/tab/report.json")
test_expect_success "the change table's numbers are report.json's: $k" \
	'[[ "$k" =~ ^([0-9]+)\ lines\ agree$ ]] && [ "${BASH_REMATCH[1]}" -ge 5 ] &&
	 grep -q "work_conservation%  (" "$tmp/tab.out" && grep -q "(noise)$" "$tmp/tab.out" &&
	 [ -s "$tmp/tab/report.html" ] && grep -q "^  $tmp/tab/report.html$" "$tmp/tab.out" &&
	 [ "$(table_vs_json "$tmp/wt.out" "$tmp/out/report.json")" = "1 lines agree" ]'
state > "$tmp/after"
test_expect_success "the clone's refs, index, objects, work tree and file times are byte-identical afterwards" \
	'cmp "$tmp/before" "$tmp/after" && [ "$(lines "$tmp/after")" -gt 9000 ]'

"${G[@]}" -C "$work" add kernel/sched/fair.c
state > "$tmp/before"
check "${ARGS[@]}" > "$tmp/staged.out" 2>&1
status=$?
state > "$tmp/after"
test_expect_success "staged, the same slip gives the same verdict and numbers (exit $status), and nothing moves either" \
	'[ $status = 1 ] && cmp "$tmp/before" "$tmp/after" &&
	 diff <(grep -A1 FAIL "$tmp/wt.out") <(grep -A1 FAIL "$tmp/staged.out")'

# the invariants gate: past any threshold, only the broken invariants fail
# (this pattern's invariant violations: 0,0 -> 14,14 per seed; the balance
# window leaves none to the random-exponential-r1ms patterns)
INV=(--suite full --match 'random-exponential-r16ms-u60-x2.0-cpus' --topology quad-smt
     --seeds 2 --duration 1s -q --bugs none --threshold 100000 --out "$tmp/out")
check "${INV[@]}" > "$tmp/noinv.out" 2>&1
s1=$?
check "${INV[@]}" --check --tap "$tmp/inv.tap" > "$tmp/inv.out" 2>&1
s2=$?
grep "invariants" "$tmp/inv.out" | sed 's/^/# /'
test_expect_success "with no metric past the threshold, --check fails it on the invariants its every seed breaks (exit $s1, then $s2)" \
	'[ $s1 = 0 ] && [ $s2 = 1 ] &&
	 grep -q "^    invariants violated: [0-9,]* -> [0-9,]* (per seed)$" "$tmp/inv.out" &&
	 grep -q "^not ok 1 - random-exponential-r16ms-u60-x2.0-cpus on quad-smt: invariants violated$" "$tmp/inv.tap"'

"${G[@]}" -C "$work" reset -q --hard
echo '/* a comment only */' >> "$work/kernel/sched/fair.c"
check "${ARGS[@]}" --bugs all > "$tmp/comment.out" 2>&1
status=$?
base=$(git -C "$work" rev-parse --short=12 HEAD)
grep "^check: .*\(runs\|bug\)" "$tmp/comment.out" | sed 's/^/# /'
# the catalogue's entries of the 6.1 series, as many as it has
n61=$("$LINSCHED" bugs list | awk '$2 == "6.1"' | wc -l)
test_expect_success "a comment-only change passes, every result of BASE from the cache, the bug gate on BASE's $n61 entries of its series: exit $status" \
	'[ $status = 0 ] && grep -q "^verdict: no regression in 1 change$" "$tmp/comment.out" &&
	 grep -q "^check: 8 runs, [0-9]* from the cache ($base: 4 of 4, [0-9a-f]*: [0-4] of 4)" "$tmp/comment.out" &&
	 [ "$n61" -ge 1 ] &&
	 grep -q "^check: $n61 catalogued bugs\{0,1\} of the 6.1 series on [0-9]* builds" "$tmp/comment.out" &&
	 grep -q "^  catalogued bugs: $n61 runs\{0,1\}, 0 back$" "$tmp/comment.out"'

"${G[@]}" -C "$work" reset -q --hard
check "${ARGS[@]}" > "$tmp/none.out" 2>&1
status=$?
test_expect_success "no change to the build subset: nothing to check, exit $status" \
	'[ $status = 0 ] && grep -q "changes 0 files of the build subset" "$tmp/none.out"'

# the bug gate: fork placement counting CPUs the task may not use, the
# stable fix the catalogue's fork_affinity-6.1 names, taken back
"${G[@]}" -C "$work" reset -q --hard
python3 - "$work/kernel/sched/fair.c" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "\t\tsgs->group_misfit_task_load = 1;\n\n\tfor_each_cpu_and(i, sched_group_span(group), p->cpus_ptr) {\n"
assert s.count(old) == 1
open(p, 'w').write(s.replace(old, old.replace("for_each_cpu_and(i, sched_group_span(group), p->cpus_ptr)", "for_each_cpu(i, sched_group_span(group))")))
PY
check "${ARGS[@]}" --bugs fork_affinity-6.1 --junit "$tmp/bug.xml" > "$tmp/bug.out" 2>&1
status=$?
grep -e BACK -e verdict "$tmp/bug.out" | sed 's/^/# /'
test_expect_success "a change that puts a catalogued bug back fails naming it and its fix: exit $status" \
	'[ $status = 1 ] &&
	 grep -q "^  BACK fork_affinity-6.1: tasks.busy0.sum_exec_ns [0-9.e+]* -> [0-9.e+]* (buggy below 4.5e+09; fix 82d6e01a0699 .sched/fair: Only update stats for allowed CPUs when looking for dst group.)$" "$tmp/bug.out" &&
	 grep -q "^verdict: the work tree of \. brings back 1 catalogued bug$" "$tmp/bug.out"'
k=$(junit "$tmp/bug.xml")
test_expect_success "the bug is a failing testcase of classname bugs: $k" \
	'[ "$k" = "3 bugs fork_affinity-6.1: fork_affinity-6.1 is back" ]'
check "${ARGS[@]}" --bugs fork_affinity-6.1,nosuch > "$tmp/nosuch.out" 2>&1
status=$?
test_expect_success "an entry the catalogue does not have is a usage error: exit $status" \
	'[ $status = 2 ] && grep -q "^error: --bugs: no entry .nosuch. in the catalogue" "$tmp/nosuch.out"'
"${G[@]}" -C "$work" reset -q --hard

# the same slip as a patch, and series of three made in another clone
series=$tmp/series
git clone -q --shared -b "$TEST_V61" "$LSBISECT_REPO" "$series" 2> /dev/null
"${G[@]}" -C "$series" checkout -q -b lb
slip "$series"
"${G[@]}" -C "$series" commit -qam 'sched/fair: even out nr_running against the busiest group'
"${G[@]}" -C "$series" format-patch -q --stdout "$TEST_V61" > "$tmp/one.mbox"
check "$TEST_V61" --patch "$tmp/one.mbox" "${ARGS[@]}" > "$tmp/one.out" 2>&1
status=$?
test_expect_success "the same change as a format-patch mbox: exit $status, the same failures and numbers" \
	'[ $status = 1 ] &&
	 grep -q "^verdict: patch 1/1 .sched/fair: even out nr_running against the busiest group. regresses" "$tmp/one.out" &&
	 diff <(grep -A1 FAIL "$tmp/wt.out") <(grep -A1 FAIL "$tmp/one.out")'

"${G[@]}" -C "$series" checkout -q -b three "$TEST_V61"
echo '/* a note */' >> "$series/kernel/sched/loadavg.c"
"${G[@]}" -C "$series" commit -qam 'sched/loadavg: a note'
slip "$series"
"${G[@]}" -C "$series" commit -qam 'sched/fair: even out nr_running against the busiest group'
echo '/* another note */' >> "$series/kernel/sched/fair.c"
"${G[@]}" -C "$series" commit -qam 'sched/fair: a note'
"${G[@]}" -C "$series" format-patch -q --stdout "$TEST_V61" > "$tmp/three.mbox"
check "$TEST_V61" --patch "$tmp/three.mbox" "${ARGS[@]}" --junit "$tmp/three.xml" \
	--tap "$tmp/three.tap" > "$tmp/three.out" 2>&1
status=$?
sed 's/^/# /' "$tmp/three.out" | grep -v '^# check:'
test_expect_success "a three-patch series whose second patch regresses: exit $status, the second named" \
	'[ $status = 1 ] &&
	 grep -q "^verdict: patch 2/3 .sched/fair: even out nr_running against the busiest group. regresses" "$tmp/three.out" &&
	 [ "$(grep -c "^  FAIL " "$tmp/three.out")" = 1 ] &&
	 grep -q "^patch 3/3 .sched/fair: a note.$" "$tmp/three.out" &&
	 [ "$(ls "$tmp"/out/[123]/report.html "$tmp"/out/[123]/report.json | wc -l)" = 6 ] &&
	 sed -n "/^patch 2\/3/,/^patch 3\/3/p" "$tmp/three.out" > "$tmp/three-2.out" &&
	 [ "$(table_vs_json "$tmp/three-2.out" "$tmp/out/2/report.json" | cut -d" " -f2-)" = "lines agree" ]'

"${G[@]}" -C "$series" format-patch -q --cover-letter --stdout "$TEST_V61" > "$tmp/cover.mbox"
"${G[@]}" -C "$series" diff "$TEST_V61" > "$tmp/plain.diff"
check "$TEST_V61" --patch "$tmp/cover.mbox" "${ARGS[@]}" > "$tmp/cover.out" 2>&1
s1=$?
check "$TEST_V61" --patch "$tmp/plain.diff" "${ARGS[@]}" > "$tmp/plain.out" 2>&1
s2=$?
test_expect_success "a cover letter is left out of the series (exit $s1); a plain git diff is one patch named by its file (exit $s2)" \
	'[ $s1 = 1 ] && [ $s2 = 1 ] &&
	 grep -q "^check: 3 patches applied" "$tmp/cover.out" &&
	 grep -q "^verdict: patch 2/3 .sched/fair: even out nr_running against the busiest group. regresses" "$tmp/cover.out" &&
	 grep -q "^verdict: patch 1/1 .*plain.diff. regresses" "$tmp/plain.out" &&
	 diff <(grep -A1 FAIL "$tmp/wt.out") <(grep -A1 FAIL "$tmp/plain.out")'

check "$TEST_V61" --patch "$tmp/three.mbox" --whole "${ARGS[@]}" > "$tmp/whole.out" 2>&1
status=$?
test_expect_success "--whole judges the series applied whole against BASE: exit $status" \
	'[ $status = 1 ] && grep -q "^verdict: the series whole regresses" "$tmp/whole.out"'

check "$TEST_V61" --patch "$tmp/three.mbox" "${ARGS[@]}" > "$tmp/again.out" 2>/dev/null
test_expect_success "the same check again gives the same text" \
	'cmp "$tmp/again.out" <(grep -v "^check:" "$tmp/three.out")'

# a hunk whose context is not in the tree
sed 's/^ \t\t\tenv->migration_type = migrate_task;$/ \t\t\tenv->migration_type = migrate_misfit;/' \
	"$tmp/three.mbox" > "$tmp/stale.mbox"
check "$TEST_V61" --patch "$tmp/stale.mbox" "${ARGS[@]}" --junit "$tmp/stale.xml" > "$tmp/stale.out" 2>&1
status=$?
sed 's/^/# /' "$tmp/stale.out"
k=$(junit "$tmp/stale.xml")
test_expect_success "a patch that does not apply: exit $status, naming the patch, its file and hunk; for CI a failing testcase: $k" \
	'[ $status = 2 ] &&
	 grep -q "^error: patch 2/3 of .*stale.mbox.: patch .\[PATCH 2/3\] sched/fair: even out nr_running against the busiest group. does not apply: kernel/sched/fair.c, hunk 1 .@@ -[0-9]*,7 +[0-9]*,7 @@ static inline void calculate_imbalance" "$tmp/stale.out" &&
	 [ "$k" = "1 apply apply: does not apply" ] && grep -q "hunk 1 " "$tmp/stale.xml"'

"${G[@]}" -C "$series" checkout -q -b broken "$TEST_V61"
echo '/* a note */' >> "$series/kernel/sched/loadavg.c"
"${G[@]}" -C "$series" commit -qam 'sched/loadavg: a note'
echo '/* another note */' >> "$series/kernel/sched/loadavg.c"
"${G[@]}" -C "$series" commit -qam 'sched/loadavg: another note'
echo 'this is not C;' >> "$series/kernel/sched/idle.c"
"${G[@]}" -C "$series" commit -qam 'sched/idle: a slip'
"${G[@]}" -C "$series" format-patch -q --stdout "$TEST_V61" > "$tmp/broken.mbox"
check "$TEST_V61" --patch "$tmp/broken.mbox" "${ARGS[@]}" --junit "$tmp/broken.xml" > "$tmp/broken.out" 2> "$tmp/broken.err"
status=$?
test_expect_success "a series whose third patch does not build: exit $status, the third named with the compiler's message" \
	'[ $status = 3 ] &&
	 grep -q "^verdict: patch 3/3 .sched/idle: a slip. does not build$" "$tmp/broken.out" &&
	 grep -q "kernel/sched/idle.c:[0-9]*:[0-9]*: error: " "$tmp/broken.out" &&
	 grep -q "^error: patch 3/3 .sched/idle: a slip. does not build:$" "$tmp/broken.err"'

k=$(junit "$tmp/three.xml")
test_expect_success "the series' JUnit XML: testsuites, a testsuite per patch, unique testcases, one failure: $k" \
	'[ "${k%% *}" = 6 ] && [[ "${k#* }" =~ ^quad-smt\ 2:\ hog-x1.25-cpus:\ balance_score\ \+[0-9.]+%$ ]] &&
	 grep -q "balance_score: [0-9.e+]* -&gt; [0-9.e+]* (+[0-9.]*%, threshold 5%)" "$tmp/three.xml"'
k=$(junit "$tmp/broken.xml")
test_expect_success "a build failure is a failing testcase in the JUnit XML too: $k" \
	'[[ "$k" =~ ^5\ build\ 3:\ build:\ does\ not\ build$ ]]'
k=$(junit "$tmp/wt.xml")
test_expect_success "the work tree's JUnit XML: $k" \
	'[[ "$k" =~ ^2\ quad-smt\ hog-x1.25-cpus:\ balance_score ]]'

prove --exec cat "$tmp/three.tap" > "$tmp/prove.out" 2>&1
sed 's/^/# /' "$tmp/prove.out"
test_expect_success "prove reads the TAP: 6 tests, the third fails" \
	'grep -q "Failed test:  3$" "$tmp/prove.out" && grep -q "Tests=6," "$tmp/prove.out" &&
	 ! grep -qi "parse errors" "$tmp/prove.out"'

test_done
