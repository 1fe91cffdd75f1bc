#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A power regression the balance score does not see: a commit that makes
# schedutil always choose the highest frequency. The default metric finds
# no regression; a --script predicate on energy finds the commit, and so
# does --metric energy_j.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
make_history "$work" "note power note note" 2 > "$tmp/history"
power=$(awk '$2 == "power" { print $1 }' "$tmp/history")
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
# tasks that leave the CPUs idle most of the time, on a machine with OPPs
W='periodic*4:run=2ms:sleep=8ms'
ARGS=(--repo "$work" --topology quad --duration 1s)
r() { json "$1/report.json" "${@:2}"; }

"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --out "$tmp/balance" > "$tmp/balance.txt" 2>&1
status=$?
test_expect_success "the balance score sees no regression (status $status): $(grep '^no regression' "$tmp/balance.txt")" \
	'[ $status = 1 ] && [ "$(r "$tmp/balance" "r['\''outcome'\'']")" = no-regression ]'

cat > "$tmp/energy.scm" <<'EOF'
;; bad when it takes 3 % more energy than GOOD
(lambda (good this)
  (> (energy this) (* 1.03 (energy good))))
EOF
"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --script "$tmp/energy.scm" \
	--out "$tmp/energy" > "$tmp/energy.txt" 2>&1
status=$?
sed 's/^/# /' "$tmp/energy.txt"
test_expect_success "a predicate on energy names the commit (status $status)" \
	'[ $status = 0 ] && [ "$(r "$tmp/energy" "r['\''culprit'\'']['\''commit'\'']")" = "$power" ]'
k=$(python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
s = [x for x in e if x['event'] == 'step']
print(all(x['details']['seeds'] == 1 for x in s), [x['verdict'] for x in s])" "$tmp/energy/log.jsonl")
test_expect_success "decided by the predicate, one seed a revision: $k" \
	'[ "${k%% *}" = True ]'
grep -q "^first bad commit: $power" "$tmp/energy.txt" &&
	grep -q "kernel/sched/cpufreq_schedutil.c" "$tmp/energy.txt"
ok $? "the report names it and the file it changed"

"$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --metric energy_j --out "$tmp/metric" > "$tmp/metric.txt" 2>&1
status=$?
k=$(r "$tmp/metric" "r['culprit']['value'] > 2 * r['culprit']['value_parent'] and r['culprit']['value_parent'] == r['culprit']['value_good']")
test_expect_success "--metric energy_j finds it too: $(grep '^energy_j:' "$tmp/metric.txt")" \
	'[ $status = 0 ] && [ "$(r "$tmp/metric" "r['\''culprit'\'']['\''commit'\'']")" = "$power" ] && [ "$k" = True ]'
k=$(r "$tmp/metric" "r['counts']['ran'] + r['counts']['cached']")
steps=$(r "$tmp/metric" "len(r['steps'])")
test_expect_success "4 classes take $steps steps ($k runs)" \
	'[ "$steps" -le 4 ]'
done_testing
