#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched sweep through Slurm on a private single-node cluster (t/slurm.sh;
# Slurm and MUNGE installed if missing): 120 units give byte for byte the
# local executor's results; an array task cancelled mid-sweep is submitted
# again once and the results are still complete and identical; the same
# sweep again runs nothing and submits no job; no reachable controller, or
# a cache directory the nodes cannot see, fails at once saying which. Every
# daemon started is stopped by pid, also when the test fails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
if ! slurm_install; then
	echo "Bail out! cannot install Slurm and MUNGE (slurmctld slurmd slurm-client munge)"
	exit 1
fi
plan 14
tmp=$(mktemp -d)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
if ! slurm_start "$tmp/slurm"; then
	echo "Bail out! cannot start a private Slurm cluster"
	exit 1
fi
diag "cluster: $(sinfo -h -o '%P %D nodes %C CPUs (A/I/O/T) %t')"

# caches whose results are their own, builds and exports shared
for c in local slurm-cache local2 slurm2 bl bs bw; do private_cache "$tmp/$c"; done
"$LINSCHED" build "$TEST_V61" >/dev/null && "$LINSCHED" build "$TEST_V612" >/dev/null ||
	{ echo "Bail out! cannot build the test revisions"; exit 1; }
A=("$TEST_V61" "$TEST_V612" --suite hog --topology quad --seeds 3 --duration 2s --out "$tmp/out" -q)
now() { date +%s.%N; }
secs() { python3 -c "print(round($2 - $1, 2))"; }

LSBISECT_CACHE=$tmp/local "$LINSCHED" sweep "${A[@]}" > "$tmp/local.out" 2>&1
s1=$?
mv "$tmp/out/results.jsonl" "$tmp/local.jsonl"
t0=$(now)
LSBISECT_CACHE=$tmp/slurm-cache "$LINSCHED" sweep "${A[@]}" --engine slurm > "$tmp/slurm.out" 2>&1
s2=$?
t1=$(now)
sed 's/^/# /' "$tmp/slurm.out"
n=$(grep -c . "$tmp/local.jsonl")
test_expect_success "120 units through Slurm in $(secs "$t0" "$t1") s (status $s2; local $s1)" \
	'[ $s1 = 0 ] && [ $s2 = 0 ] && [ "$n" = 120 ] && grep -q '\''^sweep: 120 units .* 0 from the cache, 120 ran, 0 failed, .*(slurm)$'\'' "$tmp/slurm.out"'
