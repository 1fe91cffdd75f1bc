#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched timeline: gnuplot draws a valid, non-blank PNG of the stated size
# and an SVG that parses; the intervals of timeline.dat add up to each
# task's run time in the run's JSON; --from/--to clip; errors name what is
# wrong and a crashed kernel gives its status and no plot.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 19
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

W='hog*2+periodic*2:run=1ms:sleep=4ms'
T=biglittle-4+4
"$LINSCHED" timeline "$TEST_V61" --workload "$W" --topology $T \
	--duration 50ms --out "$tmp/a" > "$tmp/a.out" 2> "$tmp/a.err"
ok $? "timeline of a 50 ms run exits 0"
size=$(sed -n 's|^.*/timeline\.png (\([0-9]*x[0-9]*\))$|\1|p' "$tmp/a.out")
for f in timeline.png timeline.svg timeline.gp timeline.dat; do
	grep -qx "$tmp/a/$f.*" "$tmp/a.out" || break
done
[ $? = 0 ] && [ -n "$size" ] && ! grep -q . "$tmp/a.err"
ok $? "it prints the paths of the PNG ($size), SVG, script and data, and nothing on stderr"
(cd "$tmp/a" && gnuplot timeline.gp) 2> "$tmp/gp.err"
[ $? = 0 ] && ! grep -q . "$tmp/gp.err"
ok $? "gnuplot timeline.gp runs again in the directory, exit 0, no warnings"

n=$(png_check "$tmp/a/timeline.png" "$size")
[ "${n:-0}" -gt 20 ]
ok $? "timeline.png is a PNG of the stated size $size and not blank ($n colours)"
svg_check "$tmp/a/timeline.svg" 100
ok $? "timeline.svg parses as SVG"

# dat_check DIR CODE: python that sets ok, given the intervals d (cpu,
# start, end, colour, pid, label) and the run's JSON r
dat_check() {
	python3 - "$1" "$2" <<'PY'
import json, shlex, sys
d = [shlex.split(l) for l in open(sys.argv[1] + '/timeline.dat') if not l.startswith('#')]
d = [(int(c), float(s), float(e), int(k), int(p), n) for c, s, e, k, p, n in d]
r = json.load(open(sys.argv[1] + '/run.json'))
ok = False
exec(sys.argv[2])
sys.exit(0 if ok else 1)
PY
}
# Every task's time in the intervals is its sum_exec_ns, but for the trace's
# microsecond timestamps (1 us an interval) and for idle exit latencies: a
# task sent to an idle CPU is charged from the kernel's pick, while the
# trace shows it switched in when the CPU has left its idle state (hog-1,
# moved to a CPU in cpu-sleep, is charged 220 us more than it is drawn
# running; so is a task that another CPU's timer or wakeup sends back to
# its own CPU in cpu-sleep). So the allowance adds, for each interval of
# the task that follows idle time in state S on its CPU, S's exit
# latency.
"$LINSCHED" topology show $T > "$tmp/topo.json"
dat_check "$tmp/a" "$(cat <<'PY'
T = json.load(open(sys.argv[1] + '/../topo.json'))
prev, total, allow, where = {}, {}, {}, {}
for x in d:
	c, s, e, k, p, n = x
	if p:
		total[p] = total.get(p, 0) + (e - s) * 1e6
		allow[p] = allow.get(p, 1000) + 1000
		q = prev.get(c)
		if q and q[5].startswith('idle:') and q[2] == s:
			st = T['cpu_types'][r['cpus'][c]['type']]['idle_states'][int(q[5][5:])]
			allow[p] += st['exit_latency_us'] * 1000
		where[p] = c
	prev[c] = x
for t in r['tasks']:
	print('# %s: sum_exec_ns %d, drawn %d ns, allowance %d ns' % (t['name'], t['sum_exec_ns'], total[t['pid']], allow[t['pid']]))
