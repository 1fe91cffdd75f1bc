#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input is a clear error (exit status 2, one message saying what and
# where) or runs right: a bare duration is seconds and no duration crashes
# the simulator; nan, inf, zero and negative durations are refused; the
# simulator's own usage errors (a governor, 65 CPUs, deadline tasks past
# admission) come out once with status 2; sysfs sibling lists that
# disagree are refused; a killed run leaves no temporaries in the result
# cache and no crash cached; a second lsbisect on one --out names the lock
# and its holder; report files that cannot be written are not listed as
# written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 28
tmp=$(mktemp -d)
bg_pids=
cleanup() {
	local p
	for p in $bg_pids; do
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
REV=$TEST_V612
results=$tmp/cache/results
# a workload whose run lasts long enough to be killed in it
LONG=(--workload 'random*64:run=100us:sleep=200us' --topology quad --duration 600s)

# temporaries: the run.* files in the result cache
temporaries() { ls "$results" 2>/dev/null | grep '^run\.' || true; }
has_temporary() { [ -n "$(temporaries)" ]; }
# sims: the simulators running on this test's cache
sims() { pgrep -f "$tmp/cache/builds/" || true; }
no_sims() { [ -z "$(sims)" ]; }

# ---- 1. a bare duration is seconds; no duration crashes ----
"$LINSCHED" run "$REV" --workload 'hog*2' --topology dual --duration 10 \
	--json "$tmp/ten.json" --quiet 2> "$tmp/ten.err"
status=$?
test_expect_success "--duration 10 is 10 s (status $status)" \
	'[ $status = 0 ] && [ ! -s "$tmp/ten.err" ] &&
	 json_is "$tmp/ten.json" duration_ns 10000000000 &&
	 [ "$(json "$tmp/ten.json" "min(t['\''sum_exec_ns'\''] for t in r['\''tasks'\''])")" -gt 9000000000 ]'
exe=$("$LINSCHED" build "$REV")
"$exe" --topology dual --workload hog --duration 0.01 --json "$tmp/sim.json" 2> "$tmp/sim.err"
status=$?
test_expect_success "linsched-sim --duration 0.01 is 10 ms (status $status)" \
	'[ $status = 0 ] && json_is "$tmp/sim.json" duration_ns 10000000'
for d in 1ns 100us; do
	"$LINSCHED" run "$REV" --workload 'hog*2' --topology dual --duration $d \
		--json "$tmp/short-$d.json" --quiet 2> "$tmp/short-$d.err"
	echo $? > "$tmp/short-$d.status"
done
test_expect_success "--duration 1ns ends before the tasks are forked: status $(cat "$tmp/short-1ns.status"), tasks with pid 0, cpu -1, no time" \
	'[ "$(cat "$tmp/short-1ns.status")" = 0 ] && [ ! -s "$tmp/short-1ns.err" ] &&
	 [ "$(json "$tmp/short-1ns.json" "[(t['\''pid'\''], t['\''cpu'\''], t['\''sum_exec_ns'\'']) for t in r['\''tasks'\'']]")" = "[(0, -1, 0), (0, -1, 0)]" ]'
# init forks them at once (no idle state's exit latency delays it: the
# revision's governor polls first), but they have run no tick yet
test_expect_success "--duration 100us: the tasks are forked, on a CPU each" \
	'[ "$(cat "$tmp/short-100us.status")" = 0 ] && [ ! -s "$tmp/short-100us.err" ] &&
	 [ "$(json "$tmp/short-100us.json" "sorted((t['\''pid'\''] > 0, t['\''cpu'\'']) for t in r['\''tasks'\''])")" = "[(True, 0), (True, 1)]" ]'
"$LINSCHED" run "$REV" --workload 'hog*2' --topology dual --duration 399us \
	--json "$tmp/short-399us.json" --quiet 2> "$tmp/short-399us.err"
status=$?
test_expect_success "--duration 399us runs (status $status, no crash)" \
	'[ $status = 0 ] && [ ! -s "$tmp/short-399us.err" ] &&
	 json_is "$tmp/short-399us.json" duration_ns 399000'

# ---- 2. nan, inf, negative and zero durations are refused ----
for d in nan inf -1s 0; do
	timeout 60 "$LINSCHED" run "$REV" --workload hog --topology dual \
		--duration "$d" --quiet > "$tmp/dur.out" 2> "$tmp/dur-$d.err"
	status=$?
	dur=$d
	test_expect_success "--duration $d: status $status, $(head -c 120 "$tmp/dur-$d.err")" \
		'[ $status = 2 ] && [ "$(lines "$tmp/dur-$dur.err")" = 1 ] &&
		 grep -q "^error: --duration '\''$dur'\'': expected a positive duration" "$tmp/dur-$dur.err"'
done
timeout 60 "$exe" --topology dual --workload hog --duration nan 2> "$tmp/simnan.err"
status=$?
test_expect_success "linsched-sim --duration nan: status $status" \
	'[ $status = 2 ] && grep -q "^error: --duration '\''nan'\''" "$tmp/simnan.err"'
timeout 60 "$LSBISECT" "$REV" "$TEST_V72" hog --topology dual --duration inf \
	--out "$tmp/nanout" -q 2> "$tmp/bisectnan.err"
status=$?
test_expect_success "lsbisect --duration inf: status $status" \
	'[ $status = 2 ] && [ "$(lines "$tmp/bisectnan.err")" = 1 ] &&
	 grep -q "^error: --duration '\''inf'\''" "$tmp/bisectnan.err"'

# ---- 3. the simulator's usage errors: status 2, the message once ----
# checked before anything: a revision that does not exist is not looked up
"$LINSCHED" run v9.9 --workload hog --topology dual --governor turbo \
	--quiet 2> "$tmp/gov.err"
status=$?
test_expect_success "--governor turbo is refused before the revision is looked up (status $status)" \
	'[ $status = 2 ] && [ "$(lines "$tmp/gov.err")" = 1 ] &&
	 grep -q "^error: --governor '\''turbo'\'': expected schedutil, performance or powersave$" "$tmp/gov.err"'
"$LINSCHED" run "$REV" --workload hog --topology 1x65x1 --duration 10ms \
	--quiet 2> "$tmp/cpus.err"
status=$?
test_expect_success "65 CPUs on a 64-CPU build: status $status, said once" \
	'[ $status = 2 ] && [ "$(lines "$tmp/cpus.err")" = 1 ] &&
	 grep -q "^error: topology '\''1x65x1'\'': 65 CPUs, but this kernel was built for at most 64$" "$tmp/cpus.err"'
cat > "$tmp/dl.json" <<'EOF'
{ "tasks": { "dl": { "instance": 3, "policy": "SCHED_DEADLINE",
  "dl-runtime": 6000, "dl-period": 10000, "run": 1000, "sleep": 9000 } } }
EOF
"$LINSCHED" run "$REV" --workload "$tmp/dl.json" --topology up --duration 10ms \
	--quiet 2> "$tmp/dl.err"
status=$?
test_expect_success "three 60 % deadline tasks on one CPU: status $status, said once" \
	'[ $status = 2 ] && [ "$(lines "$tmp/dl.err")" = 1 ] &&
	 grep -q "task '\''dl-1'\'': the kernel refused the SCHED_DEADLINE parameters (admission control" "$tmp/dl.err"'
"$LSBISECT" "$REV" "$TEST_V72" hog --topology 1x65x1 --duration 10ms \
	--out "$tmp/cpusout" -q > /dev/null 2> "$tmp/bisectcpus.err"
status=$?
test_expect_success "lsbisect on 65 CPUs: status $status, said once (the run's stderr went to a file)" \
	'[ $status = 2 ] && [ "$(lines "$tmp/bisectcpus.err")" = 1 ] &&
	 grep -q "^error: topology '\''1x65x1'\'': 65 CPUs" "$tmp/bisectcpus.err" &&
	 [ -z "$(temporaries)" ]'

# ---- 4. sysfs sibling lists that disagree ----
sys=$tmp/sys/cpu
for i in 0 1 2 3; do
	mkdir -p "$sys/cpu$i/topology"
	echo 0 > "$sys/cpu$i/topology/physical_package_id"
done
echo 0-1 > "$sys/cpu0/topology/thread_siblings_list"
echo 1-2 > "$sys/cpu1/topology/thread_siblings_list"
echo 1-2 > "$sys/cpu2/topology/thread_siblings_list"
echo 3 > "$sys/cpu3/topology/thread_siblings_list"
"$LINSCHED" topology --from-sysfs "$sys" -o "$tmp/sys.json" 2> "$tmp/sys.err"
status=$?
test_expect_success "siblings 0-1 and 1-2: status $status, both files and the CPUs named" \
	'[ $status = 2 ] && [ ! -e "$tmp/sys.json" ] && [ "$(lines "$tmp/sys.err")" = 1 ] &&
	 grep -q "^error: topology from sysfs '\''$sys'\'': cpu0/topology/thread_siblings_list says '\''0-1'\'' but cpu1/topology/thread_siblings_list says '\''1-2'\'': CPUs 0 and 1 disagree on their SMT siblings$" "$tmp/sys.err"'
echo 0-1 > "$sys/cpu1/topology/thread_siblings_list"
echo 2-3 > "$sys/cpu2/topology/thread_siblings_list"
echo 2-3 > "$sys/cpu3/topology/thread_siblings_list"
"$LINSCHED" topology --from-sysfs "$sys" -o "$tmp/sys.json" 2> "$tmp/sys.err"
status=$?
test_expect_success "siblings 0-1 and 2-3 are two cores (status $status)" \
	'[ $status = 0 ] &&
	 [ "$(json "$tmp/sys.json" "[c['\''core'\''] for c in r['\''cpus'\'']]")" = "[0, 0, 1, 1]" ]'

# ---- 5. a killed run leaves no temporaries, and no crash cached ----
"$LINSCHED" sweep "$REV" "${LONG[@]}" --jobs 1 --out "$tmp/sw1" \
	> "$tmp/sw1.out" 2> "$tmp/sw1.err" &
bg=$!
bg_pids+=" $bg"
wait_for 300 has_temporary
driver=$(temporaries | head -1 | cut -d. -f2)
sim=$(pgrep -P "$driver")
diag "temporaries $(temporaries | tr '\n' ' '); driver $driver, simulator $sim"
kill -KILL $sim
wait $bg
status=$?
test_expect_success "a simulator killed by SIGKILL is an error from outside (status $status), not a cached crash" \
	'[ $status = 4 ] &&
	 grep -q "the first: the simulator was killed by signal 9 (Killed) from outside" "$tmp/sw1.err" &&
	 [ -z "$(grep -rl '\''"status":"crashed"'\'' "$results")" ]'
test_expect_success "its driver removed the run's temporaries" \
	'[ -z "$(temporaries)" ]'

# the process that drives the simulator killed: the pool removes its files
"$LINSCHED" sweep "$REV" "${LONG[@]}" --jobs 1 --out "$tmp/sw2" \
	> "$tmp/sw2.out" 2> "$tmp/sw2.err" &
bg=$!
bg_pids+=" $bg"
wait_for 300 has_temporary
driver=$(temporaries | head -1 | cut -d. -f2)
kill -KILL "$driver"
wait $bg
status=$?
wait_for 10 no_sims
test_expect_success "a unit's process killed (status $status): its simulator dies with it, the pool removes its temporaries" \
	'[ $status = 4 ] && grep -q "units failed; the first: Killed" "$tmp/sw2.err" &&
	 [ -z "$(sims)" ] && [ -z "$(temporaries)" ]'

# ---- 6. a second lsbisect on one --out; 5. its temporaries swept ----
"$LSBISECT" "$REV" "$TEST_V72" 'random*64:run=100us:sleep=200us' --topology quad \
	--duration 600s --out "$tmp/lockout" -q > /dev/null 2> "$tmp/first.err" &
first=$!
bg_pids+=" $first"
held() { [ -s "$tmp/lockout/.lock" ]; }
wait_for 300 held
"$LSBISECT" "$REV" "$TEST_V72" 'random*64:run=100us:sleep=200us' --topology quad \
	--duration 600s --out "$tmp/lockout" -q > /dev/null 2> "$tmp/second.err"
status=$?
test_expect_success "a second lsbisect on the same --out: status $status, the lock and its holder $first named" \
	'[ $status = 2 ] && [ "$(lines "$tmp/second.err")" = 1 ] &&
	 grep -q "^error: another lsbisect works in '\''$tmp/lockout'\'': the lock '\''$tmp/lockout/.lock'\'' is held by pid $first$" "$tmp/second.err"'
wait_for 300 has_temporary
kill -KILL $first
wait $first 2>/dev/null
wait_for 10 no_sims
left=$(temporaries)
test_expect_success "lsbisect killed in a run: its simulator died with it, its temporaries ($left) stay" \
	'[ -z "$(sims)" ] && [ -n "$left" ]'
"$LINSCHED" sweep "$REV" --workload hog --topology dual --duration 10ms \
	--out "$tmp/sw3" > /dev/null 2> "$tmp/sw3.err"
status=$?
test_expect_success "the next run (status $status) sweeps the temporaries of a process that is gone" \
	'[ $status = 0 ] && [ -z "$(temporaries)" ]'

# ---- 7. report files that cannot be written ----
B=("$REV" "$TEST_V72" hog --topology dual --duration 10ms -q)
mkdir -p "$tmp/bo/report.txt"
"$LSBISECT" "${B[@]}" --out "$tmp/bo" > "$tmp/bo.out" 2> "$tmp/bo.err"
status=$?
test_expect_success "lsbisect with report.txt a directory: status $status, the file named, none listed as written" \
	'[ $status = 4 ] && [ "$(lines "$tmp/bo.err")" = 1 ] &&
	 grep -q "^error: cannot write '\''$tmp/bo/report.txt'\'': Is a directory$" "$tmp/bo.err" &&
	 grep -q "^no regression" "$tmp/bo.out" && ! grep -q "^output:" "$tmp/bo.out"'
rm -rf "$tmp/bo"
"$LSBISECT" "${B[@]}" --out "$tmp/bo" > "$tmp/bo.out" 2> "$tmp/bo.err"
status=$?
test_expect_success "the same when it can write: status $status, the files listed" \
	'[ $status = 1 ] && [ ! -s "$tmp/bo.err" ] && [ -f "$tmp/bo/report.txt" ] &&
	 grep -q "^output: $tmp/bo (report.txt, report.json, plot.png)" "$tmp/bo.out"'
touch "$tmp/file"
"$LSBISECT" "${B[@]}" --out "$tmp/file/out" > "$tmp/bf.out" 2> "$tmp/bf.err"
status=$?
test_expect_success "lsbisect --out under a file: status $status (usage, before anything is built), named, nothing on stdout" \
	'[ $status = 2 ] && [ ! -s "$tmp/bf.out" ] &&
	 grep -q "^error: --out '\''$tmp/file/out'\'': '\''$tmp/file'\'' is not a directory$" "$tmp/bf.err"'
R=("$REV" "$TEST_V72" --match hog-n1 --topology dual --duration 10ms --seeds 1 -q)
mkdir -p "$tmp/ro/report.json"
"$LINSCHED" report "${R[@]}" --out "$tmp/ro" > "$tmp/ro.out" 2> "$tmp/ro.err"
status=$?
test_expect_success "report with report.json a directory: status $status, the file named, nothing on stdout" \
	'[ $status = 4 ] && [ ! -s "$tmp/ro.out" ] &&
	 grep -q "^error: cannot write '\''$tmp/ro/report.json'\'': Is a directory$" "$tmp/ro.err"'
"$LINSCHED" report "${R[@]}" --out "$tmp/file/out" > "$tmp/rf.out" 2> "$tmp/rf.err"
status=$?
test_expect_success "report --out under a file: status $status (usage, before anything is built), named, nothing on stdout" \
	'[ $status = 2 ] && [ ! -s "$tmp/rf.out" ] && [ "$(lines "$tmp/rf.err")" = 1 ] &&
	 grep -q "^error: --out '\''$tmp/file/out'\'': '\''$tmp/file'\'' is not a directory$" "$tmp/rf.err"'

test_done
