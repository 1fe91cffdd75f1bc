#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Outputs and faults (issue 25). Outputs are checked before anything is
# built: one file given twice, '-' twice, an output that is the workload,
# a directory, an empty name, a missing directory, an --out under a file
# (every command): exit 2, named. A write that fails (/dev/full, a full
# result cache) is an error naming the file and errno's words. A full disk
# during a build, or a build stopped by SIGTERM, Ctrl-C or SIGKILL, caches
# no verdict and leaves no temporary (or the next build of the key removes
# it), and the revision builds once the fault is gone. kernel_work without
# a work build, a refused topology in report and sweep, A...B and
# 'linsched kernels --bogus' say what they are, as usage errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 33
tmp=$(mktemp -d)
mounts=
bg_pids=
cleanup() {
	local p m
	for p in $bg_pids; do
		kill -KILL -- "-$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done
	for m in $mounts; do
		umount "$m" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
SHARED=$LSBISECT_CACHE
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
REV=$TEST_V612
SHORT=(--topology dual --duration 10ms -q)

# skip WHY: a test that cannot run here, as TAP says it
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
# said FILE STATUS WANT PATTERN: the status is WANT and FILE is one line
# matching PATTERN (grep -E)
said() {
	[ "$2" = "$3" ] && [ "$(lines "$1")" = 1 ] && grep -Eq -- "$4" "$1" ||
		{ diag "status $2, said: $(head -c 300 "$1")"; return 1; }
}
# re TEXT: TEXT with grep -E's special characters escaped
re() { printf '%s' "$1" | sed 's/[][\.*^$(){}+?|]/\\&/g'; }
# mount_tmpfs DIR SIZE: a tmpfs at DIR (unmounted at the end); 1 when
# mounting is not permitted here
mount_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null || return 1
	mounts="$1 $mounts"
}
# fill DIR KIB: a file in DIR's file system leaving KIB KiB free
fill() {
	local avail
	avail=$(df --output=avail -k "$1" | tail -1)
	fallocate -l "$(( (avail - $2) * 1024 ))" "$1/filler"
}

# ---- 1. outputs checked before anything (v9.9 is never looked up) ----
cat > "$tmp/w.json" <<'EOF'
{ "tasks": { "t": { "instance": 2, "run": 1000, "sleep": 1000 } } }
EOF
cp "$tmp/w.json" "$tmp/w.orig"
T=$(re "$tmp")
check_run() {
	local name=$1
	shift
	"$LINSCHED" run v9.9 --workload "$tmp/w.json" --topology dual "$@" \
		> /dev/null 2> "$tmp/$name.err"
	status=$?
}
check_run twice --trace "$tmp/x" --json "$tmp/x"
test_expect_success "--trace X --json X: status $status, refused" \
	'said "$tmp/twice.err" $status 2 "^error: --trace '\''$T/x'\'' and --json '\''$T/x'\'' are one file$" &&
	 [ ! -e "$tmp/x" ]'
check_run dash --trace - --json -
test_expect_success "--trace - --json -: status $status, refused" \
	'said "$tmp/dash.err" $status 2 "^error: --trace and --json both write to standard output \('\''-'\''\)$"'
check_run input --trace "$tmp/./w.json"
test_expect_success "--trace naming the workload file: status $status, refused, the workload intact" \
	'said "$tmp/input.err" $status 2 "^error: --trace '\''$T/\./w\.json'\'' is the file --workload '\''$T/w\.json'\'' reads: it would be overwritten$" &&
	 cmp -s "$tmp/w.json" "$tmp/w.orig"'
check_run dir --trace "$tmp"
test_expect_success "--trace DIR: status $status, refused" \
	'said "$tmp/dir.err" $status 2 "^error: --trace '\''$T'\'': a directory, expected a file$"'
