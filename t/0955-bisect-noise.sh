#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# lsbisect on a noisy build: a made-up history of 12 classes on v6.1.192
# whose classes 3-8 are one build that makes t/history.sh's balancing slip
# now and then (so a randomised workload's balance score scatters from
# seed to seed and stays undecided after --max-seeds), then class 9 makes
# it every time. The undecided build is skipped with every class of it
# in one step, the next test goes away from it, and the answer is the
# range (classes 3-9) with the build's figures and advice, in a handful
# of steps, one progress line each on a file; the same in rounds
# (--width 3). A log of the format before (skips one class at a time) is
# continued by its own rules. After the finished bisection, bad options
# and arguments exit 2 and leave the output directory as it was;
# --continue and --replay still work.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 18
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
# classes: 0-2 notes, 3 the noisy slip, 4-8 headers no object reads (the
# build of class 3), 9 the slip every time, 10-11 notes; each with one
# commit outside the build subset
make_history "$work" "note note note noise hdr hdr hdr hdr hdr sure note note" 1 noisy > "$tmp/history"
id() { awk -v k="$1" '$2 == k { print $1; exit }' "$tmp/history"; }
W='hog*3:cpus=0:unpin=10ms+random*2:run=1ms:sleep=3ms'
# --cpuidle sim: the slip's scatter was calibrated on the simulator's own
# idle model (under the revision's menu the noisy build decides)
ARGS=("$TEST_V61" noisy "$W" --repo "$work" --topology quad --duration 1s --seeds 4 --max-seeds 8 --cpuidle sim)
r() { json "$1/report.json" "${@:2}"; }
secs() { python3 -c "print(round($2 - $1, 1))"; }

# bisect NAME OPTIONS...: into $tmp/NAME, on a result cache of its own
# (builds shared); its status in $status, its output in NAME.txt and
# NAME.err (not a terminal)
bisect() {
	local name=$1 t0
	shift
	private_cache "$tmp/cache-$name"
	t0=$(date +%s.%N)
	LSBISECT_CACHE=$tmp/cache-$name "$LSBISECT" "${ARGS[@]}" "$@" --out "$tmp/$name" \
		> "$tmp/$name.txt" 2> "$tmp/$name.err"
	status=$?
	diag "$name: status $status, $(secs "$t0" "$(date +%s.%N)") s"
}

# steps LOG: the steps as "class verdict [joined]" lines
steps() {
	python3 -c "
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e['event'] == 'step':
        print(e['class'], e['verdict'], e.get('joined', ''), e.get('round', ''))" "$1"
}

bisect one
sed 's/^/# /' "$tmp/one.txt"
test_expect_success "status 3: skips leave a range (status $status)" \
	'[ $status = 3 ] && [ "$(r "$tmp/one" "r['\''outcome'\'']")" = ambiguous ]'
k=$(r "$tmp/one" "[c['class'] for c in r['candidates']] == list(range(3, 10)) and r['candidates'][0]['commit'] == a[0] and r['candidates'][-1]['commit'] == a[1] and sum(len(c['commits']) for c in r['candidates']) == 14" "$(id noise)" "$(id sure)")
test_expect_success "the candidates: classes 3-9, from the noisy commit to the one that slips every time, 14 commits" \
	'[ "$k" = True ]'
grep -q "^skipped revisions leave 7 candidates: the first bad commit is one of these classes (14 commits)$" "$tmp/one.txt" &&
	grep -q "^    class 4: .* (2 commits): skipped with class 5, the same build: undecided after 8 seeds$" "$tmp/one.txt"
ok $? "the text says so, class by class, with how each was decided"
s=$(steps "$tmp/one/log.jsonl" | tr '\n' ';')
test_expect_success "a handful of steps, the undecided build skipped as a whole in one: $s" \
	'[ "$s" = "-1 good  ;11 bad  ;5 skip [3, 4, 6, 7, 8] ;1 good  ;9 bad  ;2 good  ;" ]'
