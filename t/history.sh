# SPDX-License-Identifier: GPL-2.0-only
# history.sh - made-up kernel histories on top of a release ($HISTORY_BASE,
# default $TEST_V61) for the bisection tests. Source it after lib.sh.
#
# Commits are made with git's plumbing and fixed names and dates, so the
# same history gets the same commit ids every time, and the shared build
# cache keeps its builds from one test run to the next.

# The injected regressions, as python code editing s (the file's text).
# Evening out nr_running counts the pulling CPU's next task once too
# often: a CPU with two tasks next to an idle one is never relieved. The
# same one-token slip in 6.1's calculate_imbalance() and in 7.x's
# sibling_imbalance(), which took over that arithmetic. (slip: the
# token, "1"; the noisy kind gives its own.)
LB_FILE=kernel/sched/fair.c
LB_EDIT='
forms = ["\t\t\tenv->migration_type = migrate_task;\n\t\t\tlsub_positive(&nr_diff, local->sum_nr_running);\n",
         "\t\timbalance = busiest->sum_nr_running;\n\t\tlsub_positive(&imbalance, local->sum_nr_running);\n"]
old = [f for f in forms if s.count(f) == 1]
assert len(old) == 1
s = s.replace(old[0], old[0].replace("local->sum_nr_running)", "local->sum_nr_running + " + slip + ")"))'
# schedutil always asks for the highest frequency.
POWER_FILE=kernel/sched/cpufreq_schedutil.c
POWER_EDIT='
old = "\tfreq = map_util_freq(util, freq, max);\n"
assert s.count(old) == 1
s = s.replace(old, "\tfreq = policy->cpuinfo.max_freq;\n")'
# Fork placement counts the CPUs a new task may not use again: the stable
# fix 82d6e01a0699 (in 6.1.178), taken back (the bug catalogue's
# fork_affinity, found here by the idle-while-waiting invariant).
FORK_FILE=kernel/sched/fair.c
FORK_EDIT='
old = "\t\tsgs->group_misfit_task_load = 1;\n\n\tfor_each_cpu_and(i, sched_group_span(group), p->cpus_ptr) {\n"
assert s.count(old) == 1
s = s.replace(old, old.replace("for_each_cpu_and(i, sched_group_span(group), p->cpus_ptr)", "for_each_cpu(i, sched_group_span(group))"))'

# The same slip made noisy: each balancing makes it with a probability
# drawn once a run, both from the kernel's random bytes, which the run's
# seed seeds. A randomised workload's figures then scatter from seed to
# seed beyond GOOD's own (t/0955).
NOISE_SLIP='({ static int lsb_p = -1; unsigned int lsb_r; if (lsb_p < 0) { get_random_bytes(&lsb_r, sizeof(lsb_r)); lsb_p = lsb_r % 100; } get_random_bytes(&lsb_r, sizeof(lsb_r)); (int)(lsb_r % 100) < lsb_p; })'
# And made every time: the noisy slip becomes $LB_EDIT's own.
SURE_EDIT='
assert s.count(noise) == 1
s = s.replace(noise, "1")'

# The bisection tests' history (t/0900, t/0920, t/1110, t/bench-bisect.sh):
# the same plan on $TEST_V61 gives the same commits, so they share builds;
# and the workload whose balance score the LB edit breaks.
BISECT_PLAN="note lb broken fixed bug nobug note note note note note"
BISECT_W='hog*4:cpus=0:unpin=10ms'

