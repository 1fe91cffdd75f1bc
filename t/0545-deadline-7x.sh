#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A SCHED_DEADLINE task with a periodic timer runs WARN-free on every
# release (issue 25, item 2), and the release report names the WARNs a
# revision has, per pattern, machine and side.
#
# The WARN was ours. The arch set a task's policy before its first wakeup;
# for SCHED_DEADLINE, a state no real kernel makes (sched_fork() refuses
# to fork a deadline task; rt-app's thread sets itself while running).
# wake_up_new_task()'s ENQUEUE_INITIAL is neither the ENQUEUE_WAKEUP nor
# the ENQUEUE_RESTORE/MOVE after which deadline.c gives a task its first
# runtime and deadline (setup_new_dl_entity()) and counts its bandwidth in
# running_bw. So the task was throttled at its first update with runtime 0
# and deadline 0 (replenish_dl_entity(): "DL replenish lagged too much",
# on 6.1 to 7.3), and its first block took its bandwidth out of a
# running_bw that never had it: __sub_running_bw()'s underflow check,
# deadline.c:233, from inactive_task_timer() or task_non_contending(). 7.x
# made that check a WARN_ON_ONCE; 6.x had it as SCHED_WARN_ON, compiled
# out without CONFIG_SCHED_DEBUG, so the same underflow went unseen.
#
# With no WARN left in the releases, the report's WARNs are shown on a
# made-up commit on 7.3.4 that makes the same slip inside the kernel: a
# wakeup no longer adds the task's bandwidth back to running_bw
# (task_contending()), which underflows at the same line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 12
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Builds are shared with the other tests; results are this test's own.
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache

# The issue's workload: 1 ms every 10 ms, 500 us of work on a 10 ms timer.
cat > "$tmp/dl.json" <<'EOF'
{
	"tasks": {
		"dl": {
			"loop": -1,
			"policy": "SCHED_DEADLINE",
			"dl-runtime": 1000,
			"dl-period": 10000,
			"run": 500,
			"timer": { "ref": "tick", "period": 10000 }
		}
	},
	"global": { "duration": 1 }
}
EOF
PATTERNS="rt-deadline-u10-n1-with-periodic rt-deadline-u30-x0.5-cpus-with-hog"
mkdir -p "$tmp/suite"
for p in $PATTERNS; do
	"$LINSCHED" suite write "$tmp/suite" --topology quad-smt --match "$p" > /dev/null ||
		echo "# suite write $p failed"
done

# clean REV NAME WORKLOAD TOPOLOGY: a 1 s run under --fatal-warnings that
# ends (exit 0) with no WARN counted, none logged and no replenishment
# lagging; else what it found, each item ending in "; "
clean() {
	local rev=$1 name=$2 w=$3 topo=$4 st
	"$LINSCHED" run "$rev" --workload "$w" --topology "$topo" --duration 1s \
		--fatal-warnings --json "$tmp/$name.json" --log "$tmp/$name.log" \
		--trace "$tmp/$name.trace" -q > /dev/null 2> "$tmp/$name.err"
	st=$?
	[ $st = 0 ] || { printf '%s; ' "$rev $name: status $st: $(grep -m1 -i warn "$tmp/$name.err")"; return; }
	json_is "$tmp/$name.json" kernel_warnings 0 > /dev/null ||
		printf '%s; ' "$rev $name: $(json_get "$tmp/$name.json" kernel_warnings) WARNs"
	! grep -q 'WARNING\|DL replenish lagged too much' "$tmp/$name.log" ||
		printf '%s; ' "$rev $name: $(grep -m1 'WARNING\|lagged' "$tmp/$name.log")"
	# the task ran as a deadline task (prio -1)
	grep -q 'next_comm=dl.* next_prio=-1' "$tmp/$name.trace" ||
		printf '%s; ' "$rev $name: the task never ran as SCHED_DEADLINE"
}

# ---- 1-4. the issue's workload, on every release ----
for rev in $TEST_RELEASES; do
	bad=$(clean "$rev" "issue-$rev" "$tmp/dl.json" quad)
	test_expect_success "$rev: the issue's deadline task with a 10 ms timer, 1 s under --fatal-warnings: no WARN, no lagging replenishment${bad:+ ($bad)}" \
		'[ -z "$bad" ]'
