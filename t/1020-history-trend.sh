#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched trend over the whole bundled history, every 6.1 and 6.12 release
# Debian serves, for short periodic tasks that share the CPUs with hogs, on
# an SMT machine and an asymmetric one. The step from CFS (6.1) to EEVDF
# (6.12) shows in the wakeup latency, p99 about 0 against 2.5 to 3 ms.
# Under 6.1 a woken task preempts its hog at once: place_entity() puts its
# vruntime sched_latency/2 behind min_vruntime, more than wakeup_gran behind
# the hog's, and check_preempt_wakeup() preempts. Under 6.12 it waits for
# the tick at which the hog has used up its slice (update_deadline()):
# check_preempt_wakeup_fair() preempts only when pick_eevdf() picks the
# woken task, and the hog, in mid-slice, has the earlier virtual deadline.
. "$(dirname "$0")/lib.sh"

ensure_kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every 6.1 and 6.12 release the archive serves (cached .debs are not
# fetched again, releases in the history not extracted again)
if ! "$LINSCHED" kernels --series 6.1,6.12 >&2; then
	echo "Bail out! cannot add the 6.1 and 6.12 releases to the bundled history"
	exit 1
fi
all=$(git -C "$LSBISECT_REPO" tag -l 'v*' --sort=v:refname)
first=$(grep -m1 '^v6\.1\.' <<< "$all")
last=$(grep '^v6\.12\.' <<< "$all" | tail -n1)
tags=$(awk -v a="$first" -v b="$last" '$0 == a { on = 1 } on { print } $0 == b { exit }' <<< "$all" | tr '\n' ' ')
n61=$(grep -c '^v6\.1\.' <<< "$all")
n612=$(grep -c '^v6\.12\.' <<< "$all")
plan 6
diag "$first..$last: $n61 releases of 6.1, $n612 of 6.12"

W='hog*8+periodic*8:run=500us:sleep=5ms'
T1=quad-smt
T2=dynamiq-1+3+4
start=$(date +%s)
"$LINSCHED" trend "$first..$last" --workload "$W" --topology $T1 \
	--topology $T2 --duration 1s --out "$tmp/h" > "$tmp/h.out" 2> "$tmp/h.err"
rc=$?
diag "trend: $(($(date +%s) - start)) s (builds included)"
D1=$tmp/h/hog_8+periodic_8_run=500us_sleep=5ms-quad-smt
D2=$tmp/h/hog_8+periodic_8_run=500us_sleep=5ms-dynamiq-1+3+4
[ $rc = 0 ] && [ -d "$D1" ] && [ -d "$D2" ] && grep -q ', 0 gaps;' "$tmp/h.out" &&
	! grep -q . "$tmp/h.err"
ok $? "trend of the whole history on $T1 and $T2 exits 0 ($rc), no gaps, nothing on stderr"

rows="ok = ' '.join(r['label'] for r in d) + ' ' == '$tags' and all(r['status'] == 'ok' for r in d)"
trend_dat "$D1" "$rows" && trend_dat "$D2" "$rows"
ok $? "one row per release, labelled with its tag ($tags)"

# The step: every 6.12 release waits longer than every 6.1 release, by 1 ms
# at least (6.1: 0 to 1 us, 6.12: 2.5 ms on quad-smt, 2.9 ms on dynamiq).
step="
print('# ' + X)
for r in d:
    print('# %-10s p99 %9.0f ns  balance_score %8.0f' % (r['label'], r['wakeup_latency_ns.p99'], r['balance_score']))
old = [r['wakeup_latency_ns.p99'] for r in d if r['label'].startswith('v6.1.')]
new = [r['wakeup_latency_ns.p99'] for r in d if r['label'].startswith('v6.12.')]
ok = len(old) == $n61 and len(new) == $n612 and min(new) - max(old) >= 1e6
"
trend_dat "$D1" "X = '$T1'$step" && trend_dat "$D2" "X = '$T2'$step"
ok $? "wakeup_latency_ns.p99: every 6.12 release is at least 1 ms above every 6.1 release, on both machines"

# The plots: valid PNGs of their sizes, not blank; gnuplot runs each script
# again without a word; the two places of the plane are both labelled.
# trend widens the plots along the revisions past twelve of them
n=$(echo $tags | wc -w)
w=$((n > 12 ? 1000 + 30 * n : 1000))
bad=
for d in "$D1" "$D2"; do
	for p in balance-energy:${w}x560 plane:900x700 metrics:${w}x900; do
		c=$(png_check "$d/${p%%:*}.png" "${p#*:}")
		[ "${c:-0}" -gt 20 ] || bad="$bad ${d##*/}/${p%%:*}.png($c)"
		(cd "$d" && gnuplot "${p%%:*}.gp") > "$tmp/gp.out" 2>&1 &&
			! grep -q . "$tmp/gp.out" || bad="$bad ${d##*/}/${p%%:*}.gp"
	done
	[ "$(grep -vc '^#' "$d/plane.dat")" -ge 2 ] && grep -q 'with labels right' "$d/plane.gp" ||
		bad="$bad ${d##*/}/plane"
done
[ -z "$bad" ]
ok $? "each PNG has its size (${w} px wide for $n revisions) and more than 20 colours, each script runs again quietly${bad:+ (bad:$bad)}"
grep -qx "  $D1/metrics.png" "$tmp/h.out" && grep -qx "  $D2/metrics.png" "$tmp/h.out" &&
	grep -q "^set format y '%g'" "$D1/metrics.gp"
ok $? "it prints the plots' paths; tic labels are %g"

# The same specs with 'linsched run --json', one 6.1 and one 6.12 release.
for v in $TEST_V61 $TEST_V612; do
	for t in $T1 $T2; do
		"$LINSCHED" run $v --workload "$W" --topology $t --duration 1s \
			--json "$tmp/$v-$t.json" > /dev/null || echo "# run $v on $t failed"
	done
done
same="
ok = True
for v in ('$TEST_V61', '$TEST_V612'):
    j = json.load(open('$tmp/%s-%s.json' % (v, X)))
    row = [r for r in d if r['label'] == v][0]
    for m in METRICS:
        a, b = row[m], metric(j, m)
        ok = ok and row['first_commit'] == j['commit'] and abs(a - b) <= 1e-9 * max(1, abs(b))
"
trend_dat "$D1" "X = '$T1'$same" && trend_dat "$D2" "X = '$T2'$same"
ok $? "for $TEST_V61 and $TEST_V612 on both machines, the 6 metrics of trend.dat are those of 'linsched run --json'"

done_testing