# make_history REPO PLAN [OUTSIDE [REF]]: commits on $HISTORY_BASE
# (default $TEST_V61) in REPO (a
# repository that has it), one per word of PLAN, each followed by OUTSIDE
# (default 3) commits that touch only files outside the build subset; a
# word is a kind or kinds joined by '+' (one commit doing both):
#   note     a comment line appended to kernel/sched/loadavg.c
#   hdr      a comment line appended to include/drm/drm_file.h, a header
#            of the build subset that no object of the build includes
#   mk       a comment line appended to kernel/sched/Makefile
#   gen      a comment line appended to include/linux/kbuild.h, which only
#            the generated headers (bounds.c, asm-offsets.c) read
#   kconf    a new option in init/Kconfig, with a prompt and "default y"
#            (allnoconfig leaves it off; only a new allnoconfig knows it)
#   lb       the load-balancing regression ($LB_EDIT)
#   power    the power regression ($POWER_EDIT)
#   forkaff  fork placement ignores the task's affinity again ($FORK_EDIT)
#   noise    the load-balancing regression now and then ($NOISE_SLIP)
#   sure     the noisy one made every time, as lb makes it ($SURE_EDIT)
#   bug:NAME the bug catalogue's entry NAME put back: its edits, as
#            `linsched bugs run` makes them (on the entry's release)
#   broken   kernel/sched/idle.c stops compiling
#   fixed    and compiles again
#   bug      BUG() at the top of task_tick_fair()
#   nobug    and gone again
# Prints one line per commit: "ID KIND" (KIND "outside" for the others);
# refs/heads/REF (default bad) is the last one.
make_history() {
	local repo=$1 plan=$2 outside=${3:-3} ref=${4:-bad}
	python3 - "$repo" "${HISTORY_BASE:-$TEST_V61}" "$outside" "$plan" \
		"$LB_FILE" "$LB_EDIT" "$POWER_FILE" "$POWER_EDIT" "$ref" \
		"$FORK_FILE" "$FORK_EDIT" "$LSB_O/share/lsbisect/bugs" \
		"$NOISE_SLIP" "$SURE_EDIT" <<'PY'
import json, os, subprocess, sys
repo, base, outside, plan = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split()
ref = sys.argv[9]
lb_file, lb_edit, power_file, power_edit = sys.argv[5:9]
fork_file, fork_edit = sys.argv[10:12]
catalogue = sys.argv[12]
noise, sure_edit = sys.argv[13:15]
index = os.path.join(os.environ.get("TMPDIR", "/tmp"), "lsb-history-index.%d" % os.getpid())
env = dict(os.environ, GIT_INDEX_FILE=index,
           GIT_AUTHOR_NAME="Test Author", GIT_AUTHOR_EMAIL="author@example.org",
           GIT_COMMITTER_NAME="Test Committer", GIT_COMMITTER_EMAIL="committer@example.org")

def git(*args, data=None):
    return subprocess.run(["git", "-C", repo] + list(args), input=data, env=env,
                          check=True, capture_output=True).stdout

def read(rev, path):
    return git("cat-file", "blob", "%s:%s" % (rev, path)).decode()

def edit(code, s, slip="1"):
    scope = {"s": s, "slip": slip, "noise": noise}
    exec(code, scope)
    return scope["s"]

files = {}    # path -> text, as changed so far
dirty = set()
head = git("rev-parse", base + "^{commit}").decode().strip()
git("read-tree", head)
when = 1700000000
n = 0

def commit(kind, msg):
    global head, when, n
    for path in sorted(dirty):
        text = files[path]
        blob = git("hash-object", "-w", "--stdin", data=text.encode()).decode().strip()
        git("update-index", "--add", "--cacheinfo", "100644,%s,%s" % (blob, path))
    dirty.clear()
    tree = git("write-tree").decode().strip()
    n += 1
    when += 3600
    date = "%d +0000" % when
    env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    head = git("commit-tree", tree, "-p", head, "-m", msg).decode().strip()
    print(head, kind)

def put(path, t):
    files[path] = t
    dirty.add(path)

def text(path):
    return files.get(path) if path in files else read(base, path)

marker_idle = "this is not C;\n"

def apply(part, i):
    """Edit the files as PART says; return the commit message."""
    if part == "note":
        put("kernel/sched/loadavg.c", text("kernel/sched/loadavg.c") + "/* note %d */\n" % i)
        return "sched/loadavg: note %d" % i
    if part == "mk":
        put("kernel/sched/Makefile", text("kernel/sched/Makefile") + "# note %d\n" % i)
        return "sched: Makefile note %d" % i
    if part == "gen":
        put("include/linux/kbuild.h", text("include/linux/kbuild.h") + "/* note %d */\n" % i)
        return "kbuild.h: note %d" % i
    if part == "kconf":
        put("init/Kconfig", text("init/Kconfig") +
            "\nconfig LSB_TEST_%d\n\tbool \"a test option\"\n\tdefault y\n" % i)
        return "init: test option %d" % i
    if part == "hdr":
        put("include/drm/drm_file.h", text("include/drm/drm_file.h") + "/* note %d */\n" % i)
        return "drm: note %d" % i
    if part == "lb":
        put(lb_file, edit(lb_edit, text(lb_file)))
        return "sched/fair: count the puller's next task when evening out nr_running"
    if part == "power":
        put(power_file, edit(power_edit, text(power_file)))
        return "sched/cpufreq: always the highest frequency"
    if part == "noise":
        put(lb_file, edit(lb_edit, text(lb_file), noise))
        return "sched/fair: count the puller's next task now and then"
    if part == "sure":
        put(lb_file, edit(sure_edit, text(lb_file)))
        return "sched/fair: count the puller's next task every time"
    if part == "forkaff":
        put(fork_file, edit(fork_edit, text(fork_file)))
        return "sched/fair: count every CPU of a group when looking for dst group"
    if part.startswith("bug:"):
        entry = json.load(open(os.path.join(catalogue, part[4:] + ".json")))
        for e in entry["edits"]:
            t = text(e["file"])
            assert t.count(e["old"]) == 1, (part, e["file"])
            put(e["file"], t.replace(e["old"], e["new"]))
        return "%s: put back (%s)" % (part[4:], entry["fix"]["subject"])
    if part == "broken":
        put("kernel/sched/idle.c", text("kernel/sched/idle.c") + marker_idle)
        return "sched/idle: does not compile"
    if part == "fixed":
        put("kernel/sched/idle.c", text("kernel/sched/idle.c").replace(marker_idle, ""))
        return "sched/idle: compiles again"
    if part == "bug":
        s = text("kernel/sched/fair.c")
        i0 = s.index("static void task_tick_fair(")
        i0 = s.index("{\n", i0) + 2
        put("kernel/sched/fair.c", s[:i0] + "\tBUG();\n" + s[i0:])
        return "sched/fair: BUG() in the tick"
    if part == "nobug":
        put("kernel/sched/fair.c", text("kernel/sched/fair.c").replace("\tBUG();\n", "", 1))
        return "sched/fair: no BUG() in the tick"
    sys.exit("unknown commit kind " + part)

for i, kind in enumerate(plan):
    commit(kind, "; ".join(apply(part, i) for part in kind.split("+")))
    for k in range(outside):
        path = "Documentation/lsbisect-test/notes-%d-%d.txt" % (i, k)
        put(path, "note %d %d\n" % (i, k))
        commit("outside", "docs: note %d.%d" % (i, k))
git("update-ref", "refs/heads/" + ref, head)
os.unlink(index)
PY
}

