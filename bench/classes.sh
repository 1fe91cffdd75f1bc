#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/classes.sh - how fast ranges are listed and classified (see
# bench/README.md, section 8). Run from the repository root after 'make';
# bench/run.sh runs it too.
#
# For each size COMMITS:FILES, t/classes-history.py makes a history of
# COMMITS commits (merges among them) over a base tree of about FILES
# files, and 'linsched classes base..main' classifies it,
# full history, BENCH_CLASSES_REPS times (the best and the median count).
# The same is timed with the bisect/ module of BENCH_CLASSES_BEFORE (by
# default the commit before bisect/ hashed subsets incrementally) built
# into this tree's linsched in a temporary directory, once per size (when
# that module still builds into this tree: its interface has grown since).
#
# Environment (all optional):
#   BENCH_CLASSES_SIZES   default "5000:40000 15000:80000"
#   BENCH_CLASSES_REPS    default 3
#   BENCH_CLASSES_BEFORE  the commit whose bisect/ is "before"
#   BENCH_CLASSES_SKIP_BEFORE=1  time this tree only
#
# Prints one line per figure, "classes SIZE VERSION BEST MEDIAN RATE
# CLASSES CPU CPU_RATE" (seconds; RATE in commits/s of the median wall
# time, CPU_RATE of the median user+sys time, which other work on the
# machine hardly changes), then a table. Fails when before and after list
# different classes.

set -euo pipefail
export LC_ALL=C

LINSCHED=${LINSCHED:-build/bin/linsched}
SIZES=(${BENCH_CLASSES_SIZES:-5000:40000 15000:80000})
REPS=${BENCH_CLASSES_REPS:-3}
T_RATE=1000		# commits/s, at least

die() { echo "bench/classes: $*" >&2; exit 1; }
[[ -x $LINSCHED ]] || die "$LINSCHED not found: run 'make' first"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/lsbisect-classes.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# The linsched of before: this tree with the old bisect/.
before=""
if [[ ${BENCH_CLASSES_SKIP_BEFORE:-0} != 1 ]]; then
	rev=${BENCH_CLASSES_BEFORE:-$(git log -n1 --format=%H -S subset_walk_hash -- bisect/subset.c)^}
	rev=$(git rev-parse --verify -q "$rev^{commit}") || die "no commit '$rev' for before"
	mkdir "$TMP/before"
	git archive HEAD | tar -x -C "$TMP/before"
	# uncommitted changes of this tree count as "after": copy them in
	git diff HEAD | (cd "$TMP/before" && git apply --allow-empty)
	rm -rf "$TMP/before/bisect"
	git archive "$rev" bisect | tar -x -C "$TMP/before"
	if make -C "$TMP/before" -j"$(nproc)" build/bin/linsched build/share/lsbisect/subset.list \
		>"$TMP/before.log" 2>&1; then
		mkdir -p "$TMP/before/build/share/lsbisect"
		cp -R build/share/lsbisect/. "$TMP/before/build/share/lsbisect/"
		before=$TMP/before/build/bin/linsched
		echo "  before: bisect/ of $(git log -n1 --format='%h %s' "$rev")" >&2
	else
		# bisect/'s interface grew since (bugs/ edits, reuse/ diffs):
		# the old module no longer links into this tree's linsched
		echo "  before: bisect/ of $(git log -n1 --format='%h' "$rev") no longer builds into this tree; timed this tree only (BENCH_CLASSES_BEFORE names another commit). Its build said:" >&2
		grep -m3 'error' "$TMP/before.log" | sed 's/^/    /' >&2 || true
	fi
fi

# run BIN REPO OUT: seconds of one classification into T, its CPU seconds
# (user + sys) into C, classes into K; the listing into OUT
run() {
	local t0 t1
	t0=$EPOCHREALTIME
	/usr/bin/time -f '%U %S' -o "$TMP/cpu" "$1" classes base..main --repo "$2" >"$3" 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; die "$1 classes failed"; }
	t1=$EPOCHREALTIME
	T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
	C=$(awk '{ printf "%.4f", $1 + $2 }' "$TMP/cpu")
	K=$(sed -n 's/.* in \([0-9]*\) classes.*/\1/p' "$TMP/err")
}
stats() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%s %.4f\n", v[1], m }'; }

ROWS=()
for size in "${SIZES[@]}"; do
	commits=${size%%:*}; files=${size##*:}
	repo=$TMP/h-$commits-$files.git
	python3 t/classes-history.py "$repo" "$commits" --files "$files" >"$TMP/gen" ||
		die "cannot generate the history $size"
	n=$(git -C "$repo" rev-list --count base..main)
	echo "  history $size: $(cat "$TMP/gen"), $(git -C "$repo" rev-list --merges --count base..main) merges" >&2
	for version in after before; do
		bin=$LINSCHED; reps=$REPS
		if [[ $version == before ]]; then
			[[ -n $before ]] || continue
			bin=$before; reps=1
		fi
		ts=(); cs=()
		for ((i = 1; i <= reps; i++)); do
			run "$bin" "$repo" "$TMP/list-$version"
			ts+=("$T"); cs+=("$C")
		done
		if [[ $version == before ]] && ! cmp -s "$TMP/list-after" "$TMP/list-before"; then
			die "history $size: the classes differ from before's"
		fi
		read -r b m < <(stats "${ts[@]}")
		read -r _ cm < <(stats "${cs[@]}")
		rate=$(awk -v n="$n" -v m="$m" 'BEGIN { printf "%.0f", n / m }')
		crate=$(awk -v n="$n" -v m="$cm" 'BEGIN { printf "%.0f", n / (m > 0 ? m : 0.001) }')
		echo "classes $n:$files $version $b $m $rate $K $cm $crate"
		st=""
		[[ $version == after ]] &&
			st=$(awk -v r="$rate" -v t=$T_RATE 'BEGIN { print (r >= t) ? "PASS" : "MISS" }')
		ROWS+=("$n commits, $files files|$version|$(printf %.3f "$b")|$(printf %.3f "$m")|$rate|$crate|$K|${st:+>= $T_RATE}|$st")
	done
done
echo
{
	echo "history|bisect/|best (s)|median (s)|commits/s|per CPU-s|classes|target|status"
	printf '%s\n' "${ROWS[@]}"
} | column -t -s '|'
