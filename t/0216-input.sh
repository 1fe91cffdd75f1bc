#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Workload and topology input is refused with exit status 2 and one message
# naming what and where, or runs right (issue 25: 4, 5, 6, 8, 14, 16, 17,
# 22): durations and seeds that overflow or are not decimal; a key given
# twice (the line of both); names that would break a trace line or the
# results' JSON, and UTF-8 names that do not; malformed compact specs
# (the character where); a file that never ends; a phase that loops in no
# time; a workload read from a FIFO or a process substitution, read once;
# a long taskgroup path that kept its reason out of the message; a
# directory as a topology.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 35
tmp=$(mktemp -d)
writer=
cleanup() {
	[ -n "$writer" ] && kill "$writer" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
REV=$TEST_V612


# refused NAME MESSAGE ARGS...: `linsched run REV ARGS` exits 2 before
# anything is built, with the one line "error: MESSAGE" (a fixed string)
refused() {
	local name=$1 msg=$2 status
	shift 2
	timeout 60 "$LINSCHED" run "$REV" "$@" --quiet > /dev/null 2> "$tmp/$name.err"
	status=$?
	test_expect_success "$name: status $status, $(head -c 160 "$tmp/$name.err")" \
		'[ $status = 2 ] && [ "$(lines "$tmp/$name.err")" = 1 ] &&
		 grep -qxF -- "error: $msg" "$tmp/$name.err"'
}

# wl NAME TEXT: the workload file NAME.json holding TEXT; its path
wl() {
	printf '%s' "$2" > "$tmp/$1.json"
	echo "$tmp/$1.json"
}

OK='{"global": {"duration": 1},
 "tasks": {"t": {"instance": 2, "run": 1000, "sleep": 3000}}}'

# ---- 4. durations and seeds: no wrap, decimal, exact ----
f=$(wl wrap '{"global": {"duration": 18446744074}, "tasks": {"t": {"run": 1000, "sleep": 1000}}}')
refused global-duration-wraps \
	"workload '$f': 'duration': expected a positive number of seconds below 18000000000 (570 years) or -1, got 18446744074" \
	--workload "$f" --topology dual
refused seed-minus-one \
	"--seed '-1': expected a decimal integer from 0 to 18446744073709551615" \
	--workload hog --topology dual --seed -1
refused seed-past-64-bits \
	"--seed '18446744073709551616': expected a decimal integer from 0 to 18446744073709551615" \
	--workload hog --topology dual --seed 18446744073709551616
refused duration-hex \
	"--duration '0x10': expected a positive duration such as 10s, 500ms or 2 (seconds)" \
	--workload hog --topology dual --duration 0x10
"$LINSCHED" run "$REV" --workload 'random*2:run=1ms:sleep=1ms' --topology dual \
	--duration 10ms --seed 18446744073709551615 --json "$tmp/seed.json" \
	--quiet 2> "$tmp/seed.err"
status=$?
test_expect_success "--seed 2^64-1 runs (status $status) and the results hold it exactly" \
	'[ $status = 0 ] && [ ! -s "$tmp/seed.err" ] &&
	 json_is "$tmp/seed.json" seed 18446744073709551615 &&
	 grep -qx "	\"seed\":	18446744073709551615," "$tmp/seed.json"'

# ---- 5. a key given twice: refused, both lines named ----
f=$(wl instance '{"tasks": {
  "t": { "instance": 2, "run": 1000, "sleep": 1000,
         "instance": 3 } } }')
refused instance-twice \
	"workload '$f': line 3, column 10: task 't': 'instance': given twice (the first at line 2, column 10): rt-app's json-c keeps the last, its workgen the first; give it once" \
	--workload "$f" --topology dual
f=$(wl tasks-twice '{"tasks": {"a": {"run": 1000}},
 "tasks": {"b": {"run": 1000}}}')
