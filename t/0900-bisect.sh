#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# lsbisect on a made-up history of 44 commits on v6.1.192 in 11 classes:
# it names the commit that breaks load balancing, skips the one that
# BUG()s and goes away from it, refuses as BAD the commit that does not
# compile, tests each class at most once,
# resumes after a SIGKILL without redoing a step, replays its log, says
# so when GOOD and BAD are swapped or nothing regressed, reports a Scheme
# error in a script with its location, and leaves the repository as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 34
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A non-bare clone (its work tree and index must stay as they are) that
# borrows the shared history's objects.
work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
# classes: 0 note, 1 lb, 2 broken, 3 fixed, 4 bug, 5 nobug, 6-10 notes;
# each class is its commit and three outside the build subset
make_history "$work" "$BISECT_PLAN" > "$tmp/history"
id() { awk -v k="$1" '$2 == k { print $1; exit }' "$tmp/history"; }
lb=$(id lb); broken=$(id broken); bug=$(id bug)
class0_end=$(sed -n 4p "$tmp/history" | cut -d' ' -f1)
make_history "$work" "note bug nobug+lb" 3 amb > "$tmp/amb-history"
aid() { awk -v k="$1" '$2 == k { print $1; exit }' "$tmp/amb-history"; }
diag "history: $(wc -l < "$tmp/history") commits; lb $lb, broken $broken, bug $bug"
before=$(repo_state "$work")

# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
W=$BISECT_W
ARGS=(--repo "$work" --topology quad --duration 1s)
r() { json "$1/report.json" "${@:2}"; }

start=$(date +%s.%N)
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --out "$tmp/out" > "$tmp/out.txt" 2> "$tmp/out.err"
status=$?
diag "bisection: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
sed 's/^/# /' "$tmp/out.txt"
test_expect_success "a culprit is found (status $status)" \
	'[ $status = 0 ]'
test_expect_success "it is the commit that breaks load balancing ($lb)" \
	'[ "$(r "$tmp/out" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'
k=$(r "$tmp/out" "r['culprit']['subject'].startswith('sched/fair: count the puller') and r['culprit']['files'] == ['kernel/sched/fair.c'] and len(r['culprit']['same_class']) == 3")
test_expect_success "with its subject, the file it changed and the three commits of its class" \
	'[ "$k" = True ]'
k=$(r "$tmp/out" "r['culprit']['value_good'] == r['culprit']['value_parent'] and r['culprit']['value'] > 10 * r['culprit']['value_good']")
test_expect_success "balance score at GOOD = at the parent, far below the culprit's ($(r "$tmp/out" "r['culprit']['value_good'], r['culprit']['value_parent'], r['culprit']['value']"))" \
	'[ "$k" = True ]'
# (the commit that does not compile is BAD below, the search going away
# from the crash does not reach it)
k=$(r "$tmp/out" "[(s['commit'], s['reason'].split(':')[0]) for s in r['skipped']] == [(a[0], 'crashed')] and [s['class'] for s in r['steps']][2:4] == [4, 7]" "$bug")
test_expect_success "the commit that crashes is skipped, with its reason; the next test goes away from it" \
	'[ "$k" = True ]'
grep -q "skipped class 4 (${bug:0:12}): crashed: .*BUG: failure at kernel/sched/fair.c" "$tmp/out.txt"
ok $? "the report says why: the kernel's BUG message"

