#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --jitter F: each run event's work times 1 + F(2u - 1), u from the
# task's own seeded draws. Without it the simulator is noiseless: four
# identical periodic tasks forked at one instant on two CPUs stay in
# lockstep, two a CPU, and never migrate (the same release in QEMU: 38-71
# migrations/s). With 1 % they drift apart and move; a seed gives the
# same bytes every time, another seed other bytes; 0 is no jitter at
# all, byte for byte. Runs on the history's newest 7.3 release.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rev=$TEST_V73
w='periodic*4:run=3ms:sleep=3ms'

# run NAME [OPTION...]: 2 s of $w on two CPUs, $tmp/NAME.json and .trace;
# with --cpuidle poll, as linsched vm --compare runs the simulator: the
# VM's vCPUs have no idle states, no exit latency
run() {
	local name=$1
	shift
	"$LINSCHED" run $rev --workload "$w" --topology 1x2x1 --duration 2 \
		--cpuidle poll --json "$tmp/$name.json" \
		--trace "$tmp/$name.trace" --quiet "$@"
}

# figures FILE: "MIGRATIONS_PER_S SPREAD" of a run: migrations a second
# over every domain level, and the tasks' CPU times' spread (max - min)
# as a fraction of the largest
figures() {
	json "$1" "'%g %.6f' % (sum(r['metrics']['migrations_per_s'].values()), (max(t['sum_exec_ns'] for t in r['tasks']) - min(t['sum_exec_ns'] for t in r['tasks'])) / max(t['sum_exec_ns'] for t in r['tasks']))"
}

run exact
read -r m0 spread0 < <(figures "$tmp/exact.json")
# two pairs in step: 671.8 and 670.9 ms of CPU time each
test_expect_success "$rev, no jitter: lockstep: $m0 migrations/s, the four tasks' CPU times within $spread0 of each other" '
	[ "$m0" = 0 ] && within "$spread0" 0 0.002 &&
	[ "$(json "$tmp/exact.json" "\"jitter\" in r")" = False ]'

# seed 3: 43 migrations/s (the seeds 1-8 give 0-51: a seed may keep the
# pairs locked for 2 s, seeds 4 and 7 do)
run j3 --jitter 1% --seed 3
run j3again --jitter 0.01 --seed 3
run j5 --jitter 1% --seed 5
read -r m3 spread3 < <(figures "$tmp/j3.json")
read -r m5 spread5 < <(figures "$tmp/j5.json")
test_expect_success "--jitter 1%, seed 3: the tasks drift apart and move: $m3 migrations/s (seed 5: $m5)" '
	within "$m3" 20 1e9 && within "$m5" 20 1e9'
test_expect_success "a seed gives the same bytes again ('1%' and '0.01' alike)" '
	cmp "$tmp/j3.json" "$tmp/j3again.json" &&
	cmp "$tmp/j3.trace" "$tmp/j3again.trace"'
test_expect_success "another seed other bytes" '
	! cmp -s "$tmp/j3.json" "$tmp/j5.json"'
test_expect_success "the results record \"jitter\": 0.01, next to the seed" '
	json_is "$tmp/j3.json" jitter 0.01 &&
	[ "$(json "$tmp/j3.json" "list(r)[list(r).index(\"seed\") + 1]")" = jitter ]'
test_expect_success "the trace's header too" '
	sed -n 3p "$tmp/j3.trace" | grep -q ", seed 3, jitter 0.01$" &&
	sed -n 3p "$tmp/exact.trace" | grep -q ", seed 1$"'

run zero --jitter 0
run zero-pct --jitter 0%
test_expect_success "--jitter 0 and 0%: the same bytes as none (results and trace)" '
	cmp "$tmp/exact.json" "$tmp/zero.json" &&
	cmp "$tmp/exact.trace" "$tmp/zero.trace" &&
	cmp "$tmp/exact.json" "$tmp/zero-pct.json" &&
	cmp "$tmp/exact.trace" "$tmp/zero-pct.trace"'

# refused with exit 2 and the message: by linsched run before any build
# (no such revision), by lsbisect, and by the simulator itself
msg="expected a fraction 0-0.5 or a percentage 0-50%"
st=0
for v in 2x 0.6 51% -0.01 1e-2 nan ''; do
	"$LINSCHED" run no-such-rev --workload "$w" --topology 1x2x1 \
		--jitter "$v" 2> "$tmp/err"
	s=$?
	[ $s = 2 ] && grep -qxF "error: --jitter '$v': $msg" "$tmp/err" ||
		{ diag "--jitter '$v': exit $s: $(cat "$tmp/err")"; st=1; }
done
test_expect_success "linsched run: bad values refused before any build (exit 2: $msg)" \
	'[ $st = 0 ]'
"$LSBISECT" no-such-good no-such-bad "$w" --jitter 50.5% 2> "$tmp/err"
s=$?
test_expect_success "lsbisect: refused too (exit $s)" \
	'[ $s = 2 ] && grep -qxF "error: --jitter '"'50.5%'"': $msg" "$tmp/err"'
sim=$("$LINSCHED" build $rev)
"$sim" --topology 1x2x1 --workload "$w" --jitter 2x 2> "$tmp/err"
s=$?
test_expect_success "linsched-sim: refused by the simulator (exit $s)" \
	'[ $s = 2 ] && grep -qxF "error: --jitter '"'2x'"': $msg" "$tmp/err"'

test_done
