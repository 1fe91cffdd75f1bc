#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched vm --compare: the simulator against the real kernel, per metric.
# On 7.3.4 (its VM kernel cached), 2 vCPUs, tcg-icount, 4 s windows, two
# boots and two seeds of two workloads: the lone loop of two equal groups
# (one loop against four) gets the same share in both, and every share
# agrees; the comparison's numbers are the simulator's own results and the
# boots' own CPU times; realism.md counts the comparisons of both
# workloads. Judged again without booting (--no-boot) with a zero share
# tolerance, the real small differences of the four crowded loops' shares
# are verdicts 'differ' and the exit status is 8. Bad options are refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
vm_prereqs 7.3.4
plan 11
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the simulator's results are this test's own; builds, the VM kernel and
# the release's package are the shared ones
private_cache "$tmp/cache"
ln -sfn "$LSBISECT_CACHE/vm" "$tmp/cache/vm"
ln -sfn "$LSBISECT_CACHE/debs" "$tmp/cache/debs"
export LSBISECT_CACHE=$tmp/cache
REV=$TEST_V73
W=$LSB_ROOT/t/workloads
ACCEL=${LSB_VM_ACCEL:-tcg-icount}

# ---- refusals, before anything boots ----
"$LINSCHED" vm "$REV" --workload 'hog*2' --topology 1x2x1 --seeds 2 \
	--out "$tmp/noc" 2> "$tmp/noc.err"
status=$?
test_expect_success "--seeds without --compare is refused (status $status)" '
	[ $status = 2 ] && [ ! -e "$tmp/noc" ] &&
	[ "$(cat "$tmp/noc.err")" = "error: --seeds needs --compare" ]'

"$LINSCHED" vm "$REV" --workload 'hog*2' --topology 1x2x1 --compare \
	--tolerance runn=0.1 --out "$tmp/tol" 2> "$tmp/tol.err"
status=$?
test_expect_success "an unknown --tolerance kind is refused with the kinds (status $status)" '
	[ $status = 2 ] && [ ! -e "$tmp/tol" ] &&
	[ "$(cat "$tmp/tol.err")" = "error: --tolerance '\''runn=0.1'\'': unknown kind '\''runn'\'': expected KIND=V, KIND one of share, conservation, fairness, migrations, latency, balance" ]'

"$LINSCHED" vm "$REV" --workload 'hog*2' --topology 1x2x1 --compare \
	--no-boot --out "$tmp/none" 2> "$tmp/none.err"
status=$?
test_expect_success "--no-boot where nothing booted is refused (status $status)" '
	[ $status = 2 ] && [ ! -e "$tmp/none" ] &&
	[ "$(cat "$tmp/none.err")" = "error: --no-boot: no boots in '\''$tmp/none'\'': '\''$tmp/none/summary.json'\'' is missing" ]'

# ---- two workloads, two boots each, two seeds ----
start=$SECONDS
"$LINSCHED" vm "$REV" --workload "$W/vm-two-groups.json" --workload 'hog*4' \
	--topology 1x2x1 --duration 4 --runs 2 --seeds 2 --accel "$ACCEL" \
	--compare --out "$tmp/cmp" > "$tmp/cmp.out" 2> "$tmp/cmp.err"
status=$?
diag "compare: $((SECONDS - start)) s"
sed 's/^/# /' "$tmp/cmp.out"
G=$tmp/cmp/1-vm-two-groups
H=$tmp/cmp/2-hog_4
lone() {
	json "$1" "[m for m in r['metrics'] if m['metric'] == 'share lone'][0][a[0]]" "$2"
}
# a metric that differs on a noisy boot (a balance score from one
# transient stack) is that boot's: the table goes to the log
[ $status = 0 ] || sed 's/^/# /' "$tmp/cmp.out" >&2
shares_agree() {
	json "$1" "all(m['verdict'] == 'agree' for m in r['metrics'] if m['kind'] == 'share')"
}
test_expect_success "two groups: the lone loop's share agrees (0.60-0.70 in both); every share of both workloads agrees (status $status)" '
	{ [ $status = 0 ] || [ $status = 8 ]; } &&
	[ "$(lone "$G/compare.json" verdict)" = agree ] &&
	within "$(lone "$G/compare.json" sim_median)" 0.60 0.70 &&
	within "$(lone "$G/compare.json" vm_median)" 0.60 0.70 &&
	grep -q "^share lone  *0\.6[0-9]*  *0\.6[0-9]*  *0\.6[0-9]*-0\.6[0-9]*  *+-0\.05  agree$" "$tmp/cmp.out" &&
	[ "$(grep -c "^verdict: \(agree\|differ\): [0-9]* of [0-9]* metrics agree (2 simulator seeds, 2 boots)$" "$tmp/cmp.out")" = 2 ] &&
	[ "$(shares_agree "$G/compare.json")" = True ] &&
	[ "$(shares_agree "$H/compare.json")" = True ]'