k=$(python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
runs = [x for x in e if x['event'] == 'run']
noisy = {x['subset'] for x in runs if 3 <= x['class'] <= 8}
print(len(runs), len(noisy), sum(1 for x in runs if 3 <= x['class'] <= 8))" "$tmp/one/log.jsonl")
test_expect_success "32 runs in all; of the noisy build's classes one ran, with 8 seeds (runs, subsets, its runs: $k)" \
	'[ "$k" = "32 1 8" ]'
k=$(r "$tmp/one" "len(r['undecided']) == 1 and [(u['class'], u['joined'], len(u['values']), len(u['good_values']), u['details']['p'] >= 0.05, u['details']['change_pct'] > 5) for u in r['undecided']] == [(5, [3, 4, 6, 7, 8], 8, 8, True, True)] and all(a in r['advice'] for a in ('--max-seeds 16', '--duration, now 1s', '--metric'))")
grep -q "^    class 5 (.\{12\}) with classes 3-4, 6-8 (the same build), 8 seeds:$" "$tmp/one.txt" &&
	grep -q "^        balance_score \( [0-9.e+]*\)\{8\} (median [0-9.e+]*)$" "$tmp/one.txt" &&
	grep -q "^        GOOD          \( [0-9.e+]*\)\{8\} (median [0-9.e+]*)$" "$tmp/one.txt" &&
	grep -q "^        median +[0-9.]* % from GOOD's (bad beyond 5 %), Mann-Whitney p = 0\.[0-9]* (bad below 0.05)$" "$tmp/one.txt" &&
	grep -q "^to decide it: more seeds (--max-seeds 16.*longer runs (--duration, now 1s.*--metric" "$tmp/one.txt"
ok $? "the undecided build: its 8 seeds' figures beside GOOD's, the judge's p and change, and advice (report.json: $k)"
n=$(grep -c "^lsbisect: step [0-9]*: " "$tmp/one.err")
grep -q "^lsbisect: step 3: class 5 (.\{12\}) skip: undecided after 8 seeds, balance_score [0-9.e+]* (8 runs); with classes 3-4, 6-8 (the same build)$" "$tmp/one.err"
ok $? "standard error not a terminal: one progress line a step ($n), the skip's naming its build's classes"
[ "$n" = 6 ] && [ "$(grep -vc "^lsbisect: step " "$tmp/one.err")" = 0 ]
ok $? "nothing else on standard error"

# In rounds of three: the same range; the round's pick that shares the
# skipped build is skipped with it, untested.
bisect wide --width 3 --jobs 3
s=$(steps "$tmp/wide/log.jsonl" | tr '\n' ';')
k=$(r "$tmp/wide" "[c['class'] for c in r['candidates']] == list(range(3, 10))")
test_expect_success "--width 3: the same range (status $status), in two rounds: $s" \
	'[ $status = 3 ] && [ "$k" = True ] && [ "$s" = "-1 good  1;11 bad  1;2 good  1;5 skip [3, 4, 6, 7, 8] 1;9 bad  2;10 bad  2;" ]'

# --replay decides it again from the log alone.
private_cache "$tmp/cache-replay"
LSBISECT_CACHE=$tmp/cache-replay "$LSBISECT" --replay "$tmp/one/log.jsonl" --out "$tmp/replay" > /dev/null 2>&1
status=$?
k=$(r "$tmp/replay" "[c['class'] for c in r['candidates']] == list(range(3, 10)) and r['counts']['ran'] == r['counts']['built'] == 0")
test_expect_success "--replay: the same range, nothing built or run (status $status)" \
	'[ $status = 3 ] && [ "$k" = True ]'

# A log of format 1 (made before builds were skipped whole), cut after
# its first skip: --continue goes on by its rules, one class at a time,
# each the next nearest the middle.
mkdir -p "$tmp/old"
python3 - "$tmp/one/log.jsonl" "$tmp/old/log.jsonl" <<'PY'
import json, sys
out, steps = [], 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e['event'] == 'start':
        e['format'] = 1
    if e['event'] == 'step':
        steps += 1
        e.pop('joined', None)
        e.pop('good_values', None)
    if steps > 3 or e['event'] == 'end':
        break
    out.append(json.dumps(e) + '\n')
open(sys.argv[2], 'w').write(''.join(out))
PY
LSBISECT_CACHE=$tmp/cache-one "$LSBISECT" --continue "${ARGS[@]}" --out "$tmp/old" > /dev/null 2>&1
status=$?
s=$(steps "$tmp/old/log.jsonl" | cut -d' ' -f1,2 | tr '\n' ';')
test_expect_success "a format-1 log goes on by its own rules (status $status): $s" \
	'[ $status = 3 ] && [ "$s" = "-1 good;11 bad;5 skip;4 skip;6 skip;3 skip;7 skip;2 good;8 skip;9 bad;" ]'

# ---- a finished bisection's directory survives bad arguments ----
state() { (cd "$tmp/one" && find . -type f | sort | xargs sha1sum); }
before=$(state)
diag "$(ls -A "$tmp/one" | tr '\n' ' ')"
# bad ARG...: lsbisect with the arguments into $tmp/one: status 2, the
# first line of standard error in $err, the directory unchanged
bad() {
	LSBISECT_CACHE=$tmp/cache-one "$LSBISECT" "$@" --out "$tmp/one" > /dev/null 2> "$tmp/bad.err"
	status=$?
	err=$(head -1 "$tmp/bad.err")
	[ $status = 2 ] && [ "$(state)" = "$before" ]
}
bad "${ARGS[@]}" --metric balanse && bad "${ARGS[@]}" --metric balanse &&
	grep -q "^error: unknown metric 'balanse'; the catalogue has: balance_score, " "$tmp/bad.err"
ok $? "--metric balanse, twice: status $status, the directory as it was: $(cut -c1-90 <<<"$err")"
printf ';; a mistake\n(lambda (good this)\n  (> (balance this)\n' > "$tmp/unclosed.scm"
bad "${ARGS[@]}" --script "$tmp/unclosed.scm" &&
	grep -q "^error: script '$tmp/unclosed.scm': $tmp/unclosed.scm:.*end of input" "$tmp/bad.err"
ok $? "a script that does not load: status $status, the directory as it was: $(cut -c1-90 <<<"$err")"
bad --continue "${ARGS[@]}" --metric fairness &&
	grep -q "its metric was \"balance_score\"" "$tmp/bad.err"
ok $? "--continue with another metric: status $status, the directory as it was: $(cut -c1-90 <<<"$err")"
bad "${ARGS[@]}" --topology nonesuch && bad "${ARGS[@]}" --seeds 0 &&
	bad "${ARGS[@]}" --no-such-option && bad "${ARGS[@]}" extra &&
	bad nonesuch noisy "$W" --repo "$work" --topology quad --duration 1s
ok $? "a topology, seeds, an option, an argument, a revision that are not: status 2 each, the directory as it was"
LSBISECT_CACHE=$tmp/cache-one "$LSBISECT" "${ARGS[@]}" --metric balanse --out "$tmp/new/dir" > /dev/null 2>&1
status=$?
test_expect_success "a new directory for a bad metric: status $status, not made" \
	'[ $status = 2 ] && [ ! -e "$tmp/new" ]'
LSBISECT_CACHE=$tmp/cache-one "$LSBISECT" --continue "${ARGS[@]}" --out "$tmp/one" > "$tmp/cont.txt" 2>&1
status=$?
k=$(r "$tmp/one" "[c['class'] for c in r['candidates']] == list(range(3, 10)) and r['counts']['from_log'] == 32 and r['counts']['ran'] == 0")
test_expect_success "--continue after them: the same answer from the log (status $status)" \
	'[ $status = 3 ] && [ "$k" = True ] && [ "$(state | grep log)" = "$(grep log <<<"$before")" ]'
LSBISECT_CACHE=$tmp/cache-replay "$LSBISECT" --replay "$tmp/one/log.jsonl" --out "$tmp/replay2" > /dev/null 2>&1
status=$?
test_expect_success "--replay after them (status $status)" \
	'[ $status = 3 ] && [ "$(r "$tmp/replay2" "r['\''counts'\'']['\''from_log'\'']")" = 32 ]'

done_testing
