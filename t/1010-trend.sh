#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched trend on the bundled 6.1 history: one set of plots per workload
# and topology, valid and not blank; trend.dat holds what 'linsched run
# --json' gives for the same spec; the misfit regression of 6.1.190 shows
# in the throughput; a crashing revision is a gap with its reason, not an
# error; --seeds adds min and max.
. "$(dirname "$0")/lib.sh"

ensure_kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every 6.1 release the archive serves (cached .debs are not fetched again)
if ! "$LINSCHED" kernels --series 6.1 >&2; then
	echo "Bail out! cannot add the 6.1 releases to the bundled history"
	exit 1
fi
for v in v6.1.170 v6.1.187 v6.1.190 v6.1.192; do
	git -C "$LSBISECT_REPO" rev-parse -q --verify "$v^{commit}" >/dev/null ||
		skip_all "the archive no longer serves $v"
done
plan 13

W1='hog*1:cpus=2+hog*1:name=misfit:cpus=0:unpin=10ms'
W2='hog*4:cpus=0:unpin=10ms'
ASYM=$LSB_ROOT/topologies/examples/asym-smt.json
"$LINSCHED" trend v6.1.170..v6.1.192 --workload "$W1" --workload "$W2" \
	--topology "$ASYM" --topology quad --duration 1s --out "$tmp/a" \
	> "$tmp/a.out" 2> "$tmp/a.err"
ok $? "trend of v6.1.170..v6.1.192, 2 workloads x 2 topologies, exits 0"
A=$tmp/a/hog_1_cpus=2+hog_1_name=misfit_cpus=0_unpin=10ms-asym-smt.json
Q=$tmp/a/hog_4_cpus=0_unpin=10ms-quad
n=0
for d in "$tmp"/a/*/; do
	for f in balance-energy.png plane.png metrics.png trend.dat; do
		grep -qx "  ${d%/}/$f" "$tmp/a.out" && n=$((n + 1))
	done
done
[ $n = 16 ] && [ -d "$A" ] && [ -d "$Q" ] && ! grep -q . "$tmp/a.err"
ok $? "it prints the paths of the 3 PNGs and the data of each of the 4 pairs ($n), nothing on stderr (not a terminal)"
grep -qF "set title \"$W1 on asym-smt\\nv6.1.170..v6.1.192 (" "$A/balance-energy.gp" &&
	! grep -q "examples/\|asym-smt.json" "$A"/*.gp
ok $? "the plots' titles name the topology file by its short name (asym-smt), not its path"

# gnuplot runs each script again, without a warning
n=0
for d in "$tmp"/a/*/; do
	for s in balance-energy plane metrics; do
		(cd "$d" && gnuplot $s.gp) 2>> "$tmp/gp.err" && n=$((n + 1))
	done
done
[ $n = 12 ] && ! grep -q . "$tmp/gp.err"
ok $? "gnuplot runs each of the 12 scripts again, exit 0, no warnings"

bad=
for d in "$A" "$Q"; do
	for p in balance-energy:1000x560 plane:900x700 metrics:1000x900; do
		c=$(png_check "$d/${p%%:*}.png" "${p#*:}")
		[ "${c:-0}" -gt 20 ] || bad="$bad ${d##*/}/${p%%:*}.png($c)"
		svg_check "$d/${p%%:*}.svg" 50 || bad="$bad ${d##*/}/${p%%:*}.svg"
	done
done
[ -z "$bad" ]
ok $? "each PNG has its size and more than 20 colours, each SVG parses${bad:+ (bad:$bad)}"

tags=$(git -C "$LSBISECT_REPO" tag -l 'v6.1.*' --sort=v:refname |
	awk '$0 == "v6.1.170" { on = 1 } on { print } $0 == "v6.1.192" { exit }' | tr '\n' ' ')
trend_dat "$A" "ok = ' '.join(r['label'] for r in d) + ' ' == '$tags' and all(r['status'] == 'ok' for r in d)"
ok $? "one row per release from v6.1.170 to v6.1.192, labelled with its tag ($tags)"

# The same specs with 'linsched run --json': every metric the same.
for v in v6.1.187 v6.1.190; do
	"$LINSCHED" run $v --workload "$W1" --topology "$ASYM" --duration 1s \
		--json "$tmp/$v-A.json" > /dev/null &&
	"$LINSCHED" run $v --workload "$W2" --topology quad --duration 1s \
		--json "$tmp/$v-Q.json" > /dev/null || echo "run $v failed"
