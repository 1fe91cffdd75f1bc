#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A kernel BUG() is the revision's result, not the tool's death; so is a
# revision that does not compile.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo.git
git clone -q --bare "$LSBISECT_REPO" "$repo"

# commit_edit NAME MESSAGE PYTHON: a commit on $TEST_V61 whose fair.c is
# the release's, edited by the python code (text in s)
commit_edit() {
	local name=$1 msg=$2 code=$3 blob
	git -C "$repo" cat-file blob "$TEST_V61:kernel/sched/fair.c" > "$tmp/fair.c"
	python3 - "$tmp/fair.c" <<PY
import sys
p = sys.argv[1]
s = open(p).read()
$code
open(p, 'w').write(s)
PY
	blob=$(git -C "$repo" hash-object -w "$tmp/fair.c")
	GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$TEST_V61"
	GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,kernel/sched/fair.c"
	tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
	commit=$(git -C "$repo" -c user.name=t -c user.email=t@t commit-tree "$tree" -p "$TEST_V61" -m "$msg")
	git -C "$repo" update-ref "refs/heads/$name" "$commit"
}

commit_edit bug "sched/fair: BUG() in the tick" '
i = s.index("static void task_tick_fair(")
i = s.index("{\n", i) + 2
s = s[:i] + "\tBUG();\n" + s[i:]'
commit_edit warn "sched/fair: WARN in the tick" '
i = s.index("static void task_tick_fair(")
i = s.index("{\n", i) + 2
s = s[:i] + "\tWARN_ON(1);\n" + s[i:]'
# a tree no adapter covers: the same sources calling themselves 6.15
git -C "$repo" cat-file blob "$TEST_V61:Makefile" | sed 's/^PATCHLEVEL = 1$/PATCHLEVEL = 15/' > "$tmp/Makefile"
blob=$(git -C "$repo" hash-object -w "$tmp/Makefile")
GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$TEST_V61"
GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,Makefile"
tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
git -C "$repo" update-ref refs/heads/future "$(git -C "$repo" -c user.name=t -c user.email=t@t commit-tree "$tree" -p "$TEST_V61" -m "Linux 6.15")"

commit_edit broken "sched/fair: does not compile" '
s = s.replace("static void task_tick_fair(", "this is not C;\nstatic void task_tick_fair(", 1)'

"$LINSCHED" run bug --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 1s --quiet 2> "$tmp/bug.err"
status=$?
ok "$([ $status = 4 ]; echo $?)" "a BUG() in the tick: the run ends with the crash status 4 (got $status)"
grep -q "crashed: .*kernel panic" "$tmp/bug.err"
ok $? "the crash is reported as the revision's: $(grep -m1 crashed "$tmp/bug.err" | cut -c1-160)"
grep -q "BUG: failure at kernel/sched/fair.c:[0-9]*/task_tick_fair()" "$tmp/bug.err"
ok $? "with the kernel's own message: $(grep -m1 -o 'BUG: failure at [^ ]*' "$tmp/bug.err")"

"$LINSCHED" run warn --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 100ms --json "$tmp/warn.json" --log "$tmp/warn.log" --quiet
status=$?
n=$(json "$tmp/warn.json" "r['kernel_warnings']")
ok "$([ $status = 0 ] && [ "$n" -ge 100 ]; echo $?)" "a WARN in the tick is counted, not fatal ($n warnings, status $status)"
grep -q "WARNING: CPU: [0-9]* PID: [0-9]* at kernel/sched/fair.c:[0-9]*" "$tmp/warn.log"
ok $? "and logged: $(grep -m1 -o 'WARNING: .*' "$tmp/warn.log")"
"$LINSCHED" run warn --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 100ms --fatal-warnings --quiet 2> "$tmp/warn.err"
status=$?
ok "$([ $status = 4 ] && grep -q "WARNING: .*fair.c" "$tmp/warn.err"; echo $?)" "--fatal-warnings makes it a crash (status $status)"

"$LINSCHED" run "$TEST_V61" --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 100ms --quiet
ok $? "the tool still runs the release itself afterwards"

"$LINSCHED" run broken --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 1s --quiet 2> "$tmp/broken.err"
status=$?
ok "$([ $status = 3 ]; echo $?)" "a compile error: the build-failure status 3 (got $status)"
grep -q "build failed" "$tmp/broken.err"
ok $? "reported as the revision's build failure"
grep -q "fair.c:[0-9]*:[0-9]*: error:" "$tmp/broken.err"
ok $? "with the compiler's message: $(grep -m1 -o 'fair.c:[0-9]*:[0-9]*: error:.*' "$tmp/broken.err" | cut -c1-100)"
"$LINSCHED" run broken --repo "$repo" --workload 'hog*2' --topology dual \
	--duration 1s --quiet 2> "$tmp/broken2.err"
status=$?
ok "$([ $status = 3 ] && grep -q 'cached failure' "$tmp/broken2.err"; echo $?)" \
	"the failure is cached: the second attempt says so at once"

"$LINSCHED" run future --repo "$repo" --workload 'hog*2' --topology dual 2> "$tmp/future.err"
status=$?
ok "$([ $status = 6 ] && grep -q "is Linux 6.15.[0-9]*: the adapters cover 6.1 to 6.12" "$tmp/future.err"; echo $?)" \
	"a tree no adapter covers says what it found and what is supported (status $status: $(grep -o 'is Linux.*' "$tmp/future.err" | head -c 100))"

"$LINSCHED" run v9.9 --repo "$repo" --workload 'hog*2' --topology dual 2> "$tmp/bad.err"
status=$?
ok "$([ $status = 1 ] && grep -q "revision 'v9.9' not found in repository" "$tmp/bad.err"; echo $?)" \
	"an unknown revision is named with the repository (status $status: $(head -c 120 "$tmp/bad.err"))"
done_testing