refused tasks-twice \
	"workload '$f': line 2, column 2: 'tasks': given twice (the first at line 1, column 2): rt-app's json-c keeps the last, its workgen the first; give it once" \
	--workload "$f" --topology dual
f=$(wl time-twice '{"tasks": {"a": {"run": 1000, "sleep": 1000}},
 "lsb-events": [{"time": 10, "time": 20, "cpu": 1, "online": false}]}')
refused time-twice \
	"workload '$f': line 2, column 30: 'time': given twice (the first at line 2, column 18): rt-app's json-c keeps the last, its workgen the first; give it once" \
	--workload "$f" --topology dual

# ---- 6. names: refused when they would break a line or the JSON ----
f=$(wl name-newline '{"tasks": {"a\nb": {"run": 1000, "sleep": 1000}}}')
refused name-control \
	"workload '$f': task 'a\\x0ab': the name 'a\\x0ab' holds a control character (\\x0a at byte 2): not a name" \
	--workload "$f" --topology dual
printf '{"tasks": {"a\377b": {"run": 1000, "sleep": 1000}}}' > "$tmp/name-bytes.json"
f=$tmp/name-bytes.json
refused name-not-utf8 \
	"workload '$f': task 'a\\xffb': the name 'a\\xffb' holds bytes that are not UTF-8 (\\xff at byte 2): not a name" \
	--workload "$f" --topology dual
f=$(wl name-nul '{"tasks": {"a\u0000b": {"run": 1000, "sleep": 1000}}}')
refused name-nul \
	"workload '$f': line 1, column 14: \\u0000 in a string: no name or value may hold a NUL character" \
	--workload "$f" --topology dual
# a UTF-8 name runs: its comm (15 bytes) keeps whole characters
f=$(wl name-utf8 '{"tasks": {"ééééééééé": {"run": 1000, "sleep": 1000}}}')
"$LINSCHED" run "$REV" --workload "$f" --topology dual --duration 20ms \
	--json "$tmp/utf8.json" --trace "$tmp/utf8.trace" --quiet 2> "$tmp/utf8.err"
status=$?
test_expect_success "a task named with 9 é runs (status $status): results and trace are UTF-8, the comm 7 whole é" \
	'[ $status = 0 ] &&
	 [ "$(json "$tmp/utf8.json" "r['\''tasks'\''][0]['\''name'\''] == '\''é'\'' * 9")" = True ] &&
	 python3 -c "import sys; open(sys.argv[1], encoding='\''utf-8'\'').read()" "$tmp/utf8.trace" &&
	 grep -q "next_comm=ééééééé next_pid" "$tmp/utf8.trace"'

# ---- 8. compact specs: every malformed form, with its character ----
refused spec-name-long \
	"workload 'hog:name=abcdefghijk': character 10: group 1: name 'abcdefghijk': expected 1 to 10 characters (instances are NAME-N, and the kernel's comm keeps 15)" \
	--workload 'hog:name=abcdefghijk' --topology dual
refused spec-name-empty \
	"workload 'hog:name=': character 10: group 1: name '': expected 1 to 10 characters (instances are NAME-N, and the kernel's comm keeps 15)" \
	--workload 'hog:name=' --topology dual
refused spec-group-empty \
	"workload 'hog+': character 5: group 2 is empty (expected KIND[*COUNT][:KEY=VALUE...])" \
	--workload 'hog+' --topology dual
refused spec-key-empty \
	"workload 'hog::nice=1': character 5: group 1: an empty KEY=VALUE (':' with nothing after it)" \
	--workload 'hog::nice=1' --topology dual
refused spec-key-twice \
	"workload 'hog:nice=1:nice=2': character 12: group 1: 'nice' is given twice (the first at character 5)" \
	--workload 'hog:nice=1:nice=2' --topology dual
refused spec-duration-hex \
	"workload 'periodic:run=0x10:sleep=1ms': character 14: group 1: bad value '0x10' for 'run'" \
	--workload 'periodic:run=0x10:sleep=1ms' --topology dual