# the simulator's side is `linsched run --cpuidle poll`'s result (the
# guest's vCPUs have no idle states), the VM's the boots'
"$LINSCHED" run "$REV" --workload "$W/vm-two-groups.json" --topology 1x2x1 \
	--duration 4 --seed 2 --cpuidle poll --json "$tmp/seed2.json" --quiet 2> "$tmp/seed2.err"
run_share=$(json "$tmp/seed2.json" "[t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'lone'][0] / r['duration_ns']")
vm_shares=$(json "$G/summary.json" "' '.join(repr(t['cpu_ns'] / x['window_ns']) for x in r['runs'] for t in x['tasks'] if t['name'] == 'lone')")
sim2=$(json "$G/compare.json" "[m['sim'][1] for m in r['metrics'] if m['metric'] == 'share lone'][0]")
vm_vals=$(json "$G/compare.json" "' '.join(repr(v) for v in [m for m in r['metrics'] if m['metric'] == 'share lone'][0]['vm'])")
vm_min=$(json "$G/summary.json" "repr(min(t['cpu_ns'] / x['window_ns'] for x in r['runs'] for t in x['tasks'] if t['name'] == 'lone'))")
# the four crowd loops are instances of one task: compared by rank, the
# largest share in crowd-0's row
run_crowd=$(json "$tmp/seed2.json" "sorted((t['sum_exec_ns'] / r['duration_ns'] for t in r['tasks'] if t['name'].startswith('crowd-')), reverse=True)")
cmp_crowd=$(json "$G/compare.json" "[[m['sim'][1] for m in r['metrics'] if m['metric'] == 'share crowd-%d' % i][0] for i in range(4)]")
vm_crowd=$(json "$G/summary.json" "sorted((t['cpu_ns'] / r['runs'][0]['window_ns'] for t in r['runs'][0]['tasks'] if t['name'].startswith('crowd-')), reverse=True)")
cmp_vm_crowd=$(json "$G/compare.json" "[[m['vm'][0] for m in r['metrics'] if m['metric'] == 'share crowd-%d' % i][0] for i in range(4)]")
test_expect_success "its numbers: seed 2 is linsched run's, the band the boots' cpu_ns / window, the crowd by rank ($run_share; $vm_shares; $cmp_crowd)" '
	[ -n "$run_share" ] && [ "$sim2" = "$run_share" ] &&
	[ -n "$vm_shares" ] && [ "$vm_vals" = "$vm_shares" ] &&
	[ "$(lone "$G/compare.json" vm_min)" = "$vm_min" ] &&
	[ -n "$run_crowd" ] && [ "$cmp_crowd" = "$run_crowd" ] &&
	[ -n "$vm_crowd" ] && [ "$cmp_vm_crowd" = "$vm_crowd" ]'