# repo_state REPO: what must not change when REPO is only read: refs, HEAD,
# packed refs, the index, the objects, the work tree's status.
repo_state() {
	local repo=$1 gitdir
	gitdir=$(git -C "$repo" rev-parse --absolute-git-dir)
	{
		git -C "$repo" for-each-ref
		git -C "$repo" rev-parse HEAD
		cat "$gitdir/HEAD"
		cat "$gitdir/packed-refs" 2>/dev/null
		sha1sum < "$gitdir/index" 2>/dev/null
		git -C "$repo" count-objects -v
		find "$gitdir" -newer "$gitdir/HEAD" -type f | sort
		git -C "$repo" --no-optional-locks status --porcelain=v2 --branch
	}
}

# private_cache DIR: a cache whose builds and exports are the shared ones
# (made once) and whose results are DIR's own, so runs happen again.
private_cache() {
	mkdir -p "$1" "$LSBISECT_CACHE/builds" "$LSBISECT_CACHE/trees"
	ln -sfn "$LSBISECT_CACHE/builds" "$1/builds"
	ln -sfn "$LSBISECT_CACHE/trees" "$1/trees"
}

# same_log LOG CACHE LOG2 CACHE2: two bisection logs have the same events,
# but for the start's time and the cache's path in a build failure's
# reason, and more than 10 runs; prints a TAP comment on what they hold
# (and where they first differ). SAME_LOG_DROP: more keys not compared.
same_log() {
	python3 - "$@" <<'PY'
import json, os, sys
def events(p, cache):
    out = []
    for line in open(p):
        e = json.loads(line.replace(cache, 'CACHE'))
        for k in ['time'] + os.environ.get('SAME_LOG_DROP', '').split():
            e.pop(k, None)
        out.append(e)
    return out
a, b = events(*sys.argv[1:3]), events(*sys.argv[3:5])
runs = [e for e in b if e['event'] == 'run']
print('# %d events, %d runs, sources %s' % (len(b), len(runs), sorted(set(e['source'] for e in runs))))
# when they differ, say where: the first pair of events that differs
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        print('# event %d differs:\n#   %s\n#   %s' % (i, json.dumps(x, sort_keys=True)[:400], json.dumps(y, sort_keys=True)[:400]))
        break
else:
    if len(a) != len(b):
        print('# %d events against %d' % (len(a), len(b)))
sys.exit(0 if a == b and len(runs) > 10 else 1)
PY
}

# commit_edit BASE NAME MESSAGE FILE PYTHON: a commit on BASE in $repo (a
# bare repository of the test's, $tmp its scratch directory) whose FILE is
# BASE's, edited by the python code (text in s); FILE '-' deletes it after
# the code ran on nothing
commit_edit() {
	local base=$1 name=$2 msg=$3 file=$4 code=$5 blob
	git -C "$repo" cat-file blob "$base:$file" > "$tmp/file"
	python3 - "$tmp/file" <<PY
import sys
p = sys.argv[1]
s = open(p).read()
$code
open(p, 'w').write(s)
PY
	blob=$(git -C "$repo" hash-object -w "$tmp/file")
	GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$base"
	GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,$file"
	commit_index "$base" "$name" "$msg"
}

# commit_index BASE NAME MESSAGE: commit $tmp/index on BASE as branch NAME
commit_index() {
	local tree commit
	tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
	commit=$(git -C "$repo" -c user.name=t -c user.email=t@t commit-tree "$tree" -p "$1" -m "$3")
	git -C "$repo" update-ref "refs/heads/$2" "$commit"
}
