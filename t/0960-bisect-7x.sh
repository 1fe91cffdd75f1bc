#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# lsbisect on a made-up history of 40 commits on the 7.3 release: the
# same plan as t/0900 (a load-balancing regression, a commit that does
# not compile, one that BUG()s, notes, and three commits outside the build
# subset after each), on 7.x's code: it names the regressing commit,
# skips the one that BUG()s with its reason, and, as BAD, refuses the one
# that does not compile with the compiler's error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
HISTORY_BASE=$TEST_V73 make_history "$work" "$BISECT_PLAN" > "$tmp/history"
id() { awk -v k="$1" '$2 == k { print $1; exit }' "$tmp/history"; }
lb=$(id lb); broken=$(id broken); bug=$(id bug)
n=$(wc -l < "$tmp/history")
diag "history on $TEST_V73: $n commits; lb $lb, broken $broken, bug $bug"
before=$(repo_state "$work")

private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
r() { json "$tmp/out/report.json" "$@"; }

"$LSBISECT" "$TEST_V73" bad "$BISECT_W" --repo "$work" --topology quad --duration 1s \
	--out "$tmp/out" > "$tmp/out.txt" 2> "$tmp/out.err"
status=$?
sed 's/^/# /' "$tmp/out.txt"
test_expect_success "a culprit is found in $n commits (status $status)" \
	'[ $status = 0 ] && [ "$n" -ge 30 ]'
test_expect_success "it is the commit that breaks load balancing ($lb)" \
	'[ "$(r "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'
k=$(r "r['culprit']['value_good'] == r['culprit']['value_parent'] and r['culprit']['value'] > 10 * r['culprit']['value_good']")
test_expect_success "balance score at GOOD = at the parent, far below the culprit's ($(r "r['culprit']['value_good'], r['culprit']['value_parent'], r['culprit']['value']"))" \
	'[ "$k" = True ]'
# the search goes away from the crash and does not reach the compile
# break: that one as BAD, which cannot be tested
"$LSBISECT" "$TEST_V73" "$broken" "$BISECT_W" --repo "$work" --topology quad --duration 1s \
	--out "$tmp/broken" > "$tmp/broken.txt" 2>&1
bstatus=$?
grep -q "skipped class 4 (${bug:0:12}): crashed: .*BUG: failure at kernel/sched/fair.c" "$tmp/out.txt" &&
	[ $bstatus = 2 ] &&
	grep -q "BAD '$broken' cannot be tested: build failed: kernel/sched/idle.c:[0-9]*:[0-9]*: error" "$tmp/broken.txt"
ok $? "the crash is skipped with the kernel's BUG message; the compile break gives the compiler's error"
test_expect_success "the repository is unchanged" \
	'[ "$(repo_state "$work")" = "$before" ]'
done_testing