test_expect_success "compare.json: what was compared, the tolerances, each metric" '
	json_is "$G/compare.json" revision "$REV" &&
	json_is "$G/compare.json" topology 1x2x1 &&
	json_is "$G/compare.json" window_ns 4000000000 &&
	json_is "$G/compare.json" seeds "[1, 2]" &&
	json_is "$G/compare.json" vm_runs "[1, 2]" &&
	json_is "$G/compare.json" tolerances.share.abs 0.05 &&
	json_is "$G/compare.json" tolerances.migrations.rel 0.5 &&
	json_is "$G/compare.json" tolerances.latency.abs 1000000 &&
	[ "$(json "$G/compare.json" "sorted(m[\"metric\"] for m in r[\"metrics\"])")" = "$(json "$G/compare.json" "sorted([\"share lone\", \"share crowd-0\", \"share crowd-1\", \"share crowd-2\", \"share crowd-3\", \"share group /a\", \"share group /b\", \"work conservation\", \"fairness\", \"balance score\", \"wakeup p50 ns\", \"wakeup p99 ns\"] + [m[\"metric\"] for m in r[\"metrics\"] if m[\"metric\"].startswith(\"migrations/s \")])")" ] &&
	json "$G/compare.json" "all(set(m) >= {\"kind\", \"sim\", \"vm\", \"tolerance\", \"verdict\"} and (m[\"verdict\"] == \"n/a\" or set(m) >= {\"sim_median\", \"vm_median\", \"vm_min\", \"vm_max\", \"low\", \"high\"}) for m in r[\"metrics\"])" | grep -qx True &&
	json_is "$G/compare.json" agree "$(json "$G/compare.json" "sum(m[\"verdict\"] == \"agree\" for m in r[\"metrics\"])")"'

agree=$(cat "$G/compare.json" "$H/compare.json" | python3 -c 'import json,sys; d=json.JSONDecoder(); s=sys.stdin.read(); a,i=d.raw_decode(s); b,_=d.raw_decode(s[i:].lstrip()); print(a["agree"]+b["agree"], a["agree"]+a["differ"]+b["agree"]+b["differ"])')
test_expect_success "realism.md: a row per workload and metric, the fraction that agrees ($agree)" '
	set -- $agree &&
	grep -q "^| $W/vm-two-groups.json | share lone | 0\.6[0-9]* | 0\.6[0-9]* | 0\.6[0-9]*-0\.6[0-9]* | +-0.05 | agree |$" "$tmp/cmp/realism.md" &&
	grep -q "^| hog\*4 | share hog-3 | 0\.[45][0-9]* | .* | agree |$" "$tmp/cmp/realism.md" &&
	grep -q "^| workload | metric | $REV: sim median | VM median | VM band | tolerance | verdict |$" "$tmp/cmp/realism.md" &&
	grep -q "^Agree: $1 of $2 comparisons (" "$tmp/cmp/realism.md" &&
	grep -q "^realism: $1 of $2 comparisons agree ($tmp/cmp/realism.md)$" "$tmp/cmp.out"'

# ---- judged again, no tolerance on shares: the real small differences ----
cp "$G/compare.json" "$tmp/first.json"
"$LINSCHED" vm "$REV" --workload "$W/vm-two-groups.json" --topology 1x2x1 \
	--duration 4 --seeds 2 --compare --no-boot --tolerance share=0 \
	--out "$G" > "$tmp/zero.out" 2> "$tmp/zero.err"
status=$?
sed 's/^/# /' "$tmp/zero.out"
test_expect_success "--tolerance share=0: a share outside the VM's band differs, status 8 ($status)" '
	[ $status = 8 ] && json_is "$G/compare.json" verdict differ &&
	json_is "$G/compare.json" tolerances.share.abs 0 &&
	json "$G/compare.json" "all((m[\"verdict\"] == \"differ\") == (not m[\"vm_min\"] <= m[\"sim_median\"] <= m[\"vm_max\"]) for m in r[\"metrics\"] if m[\"kind\"] == \"share\")" | grep -qx True &&
	[ "$(json "$G/compare.json" "sum(m[\"verdict\"] == \"differ\" for m in r[\"metrics\"])")" -gt 0 ] &&
	grep -q "^verdict: differ: [0-9]* of [0-9]* metrics agree (2 simulator seeds, 2 boots)$" "$tmp/zero.out" &&
	grep -q "  *+-0  differ$" "$tmp/zero.out" &&
	! grep -q "boot 1/" "$tmp/zero.err"'

test_expect_success "--no-boot judged the same boots and seeds: only the share verdicts may change" '
	[ "$(json "$tmp/first.json" "[(m[\"metric\"], m[\"sim\"], m[\"vm\"]) for m in r[\"metrics\"]]")" = "$(json "$G/compare.json" "[(m[\"metric\"], m[\"sim\"], m[\"vm\"]) for m in r[\"metrics\"]]")" ] &&
	[ "$(json "$tmp/first.json" "[m[\"verdict\"] for m in r[\"metrics\"] if m[\"kind\"] != \"share\"]")" = "$(json "$G/compare.json" "[m[\"verdict\"] for m in r[\"metrics\"] if m[\"kind\"] != \"share\"]")" ]'

# the workload's own 8 s against the boots' 4 s window
"$LINSCHED" vm "$REV" --workload "$W/vm-two-groups.json" --topology 1x2x1 \
	--seeds 2 --compare --no-boot --out "$G" > /dev/null 2> "$tmp/win.err"
status=$?
test_expect_success "--no-boot with another window than the boots' is refused (status $status)" '
	[ $status = 2 ] &&
	[ "$(cat "$tmp/win.err")" = "error: '\''$G/summary.json'\'': the boots measured a 4 s window, not 8 s: compare with the same --duration" ]'

test_expect_success "--help says --compare and exit status 8" '
	"$LINSCHED" vm --help > "$tmp/help" &&
	grep -q "^      --compare  " "$tmp/help" &&
	grep -q "8 (--compare) a metric differs" "$tmp/help"'

test_done
