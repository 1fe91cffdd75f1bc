#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A work build (--instrument work) names the kernel functions a WARN or a
# crash came in, innermost first, by name: in the results next to the
# first WARN and in the kernel log for a WARN, on standard error for a
# BUG or a fatal signal; a WARN right after a context switch shows the
# switched-to task's own frames. A plain build of the same revision runs
# the same and names none. The hunt writes a WARN finding's path into
# finding.json and the draft entry.
#
# The kernels are v6.12.118 with one line put into entity_tick(), which
# v6.12.118's task_tick_fair() calls, itself called by sched_tick() (the
# tick, from the arch), or into finish_task_switch(), which schedule()
# reaches through __schedule() (notrace in the kernel: no hook of its own).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo.git
git clone -q --bare "$LSBISECT_REPO" "$repo"

# at_start FUNCTION-START LINES: the python code for commit_edit
# (t/history.sh) that puts LINES at the start of the function whose
# definition begins with FUNCTION-START
at_start() {
	printf 'i = s.index("{\\n", s.index(%s)) + 2\ns = s[:i] + %s + s[i:]\n' \
		"$(python3 -c 'import sys; print(repr(sys.argv[1]))' "$1")" \
		"$(python3 -c 'import sys; print(repr(sys.argv[1]))' "$2")"
}
commit_edit "$TEST_V612" tickwarn tickwarn kernel/sched/fair.c \
	"$(at_start $'\nentity_tick(struct cfs_rq *cfs_rq' $'\tWARN_ON_ONCE(1);\n')"
commit_edit "$TEST_V612" tickbug tickbug kernel/sched/fair.c \
	"$(at_start $'\nentity_tick(struct cfs_rq *cfs_rq' $'\tBUG();\n')"
commit_edit "$TEST_V612" tickfault tickfault kernel/sched/fair.c \
	"$(at_start $'\nentity_tick(struct cfs_rq *cfs_rq' $'\t*(volatile int *)8 = 0;\n')"
commit_edit "$TEST_V612" switchwarn switchwarn kernel/sched/core.c \
	"$(at_start 'static struct rq *finish_task_switch(struct task_struct *prev)' \
		$'\tstatic int n;\n\tWARN_ON_ONCE(++n == 200);\n')"
# the callers the paths name, as v6.12.118 has them
fair=$(git -C "$repo" show "$TEST_V612:kernel/sched/fair.c")
core=$(git -C "$repo" show "$TEST_V612:kernel/sched/core.c")
grep -A8 '^static void task_tick_fair(' <<< "$fair" | grep -q 'entity_tick(cfs_rq, se, queued);' &&
	grep -A25 '^void sched_tick(void)' <<< "$core" | grep -q 'curr->sched_class->task_tick(rq, curr, 0);' ||
	diag "v6.12.118's task_tick_fair() or sched_tick() is not what this test expects"

# run NAME REV OUT [options]: a 200 ms run of two hogs on dual
run() {
	local name=$1 rev=$2
	shift 2
	"$LINSCHED" run "$rev" --repo "$repo" --workload 'hog*2' --topology dual \
		--duration 200ms --json "$tmp/$name.json" --log "$tmp/$name.log" "$@" \
		> "$tmp/$name.out" 2> "$tmp/$name.err"
	echo $? > "$tmp/$name.status"
}

run work tickwarn --instrument work
run plain tickwarn
path=$(json "$tmp/work.json" "' '.join(r['kernel_warning_first']['path'])" 2>&1)
test_expect_success "a work build's WARN in entity_tick(): its path in the results ($path) and the kernel log" \
	'[ "$(cat "$tmp/work.status")" = 0 ] &&
	 [ "$path" = "entity_tick task_tick_fair sched_tick" ] &&
	 case $(json_get "$tmp/work.json" kernel_warning_first.message) in
	 *" at kernel/sched/fair.c:"*) true ;; *) false ;; esac &&
	 grep -A1 "WARNING: CPU" "$tmp/work.log" | tail -n 1 |
		grep -q "\] kernel path: entity_tick <- task_tick_fair <- sched_tick$"'

same=$(python3 - "$tmp/work.json" "$tmp/plain.json" <<'PY'
import json, sys
w, p = (json.load(open(f)) for f in sys.argv[1:])
del w["kernel_warning_first"]["path"], w["kernel_work"]
print([k for k in set(w) | set(p) if w.get(k) != p.get(k)] or "same")
PY
)
test_expect_success "the plain build runs alike ($same) and names no path" \
	'[ "$(cat "$tmp/plain.status")" = 0 ] && [ "$same" = same ] &&
	 [ "$(json "$tmp/plain.json" "\"path\" in r[\"kernel_warning_first\"]")" = False ] &&
	 ! grep -q "kernel path" "$tmp/plain.log" &&
	 diff <(grep -v "kernel path" "$tmp/work.log") "$tmp/plain.log"'

run switch switchwarn --instrument work --workload 'hog*2+random*8:run=100us:sleep=200us' --topology quad
path=$(json "$tmp/switch.json" "' '.join(r['kernel_warning_first']['path'])" 2>&1)
test_expect_success "a WARN after a context switch has the task's own frames: $path" \
	'[ "$path" = "finish_task_switch schedule" ]'

run bug tickbug --instrument work
run bugplain tickbug
test_expect_success "a work build's BUG() names its path on standard error, in the crash's words; a plain build's does not" \
	'[ "$(cat "$tmp/bug.status")" = 4 ] && [ "$(cat "$tmp/bugplain.status")" = 4 ] &&
	 grep -qx "kernel path: entity_tick <- task_tick_fair <- sched_tick" "$tmp/bug.err" &&
	 grep -q "crashed: kernel panic at .*: BUG!; kernel path: entity_tick <- task_tick_fair <- sched_tick; " "$tmp/bug.err" &&
	 ! grep -q "kernel path" "$tmp/bugplain.err"'

run fault tickfault --instrument work
test_expect_success "and so does a fatal signal" \
	'[ "$(cat "$tmp/fault.status")" = 4 ] &&
	 grep -q "crashed: killed by signal 11 .*; kernel path: entity_tick <- task_tick_fair <- sched_tick$" "$tmp/fault.err"'

"$LINSCHED" hunt tickwarn --repo "$repo" --topology dual --runs 2 --findings 1 \
	--shrink-runs 4 --out "$tmp/h" > "$tmp/h.out" 2> "$tmp/h.err"
status=$?
f=$(ls -d "$tmp"/h/findings/01-* 2>/dev/null)
path=$(json "$f/finding.json" "' '.join(r['kernel_path'])" 2>&1)
test_expect_success "the hunt's WARN finding has the path in finding.json ($path) and entry.json (status $status)" \
	'[ $status = 7 ] && [ -n "$f" ] && json_is "$f/finding.json" check warn &&
	 [ "$path" = "entity_tick task_tick_fair sched_tick" ] &&
	 grep -q "in entity_tick <- task_tick_fair <- sched_tick\.\"" "$f/entry.json"'

"$LINSCHED" hunt --help > "$tmp/help"
test_expect_success "hunt --help says what kernel_path is" \
	'grep -q "kernel_path" "$tmp/help"'

test_done
