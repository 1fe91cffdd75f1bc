#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# lsbisect --width 3: t/0900's history of 44 commits in 11 classes bisected
# three revisions a round, built side by side and run at once (--jobs 3):
# the answer and every verdict of --jobs 1's halving, in at most
# ceil(log4 11) + 1 rounds, numbered in the log; the same with three seeds
# a revision; skips next to the regression leave the same candidates;
# killed mid-round, --continue goes on; --replay decides it again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
make_history "$work" "$BISECT_PLAN" > "$tmp/history"
make_history "$work" "note bug nobug+lb" 3 amb > "$tmp/amb-history"
lb=$(awk '$2 == "lb" { print $1; exit }' "$tmp/history")
W=$BISECT_W
ARGS=(--repo "$work" --topology quad --duration 1s)
r() { json "$1/report.json" "${@:2}"; }
secs() { python3 -c "print(round($2 - $1, 1))"; }

# bisect NAME OPTIONS...: a bisection of the history into $tmp/NAME, on a
# result cache of its own (builds shared); its status in $status
bisect() {
	local name=$1 t0
	shift
	private_cache "$tmp/cache-$name"
	t0=$(date +%s.%N)
	LSBISECT_CACHE=$tmp/cache-$name "$LSBISECT" "$@" --out "$tmp/$name" > "$tmp/$name.txt" 2>&1
	status=$?
	diag "$name: status $status, $(secs "$t0" "$(date +%s.%N)") s"
}

# compare ONE WIDE: the same answer; every class both logs decided, the
# same verdict; WIDE's steps numbered in rounds, at most ceil(log4
# classes) + 1 of them; prints the rounds and the classes of each
compare() {
	python3 - "$1/log.jsonl" "$2/log.jsonl" <<'PY'
import json, math, sys
def load(p):
    return [json.loads(l) for l in open(p)]
one, wide = load(sys.argv[1]), load(sys.argv[2])
steps = lambda e: [x for x in e if x['event'] == 'step']
end = lambda e: [(x['outcome'], x.get('class'), x['candidates']) for x in e if x['event'] == 'end']
v1 = {x['class']: x['verdict'] for x in steps(one)}
vw = {x['class']: x['verdict'] for x in steps(wide)}
rounds = [x.get('round') for x in steps(wide)]
classes = wide[0]['classes']
limit = math.ceil(math.log(classes, 4) - 1e-9) + 1
by_round = {}
for x in steps(wide):
    by_round.setdefault(x['round'], []).append(x['class'])
ok = (end(one) == end(wide) and len(end(one)) == 1 and
      all(v1[c] == vw[c] for c in v1 if c in vw) and
      all(x.get('round') is None for x in steps(one)) and 'width' not in one[0] and
      wide[0]['width'] == 3 and None not in rounds and rounds == sorted(rounds) and
      rounds[0] == 1 and max(rounds) <= limit)
print(ok, '%d rounds of %d classes (at most %d): %s; --jobs 1: %d steps %s' %
      (max(rounds), classes, limit, by_round, len(steps(one)), [x['class'] for x in steps(one)]))
PY
}

bisect one "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 1
s1=$status
bisect wide "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 3 --width 3
s3=$status
sed 's/^/# /' "$tmp/wide.txt"
test_expect_success "--width 3: the culprit of --jobs 1 (status $s1, $s3)" \
	'[ $s1 = 0 ] && [ $s3 = 0 ] && [ "$(r "$tmp/wide" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'
k=$(compare "$tmp/one" "$tmp/wide")
test_expect_success "the same verdicts for every class both tested, in rounds: $k" \
	'[ "${k%% *}" = True ]'
