#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The result cache: entries that are cut short, altered or misplaced are
# found, removed and recomputed, never trusted; two bisections sharing one
# cache at the same time both finish with the same answer and leave only
# whole entries.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
plan 7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
make_history "$work" "$BISECT_PLAN" > "$tmp/history"
lb=$(awk '$2 == "lb" { print $1; exit }' "$tmp/history")
private_cache "$tmp/cache"
private_cache "$tmp/shared"
export LSBISECT_CACHE=$tmp/cache
W=$BISECT_W
ARGS=(--repo "$work" --topology quad --duration 1s)
r() { json "$1/report.json" "${@:2}"; }
bisect() { "$LSBISECT" "$TEST_V61" bad "$W" "${ARGS[@]}" --out "$1" > "$1.txt" 2>&1; }

bisect "$tmp/a"
mapfile -t entries < <(find "$tmp/cache/results" -type f | sort)
test_expect_success "a bisection leaves ${#entries[@]} entries" \
	'[ "$(r "$tmp/a" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ] && [ "${#entries[@]}" -ge 4 ]'

# cut one short, change a byte of another, and put a third where a fourth was
truncate -s -7 "${entries[0]}"
python3 -c "
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
i = b.index(b'\"status\"') + 10; b[i] ^= 1
open(p, 'wb').write(b)" "${entries[1]}"
cp "${entries[2]}" "${entries[3]}"
bisect "$tmp/b"
k=$(r "$tmp/b" "r['counts']['corrupt_removed'] == 3 and r['culprit']['commit'] == a[0]" "$lb")
test_expect_success "three bad entries found and recomputed, the same answer: $(r "$tmp/b" "r['counts']")" \
	'[ "$k" = True ]'
bisect "$tmp/c"
k=$(r "$tmp/c" "r['counts']['corrupt_removed'] == 0 and r['counts']['ran'] == 0")
test_expect_success "then all entries are whole again: $(r "$tmp/c" "r['counts']")" \
	'[ "$k" = True ]'
cmp -s "${entries[2]}" "${entries[3]}"
rc=$?
test_expect_success "the misplaced entry was replaced by its own result" \
	'[ $rc != 0 ]'

# two bisections at once on one empty result cache
export LSBISECT_CACHE=$tmp/shared
bisect "$tmp/p1" & p1=$!
bisect "$tmp/p2" & p2=$!
wait $p1; s1=$?
wait $p2; s2=$?
test_expect_success "two at once: both find the culprit ($s1, $s2)" \
	'[ $s1 = 0 ] && [ $s2 = 0 ] && [ "$(r "$tmp/p1" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ] && [ "$(r "$tmp/p2" "r['\''culprit'\'']['\''commit'\'']")" = "$lb" ]'
left=$(find "$tmp/shared/results" -type f \( -name '*.tmp.*' -o -name 'run.*' \) | wc -l)
test_expect_success "no temporary files are left ($left)" \
	'[ "$left" = 0 ]'
bisect "$tmp/p3"
k=$(r "$tmp/p3" "r['counts']['corrupt_removed'] == 0 and r['counts']['ran'] == 0 and r['counts']['built'] == 0")
test_expect_success "and their cache serves a third whole: $(r "$tmp/p3" "r['counts']")" \
	'[ "$k" = True ]'
done_testing