cmp -s "$tmp/local.jsonl" "$tmp/out/results.jsonl"
ok $? "the results are byte for byte the local executor's"
k=$(python3 -c "
import json, sys
rows = [json.loads(l) for l in open('$tmp/out/results.jsonl')]
print(all(r['status'] == 'ok' and r['result']['duration_ns'] == 2000000000 for r in rows) and
      len({(r['revision'], r['workload'], r['seed']) for r in rows}) == 120)")
test_expect_success "every unit once, each a finished 2 s run" \
	'[ "$k" = True ]'
test_expect_success "the sweep directory is removed after success" \
	'[ -z "$(ls -A "$tmp/slurm-cache/sweeps" 2>/dev/null)" ]'

# again: nothing runs, no job is submitted (the job ids around it are consecutive)
j0=$(sbatch --parsable -o /dev/null --wrap true)
t0=$(now)
LSBISECT_CACHE=$tmp/slurm-cache "$LINSCHED" sweep "${A[@]}" --engine slurm > "$tmp/again.out" 2>&1
s=$?
t1=$(now)
j1=$(sbatch --parsable -o /dev/null --wrap true)
test_expect_success "the same sweep again runs nothing and submits no job ($(secs "$t0" "$t1") s; job ids $j0, $j1)" \
	'
	[ $s = 0 ] && [ $((j1 - j0)) = 1 ] && grep -q '\''120 from the cache, 0 ran'\'' "$tmp/again.out" &&
	cmp -s "$tmp/local.jsonl" "$tmp/out/results.jsonl"
'

# a task cancelled mid-sweep: submitted again once, nothing lost or doubled
B=("$TEST_V61" --suite periodic --topology numa-4 --duration 20s --out "$tmp/out2" -q)
LSBISECT_CACHE=$tmp/local2 "$LINSCHED" sweep "${B[@]}" > /dev/null 2>&1
mv "$tmp/out2/results.jsonl" "$tmp/local2.jsonl"
LSBISECT_CACHE=$tmp/slurm2 "$LINSCHED" sweep "${B[@]}" --engine slurm --slurm-tasks 4 > "$tmp/cancel.out" 2>&1 &
pid=$!
victim=$(slurm_cancel_running 20)
wait $pid
s=$?
sed 's/^/# /' "$tmp/cancel.out"
# complete entries: the cancelled task's worker may have been stopped
# between its temporary and the rename (KEY.tmp.PID; a slow fsync beside
# other tests widens that window), a leftover that is neither a result
# lost nor one doubled
n=$(ls "$tmp/slurm2/results"/*/* 2>/dev/null | grep -vc '\.tmp\.[0-9]*$')
test_expect_success "array task $victim cancelled mid-sweep: submitted again once, the sweep ends well (status $s)" \
	'
	[ -n "$victim" ] && [ $s = 0 ] && grep -q '\''^slurm: 1 array task submitted again'\'' "$tmp/cancel.out" &&
	[ "$(json "$tmp/out2/sweep.json" "r['\''resubmitted'\'']")" = 1 ]
'
test_expect_success "its results are complete and identical to the local ones: 90 units, 90 cache entries ($n)" \
	'cmp -s "$tmp/local2.jsonl" "$tmp/out2/results.jsonl" && [ "$n" = 90 ]'

# a kernel crash is the unit's result, not a failed array task
work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
make_history "$work" "bug" 0 crash > /dev/null
LSBISECT_CACHE=$tmp/slurm2 "$LINSCHED" sweep crash --repo "$work" --workload 'hog*2' --topology dual --seeds 3 \
	--duration 1s --engine slurm --out "$tmp/out4" -q > "$tmp/crash.out" 2>&1
s=$?
sed 's/^/# /' "$tmp/crash.out"
k=$(python3 -c "
import json
rows = [json.loads(l) for l in open('$tmp/out4/results.jsonl')]
print(len(rows) == 3 and all(r['status'] == 'crashed' and 'BUG' in r['reason'] for r in rows))")
test_expect_success "3 units of a revision that hits BUG(): 3 'crashed' results with the kernel's message, no task failed (status $s)" \
	'[ $s = 0 ] && [ "$k" = True ] && [ "$(json "$tmp/out4/sweep.json" "r['\''resubmitted'\''], r['\''crashed'\'']")" = "0 3" ]'

# lsbisect --seeds 3 through Slurm: the bisection of t/0900's history (the
# same commit ids: its builds are shared) gives the local answer and log
make_history "$work" "$BISECT_PLAN" > "$tmp/history"
lb=$(awk '$2 == "lb" { print $1; exit }' "$tmp/history")
BA=("$TEST_V61" bad "$BISECT_W" --repo "$work" --topology quad --duration 1s --seeds 3)
LSBISECT_CACHE=$tmp/bl "$LSBISECT" "${BA[@]}" --jobs 2 --out "$tmp/bl-out" > /dev/null 2>&1
s1=$?
t0=$(now)
LSBISECT_CACHE=$tmp/bs "$LSBISECT" "${BA[@]}" --engine slurm --out "$tmp/bs-out" > "$tmp/bs.txt" 2>&1
s2=$?
t1=$(now)
# "built" is the cache's state, not the bisection's: in make check's lanes
# this test may come before t/0900, and the local run then builds what the
# Slurm run finds built
SAME_LOG_DROP=built same_log "$tmp/bl-out/log.jsonl" "$tmp/bl" "$tmp/bs-out/log.jsonl" "$tmp/bs"
same=$?
[ $same = 0 ] && [ $s2 = 0 ] || sed 's/^/# /' "$tmp/bs.txt" | tail -n 15
test_expect_success "lsbisect --seeds 3 --engine slurm: the culprit $lb and the log of the local engine ($(secs "$t0" "$t1") s; status $s1 local, $s2 slurm)" \
	'[ $s1 = 0 ] && [ $s2 = 0 ] && [ "$(json "$tmp/bs-out/report.json" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ] && [ $same = 0 ]'
# --width 3: a round's revisions are built side by side here and their
# runs are one job array; the answer and verdicts of the halving
t0=$(now)
LSBISECT_CACHE=$tmp/bw "$LSBISECT" "${BA[@]}" --engine slurm --width 3 --out "$tmp/bw-out" > "$tmp/bw.txt" 2>&1
s3=$?
t1=$(now)
k=$(python3 -c "
import json, sys
load = lambda p: [json.loads(l) for l in open(p)]
one, wide = load(sys.argv[1]), load(sys.argv[2])
steps = lambda e: {x['class']: x['verdict'] for x in e if x['event'] == 'step'}
end = lambda e: [(x['outcome'], x.get('class')) for x in e if x['event'] == 'end']
rounds = [x['round'] for x in wide if x['event'] == 'step']
a, b = steps(one), steps(wide)
print(end(one) == end(wide) and all(a[c] == b[c] for c in a if c in b) and max(rounds) <= 3, max(rounds))" \
	"$tmp/bl-out/log.jsonl" "$tmp/bw-out/log.jsonl")
test_expect_success "lsbisect --seeds 3 --width 3 --engine slurm: the answer and verdicts of the halving, rounds: $k (status $s3, $(secs "$t0" "$t1") s)" \
	'[ $s3 = 0 ] && [ "${k%% *}" = True ]'
test_expect_success "no job left in the queue, no sweep directory left" \
	'[ -z "$(squeue -h -o %i)" ] && [ -z "$(ls -A "$tmp/bs/sweeps" 2>/dev/null)" ] && [ -z "$(ls -A "$tmp/bw/sweeps" 2>/dev/null)" ]'

# no reachable controller: at once, saying so
sed "s/^SlurmctldPort=.*/SlurmctldPort=$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')/" \
	"$SLURM_CONF" > "$tmp/dead.conf"
t0=$(now)
SLURM_CONF=$tmp/dead.conf LSBISECT_CACHE=$tmp/local2 "$LINSCHED" sweep "$TEST_V61" --suite hog --topology quad \
	--duration 3s --engine slurm --out "$tmp/out3" -q > /dev/null 2> "$tmp/dead.err"
s=$?
t1=$(now)
test_expect_success "no reachable controller: exit 1 in $(secs "$t0" "$t1") s: $(head -1 "$tmp/dead.err")" \
	'
	[ $s = 1 ] && grep -q '\''error: --engine slurm: no reachable Slurm controller'\'' "$tmp/dead.err" &&
	python3 -c "import sys; sys.exit(0 if $(secs "$t0" "$t1") < 3 else 1)"
'

# a cache directory the nodes do not see: the driver's own mount namespace
mkdir -p "$tmp/private"
t0=$(now)
unshare -m bash -c 'mount -t tmpfs none "$1" && mkdir "$1/cache" &&
	ln -s "$LSBISECT_CACHE/builds" "$1/cache/builds" && ln -s "$LSBISECT_CACHE/trees" "$1/cache/trees" &&
	LSBISECT_CACHE=$1/cache exec "$2" sweep "$3" --suite hog --topology quad --duration 3s \
		--engine slurm --out "$1/out" -q' _ "$tmp/private" "$LINSCHED" "$TEST_V61" > /dev/null 2> "$tmp/ro.err"
s=$?
t1=$(now)
test_expect_success "a cache the nodes cannot see: exit 1 in $(secs "$t0" "$t1") s, naming it" \
	'
	[ $s = 1 ] && grep -q "error: --engine slurm: the nodes cannot write the cache directory '\''$tmp/private/cache'\''" "$tmp/ro.err" &&
	python3 -c "import sys; sys.exit(0 if $(secs "$t0" "$t1") < 10 else 1)"
'

slurm_stop
left=$(slurm_stopped_alive)
test_expect_success "the 3 daemons started are stopped${left:+ (alive:$left)}" \
	'[ ${#slurm_stopped_pids[@]} = 3 ] && [ -z "$left" ]'

done_testing