k=$(python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
steps = [x for x in e if x['event'] == 'step']
runs = [x for x in e if x['event'] == 'run']
# every run is logged before the step that reads it; the broken class and
# the crashing one are skips of the first round, with their reasons
first = {x['class']: x for x in steps if x['round'] == 1}
print(first[2]['verdict'] == first[4]['verdict'] == 'skip' and
      first[2]['reason'].startswith('build failed') and first[4]['reason'].startswith('crashed') and
      len({(x['subset'], x['seed']) for x in runs}) == len(runs))" "$tmp/wide/log.jsonl")
test_expect_success "the build failure and the crash are skips of the first round; no run made twice" \
	'[ "$k" = True ]'

# Three seeds a revision: the round's units are its revisions' seeds.
bisect one-s3 "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 1 --seeds 3
s1=$status
bisect wide-s3 "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 3 --width 3 --seeds 3
s3=$status
k=$(compare "$tmp/one-s3" "$tmp/wide-s3")
n=$(r "$tmp/wide-s3" "all(s['runs'] == 3 for s in r['steps'] if s['verdict'] != 'skip')")
test_expect_success "--seeds 3: the same again, three runs a revision (status $s1, $s3): $k" \
	'[ $s1 = 0 ] && [ $s3 = 0 ] && [ "${k%% *}" = True ] && [ "$n" = True ]'

# Skips next to the regression: the same candidates.
bisect amb-one "$TEST_V61" amb "$W" "${ARGS[@]}" --jobs 1
s1=$status
bisect amb-wide "$TEST_V61" amb "$W" "${ARGS[@]}" --jobs 3 --width 3
s3=$status
k=$(compare "$tmp/amb-one" "$tmp/amb-wide")
test_expect_success "a skip next to the regression: status 3 both ($s1, $s3), the same candidates: $k" \
	'[ $s1 = 3 ] && [ $s3 = 3 ] && [ "${k%% *}" = True ]'

# (prefetch-many) itself: the runs of several revisions at once, read as
# made; nothing when the session has them.
private_cache "$tmp/cache-pm"
cat > "$tmp/pm.scm" <<'SCM'
(let* ((cs (map (lambda (i) (class-commit (vector-ref (session 'classes) i))) '(0 1 7)))
       (a (prefetch-many (cons (session 'good) cs) 2))
       (b (prefetch-many cs 2))
       (rs (map (lambda (c) (run c 2)) cs)))
  (format #t "~a ~a ~a~%" a b (map (lambda (r) (assoc-ref r "source")) rs)))
SCM
pm=$(LSBISECT_CACHE=$tmp/cache-pm "$LSBISECT" --scheme "$tmp/pm.scm" "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 3 2>&1)
test_expect_success "(prefetch-many (GOOD 0 1 7) 2): 8 runs made at once, then none, read as made ($pm)" \
	'[ "$pm" = "8 0 (ran ran ran)" ]'

# Killed mid-round (the judge kills its process once three steps are
# logged: round 1 has GOOD, BAD and three classes), then --continue.
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
private_cache "$tmp/cache-killed"
{
	LSBISECT_CACHE=$tmp/cache-killed "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 3 --width 3 \
		--out "$tmp/killed" --script "$tmp/kill.scm" > /dev/null 2>&1
	status=$?
} 2> /dev/null
k=$(python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
steps = [x for x in e if x['event'] == 'step']
print(len(steps), sorted({x['round'] for x in steps}))" "$tmp/killed/log.jsonl")
test_expect_success "killed by SIGKILL in the first round (status $status; steps, rounds: $k)" \
	'[ $status = 137 ] && [ "$k" = "4 [1]" ]'
cp "$tmp/killed/log.jsonl" "$tmp/killed.jsonl"
LSBISECT_CACHE=$tmp/cache-killed "$LSBISECT" --continue "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 3 --width 2 \
	--out "$tmp/killed" --script "$tmp/kill.scm" > /dev/null 2> "$tmp/width.err"
status=$?
test_expect_success "--continue with another width: status 2, $(head -1 "$tmp/width.err" | cut -c1-100)" \
	'[ $status = 2 ] && grep -q "its width was 3" "$tmp/width.err"'
LSBISECT_CACHE=$tmp/cache-killed "$LSBISECT" --continue "$TEST_V61" bad "$W" "${ARGS[@]}" --jobs 3 --width 3 \
	--out "$tmp/killed" --script "$tmp/kill.scm" > /dev/null 2>&1
status=$?
test_expect_success "--continue finds the culprit (status $status)" \
	'[ $status = 0 ] && [ "$(r "$tmp/killed" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'
k=$(python3 -c "
import json, sys
load = lambda p: [json.loads(l) for l in open(p)]
old, new, full = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
key = lambda e: [(x['round'], x['class'], x['verdict']) for x in e if x['event'] == 'step']
done = {(x['subset'], x['seed']) for x in old if x['event'] == 'run'}
again = [x for x in new[len(old):] if x['event'] == 'run' and (x['subset'], x['seed']) in done]
print(key(new) == key(full) and not again and
      min(x['step'] for x in new[len(old):] if x['event'] == 'step') == 5)" \
	"$tmp/killed.jsonl" "$tmp/killed/log.jsonl" "$tmp/wide/log.jsonl")
test_expect_success "it goes on from step 5 with the rounds and steps of the uninterrupted one; no logged run made again" \
	'[ "$k" = True ]'

# --replay: the same decisions and rounds from the log alone (its width
# is the log's), nothing run; with another width the steps differ.
private_cache "$tmp/cache-replay"
LSBISECT_CACHE=$tmp/cache-replay "$LSBISECT" --replay "$tmp/wide/log.jsonl" --out "$tmp/replay" > /dev/null 2>&1
status=$?
k=$(r "$tmp/replay" "r['culprit']['commit'] == a[0] and r['counts']['ran'] == r['counts']['built'] == r['counts']['cached'] == 0" "$lb")
left=$(find "$tmp/cache-replay/results" -type f 2>/dev/null | wc -l)
test_expect_success "--replay of the --width 3 log: the culprit, nothing run (status $status, $left results)" \
	'[ $status = 0 ] && [ "$k" = True ] && [ "$left" = 0 ]'
LSBISECT_CACHE=$tmp/cache-replay "$LSBISECT" --replay "$tmp/wide/log.jsonl" --width 1 --out "$tmp/replay1" > /dev/null 2> "$tmp/replay1.err"
status=$?
test_expect_success "--replay with --width 1: status 4, $(grep -m1 "^error" "$tmp/replay1.err" | cut -c1-100)" \
	'[ $status = 4 ] && grep -q "differs from the log" "$tmp/replay1.err"'

help=$(tr -s " \n" " " <<<"$("$LSBISECT" --help)")
test_expect_success "--help tells --width from --jobs" \
	'grep -q -- "--width J test J revisions at once" <<<"$help"'

done_testing