check_run empty --json ''
test_expect_success "--json '': status $status, refused" \
	'said "$tmp/empty.err" $status 2 "^error: --json '\'''\'': expected a file name$"'
check_run nodir --log "$tmp/none/k.log"
test_expect_success "--log in a missing directory: status $status, refused" \
	'said "$tmp/nodir.err" $status 2 "^error: --log '\''$T/none/k\.log'\'': no directory '\''$T/none'\''$"'

# every command's --out under a file: refused the same way, before a build
touch "$tmp/file"
out_cmds=(
	"$LSBISECT v9.9 v9.8 hog"
	"$LINSCHED report v9.9 v9.8"
	"$LINSCHED sweep v9.9 --workload hog --topology dual"
	"$LINSCHED trend v9.8..v9.9 --workload hog --topology dual"
	"$LINSCHED timeline v9.9 --workload hog --topology dual"
	"$LINSCHED suite run v9.9 --topology dual"
	"$LINSCHED coverage v9.9 --topology dual"
	"$LINSCHED bugs run fork_affinity"
)
bad_out=
for c in "${out_cmds[@]}"; do
	$c --out "$tmp/file/out" > /dev/null 2> "$tmp/out.err"
	status=$?
	said "$tmp/out.err" $status 2 "^error: --out '$T/file/out': '$T/file' is not a directory$" ||
		bad_out+=" [${c##*/}: $status]"
done
test_expect_success "--out under a file: status 2 and the same message from lsbisect, report, sweep, trend, timeline, suite run, coverage, bugs run${bad_out:+; not from$bad_out}" \
	'[ -z "$bad_out" ]'

# ---- 2. write errors of the outputs ----
for o in log json trace; do
	"$LINSCHED" run "$REV" --workload hog "${SHORT[@]}" "--$o" /dev/full \
		2> "$tmp/full-$o.err"
	status=$?
	what=$o
	[ $o = json ] && what=results
	test_expect_success "--$o /dev/full: status $status, the file and errno named" \
		'said "$tmp/full-$o.err" $status 1 "^error: revision '\''$REV'\'': cannot write $what '\''/dev/full'\'': No space left on device$"'
done
"$LINSCHED" run "$REV" --workload hog --topology dual --duration 10ms \
	> /dev/full 2> "$tmp/stdout.err"
status=$?
test_expect_success "the summary on a full standard output: status $status, said" \
	'said "$tmp/stdout.err" $status 1 "^error: cannot write standard output: No space left on device$"'

# ---- 3. a full result cache ----
R=$tmp/rcache
if mount_tmpfs "$R" 4m; then
	ln -s "$SHARED/builds" "$R/builds"
	ln -s "$SHARED/trees" "$R/trees"
	mkdir "$R/results"
	fill "$R" 0
	RR=$(re "$R")
	LSBISECT_CACHE=$R "$LINSCHED" run "$REV" --workload hog "${SHORT[@]}" \
		2> "$tmp/rc-run.err"
	status=$?
	test_expect_success "run with a full cache: status $status, the results file and errno named" \
		'said "$tmp/rc-run.err" $status 1 "^error: revision '\''$REV'\'': cannot write results '\''$RR/run-[0-9]+\.json'\'': No space left on device$"'
	LSBISECT_CACHE=$R "$LINSCHED" sweep "$REV" --workload hog "${SHORT[@]}" \
		--out "$tmp/rc-sweep" > /dev/null 2> "$tmp/rc-sweep.err"
	status=$?
	test_expect_success "sweep with a full result cache: status $status, the file in the cache and errno named" \
		'said "$tmp/rc-sweep.err" $status 4 "^error: 1 of 1 units failed; the first: cannot write results '\''$RR/results/run\.[0-9]+\.[^ ]+\.json'\'': No space left on device$"'
	LSBISECT_CACHE=$R "$LINSCHED" report "$REV" "$TEST_V72" --match hog-n1 \
		--seeds 1 "${SHORT[@]}" --out "$tmp/rc-report" > /dev/null 2> "$tmp/rc-report.err"
	status=$?
	test_expect_success "report with a full result cache: status $status, named" \
		'said "$tmp/rc-report.err" $status 4 "^error: 2 of 2 units failed; the first: cannot write results '\''$RR/results/run\.[0-9]+\.[^ ]+\.json'\'': No space left on device$"'
	LSBISECT_CACHE=$R "$LSBISECT" "$REV" "$TEST_V72" hog "${SHORT[@]}" \
		--out "$tmp/rc-bisect" > /dev/null 2> "$tmp/rc-bisect.err"
	status=$?
	test_expect_success "lsbisect with a full result cache: status $status, named" \
		'[ $status = 4 ] && grep -Eq "cannot write results '\''$RR/results/run\.[0-9]+\.[^ ]+\.json'\'': No space left on device$" "$tmp/rc-bisect.err"'
	rm "$R/filler"
	LSBISECT_CACHE=$R "$LINSCHED" sweep "$REV" --workload hog "${SHORT[@]}" \
		--out "$tmp/rc-sweep" > /dev/null 2> "$tmp/rc-sweep2.err"
	status=$?
	test_expect_success "room again: the sweep has its result (status $status), no run's temporaries left" \
		'[ $status = 0 ] && [ -z "$(ls "$R/results" | grep "^run\.")" ] &&
		 [ "$(find "$R/results" -type f | wc -l)" = 1 ]'
else
	for i in 1 2 3 4 5; do
		skip "mounting a tmpfs is not permitted here"
	done
fi

# ---- 4. a build on a full disk, stopped by signals, killed ----
C=$tmp/bcache
V=$TEST_V61
if mount_tmpfs "$C" 256m; then
	have_tmpfs=1
else
	have_tmpfs=
	mkdir -p "$C"
fi
export LSBISECT_CACHE=$C
CC=$(re "$C")
temporaries() { ls -d "$C"/builds/*.tmp.* "$C"/trees/*.tmp.* 2>/dev/null || true; }
failures() { ls -d "$C"/builds/*.failed 2>/dev/null || true; }
# the processes working in this cache: make, gcc, linsched
workers() { pgrep -f "$C/" || true; }
no_workers() { [ -z "$(workers)" ]; }
exported() { ls "$C"/trees/*/.lsbisect-export > /dev/null 2>&1; }
in_kbuild() { ls -d "$C"/builds/*.tmp.*/o/include/config > /dev/null 2>&1; }
# until: COND holds, or the build started last has ended (it failed)
until_or_ended() { "$1" || ! kill -0 "$bpid" 2>/dev/null; }
# start_build: 'linsched build V' in a session of its own (pid: $bpid),
# SIGINT not ignored (as from a terminal, not as a background job)
start_build() {
	setsid env --default-signal=INT "$LINSCHED" build "$V" \
		> "$tmp/b.out" 2> "$tmp/b.err" &
	bpid=$!
	bg_pids+=" $bpid"
}

# the export, stopped by SIGTERM as soon as it is done
start_build
wait_for 600 until_or_ended exported
kill -TERM "$bpid"
wait "$bpid"
status=$?
wait_for 20 no_workers
test_expect_success "SIGTERM after the export: status $status (the signal's), no temporary, nothing left running" \
	'[ $status = 143 ] && exported && [ -z "$(temporaries)" ] && no_workers'

if [ -n "$have_tmpfs" ]; then
	fill "$C" 2048
	"$LINSCHED" run "$V" --workload hog "${SHORT[@]}" 2> "$tmp/enospc.err"
	status=$?
	test_expect_success "a full disk during the build: status $status, an error outside the tree, not the revision's failure" \
		'said "$tmp/enospc.err" $status 1 "^error: revision '\''$V'\'' \([0-9a-f]{12}\): Linux [0-9.]+: the build failed for a cause outside the tree \(not cached as its failure\): .*the file system of '\''$CC/builds'\'' is full \([0-9]+ KiB free\)$"'
	test_expect_success "nothing cached: no failed build, no result, no temporary" \
		'[ -z "$(failures)" ] && [ -z "$(temporaries)" ] &&
		 [ "$(find "$C/results" -type f 2>/dev/null | wc -l)" = 0 ]'
	rm "$C/filler"
else
	skip "mounting a tmpfs is not permitted here"
	skip "mounting a tmpfs is not permitted here"
fi

# SIGTERM to the process alone, in kbuild: it stops make and cleans up
start_build
wait_for 600 until_or_ended in_kbuild
sleep 1
kill -TERM "$bpid"
wait "$bpid"
status=$?
wait_for 20 no_workers
test_expect_success "SIGTERM in kbuild: status $status, its KEY.tmp.PID removed, make and gcc stopped, no failure cached" \
	'[ $status = 143 ] && [ -z "$(temporaries)" ] && no_workers && [ -z "$(failures)" ]'

# Ctrl-C: SIGINT to the whole process group
start_build
wait_for 600 until_or_ended in_kbuild
sleep 1
kill -INT -- "-$bpid"
wait "$bpid"
status=$?
wait_for 20 no_workers
test_expect_success "Ctrl-C in kbuild: status $status, its KEY.tmp.PID removed, nothing left running, no failure cached" \
	'[ $status = 130 ] && [ -z "$(temporaries)" ] && no_workers && [ -z "$(failures)" ]'

# SIGKILL to the whole group: the temporary stays, for the next build
start_build
wait_for 600 until_or_ended in_kbuild
sleep 1
kill -KILL -- "-$bpid"
wait "$bpid" 2>/dev/null
status=$?
wait_for 20 no_workers
left=$(temporaries)
test_expect_success "SIGKILL in kbuild (status $status): its temporary stays (${left##*/})" \
	'[ $status = 137 ] && [ -n "$left" ] && [ -d "$left/o" ]'

# a failure an older version cached for a full disk
key=${left##*/}
key=${key%%.tmp.*}
mkdir -p "$C/builds/$key.failed"
echo "kernel/sched/core.c:1:1: fatal error: error writing to /tmp/ccX.s: No space left on device" \
	> "$C/builds/$key.failed/build.log"
"$LINSCHED" run "$V" --workload hog --duration 10ms --topology dual \
	--json "$tmp/after.json" --quiet 2> "$tmp/after.err"
status=$?
test_expect_success "the next build of the key (status $status): the killed one's temporary and the full disk's cached failure removed, built and run" \
	'[ $status = 0 ] && [ -z "$(temporaries)" ] && [ -z "$(failures)" ] &&
	 [ -x "$C/builds/$key/linsched-sim" ] && json_is "$tmp/after.json" duration_ns 10000000'
export LSBISECT_CACHE=$tmp/cache

# ---- 5. kernel_work needs the work build ----
for m in kernel_work kernel_work.max_irq_calls; do
	"$LSBISECT" v9.9 v9.8 hog --metric "$m" > /dev/null 2> "$tmp/kw.err"
	status=$?
	test_expect_success "lsbisect --metric $m in a plain build: status $status, --instrument work named, before anything" \
		'said "$tmp/kw.err" $status 2 "^error: --metric '\''$m'\'': only a build made with --instrument work has it \(this one is plain\): add --instrument work$"'
done
LSBISECT_INSTRUMENT=work "$LSBISECT" v9.9 v9.8 hog --metric kernel_work \
	> /dev/null 2> "$tmp/kw2.err"
status=$?
test_expect_success "with the work build it is taken (status $status: v9.9 is what it refuses)" \
	'[ $status = 2 ] && ! grep -q "instrument" "$tmp/kw2.err" && grep -q "v9.9" "$tmp/kw2.err"'

# ---- 6. a refused topology in report and sweep, as in run ----
"$LINSCHED" run "$REV" --workload hog --topology 65 --duration 10ms -q \
	2> "$tmp/65-run.err"
rs=$?
"$LINSCHED" report "$REV" "$TEST_V72" --match hog-n1 --seeds 1 --topology 65 \
	--duration 10ms -q --out "$tmp/r65" > /dev/null 2> "$tmp/65-report.err"
status=$?
test_expect_success "report on 65 CPUs: status $status as run's ($rs), the simulator's words" \
	'said "$tmp/65-run.err" $rs 2 "^error: topology '\''65'\'': 65 CPUs, but this kernel was built for at most 64$" &&
	 said "$tmp/65-report.err" $status 2 "^error: 2 of 2 units failed; the first: topology '\''65'\'': 65 CPUs, but this kernel was built for at most 64$"'
"$LINSCHED" sweep "$REV" --workload hog --topology 65 --duration 10ms -q \
	--out "$tmp/s65" > /dev/null 2> "$tmp/65-sweep.err"
status=$?
test_expect_success "sweep on 65 CPUs: status $status" \
	'said "$tmp/65-sweep.err" $status 2 "^error: 1 of 1 units failed; the first: topology '\''65'\''"'

# ---- 7. A...B, and the history builder's name ----
for c in classes trend sweep; do
	args=()
	[ $c = classes ] || args=(--workload hog --topology dual)
	"$LINSCHED" $c "$TEST_V72...$TEST_V73" "${args[@]}" \
		> /dev/null 2> "$tmp/3dots.err"
	status=$?
	test_expect_success "linsched $c A...B: status $status, three dots named" \
		'[ $status = 2 ] && grep -q "^error: '\''$TEST_V72\.\.\.$TEST_V73'\'': expected GOOD\.\.BAD (two dots; " "$tmp/3dots.err" &&
		 ! grep -q "not found" "$tmp/3dots.err"'
done
"$LINSCHED" classes "$TEST_V72..$TEST_V73" > /dev/null 2> "$tmp/2dots.err"
status=$?
test_expect_success "two dots still a range (status $status)" \
	'[ $status = 0 ] && grep -q "^$TEST_V72\.\.$TEST_V73: [0-9]* commits" "$tmp/2dots.err"'
"$LINSCHED" kernels --bogus > /dev/null 2> "$tmp/kernels.err"
status=$?
test_expect_success "linsched kernels --bogus: status $status, named as linsched kernels" \
	'[ $status = 2 ] && grep -q "^error: unknown argument '\''--bogus'\''$" "$tmp/kernels.err" &&
	 grep -q "^Try '\''linsched kernels --help'\''\.$" "$tmp/kernels.err" &&
	 ! grep -q "kernels\.sh" "$tmp/kernels.err"'

test_done
