#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# bench-bisect.sh - wall times of the tests' 44-commit bisection (not a
# test: prove runs t/[0-9]*.sh only):
#   cold   lsbisect with an empty cache (every build made, GOOD's too)
#   warm   the same bisection again (every result from the cache)
#   git    git bisect run on a checkout of the same history, each step
#          building its revision afresh (an empty cache per step) and
#          running the same workload through `linsched run`, comparing
#          the balance score with GOOD's as lsbisect does (5 %); a build
#          failure, crash or hang is exit status 125; LSBISECT_REUSE=0, so
#          every build is a full kbuild
#   ccache the same with ccache (Debian's /usr/lib/ccache first in PATH,
#          one ccache for the run, cold at its start); installs the
#          package when missing (as root)
# Prints the times and the ratios.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
tmp=${BENCH_TMP:-$(mktemp -d)}
trap 'rm -rf "$tmp"' EXIT
W=$BISECT_W
ARGS=(--topology quad --duration 1s)

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
make_history "$work" "$BISECT_PLAN" > "$tmp/history"
lb=$(awk '$2 == "lb" { print $1; exit }' "$tmp/history")

secs() { python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$@"; }

mkdir -p "$tmp/cold-cache"
t0=$(date +%s.%N)
LSBISECT_CACHE=$tmp/cold-cache "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" \
	--repo "$work" --out "$tmp/cold" -q > "$tmp/cold.txt"
s1=$?
t1=$(date +%s.%N)
LSBISECT_CACHE=$tmp/cold-cache "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" \
	--repo "$work" --out "$tmp/warm" -q > "$tmp/warm.txt"
s2=$?
t2=$(date +%s.%N)
cold=$(secs "$t0" "$t1")
warm=$(secs "$t1" "$t2")
echo "lsbisect cold: $cold s (status $s1, $(tail -2 "$tmp/cold.txt" | head -1))"
echo "lsbisect warm: $warm s (status $s2, $(tail -2 "$tmp/warm.txt" | head -1))"
grep -q "^first bad commit: $lb" "$tmp/cold.txt" || echo "warning: lsbisect did not name $lb"

# git bisect run: a checkout per step, a full kbuild per step
cat > "$tmp/step.sh" <<EOF
#!/usr/bin/env bash
# one git bisect step: build HEAD afresh, run, compare with GOOD
cache=\$(mktemp -d "$tmp/step-cache.XXXXXX")
LSBISECT_CACHE=\$cache "$LINSCHED" run HEAD --repo "$tmp/checkout" --workload '$W' \\
	${ARGS[*]} --metrics --json "$tmp/step.json" --quiet 2>/dev/null
status=\$?
rm -rf "\$cache"
case \$status in
0) ;;
3|4|5|6) exit 125 ;;
*) exit 128 ;;
esac
python3 -c "
import json, sys
v = json.load(open('$tmp/step.json'))['metrics']['balance_score']
sys.exit(1 if v > float(sys.argv[1]) * 1.05 else 0)" "\$(cat "$tmp/good-value")"
EOF
chmod +x "$tmp/step.sh"
# git_bisect_run LABEL: the checkout and GOOD's build are part of the time
git_bisect_run() {
	local label=$1 t3 t4 gitt steps first
	rm -rf "$tmp/checkout" "$tmp/good-cache"
	t3=$(date +%s.%N)
	git clone -q --shared "$work" "$tmp/checkout"
	git -C "$tmp/checkout" checkout -q bad 2>/dev/null || git -C "$tmp/checkout" checkout -q -b bad origin/bad
	mkdir -p "$tmp/good-cache"
	LSBISECT_CACHE=$tmp/good-cache "$LINSCHED" run "$TEST_V61" --repo "$tmp/checkout" --workload "$W" \
		"${ARGS[@]}" --metrics --json "$tmp/good.json" --quiet
	json "$tmp/good.json" "r['metrics']['balance_score']" > "$tmp/good-value"
	git -C "$tmp/checkout" bisect start bad "$TEST_V61" >/dev/null
	git -C "$tmp/checkout" bisect run "$tmp/step.sh" > "$tmp/git.txt" 2>&1
	t4=$(date +%s.%N)
	gitt=$(secs "$t3" "$t4")
	steps=$(grep -c '^running' "$tmp/git.txt")
	first=$(grep -m1 'is the first bad commit' "$tmp/git.txt")
	echo "$label: $gitt s ($steps steps; $first)"
	grep -q "^$lb is the first bad commit" "$tmp/git.txt" || sed 's/^/  /' "$tmp/git.txt" | tail -40
	echo "ratio $label / lsbisect cold: $(python3 -c "print(round($gitt / $cold, 2))")"
	echo "ratio $label / lsbisect warm: $(python3 -c "print(round($gitt / $warm, 1))")"
}

export LSBISECT_REUSE=0
git_bisect_run "git bisect run"
command -v ccache >/dev/null || apt-get install -y -qq ccache >/dev/null 2>&1 ||
	echo "warning: no ccache, and it cannot be installed"
if [ -d /usr/lib/ccache ]; then
	(
		export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$tmp/ccache \
			CCACHE_BASEDIR=$tmp CCACHE_NOHASHDIR=true
		git_bisect_run "git bisect run with ccache"
	)
fi