done

# ---- 5-6. two of the suite's rt-deadline patterns on quad-smt ----
for p in $PATTERNS; do
	bad=
	for rev in $TEST_RELEASES; do
		bad="$bad$(clean "$rev" "$p-$rev" "$tmp/suite/$p.json" quad-smt)"
	done
	test_expect_success "$p on quad-smt, 1 s under --fatal-warnings, on the four releases: no WARN, no lagging replenishment${bad:+ ($bad)}" \
		'[ -z "$bad" ]'
done

# ---- the made-up kernel slip on 7.3.4 ----
work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
slip=$(python3 - "$work" "$TEST_V73" <<'PY'
import os, subprocess, sys
repo, base = sys.argv[1], sys.argv[2]
index = os.path.join(os.environ.get("TMPDIR", "/tmp"), "lsb-0545-index.%d" % os.getpid())
env = dict(os.environ, GIT_INDEX_FILE=index,
           GIT_AUTHOR_NAME="Test Author", GIT_AUTHOR_EMAIL="author@example.org",
           GIT_COMMITTER_NAME="Test Committer", GIT_COMMITTER_EMAIL="committer@example.org",
           GIT_AUTHOR_DATE="1700003600 +0000", GIT_COMMITTER_DATE="1700003600 +0000")
def raw(*args, data=None):
    return subprocess.run(["git", "-C", repo] + list(args), input=data, env=env,
                          check=True, capture_output=True).stdout.decode()
def git(*args, data=None):
    return raw(*args, data=data).strip()
head = git("rev-parse", base + "^{commit}")
path = "kernel/sched/deadline.c"
s = raw("cat-file", "blob", "%s:%s" % (head, path))
old = "\t\t * So, add it back.\n\t\t */\n\t\tadd_running_bw(dl_se, dl_rq);\n"
assert s.count(old) == 1
blob = git("hash-object", "-w", "--stdin", data=s.replace(old, old[:old.rindex("\t\tadd")]).encode())
git("read-tree", head)
git("update-index", "--cacheinfo", "100644,%s,%s" % (blob, path))
commit = git("commit-tree", git("write-tree"), "-p", head, "-m",
             "sched/deadline: a wakeup does not add the task back to running_bw")
git("update-ref", "refs/heads/slip", commit)
os.unlink(index)
print(commit)
PY
)

# ---- 7. linsched run and its results name the first WARN ----
"$LINSCHED" run slip --repo "$work" --workload "$tmp/dl.json" --topology quad \
	--duration 1s --json "$tmp/slip.json" --log "$tmp/slip.log" > "$tmp/slip.out" 2> "$tmp/slip.err"
status=$?
first=$(json "$tmp/slip.json" "r['kernel_warning_first']['message']" 2> /dev/null)
line=$(grep '^kernel WARN: ' "$tmp/slip.out")
diag "$line"
test_expect_success "a run that WARNs goes on (status $status); its results and summary name the first WARN, the kernel log's first" \
	'[ $status = 0 ] && [ -n "$slip" ] &&
	 [ "$(json "$tmp/slip.json" "r[\"kernel_warnings\"] >= 1 and r[\"kernel_warnings\"] == r[\"invariants\"][\"kernel_warnings\"]")" = True ] &&
	 case $first in "WARNING: CPU: "*" at kernel/sched/deadline.c:233") true ;; *) false ;; esac &&
	 [ "$(grep -m1 "WARNING:" "$tmp/slip.log" | sed "s/^\[[^]]*\] //")" = "$first" ] &&
	 [ "$line" = "kernel WARN: $(json_get "$tmp/slip.json" kernel_warnings); the first at $(json "$tmp/slip.json" "\"%.6f\" % (r[\"kernel_warning_first\"][\"time_ns\"] / 1e9)") s: $first (the kernel log has them: --log)" ]'