ok = all(abs(total[t['pid']] - t['sum_exec_ns']) <= allow[t['pid']] for t in r['tasks'])
PY
)"
ok $? "each task's total time in timeline.dat equals its sum_exec_ns (to 1 us a switch and idle exit latencies)"
dat_check "$tmp/a" "ok = all(any(x[0] == c['id'] and x[4] for x in d) for c in r['cpus'] if c['busy_ns'] > 1000000) and {x[0] for x in d} == set(range(8))"
ok $? "timeline.dat has intervals on all 8 CPUs, with a task on every CPU busy for more than 1 ms"
dat_check "$tmp/a" "ok = all([x[1:3] for x in d if x[0] == i][-1][1] == 50 and all(p[2] == q[1] for p, q in zip([x for x in d if x[0] == i], [x for x in d if x[0] == i][1:])) for i in range(8)) and all(s < e for c, s, e, *_ in d) and max(min(x[1] for x in d if x[0] == i) for i in range(8)) < 2"
ok $? "each CPU's intervals follow each other from its first event (before 2 ms: the CPUs' first wakeups leave cpu-sleep one after the other, 220 us each) to 50 ms, none empty"
dat_check "$tmp/a" "ok = {n for *_, n in d if n.startswith('idle:')} == {'idle:0', 'idle:1'} and len({k for c, s, e, k, p, n in d if n in ('hog-0', 'hog-1', 'periodic-0', 'periodic-1') and k < 12}) == 4"
ok $? "idle time is split by idle state (WFI, cpu-sleep) and the 4 tasks have their own colours"
awk '!/^#/ && NF { n[$1]++ } END { for (c = 0; c < 8; c++) if (n[c] < 2) exit 1 }' "$tmp/a/freq.dat"
ok $? "freq.dat has a frequency line for each of the 8 CPUs (all have OPPs)"

# A window: --from/--to clip the intervals to it (reusing the build and the
# same run: the same seed gives the same events).
"$LINSCHED" timeline "$TEST_V61" --workload "$W" --topology $T \
	--duration 50ms --from 10ms --to 20ms --out "$tmp/b" > "$tmp/b.out"
[ $? = 0 ] && grep -q "^timeline: 10.000 to 20.000 ms of a 50.000 ms run$" "$tmp/b.out" &&
	dat_check "$tmp/b" "ok = all(10 <= s < e <= 20 for c, s, e, *_ in d) and all(abs(sum(e - s for c, s, e, *_ in d if c == i) - 10) < 1e-6 for i in range(8))" &&
	grep -q "set xrange \[10.000:20.000\]" "$tmp/b/timeline.gp"
ok $? "--from 10ms --to 20ms: a 10 ms window on every CPU, said so"

# A long run is clipped to its first 100 ms by default, and says so.
"$LINSCHED" timeline "$TEST_V61" --workload "$W" --topology $T \
	--duration 150ms --out "$tmp/c" > "$tmp/c.out"
[ $? = 0 ] && grep -q "^timeline: 0.000 to 100.000 ms of a 150.000 ms run (--from/--to choose the window)$" "$tmp/c.out" &&
	dat_check "$tmp/c" "ok = max(e for c, s, e, *_ in d) == 100"
ok $? "a 150 ms run is drawn up to 100 ms by default, said so"

# --mark: a band over CPU 2's and 5's lanes and a line over all, labelled;
# a CPU taken offline has a blank lane from its sched_cpu_dying step on.
cat > "$tmp/off.json" <<'EOF2'
{"tasks": {"h": {"instance": 4, "loop": -1, "run": 1000}},
 "lsb-events": [{"time": 20000, "cpu": 3, "online": false}]}
EOF2
"$LINSCHED" timeline "$TEST_V61" --workload "$tmp/off.json" --topology $T \
	--duration 50ms --to 50ms --mark '10ms-15ms@2,5:a band' --mark '30ms:a line' \
	--out "$tmp/m" > "$tmp/m.out" 2> "$tmp/m.err"