"$LINSCHED" suite write "$tmp/suite" --cpus 4 --topology quad > /dev/null 2> "$tmp/cpus.err"
status=$?
test_expect_success "suite write --cpus 4 --topology quad: a usage error (status $status), nothing written" \
	'[ $status = 2 ] && [ ! -e "$tmp/suite" ] &&
	 grep -qxF "error: --cpus and --topology: give one or the other (both say the CPU count)" "$tmp/cpus.err"'

# ---- 14. a file that never ends ----
start=$SECONDS
refused workload-dev-zero \
	"workload '/dev/zero': larger than 16 MiB, the most a workload file may hold" \
	--workload /dev/zero --topology dual
refused topology-dev-zero \
	"topology '/dev/zero': larger than 16 MiB, the most a topology file may hold" \
	--workload hog --topology /dev/zero
test_expect_success "both refused in $((SECONDS - start)) s (they grew to 24 GB before)" \
	'[ $((SECONDS - start)) -lt 30 ]'

# ---- 16. a phase that loops in no time ----
f=$(wl yield '{"tasks": {"t": {"yield": "", "sleep": 0}}}')
refused yield-phase \
	"workload '$f': task 't': 'yield': every event of the phase is a yield or a sleep of 0: it would loop without time passing" \
	--workload "$f" --topology dual

# ---- 17. a FIFO or a process substitution, read once ----
f=$(wl ok "$OK")
"$LINSCHED" run "$REV" --workload "$f" --topology dual --json "$tmp/file.json" \
	--quiet 2> "$tmp/file.err"
status=$?
test_expect_success "the workload from a file runs (status $status)" \
	'[ $status = 0 ] && [ ! -s "$tmp/file.err" ]'
mkfifo "$tmp/fifo"
printf '%s' "$OK" > "$tmp/fifo" &
writer=$!
timeout 120 "$LINSCHED" run "$REV" --workload "$tmp/fifo" --topology dual \
	--json "$tmp/fifo.json" --quiet 2> "$tmp/fifo.err"
status=$?
writer=
kept=$(json "$tmp/fifo.json" "r['workload']" 2>/dev/null)
test_expect_success "from a FIFO: no hang (status $status), the results of the file, its bytes kept as $kept" \
	'[ $status = 0 ] && [ ! -s "$tmp/fifo.err" ] &&
	 [ "$kept" = "$tmp/cache/workloads/$(git hash-object "$f").json" ] &&
	 cmp -s "$f" "$kept" &&
	 diff <(grep -v "\"workload\":" "$tmp/file.json") <(grep -v "\"workload\":" "$tmp/fifo.json") > /dev/null'
timeout 120 "$LINSCHED" run "$REV" --workload <(printf '%s' "$OK") --topology dual \
	--json "$tmp/subst.json" --quiet 2> "$tmp/subst.err"
status=$?
test_expect_success "from a process substitution (status $status; it said malformed JSON): the same results" \
	'[ $status = 0 ] && [ ! -s "$tmp/subst.err" ] && cmp -s "$tmp/fifo.json" "$tmp/subst.json"'
timeout 120 "$LINSCHED" run "$REV" --workload <(printf '{"tasks": {"t": {"yield": ""}}}') \
	--topology dual --quiet 2> "$tmp/subst-bad.err"
status=$?
test_expect_success "a bad one is refused (status $status) under the name given" \
	'[ $status = 2 ] &&
	 grep -q "^error: workload '\''/dev/fd/[0-9]*'\'': task '\''t'\'': '\''yield'\'': every event of the phase is a yield" "$tmp/subst-bad.err"'
"$LINSCHED" sweep "$REV" --workload "$f" --topology dual --out "$tmp/sw1" \
	> "$tmp/sw1.out" 2>&1
"$LINSCHED" sweep "$REV" --workload <(printf '%s' "$OK") --topology dual \
	--out "$tmp/sw2" > "$tmp/sw2.out" 2>&1