done
same="
ok = True
for v in ('v6.1.187', 'v6.1.190'):
    j = json.load(open('$tmp/%s-%s.json' % (v, X)))
    row = [r for r in d if r['label'] == v][0]
    for m in METRICS:
        a, b = row[m], metric(j, m)
        print('# %s %s: trend.dat %r, run --json %r' % (v, m, a, b))
        ok = ok and row['first_commit'] == j['commit'] and abs(a - b) <= 1e-9 * max(1, abs(b)) and row[m + '.min'] == row[m + '.max'] == a
"
trend_dat "$A" "X = 'A'$same" && trend_dat "$Q" "X = 'Q'$same"
ok $? "for 6.1.187 and 6.1.190, on both pairs, the 6 metrics of trend.dat are those of 'linsched run --json'"
trend_dat "$A" "a, b = [[r for r in d if r['label'] == v][0]['throughput'] for v in ('v6.1.187', 'v6.1.190')]; print('# throughput %g -> %g' % (a, b)); ok = a > 1.9 and b < 1.45"
ok $? "the misfit workload's throughput on asym-smt drops from 6.1.187 to 6.1.190"
P=$tmp/a/hog_4_cpus=0_unpin=10ms-asym-smt.json
[ "$(grep -vc '^#' "$P/plane.dat")" = 2 ] && [ "$(grep -vc '^#' "$P/arrows.dat")" = 1 ] &&
	grep -q '"v6.1.190, v6.1.192"$' "$P/plane.dat" && [ "$(grep -vc '^#' "$A/plane.dat")" = 1 ] &&
	grep -q 'balance_score' "$A/metrics.gp" && grep -q "axes x1y2" "$A/balance-energy.gp"
ok $? "the plane: one point per place (revisions there share a label), an arrow where the next one moved"

# A range with a revision that crashes (BUG() in the tick) and one after
# it: a gap with its reason, the plots drawn; --seeds 2 adds error bars.
repo=$tmp/repo.git
git clone -q --bare "$LSBISECT_REPO" "$repo"
git -C "$repo" cat-file blob "v6.1.187:kernel/sched/fair.c" |
	python3 -c "import sys; s = sys.stdin.read(); i = s.index('{\n', s.index('static void task_tick_fair(')) + 2; sys.stdout.write(s[:i] + '\tBUG();\n' + s[i:])" > "$tmp/fair.c"
blob=$(git -C "$repo" hash-object -w "$tmp/fair.c")
GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree v6.1.187
GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,kernel/sched/fair.c"
tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
c1=$(git -C "$repo" -c user.name=t -c user.email=t@t commit-tree "$tree" -p v6.1.187 -m "BUG() in the tick")
c2=$(git -C "$repo" -c user.name=t -c user.email=t@t commit-tree "v6.1.190^{tree}" -p "$c1" -m "6.1.190's tree")
"$LINSCHED" trend "v6.1.187..$c2" --repo "$repo" --workload "$W2" --topology quad \
	--seeds 2 --duration 200ms --out "$tmp/x" > "$tmp/x.out" 2> "$tmp/x.err"
rc=$?
X=$tmp/x/hog_4_cpus=0_unpin=10ms-quad
[ $rc = 0 ] && grep -q "^  gap: ${c1:0:12} (${c1:0:12}): crashed: .*BUG" "$tmp/x.out" &&
	grep -q "1 gap" "$tmp/x.out" &&
	trend_dat "$X" "import math; ok = [r['status'] for r in d] == ['ok', 'crashed', 'ok'] and all(math.isnan(v) for k, v in d[1].items() if k not in ('index', 'label', 'first_commit', 'last_commit', 'commits', 'status')) and not math.isnan(d[2]['throughput'])" &&
	grep -q "crashed" "$X/balance-energy.gp" && [ "$(png_check "$X/metrics.png" 1000x900)" -gt 20 ]
ok $? "a crashing revision: exit 0 ($rc), listed with its reason, a gap (NaN) in trend.dat, marked in the plots"
grep -q "yerrorbars" "$X/balance-energy.gp" && grep -q "yerrorbars" "$X/metrics.gp" &&
	grep -q "median over 2 seeds" "$X/trend.dat"
ok $? "--seeds 2: medians, with min and max drawn as error bars"

# Usage errors.
"$LINSCHED" trend v6.1.170 --workload hog --topology quad 2> "$tmp/e.err"
[ $? = 2 ] && grep -q "not a range GOOD..BAD" "$tmp/e.err"
ok $? "a revision that is not a range: exit 2, said so"
grep -q "usage: linsched trend GOOD..BAD" <<<"$("$LINSCHED" trend --help)" &&
	grep -q "trend A..B" <<<"$("$LINSCHED" --help)"
ok $? "--help and linsched --help describe it"

done_testing