[ $? = 0 ] &&
	grep -qx "set object rectangle from first 10.000, first Y(2) - 0.5 to first 15.000, first Y(2) + 0.5 .*" "$tmp/m/timeline.gp" &&
	grep -qx "set object rectangle from first 10.000, first Y(5) - 0.5 to first 15.000, first Y(5) + 0.5 .*" "$tmp/m/timeline.gp" &&
	[ "$(grep -c "^set object rectangle from first 1" "$tmp/m/timeline.gp")" = 2 ] &&
	grep -qx "set arrow from first 30.000, graph 0 to first 30.000, graph 1 nohead .*" "$tmp/m/timeline.gp" &&
	grep -q '^set label "a band" at first 10.000, graph 1' "$tmp/m/timeline.gp" &&
	grep -q '^set label "a line" at first 30.000, graph 1' "$tmp/m/timeline.gp" &&
	grep -qx 'set title "Linux 6.1.192 on biglittle-4+4: off (seed 1)"' "$tmp/m/timeline.gp" &&
	[ "$(png_check "$tmp/m/timeline.png" "$(sed -n 's/.*timeline.png (\(.*\))$/\1/p' "$tmp/m.out")")" -gt 20 ] &&
	dat_check "$tmp/m" "ok = 20 < max(e for c, s, e, *_ in d if c == 3) < 22 and all(max(e for c, s, e, *_ in d if c == i) == 50 for i in (0, 1, 2, 4, 5, 6, 7))"
ok $? "--mark draws a band over two CPUs' lanes and a line, labelled; the title names the workload file by its short name (off), not its path; CPU 3, offline at 20 ms, has nothing drawn after its last switch (before 22 ms)"
"$LINSCHED" timeline "$TEST_V61" --workload hog --topology $T --mark '1ms@9' 2> "$tmp/e.err"
s=$?
"$LINSCHED" timeline "$TEST_V61" --workload hog --topology $T --mark '5ms-1ms' 2>> "$tmp/e.err"
s2=$?
[ $s = 2 ] && [ $s2 = 2 ] && grep -q -- "--mark '1ms@9': '9' is not a list of the machine's CPUs (0-7)" "$tmp/e.err" &&
	grep -q -- "--mark '5ms-1ms': the span ends before it starts" "$tmp/e.err"
ok $? "a --mark on a CPU the machine lacks, or ending before it starts: exit 2, said"

# Errors.
"$LINSCHED" timeline nosuchrev --workload hog --topology dual --out "$tmp/e" 2> "$tmp/e.err"
[ $? = 1 ] && grep -q "nosuchrev" "$tmp/e.err" && [ ! -e "$tmp/e/timeline.png" ]
ok $? "an unknown revision: exit 1, named ($(head -c 100 "$tmp/e.err"))"
"$LINSCHED" timeline "$TEST_V61" --workload hog --topology nosuchmachine 2> "$tmp/e.err"
[ $? = 2 ] && grep -q "nosuchmachine" "$tmp/e.err"
ok $? "an unknown topology: exit 2, named ($(head -c 100 "$tmp/e.err"))"
"$LINSCHED" timeline "$TEST_V61" --workload hog --topology dual --from 1x 2> "$tmp/e.err"
[ $? = 2 ] && grep -q -- "--from: '1x'" "$tmp/e.err"
ok $? "a bad --from: exit 2, named"
grep -q "usage: linsched timeline REV" <<<"$("$LINSCHED" timeline --help)" &&
	grep -q "timeline REV" <<<"$("$LINSCHED" --help)"
ok $? "--help and linsched --help describe it"

# A kernel that crashes: its status (4) and message, no plot.
repo=$tmp/repo.git
git clone -q --bare "$LSBISECT_REPO" "$repo"
git -C "$repo" cat-file blob "$TEST_V61:kernel/sched/fair.c" |
	python3 -c "import sys; s = sys.stdin.read(); i = s.index('{\n', s.index('static void task_tick_fair(')) + 2; sys.stdout.write(s[:i] + '\tBUG();\n' + s[i:])" > "$tmp/fair.c"
blob=$(git -C "$repo" hash-object -w "$tmp/fair.c")
GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$TEST_V61"
GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,kernel/sched/fair.c"
tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
commit=$(git -C "$repo" -c user.name=t -c user.email=t@t commit-tree "$tree" -p "$TEST_V61" -m "BUG() in the tick")
"$LINSCHED" timeline "$commit" --repo "$repo" --workload hog --topology dual \
	--duration 50ms --out "$tmp/x" > "$tmp/x.out" 2> "$tmp/x.err"
rc=$?
[ $rc = 4 ] && grep -qi "bug\|crash" "$tmp/x.err" && [ ! -e "$tmp/x/timeline.png" ] && ! grep -q png "$tmp/x.out"
ok $? "a kernel BUG(): exit 4 ($rc) with its message, no plot ($(head -c 120 "$tmp/x.err"))"

done_testing
