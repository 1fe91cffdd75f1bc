#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The Scheme side with a real Guile and no kernel build: the strategy's
# statistics and judges (t/scheme/strategy.scm speaks TAP itself), a
# script's errors reported with file:line:column, the REPL.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$LSBISECT" --scheme "$LSB_ROOT/t/scheme/strategy.scm" | sed 's/^1\.\.[0-9]*$//' > "$tmp/unit.tap"
status=${PIPESTATUS[0]}
n=$(grep -c '^\(not \)\?ok ' "$tmp/unit.tap")
plan $((n + 5))
while read -r line; do
	case $line in
	"ok "*) ok 0 "${line#ok [0-9]* - }" ;;
	"not ok "*) ok 1 "${line#not ok [0-9]* - }" ;;
	esac
done < "$tmp/unit.tap"
test_expect_success "the Scheme unit tests exit 0 (status $status)" \
	'[ "$status" = 0 ]'

printf '(define (f x)\n  (car x))\n\n(f 42)\n' > "$tmp/err.scm"
"$LSBISECT" --scheme "$tmp/err.scm" 2> "$tmp/err.txt"
status=$?
test_expect_success "an error in a file: status 4, at file:line:column ($(cat "$tmp/err.txt"))" \
	'[ $status = 4 ] && grep -q "^error: $tmp/err.scm:2:3: In procedure car" "$tmp/err.txt"'

printf '(define (f x)\n  (+ x 1)\n' > "$tmp/read.scm"
"$LSBISECT" --scheme "$tmp/read.scm" 2> "$tmp/read.txt"
status=$?
test_expect_success "a reader error names the file ($(cat "$tmp/read.txt"))" \
	'[ $status = 4 ] && grep -q "$tmp/read.scm:.*end of input" "$tmp/read.txt"'

out=$(printf '(display (session (quote metric)))\n(newline)\n(display (length (class-commits (vector-ref (revision-range "v6.1.192" "v6.1.192^{tree}") 0))))\n' |
	"$LSBISECT" --repl 2>&1)
echo "$out" | grep -q '^balance_score'
ok $? "the REPL has the modules: (session 'metric) is balance_score"

"$LSBISECT" --scheme /nonexistent.scm 2> "$tmp/none.txt"
rc=$?
test_expect_success "a missing file is an error that names it" \
	'[ $rc = 4 ] && grep -q "nonexistent.scm" "$tmp/none.txt"'
done_testing
