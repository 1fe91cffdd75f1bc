#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A kernel BUG() is the revision's result, not the tool's death, on 6.1 as
# on 7.3; so is a revision that does not compile. What the adapter does
# not handle (not a kernel, older than the arch, a shape no probe knows)
# is refused with exit 6 naming what was found; a version number alone
# decides nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 19
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo.git
git clone -q --bare "$LSBISECT_REPO" "$repo"

bug_in_tick='
i = s.index("static void task_tick_fair(")
i = s.index("{\n", i) + 2
s = s[:i] + "\tBUG();\n" + s[i:]'
commit_edit "$TEST_V61" bug "sched/fair: BUG() in the tick" kernel/sched/fair.c "$bug_in_tick"
commit_edit "$TEST_V73" bug73 "sched/fair: BUG() in the tick" kernel/sched/fair.c "$bug_in_tick"
commit_edit "$TEST_V61" warn "sched/fair: WARN in the tick" kernel/sched/fair.c '
i = s.index("static void task_tick_fair(")
i = s.index("{\n", i) + 2
s = s[:i] + "\tWARN_ON(1);\n" + s[i:]'
commit_edit "$TEST_V61" broken "sched/fair: does not compile" kernel/sched/fair.c '
s = s.replace("static void task_tick_fair(", "this is not C;\nstatic void task_tick_fair(", 1)'
# 7.3's sources calling themselves 8.0: the version decides nothing
commit_edit "$TEST_V73" future "Linux 8.0" Makefile '
import re
s = re.sub(r"(?m)^VERSION = 7$", "VERSION = 8", s)
s = re.sub(r"(?m)^PATCHLEVEL = 3$", "PATCHLEVEL = 0", s)'
# a tree older than the arch handles: kernel/sched without its 5.18 units
GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$TEST_V61"
GIT_INDEX_FILE=$tmp/index git -C "$repo" rm -q --cached kernel/sched/build_policy.c kernel/sched/build_utility.c
commit_index "$TEST_V61" old "sched: one object per class"
# a shape no probe knows: struct hrtimer with neither of its two known
# queued-state members
commit_edit "$TEST_V73" shape "hrtimer: rename is_queued" include/linux/hrtimer_types.h '
s = s.replace("bool\t\t\t\tis_queued;", "bool\t\t\t\tenqueued;")'
# not a kernel at all
printf 'hello\n' > "$tmp/readme"
blob=$(git -C "$repo" hash-object -w "$tmp/readme")
GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree --empty
GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --add --cacheinfo "100644,$blob,README"
commit_index "$TEST_V61" notkernel "a README"

for b in bug bug73; do
	"$LINSCHED" run $b --repo "$repo" --workload 'hog*2' --topology dual \
		--duration 1s --quiet 2> "$tmp/bug.err"
	status=$?
	test_expect_success "$b: a BUG() in the tick: the run ends with the crash status 4 (got $status)" \
		'[ $status = 4 ]'
	grep -q "crashed: .*kernel panic" "$tmp/bug.err"
	ok $? "$b: the crash is reported as the revision's: $(grep -m1 crashed "$tmp/bug.err" | cut -c1-160)"
	grep -q "BUG: failure at kernel/sched/fair.c:[0-9]*/task_tick_fair()" "$tmp/bug.err"
	ok $? "$b: with the kernel's own message: $(grep -m1 -o 'BUG: failure at [^ ]*' "$tmp/bug.err")"
done

"$LINSCHED" run warn --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 100ms --json "$tmp/warn.json" --log "$tmp/warn.log" --quiet
status=$?
n=$(json "$tmp/warn.json" "r['kernel_warnings']")
test_expect_success "a WARN in the tick is counted, not fatal ($n warnings, status $status)" \
	'[ $status = 0 ] && [ "$n" -ge 100 ]'
grep -q "WARNING: CPU: [0-9]* PID: [0-9]* at kernel/sched/fair.c:[0-9]*" "$tmp/warn.log"
ok $? "and logged: $(grep -m1 -o 'WARNING: .*' "$tmp/warn.log")"
"$LINSCHED" run warn --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 100ms --fatal-warnings --quiet 2> "$tmp/warn.err"
status=$?
test_expect_success "--fatal-warnings makes it a crash (status $status)" \
	'[ $status = 4 ] && grep -q "WARNING: .*fair.c" "$tmp/warn.err"'

"$LINSCHED" run "$TEST_V61" --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 100ms --quiet
ok $? "the tool still runs the release itself afterwards"

"$LINSCHED" run broken --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 1s --quiet 2> "$tmp/broken.err"
status=$?
test_expect_success "a compile error: the build-failure status 3 (got $status)" \
	'[ $status = 3 ]'
grep -q "build failed" "$tmp/broken.err"
ok $? "reported as the revision's build failure"
grep -q "fair.c:[0-9]*:[0-9]*: error:" "$tmp/broken.err"
ok $? "with the compiler's message: $(grep -m1 -o 'fair.c:[0-9]*:[0-9]*: error:.*' "$tmp/broken.err" | cut -c1-100)"
"$LINSCHED" run broken --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 1s --quiet 2> "$tmp/broken2.err"
status=$?
test_expect_success "the failure is cached: the second attempt says so at once" \
	'[ $status = 3 ] && grep -q '\''cached failure'\'' "$tmp/broken2.err"'

"$LINSCHED" run future --repo "$repo" --workload 'hog*8' --topology quad \
	--duration 1s --json "$tmp/future.json" --quiet 2> "$tmp/future.err"
status=$?
test_expect_success "a tree calling itself 8.0 builds and runs: probes decide, not the version (status $status)" \
	'[ $status = 0 ] && [ "$(json "$tmp/future.json" "r['\''kernel_version'\'']")" = 8.0.4 ]'

# expect_refusal NAME PATTERN DESCRIPTION: exit 6 with PATTERN in the message
expect_refusal() {
	local name=$1 pattern=$2
	"$LINSCHED" run "$name" --repo "$repo" --workload 'hog*2' --topology dual 2> "$tmp/$name.err"
	status=$?
	test_expect_success "$3 (status $status: $(grep -o "$pattern.*" "$tmp/$name.err" | head -c 160))" \
		'[ $status = 6 ] && grep -q "$pattern" "$tmp/$name.err"'
}
expect_refusal old "older than any the arch handles: probe 'sched_build_units' found no kernel/sched/build_policy.c" \
	"a tree older than the arch handles says so and names the probe"
expect_refusal shape "probes 'hrtimer_is_queued' and 'hrtimer_state' found nothing in include/linux/hrtimer.h include/linux/hrtimer_types.h" \
	"a shape no probe knows names the probes and the files"
expect_refusal notkernel "is not a kernel tree: cannot read its top Makefile" \
	"a tree that is not a kernel says so"

"$LINSCHED" run v9.9 --repo "$repo" --workload 'hog*2' --topology dual 2> "$tmp/bad.err"
status=$?
test_expect_success "an unknown revision is named with the repository (status $status: $(head -c 120 "$tmp/bad.err"))" \
	'[ $status = 1 ] && grep -q "revision '\''v9.9'\'' not found in repository" "$tmp/bad.err"'
done_testing