# Each class at most once; no more than GOOD, BAD, the halving steps and
# the skips; a class with the subset of one tested is not run again.
steps=$(r "$tmp/out" "len(r['steps'])")
runs=$(grep -c '"event":"run"' "$tmp/out/log.jsonl")
subsets=$(python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
print(len({x['subset'] for x in e if x['event'] == 'run'}))" "$tmp/out/log.jsonl")
classes=$(r "$tmp/out" "[s['class'] for s in r['steps']]")
k=$(r "$tmp/out" "len({s['class'] for s in r['steps']}) == len(r['steps']) <= 2 + 4 + 2")
test_expect_success "$steps steps, each class once ($classes), $runs runs of $runs distinct subsets (at most 2 + log2(11) + 2 steps)" \
	'[ "$k" = True ] && [ "$runs" = "$subsets" ]'
# a build that fails here is neither run nor taken from the cache
failed=$(python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
print(sum(1 for x in e if x['event'] == 'run' and x['outcome'] == 'build_failed' and x['source'] == 'ran'))" "$tmp/out/log.jsonl")
k=$(r "$tmp/out" "r['counts']['built'] <= $runs and r['counts']['ran'] + r['counts']['cached'] + $failed == $runs")
test_expect_success "builds and runs: $(r "$tmp/out" "r['counts']")" \
	'[ "$k" = True ]'
magic=$(head -c 4 "$tmp/out/plot.png" | od -An -c | tr -d ' ')
test_expect_success "gnuplot drew plot.png from plot.gp and plot.dat" \
	'[ "$magic" = '\''211PNG'\'' ] && [ -s "$tmp/out/plot.gp" ] && [ -s "$tmp/out/plot.dat" ]'
# a point is labelled by its commit's tag (GOOD is a release), else its
# short hash; the title names the topology, not a path
k=$(python3 - "$tmp/out" "$TEST_V61" <<'PY'
import json, shlex, sys
d, good = sys.argv[1], sys.argv[2]
r = json.load(open(d + '/report.json'))
pts = [shlex.split(l) for l in open(d + '/plot.dat') if l.strip() and not l.startswith('#')]
pts = {int(p[3]): p[2] for p in pts if p[0] != '-1'}
want = {s['class'] if s['class'] != 'GOOD' else -1: s['commit'][:7] for s in r['steps']}
want[-1] = good
print(pts == want)
PY
)
test_expect_success "plot.dat labels GOOD by its tag ($TEST_V61), the other points by their short hashes; the title names quad" \
	'[ "$k" = True ] && grep -qF "\\n$W on quad\"" "$tmp/out/plot.gp"'

# The same bisection again: every result from the cache.
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --out "$tmp/out" > "$tmp/again.txt" 2>&1
k=$(r "$tmp/out" "r['counts']['ran'] == 0 and r['counts']['built'] == 0 and r['culprit']['commit'] == a[0]" "$lb")
test_expect_success "again: the same answer, nothing built or run; the first log kept aside" \
	'[ "$k" = True ] && [ -s "$tmp/out/log.prev.jsonl" ]'

# SIGKILL once three steps are logged (the script kills its own process
# from the judge), then --continue.
cat > "$tmp/kill.scm" <<'EOF'
(use-modules (ice-9 rdelim))
(define flag (string-append (session 'log) ".killed"))
(define (logged-steps)
  (call-with-input-file (session 'log)
    (lambda (port)
      (let loop ((n 0))
        (let ((line (read-line port)))
          (if (eof-object? line)
              n
              (loop (if (string-contains line "\"event\":\"step\"") (+ n 1) n))))))))
(define judge
  (let ((j (default-judge)))
    (lambda (goods these)
      (when (and (>= (logged-steps) 3) (not (file-exists? flag)))
        (close-port (open-output-file flag))
        (kill (getpid) SIGKILL))
      (j goods these))))
EOF
private_cache "$tmp/cache2"
# (in a group whose stderr takes the shell's "Killed" notice)
{
	LSBISECT_CACHE=$tmp/cache2 "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" \
		--out "$tmp/killed" --script "$tmp/kill.scm" > /dev/null 2>&1
	status=$?
} 2> /dev/null
n=$(grep -c '"event":"step"' "$tmp/killed/log.jsonl")
test_expect_success "killed by SIGKILL with three steps logged (status $status, $n steps)" \
	'[ $status = 137 ] && [ "$n" = 3 ]'
cp "$tmp/killed/log.jsonl" "$tmp/killed.jsonl"
# the log's settings are the bisection's: another governor or idle
# governor on the command line is refused, not silently replaced by them
LSBISECT_CACHE=$tmp/cache2 "$LSBISECT" --continue --out "$tmp/killed" --cpuidle poll \
	> /dev/null 2> "$tmp/other.err"
status=$?
LSBISECT_CACHE=$tmp/cache2 "$LSBISECT" --continue --out "$tmp/killed" --governor performance \
	> /dev/null 2> "$tmp/other2.err"
status2=$?
test_expect_success "--continue --out with another --cpuidle or --governor: refused (status $status, $status2)" \
	'[ $status = 2 ] && grep -q "is of another bisection: its cpuidle was \"kernel\"" "$tmp/other.err" &&
	 [ $status2 = 2 ] && grep -q "is of another bisection: its governor was \"schedutil\"" "$tmp/other2.err" &&
	 cmp -s "$tmp/killed/log.jsonl" "$tmp/killed.jsonl"'
entries=$(find "$tmp/cache2/results" -type f | wc -l)
LSBISECT_CACHE=$tmp/cache2 "$LSBISECT" --continue "$TEST_V61" bad "$W" "${ARGS[@]}" --out "$tmp/killed" \
	--script "$tmp/kill.scm" > "$tmp/continue.txt" 2>&1
status=$?
test_expect_success "--continue finds the same culprit (status $status)" \
	'[ $status = 0 ] && [ "$(r "$tmp/killed" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'
k=$(python3 -c "
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
print([(s['class'], s['verdict']) for s in a['steps']] == [(s['class'], s['verdict']) for s in b['steps']])" \
	"$tmp/out/report.json" "$tmp/killed/report.json")
test_expect_success "with the same steps as the uninterrupted bisection" \
	'[ "$k" = True ]'
k=$(python3 -c "
import json, sys
old = [json.loads(l) for l in open(sys.argv[1])]
new = [json.loads(l) for l in open(sys.argv[2])][len(old):]
done = {(e['subset'], e['seed']) for e in old if e['event'] == 'run'}
again = [e for e in new if e['event'] == 'run' and (e['subset'], e['seed']) in done]
steps = [e['step'] for e in new if e['event'] == 'step']
print(len(again) == 0 and min(steps) == 4 and [e['event'] for e in new].count('start') == 0)" \
	"$tmp/killed.jsonl" "$tmp/killed/log.jsonl")
test_expect_success "the log goes on from step 4: no run logged before the kill is run again" \
	'[ "$k" = True ]'
k=$(python3 -c "
import json, sys
old = [json.loads(l) for l in open(sys.argv[1])]
new = [json.loads(l) for l in open(sys.argv[2])][len(old):]
r = json.load(open(sys.argv[3]))['counts']
runs = [e for e in new if e['event'] == 'run']
print(r['ran'] + r['cached'] == len(runs) and r['built'] == 0 and r['from_log'] >= 3,
      r, len(runs))" "$tmp/killed.jsonl" "$tmp/killed/log.jsonl" "$tmp/killed/report.json")
new_entries=$(($(find "$tmp/cache2/results" -type f | wc -l) - entries))
test_expect_success "only what was left is run: $k new runs, $new_entries new cache entries" \
	'[ "${k%% *}" = True ]'

# --replay: the same decisions from the log alone.
"$LSBISECT" --replay "$tmp/out/log.jsonl" --out "$tmp/replay" > "$tmp/replay.txt" 2>&1
status=$?
k=$(r "$tmp/replay" "r['culprit']['commit'] == a[0] and r['counts']['ran'] == r['counts']['built'] == r['counts']['cached'] == 0" "$lb")
test_expect_success "--replay reaches the same culprit from the log, running nothing (status $status)" \
	'[ $status = 0 ] && [ "$k" = True ]'

# A replay whose decisions differ from the log's stops and says where.
"$LSBISECT" --replay "$tmp/out/log.jsonl" --threshold 1000000 --out "$tmp/replay2" > /dev/null 2> "$tmp/replay2.err"
status=$?
test_expect_success "a replay with another threshold: status 4 ($status), $(grep -m1 "^error" "$tmp/replay2.err" | cut -c1-120)" \
	'[ $status = 4 ] && grep -q "step 2 differs from the log" "$tmp/replay2.err"'

# A script's own strategy: oldest class first, the first bad one wins.
cat > "$tmp/linear.scm" <<'EOF'
(use-modules (srfi srfi-11))
(define (strategy judge)
  (let ((classes (session 'classes)))
    (let loop ((i 0))
      (let-values (((verdict reason details)
                    (evaluate (class-commit (vector-ref classes i)) judge)))
        (log-step i (symbol->string verdict) reason details)
        (if (or (eq? verdict 'bad) (= i (- (vector-length classes) 1)))
            (list 'culprit i)
            (loop (+ i 1)))))))
EOF
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --script "$tmp/linear.scm" --out "$tmp/linear" > /dev/null 2>&1
status=$?
k=$(r "$tmp/linear" "r['culprit']['commit'] == a[0] and [s['class'] for s in r['steps']] == [0, 1] and r['counts']['ran'] == 0" "$lb")
test_expect_success "a script's strategy (a linear scan) finds the culprit from cached results (status $status)" \
	'[ $status = 0 ] && [ "$k" = True ]'

# GOOD and BAD swapped; nothing regressed.
"$LSBISECT" bad "$TEST_V61" "$W" "${ARGS[@]}" --out "$tmp/swapped" > /dev/null 2> "$tmp/swapped.err"
status=$?
test_expect_success "swapped: status 2, $(cat "$tmp/swapped.err")" \
	'[ $status = 2 ] && grep -q "is not an ancestor of BAD.*swapped" "$tmp/swapped.err"'
"$LSBISECT" "$TEST_V61" "$class0_end" "$W" "${ARGS[@]}" --out "$tmp/none" > "$tmp/none.txt" 2>&1
status=$?
test_expect_success "no regression in the range: status 1 ($status), $(grep '^no regression' "$tmp/none.txt")" \
	'[ $status = 1 ] && grep -q "^no regression: BAD scores balance_score" "$tmp/none.txt" && [ "$(r "$tmp/none" "r['\''outcome'\'']")" = no-regression ]'
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --metric balance --out "$tmp/metric" > /dev/null 2> "$tmp/metric.err"
status=$?
test_expect_success "an unknown metric: status 2, the known ones listed" \
	'[ $status = 2 ] && grep -q "unknown metric '\''balance'\''.*balance_score" "$tmp/metric.err"'

# A Scheme error in a predicate: its message and location; the log keeps
# the runs made, and once the script is fixed --continue goes on.
printf ';; a predicate with a mistake\n(lambda (good this)\n  (> (balance this) (* 1.05 (balance "good"))))\n' > "$tmp/pred.scm"
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --script "$tmp/pred.scm" --out "$tmp/pred" > /dev/null 2> "$tmp/pred.err"
status=$?
test_expect_success "a Scheme error stops it with status 4 and file:line:column ($status): $(head -1 "$tmp/pred.err")" \
	'[ $status = 4 ] && grep -q "error: $tmp/pred.scm:3:[0-9]*: .*metric" "$tmp/pred.err"'
n=$(grep -c '"event":"run"' "$tmp/pred/log.jsonl")
test_expect_success "the log keeps the $n run(s) made and the message says how to resume" \
	'[ "$n" -ge 1 ] && grep -q -- --continue "$tmp/pred.err"'
printf ';; fixed\n(lambda (good this)\n  (> (balance this) (* 1.05 (balance good))))\n' > "$tmp/pred.scm"
"$LSBISECT" --continue "$TEST_V61" bad "$W" "${ARGS[@]}" --script "$tmp/pred.scm" --out "$tmp/pred" > /dev/null 2>&1
status=$?
test_expect_success "fixed, --continue finds the culprit with the script's predicate (status $status)" \
	'[ $status = 0 ] && [ "$(r "$tmp/pred" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'

# Several seeds: a workload whose runs give one value decides at once; the
# seeds are run for GOOD and every class tested. With --jobs 1 one after
# another, as (run) makes them; with --jobs 2 a revision's seeds run at once
# as units of the local engine ((prefetch)), on an empty result cache each
# time: the same answer, the same log (a run made by the engine is logged
# as made, not as cached, and the revision as built by its first run).
private_cache "$tmp/cache-s1"
LSBISECT_CACHE=$tmp/cache-s1 "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --seeds 3 --jobs 1 --out "$tmp/seeds" > /dev/null 2>&1
status=$?
k=$(r "$tmp/seeds" "r['culprit']['commit'] == a[0] and all(s['runs'] == 3 for s in r['steps'] if s['verdict'] != 'skip')" "$lb")
test_expect_success "--seeds 3: the same culprit, three runs a revision (status $status)" \
	'[ $status = 0 ] && [ "$k" = True ]'
private_cache "$tmp/cache-s2"
start=$(date +%s.%N)
LSBISECT_CACHE=$tmp/cache-s2 "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --seeds 3 --jobs 2 --out "$tmp/seeds2" > "$tmp/seeds2.txt" 2>&1
status=$?
diag "--seeds 3 --jobs 2: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
same_log "$tmp/seeds/log.jsonl" "$tmp/cache-s1" "$tmp/seeds2/log.jsonl" "$tmp/cache-s2" &&
	[ "$(r "$tmp/seeds2" "r['counts']")" = "$(r "$tmp/seeds" "r['counts']")" ]
same=$?
test_expect_success "--seeds 3 --jobs 2: the same answer, log and counts as --jobs 1 (status $status): $(r "$tmp/seeds2" "r['counts']")" \
	'[ $status = 0 ] && [ $same = 0 ]'
# (prefetch) itself: it makes the seeds the cache lacks, the runs read
# them as made; nothing when they are cached or known. A replay of the
# --jobs 2 log on an empty cache runs nothing.
private_cache "$tmp/cache-s3"
cat > "$tmp/prefetch.scm" <<'SCM'
(let* ((g (session 'good))
       (a (prefetch g 3))
       (b (prefetch g 3))
       (rs (map (lambda (s) (run g s)) '(1 2 3)))
       (c (prefetch g 3)))
  (format #t "~a ~a ~a ~a~%" a b (map (lambda (r) (assoc-ref r "source")) rs) c))
SCM
pf=$(LSBISECT_CACHE=$tmp/cache-s3 "$LSBISECT" --scheme "$tmp/prefetch.scm" "$TEST_V61" bad "$W" "${ARGS[@]}" --seeds 3 --jobs 2 2>&1)
private_cache "$tmp/cache-s4"
LSBISECT_CACHE=$tmp/cache-s4 "$LSBISECT" --replay "$tmp/seeds2/log.jsonl" --jobs 2 > /dev/null 2>&1
status=$?
left=$(find "$tmp/cache-s4/" -path '*results*' -type f | wc -l)
test_expect_success "(prefetch good 3): 3 made, then 0, the runs read as made ($pf); a replay with --jobs 2 runs nothing (status $status, $left results)" \
	'[ "$pf" = "3 0 (ran ran ran) 0" ] && [ $status = 0 ] && [ "$left" = 0 ]'

# First parents: this history is linear, so the same answer.
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --first-parent --out "$tmp/fp" > /dev/null 2>&1
status=$?
test_expect_success "--first-parent: the same culprit (status $status)" \
	'[ $status = 0 ] && [ "$(r "$tmp/fp" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'

# Skips that hide the boundary leave candidates: a second history whose
# class 1 BUG()s and whose class 2 removes the BUG() and breaks balancing.
"$LSBISECT" "$TEST_V61" amb "$W" "${ARGS[@]}" --out "$tmp/amb" > "$tmp/amb.txt" 2>&1
status=$?
k=$(r "$tmp/amb" "[c['commit'] for c in r['candidates']] == ['$(aid bug)', '$(aid nobug+lb)']")
test_expect_success "a skip next to the regression: status 3 ($status), the two candidates listed" \
	'[ $status = 3 ] && [ "$k" = True ] && grep -q "^skipped revisions leave 2 candidates" "$tmp/amb.txt"'
"$LSBISECT" "$TEST_V61" "$broken" "$W" "${ARGS[@]}" --out "$tmp/badskip" > "$tmp/badskip.txt" 2>&1
status=$?
test_expect_success "a BAD that does not build: status 2 ($status), with the compiler's error" \
	'[ $status = 2 ] && grep -q "BAD '\''$broken'\'' cannot be tested: build failed: kernel/sched/idle.c:[0-9]*:[0-9]*: error" "$tmp/badskip.txt"'

after=$(repo_state "$work")
[ "$before" = "$after" ]
ok $? "the repository is unchanged: refs, HEAD, packed refs, index, objects, work tree"
diff <(echo "$before") <(echo "$after") | sed 's/^/# /'

help=$(tr -s " \n" " " <<<"$("$LSBISECT" --help)")
test_expect_success "--help lists the catalogue and says which way the metrics go" \
	'grep -q "higher is worse unless the catalogue says otherwise: balance_score weight^2 " <<<"$help" &&
	grep -q " fairness higher is better throughput CPUs, higher is better migrations_per_s 1/s " <<<"$help"'

done_testing
