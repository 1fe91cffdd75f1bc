#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched hunt --engine slurm on a private single-node cluster
# (t/slurm.sh): the search runs as job arrays of 'linsched hunt-worker',
# ranking and shrinking here, and the hunt is the local one: the same
# cases.jsonl, ranked failures and minimal files byte for byte (the
# fork_affinity-6.1 hunt of t/1330, which finds a CPU-time change in its
# first cases). Ctrl-C cancels the jobs and keeps the cases run, which
# --continue goes on from to the same record; an array task cancelled is
# submitted again; --time ends with a batch; no reachable controller, or
# an output directory the nodes cannot see, fails at once, saying so.
# Every daemon started is stopped by pid, also when the test fails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"

ensure_kernels
if ! slurm_install; then
	echo "Bail out! cannot install Slurm and MUNGE (slurmctld slurmd slurm-client munge)"
	exit 1
fi
plan 12
tmp=$(mktemp -d)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
if ! slurm_start "$tmp/slurm"; then
	echo "Bail out! cannot start a private Slurm cluster"
	exit 1
fi
diag "cluster: $(sinfo -h -o '%P %D nodes %C CPUs (A/I/O/T) %t')"
now() { date +%s.%N; }
secs() { python3 -c "print(round($2 - $1, 2))"; }

"$LINSCHED" hunt --help > "$tmp/help"
test_expect_success "--help names the engine options and how --time goes by batches" \
	'grep -q -- "--engine E" "$tmp/help" && grep -q -- "--slurm-tasks N" "$tmp/help" &&
	 grep -q "batches of 16 per array task" "$tmp/help"'

# v6.1.176 against v6.1.187 on numa-2, seed 1: case 5 moves a task's CPU time
A=(v6.1.176 --reference v6.1.187 --topology numa-2 --seed 1 --runs 24)
"$LINSCHED" hunt "${A[@]}" --findings 1 --out "$tmp/local" > "$tmp/local.out" 2>&1
s1=$?
t0=$(now)
"$LINSCHED" hunt "${A[@]}" --findings 1 --out "$tmp/slurm" --engine slurm > "$tmp/slurm.out" 2>&1
s2=$?
t1=$(now)
sed 's/^/# /' "$tmp/slurm.out"
test_expect_success "a hunt of 24 cases through Slurm in $(secs "$t0" "$t1") s finds what the local one does (status $s2; local $s1)" \
	'[ $s1 = 7 ] && [ $s2 = 7 ] && json_is "$tmp/slurm/hunt.json" engine slurm &&
	 grep -q "24 cases in .* (.*, slurm, [0-9]* array tasks)" "$tmp/slurm.out" &&
	 [ -d "$tmp/slurm/findings/01-cpu-time" ]'
