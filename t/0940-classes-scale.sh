#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Classes of a long history on a kernel-sized tree: 5,000 commits (merges of
# topic branches among them, most outside the build subset) over a base of
# about 40,000 files with Kconfig files at every depth
# (t/classes-history.py). 'linsched classes' lists GOOD and the range with
# subset hashes and classes, full history and first parents; each listing
# is checked against git itself (t/classes-ref.py): the commits and their
# order from git rev-list, every class boundary from git diff-tree, and
# the subset hash of a sample of commits, class boundaries among them, from
# git ls-tree. Not timed: 'make bench' measures the speed.
. "$(dirname "$0")/lib.sh"

plan 15
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/history.git
rules=$LSB_ROOT/bisect/subset.list
n=${CLASSES_COMMITS:-5000}

python3 "$LSB_ROOT/t/classes-history.py" "$repo" "$n" > "$tmp/gen.out" 2>&1
status=$?
test_expect_success "a generated history: $(cat "$tmp/gen.out")" \
	'[ $status = 0 ] && [ "$(git -C "$repo" rev-list --count base..main)" -ge "$n" ]'

# check WHAT LISTING CHECK-ARGS...: the reference's checks as ok lines
check() {
	local what=$1; shift
	python3 "$LSB_ROOT/t/classes-ref.py" "$repo" "$rules" "$@" > "$tmp/ref.out" 2>&1 ||
		echo "1 $what: the reference check failed: $(tail -n1 "$tmp/ref.out")" >> "$tmp/ref.out"
	while read -r st msg; do
		ok "$st" "$msg"
	done < <(grep -E '^[01] ' "$tmp/ref.out")
}

merges=$(git -C "$repo" rev-list --merges --count base..main)
"$LINSCHED" classes base..main --repo "$repo" > "$tmp/full" 2> "$tmp/full.err"
status=$?
test_expect_success "linsched classes, full history (status $status): $(cat "$tmp/full.err")" \
	'
	[ $status = 0 ] && [ "$merges" -gt 10 ] &&
	grep -q "^base..main: $(git -C "$repo" rev-list --count base..main) commits ($merges merges) in [0-9]* classes (full history)" "$tmp/full.err"
'
check "full history" "$tmp/full" base main --sample 50

"$LINSCHED" classes base..main --repo "$repo" --first-parent > "$tmp/fp" 2> "$tmp/fp.err"
status=$?
fpn=$(git -C "$repo" rev-list --first-parent --count base..main)
test_expect_success "linsched classes --first-parent (status $status): $(cat "$tmp/fp.err")" \
	'
	[ $status = 0 ] && [ "$fpn" -lt "$(git -C "$repo" rev-list --count base..main)" ] &&
	grep -q "^base..main: $fpn commits ($merges merges) in [0-9]* classes (first parents)" "$tmp/fp.err"
'
check "first parents" "$tmp/fp" base main --first-parent --sample 20 --other "$tmp/full"

"$LINSCHED" classes --help > "$tmp/help" 2>&1
h=$?
"$LINSCHED" classes main --repo "$repo" > /dev/null 2> "$tmp/usage"
u=$?
"$LINSCHED" classes main..base --repo "$repo" > /dev/null 2> "$tmp/swapped"
s=$?
test_expect_success "--help (status $h), a revision that is no range (status $u), GOOD and BAD swapped (status $s): $(head -n1 "$tmp/swapped")" \
	'
	[ $h = 0 ] && grep -q '\''^usage: linsched classes'\'' "$tmp/help" && [ $u = 2 ] &&
	grep -q "is not a range GOOD..BAD" "$tmp/usage" && [ $s = 1 ] &&
	grep -q "swapped?" "$tmp/swapped"
'

done_testing
