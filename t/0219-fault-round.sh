#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Faults over the commands that write output directories: on a file
# system that fills up part-way, a command either writes every file whole
# and exits 0, or exits non-zero saying "No space left on device" and
# where; gnuplot, which exits 0 when its writes fail, is not taken at its
# word. One command at a time writes in an output directory: a second
# one is refused before it builds or runs anything, naming the holder.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
tmp=$(mktemp -d)
mounts=
bg=
cleanup() {
	local m
	[ -z "$bg" ] || kill -KILL $bg 2>/dev/null
	for m in $mounts; do
		umount "$m" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
REV=$TEST_V61

# small KB: a fresh tmpfs of KB kilobytes at $tmp/sKB
small() {
	mkdir -p "$tmp/s$1" && mount -t tmpfs -o "size=$1k" tmpfs "$tmp/s$1" &&
		mounts="$mounts $tmp/s$1"
}
mkdir -p "$tmp/probe"
mount -t tmpfs -o size=8k tmpfs "$tmp/probe" 2>/dev/null ||
	skip_all "cannot mount a tmpfs here (not root?)"
umount "$tmp/probe"
plan 10

# whole DIR: every PNG ends with IEND, every SVG with </svg>
whole() {
	python3 - "$1" <<'PY'
import glob, sys
for p in glob.glob(sys.argv[1] + '/*.png'):
    assert open(p, 'rb').read()[-8:-4] == b'IEND', p
for p in glob.glob(sys.argv[1] + '/*.svg'):
    assert open(p, 'rb').read().rstrip().endswith(b'</svg>'), p
PY
}

# ---- 1. linsched timeline on file systems from 8 to 256 KB ----
"$LINSCHED" timeline "$REV" -w 'hog*2' -t dual -d 100ms --out "$tmp/tl" \
	>/dev/null 2>&1
ok $? "timeline with room: its files written"
bad= failed=0 fine=0
for kb in 8 16 24 32 40 48 56 64 96 128 256; do
	small $kb || { bad="$bad $kb:mount"; continue; }
	"$LINSCHED" timeline "$REV" -w 'hog*2' -t dual -d 100ms \
		--out "$tmp/s$kb/tl" >/dev/null 2>"$tmp/err$kb"
	status=$?
	if [ $status = 0 ]; then
		whole "$tmp/s$kb/tl" && [ -s "$tmp/s$kb/tl/timeline.png" ] &&
			[ -s "$tmp/s$kb/tl/timeline.svg" ] || bad="$bad $kb:cut"
		fine=$((fine + 1))
	else
		grep -q "No space left on device" "$tmp/err$kb" ||
			bad="$bad $kb:$(head -c 200 "$tmp/err$kb")"
		failed=$((failed + 1))
	fi
done
test_expect_success "full: exit 0 with whole images or an error saying the disk is full (${bad:-all}; $failed failed, $fine whole)" \
	'[ -z "$bad" ] && [ $failed -ge 3 ] && [ $fine -ge 1 ]'
grep -h "gnuplot exited 0 but" "$tmp"/err* > "$tmp/gnuplot.err"
test_expect_success "and a cut image is named: $(head -n1 "$tmp/gnuplot.err")" \
	'[ -s "$tmp/gnuplot.err" ]'

# ---- 2. one command at a time in an output directory ----
# held DIR: whether DIR/.lock is held (fcntl(), as the commands lock it)
held() {
	python3 -c 'import fcntl, sys; fcntl.lockf(open(sys.argv[1], "r+"), fcntl.LOCK_EX | fcntl.LOCK_NB)' \
		"$1/.lock" 2>/dev/null && return 1
	[ -e "$1/.lock" ]
}
"$LINSCHED" sweep "$REV" -w 'random*64:run=100us:sleep=200us' -t quad \
	-d 600s --out "$tmp/held" >/dev/null 2>&1 &
bg=$!
for i in $(seq 300); do
	grep -q "linsched sweep" "$tmp/held/.lock" 2>/dev/null && held "$tmp/held" && break
	sleep 0.1
done
before=$(cd "$tmp/held" && find . | sort | md5sum)
bad=
while read -r name args; do
	# shellcheck disable=SC2086
	"$LINSCHED" $name $args --out "$tmp/held" >/dev/null 2>"$tmp/held.err"
	status=$?
	[ $status != 0 ] &&
		grep -q "another linsched sweep works in '$tmp/held': the lock '$tmp/held/.lock' is held by pid $bg$" "$tmp/held.err" ||
		bad="$bad $name:$status:$(head -c 200 "$tmp/held.err")"
done <<EOF
report $REV $TEST_V612 --match hog-n1 -t dual --seeds 1 -d 10ms
trend $REV..$TEST_V612 -w hog -t dual -d 10ms
timeline $REV -w hog -t dual -d 10ms
sweep $REV -w hog -t dual -d 10ms
coverage $REV -w hog -t dual -d 10ms
suite run $REV --match hog-n1 -t dual -d 10ms
bugs run uclamp_inversion
EOF
"$LSBISECT" "$REV" "$TEST_V612" hog -t dual -d 10ms --out "$tmp/held" \
	>/dev/null 2>"$tmp/held.err"
status=$?
[ $status = 2 ] &&
	grep -q "another linsched sweep works in '$tmp/held': the lock '$tmp/held/.lock' is held by pid $bg$" "$tmp/held.err" ||
	bad="$bad lsbisect:$status:$(head -c 200 "$tmp/held.err")"
after=$(cd "$tmp/held" && find . | sort | md5sum)
test_expect_success "a sweep's directory: report, trend, timeline, sweep, coverage, suite run, bugs run and lsbisect refused, naming it and its pid, nothing written (${bad:-all})" \
	'[ -z "$bad" ] && [ "$before" = "$after" ] && held "$tmp/held"'
{ kill -KILL $bg && wait $bg; } 2>/dev/null
bg=
"$LINSCHED" timeline "$REV" -w hog -t dual -d 10ms --out "$tmp/held" \
	>/dev/null 2>"$tmp/held.err"
status=$?
test_expect_success "the holder killed, the directory is free again (status $status)" \
	'[ $status = 0 ] && [ -s "$tmp/held/timeline.png" ]'
test_expect_success "and the lock names its new holder" \
	'grep -q "^[0-9]* linsched timeline$" "$tmp/held/.lock"'
"$LINSCHED" timeline "$REV" -w hog -t dual -d 10ms --out "$tmp/two" \
	>/dev/null 2>"$tmp/two2.err" &
pid=$!
"$LINSCHED" timeline "$REV" -w hog -t dual -d 10ms --out "$tmp/two" \
	>/dev/null 2>"$tmp/two1.err"
s1=$?
wait $pid
s2=$?
# refused N PID: the run N was refused, naming PID
refused() {
	grep -q "another linsched timeline works in .$tmp/two.: the lock .$tmp/two/.lock. is held by pid $2$" "$tmp/two$1.err"
}
test_expect_success "two at once: both finish, or one is refused naming the other ($s1 $s2)" \
	'whole "$tmp/two" && [ -s "$tmp/two/timeline.png" ] &&
	 { [ $s1 = 0 ] || refused 1 $pid; } && { [ $s2 = 0 ] || refused 2 "[0-9]*"; } &&
	 [ $((s1 + s2)) -le 1 ]'

# ---- 3. topology's writes: the file or standard output, with errno ----
"$LINSCHED" topology show quad > /dev/full 2> "$tmp/topo1.err"
status=$?
test_expect_success "topology show > /dev/full: status 1, said once with errno ($status: $(cat "$tmp/topo1.err"))" \
	'[ $status = 1 ] && [ "$(cat "$tmp/topo1.err")" = "error: cannot write '\''standard output'\'': No space left on device" ]'
"$LINSCHED" topology --from-sysfs -o /dev/full > /dev/null 2> "$tmp/topo2.err"
status=$?
test_expect_success "topology --from-sysfs -o /dev/full: status 1, the file and errno ($status)" \
	'[ $status = 1 ] && grep -q "^error: cannot write '\''/dev/full'\'': No space left on device$" "$tmp/topo2.err"'

# ---- 4. a script's seed the log could not keep ----
printf '(lambda (good this)\n  (run "%s" (expt 2 60))\n  #f)\n' "$REV" > "$tmp/big.scm"
"$LSBISECT" "$REV" "$TEST_V612" hog -t dual -d 10ms --script "$tmp/big.scm" \
	--out "$tmp/big" >/dev/null 2>"$tmp/big.err"
status=$?
test_expect_success "(run REV 2^60) in a script: status 4, the script's line, the range of seeds ($status: $(head -n1 "$tmp/big.err"))" \
	'[ $status = 4 ] &&
	 grep -q "big.scm:2:3: In procedure run: .*integer from 0 to 2^53" "$tmp/big.err"'

test_done