test_expect_success "cases.jsonl and the ranked failures are the local hunt's" \
	'[ -s "$tmp/local/cases.jsonl" ] && cmp "$tmp/local/cases.jsonl" "$tmp/slurm/cases.jsonl" &&
	 [ "$(json "$tmp/local/hunt.json" "r[\"failures\"], r[\"checks\"], r[\"done_below\"]")" = \
	   "$(json "$tmp/slurm/hunt.json" "r[\"failures\"], r[\"checks\"], r[\"done_below\"]")" ]'
same=0
for f in case.json original.json command finding.json entry.json; do
	cmp "$tmp/local/findings/01-cpu-time/$f" "$tmp/slurm/findings/01-cpu-time/$f" >&2 || same=1
done
test_expect_success "the finding's minimal files are the local ones byte for byte" \
	'[ $same = 0 ] && [ "$(ls "$tmp/local/findings")" = "$(ls "$tmp/slurm/findings")" ]'
test_expect_success "no job left in the queue, no batch directory left" \
	'[ -z "$(squeue -h -o %i)" ] && [ ! -e "$tmp/slurm/work/slurm" ]'

# Ctrl-C while the array tasks run: the jobs cancelled, the cases kept.
# Eight tasks of three cases on two CPUs run in waves: Ctrl-C as soon as
# the first is done (its marker), while others wait (a fixed sleep let
# an idle machine finish all 24 cases first)
"$LINSCHED" hunt "${A[@]}" --findings 0 --out "$tmp/int" --engine slurm --slurm-tasks 8 \
	> "$tmp/int.out" 2>&1 &
pid=$!
for i in $(seq 600); do
	ls "$tmp"/int/work/slurm/*/task-*.done > /dev/null 2>&1 && break
	sleep 0.1
done
kill -INT $pid
wait $pid
s=$?
sed 's/^/# /' "$tmp/int.out"
kept=$(json "$tmp/int/hunt.json" 'r["done_below"] + len(r["done_beyond"])' 2>/dev/null)
test_expect_success "Ctrl-C: exit 130 after $kept cases, the jobs cancelled" \
	'[ $s = 130 ] && json_is "$tmp/int/hunt.json" interrupted True &&
	 [ "${kept:-0}" -gt 0 ] && [ "$kept" -lt 24 ] && [ -z "$(squeue -h -o %i)" ]'
"$LINSCHED" hunt "${A[@]}" --findings 0 --out "$tmp/int" --engine slurm --continue > "$tmp/cont.out" 2>&1
s=$?
test_expect_success "--continue through Slurm runs the $((24 - ${kept:-0})) others: the local record (status $s)" \
	'[ $s = 0 ] && grep -q "continuing a hunt of $kept cases: 24 in all" "$tmp/cont.out" &&
	 cmp "$tmp/local/cases.jsonl" "$tmp/int/cases.jsonl" &&
	 [ "$(json "$tmp/local/hunt.json" "r[\"failures\"]")" = "$(json "$tmp/int/hunt.json" "r[\"failures\"]")" ]'

# an array task cancelled mid-search: submitted again, its cases run once
"$LINSCHED" hunt "${A[@]}" --findings 0 --out "$tmp/re" --engine slurm --slurm-tasks 4 > "$tmp/re.out" 2>&1 &
pid=$!
victim=$(slurm_cancel_running 30)
wait $pid
s=$?
test_expect_success "array task $victim cancelled mid-search: submitted again, the local record (status $s)" \
	'[ -n "$victim" ] && [ $s = 0 ] && json_is "$tmp/re/hunt.json" resubmitted 1 &&
	 grep -q "slurm: 1 array task submitted again" "$tmp/re.out" && json_is "$tmp/re/hunt.json" cases 24 &&
	 cmp "$tmp/local/cases.jsonl" "$tmp/re/cases.jsonl"'

# --time: one batch of 16 cases for the one array task, then the time is up
"$LINSCHED" hunt "${A[@]}" --runs 0 --time 1s --findings 0 --slurm-tasks 1 --out "$tmp/time" \
	--engine slurm > "$tmp/time.out" 2>&1
s=$?
python3 -c '
import json, sys
for l in sys.stdin:
    if json.loads(l)["case"] < 16:
        sys.stdout.write(l)' < "$tmp/local/cases.jsonl" > "$tmp/first16"
test_expect_success "--time 1s: the first batch, 16 cases, as the local hunt's first 16 (status $s)" \
	'[ $s = 0 ] && json_is "$tmp/time/hunt.json" cases 16 && json_is "$tmp/time/hunt.json" done_below 16 &&
	 cmp "$tmp/first16" "$tmp/time/cases.jsonl"'

# no reachable controller: at once, saying so
sed "s/^SlurmctldPort=.*/SlurmctldPort=$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')/" \
	"$SLURM_CONF" > "$tmp/dead.conf"
t0=$(now)
SLURM_CONF=$tmp/dead.conf "$LINSCHED" hunt "${A[@]}" --findings 0 --out "$tmp/dead" \
	--engine slurm > /dev/null 2> "$tmp/dead.err"
s=$?
t1=$(now)
test_expect_success "no reachable controller: exit 1 in $(secs "$t0" "$t1") s, before anything is made: $(grep -m1 error: "$tmp/dead.err")" \
	'[ $s = 1 ] && grep -q "error: --engine slurm: no reachable Slurm controller" "$tmp/dead.err" &&
	 [ "$(grep -c . "$tmp/dead.err")" = 1 ] && [ ! -e "$tmp/dead" ] &&
	 python3 -c "import sys; sys.exit(0 if $(secs "$t0" "$t1") < 5 else 1)"'

# an output directory the nodes do not see: the driver's own mount namespace
mkdir -p "$tmp/private"
t0=$(now)
unshare -m bash -c 'mount -t tmpfs none "$1" && shift && exec "$@"' _ "$tmp/private" \
	"$LINSCHED" hunt "${A[@]}" --findings 0 --out "$tmp/private/out" --engine slurm > /dev/null 2> "$tmp/ro.err"
s=$?
t1=$(now)
test_expect_success "an output directory the nodes cannot see: exit 1 in $(secs "$t0" "$t1") s, naming it" \
	'[ $s = 1 ] && grep -q "error: --engine slurm: the nodes cannot write the hunt.s directory .$tmp/private/out." "$tmp/ro.err" &&
	 python3 -c "import sys; sys.exit(0 if $(secs "$t0" "$t1") < 15 else 1)"'

slurm_stop
left=$(slurm_stopped_alive)
test_expect_success "the 3 daemons started are stopped${left:+ (alive:$left)}" \
	'[ ${#slurm_stopped_pids[@]} = 3 ] && [ -z "$left" ]'

done_testing