# ---- 8-11. the report names the WARNs of the side that has them ----
ARGS=(--repo "$work" --match 'rt-deadline-u10-n1-*' --topology quad-smt --seeds 1 --duration 200ms)
"$LINSCHED" report "$TEST_V73" slip "${ARGS[@]}" --out "$tmp/r" > "$tmp/r.out" 2> "$tmp/r.err"
status=$?
sed -n '1,6p' "$tmp/r.out" | sed 's/^/# /'
test_expect_success "report $TEST_V73 -> slip: its header counts NEW's 2 WARNs in 2 of 2 runs, OLD's none (status $status)" \
	'grep -qx "kernel WARNs (a run goes on past one): OLD 0 in 0 of 2 runs, NEW 2 in 2 of 2 runs" "$tmp/r/report.txt" &&
	 grep -qx "  kernel WARNs           OLD 0 in 0 of 2 runs, NEW 2 in 2 of 2 runs" "$tmp/r/report.txt"'
k=$(json "$tmp/r/report.json" "[(w['pattern'], w['side'], w['warnings'], w['runs'], w['of'], w['first'].endswith(' at kernel/sched/deadline.c:233')) for w in r['kernel_warnings']['warned']] == [(p, 'new', 1, 1, 1, True) for p in ('rt-deadline-u10-n1-with-hog', 'rt-deadline-u10-n1-with-periodic')] and all(x['old']['kernel_warnings'] == [0] and x['new']['kernel_warnings'] == [1] and x['new']['first_warning'] == w['first'] for x, w in zip(r['results'], r['kernel_warnings']['warned']))")
test_expect_success "report.json lists both patterns' NEW side, 1 WARN each, the first at deadline.c:233, and has them per seed" \
	'[ "$k" = True ]'
bad=
for p in rt-deadline-u10-n1-with-hog rt-deadline-u10-n1-with-periodic; do
	w=$(json "$tmp/r/report.json" "[w['first'] for w in r['kernel_warnings']['warned'] if w['pattern'] == a[0]][0]" "$p")
	grep -qxF "  quad-smt       $(printf '%-44s' "$p") NEW: 1 in 1 of 1 run; the first: $w" "$tmp/r/report.txt" ||
		bad="$bad text:$p"
	grep -qF "<tr class=\"warned\" data-key=\"quad-smt/$p/new\"><td class=\"n\">" "$tmp/r/report.html" &&
		grep -F "data-key=\"quad-smt/$p/new\"" "$tmp/r/report.html" | grep -qF "<code>$w</code>" ||
		bad="$bad html:$p"
	"$LINSCHED" run slip --repo "$work" --workload "$tmp/r/workloads/8cpus/$p.json" --topology quad-smt \
		--duration 200ms --seed 1 --json "$tmp/$p.json" -q > /dev/null 2>&1
	[ "$(json_get "$tmp/$p.json" kernel_warnings)" = 1 ] &&
		[ "$(json_get "$tmp/$p.json" kernel_warning_first.message)" = "$w" ] || bad="$bad run:$p"
done
test_expect_success "report.txt and report.html name each pattern's NEW WARN as the JSON does, and linsched run --json of the same unit says the same${bad:+ (bad:$bad)}" \
	'[ -z "$bad" ]'
test_expect_success "the WARNs are shown, not judged: the runs finished on both sides" \
	'[ "$(json "$tmp/r/report.json" "all(s[\"regressions\"] == 0 for s in r[\"summary\"] if s[\"metric\"] == \"run\") and all(x[\"old\"][\"status\"] == x[\"new\"][\"status\"] == \"finished\" for x in r[\"results\"])")" = True ]'

# ---- 12. 6.12 to 7.3: the same patterns WARN on neither side ----
"$LINSCHED" report "$TEST_V612" "$TEST_V73" "${ARGS[@]}" --out "$tmp/s" > "$tmp/s.out" 2> "$tmp/s.err"
status=$?
test_expect_success "report $TEST_V612 -> $TEST_V73 on the same patterns: no WARN on either side, the list says none (status $status)" \
	'grep -qx "kernel WARNs (a run goes on past one): OLD 0 in 0 of 2 runs, NEW 0 in 0 of 2 runs" "$tmp/s/report.txt" &&
	 grep -A1 "^Kernel WARNs per pattern and side" "$tmp/s/report.txt" | grep -qx "  none" &&
	 [ "$(json "$tmp/s/report.json" "r[\"kernel_warnings\"][\"warned\"]")" = "[]" ]'

test_done