status=$?
test_expect_success "a sweep from a process substitution finds the file's result in the cache (status $status): one key for the bytes" \
	'[ $status = 0 ] && grep -q "1 ran" "$tmp/sw1.out" &&
	 grep -q "1 from the cache, 0 ran" "$tmp/sw2.out"'

# and a topology, read once by every command that takes --topology
T=$LSB_ROOT/topologies/examples/asym-smt.json
"$LINSCHED" run "$REV" --workload "$f" --topology "$T" --json "$tmp/tfile.json" \
	--quiet 2> "$tmp/tfile.err"
timeout 120 "$LINSCHED" run "$REV" --workload "$f" --topology <(cat "$T") \
	--json "$tmp/tsubst.json" --quiet 2> "$tmp/tsubst.err"
status=$?
test_expect_success "a topology from a process substitution: the file's results (status $status)" \
	'[ $status = 0 ] && [ ! -s "$tmp/tsubst.err" ] && [ -s "$tmp/tfile.json" ] &&
	 cmp -s "$tmp/tfile.json" "$tmp/tsubst.json"'
timeout 120 "$LINSCHED" run "$REV" --workload "$f" --topology <(echo '{') \
	--quiet 2> "$tmp/tsubst-bad.err"
status=$?
test_expect_success "a bad one is refused (status $status) under the name given: $(cat "$tmp/tsubst-bad.err")" \
	'[ $status = 2 ] &&
	 grep -q "^error: topology '\''/dev/fd/[0-9]*'\'':2:1: malformed JSON" "$tmp/tsubst-bad.err"'
"$LINSCHED" sweep "$REV" --workload "$f" --topology "$T" --out "$tmp/sw3" \
	> "$tmp/sw3.out" 2>&1
"$LINSCHED" sweep "$REV" --workload "$f" --topology <(cat "$T") \
	--out "$tmp/sw4" > "$tmp/sw4.out" 2>&1
status=$?
test_expect_success "a sweep with it finds the file's result in the cache (status $status)" \
	'[ $status = 0 ] && grep -q "1 from the cache, 0 ran" "$tmp/sw4.out"'

# ---- 22. messages that lost their reason, or said the wrong one ----
long=/$(printf 'a%.0s' {1..119})/$(printf 'b%.0s' {1..119})
f=$(wl long-path "{\"lsb-taskgroups\": {\"$long\": {\"cpu.wieght\": 100}},
 \"tasks\": {\"t\": {\"run\": 1000, \"sleep\": 1000, \"taskgroup\": \"$long\"}}}")
refused long-taskgroup-path \
	"workload '$f': lsb-taskgroups: '$long': unknown control file 'cpu.wieght' (expected cpu.weight, cpu.weight.nice, cpu.max, cpu.max.burst, cpu.idle, cpu.uclamp.min, cpu.uclamp.max, cgroup v1's cpu.shares, cpu.cfs_quota_us, cpu.cfs_period_us, cpu.cfs_burst_us, or cpuset.cpus, cpuset.cpus.partition)" \
	--workload "$f" --topology dual
exe=$("$LINSCHED" build "$REV")
"$exe" --workload "$f" --topology dual --duration 10ms 2> "$tmp/long-sim.err"
status=$?
test_expect_success "linsched-sim with a 239-character path: status $status, the reason whole" \
	'[ $status = 2 ] && [ "$(lines "$tmp/long-sim.err")" = 1 ] &&
	 grep -q "unknown control file '\''cpu.wieght'\'' (expected .*, or cpuset.cpus, cpuset.cpus.partition)$" "$tmp/long-sim.err"'
refused topology-directory \
	"topology '/tmp': a directory, not a JSON file" \
	--workload hog --topology /tmp
refused workload-directory \
	"workload '/tmp': a directory, not a JSON file" \
	--workload /tmp --topology dual

test_done
