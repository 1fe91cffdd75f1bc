#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make install gives programs that find their data beside them.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$LSB_ROOT" install PREFIX="$tmp/prefix" >/dev/null
ok $? "make install PREFIX=$tmp/prefix"
grep -q '^usage: linsched' <<<"$("$tmp/prefix/bin/linsched" --help)"
ok $? "the installed linsched answers --help"
grep -q '^usage: lsbisect' <<<"$("$tmp/prefix/bin/lsbisect" --help)"
ok $? "the installed lsbisect answers --help"
printf '(display (median (list 3 1 2)))\n' > "$tmp/m.scm"
[ "$("$tmp/prefix/bin/lsbisect" --scheme "$tmp/m.scm")" = 2 ]
ok $? "and finds its Scheme strategy in share/lsbisect/guile"
exe=$("$tmp/prefix/bin/linsched" build "$TEST_V612")
"$exe" --topology dual --workload 'hog*3' --duration 100ms --json "$tmp/r.json" &&
	[ "$(json "$tmp/r.json" "r['kernel_version']")" = "${TEST_V612#v}" ]
ok $? "the installed linsched builds and runs $TEST_V612 ($exe)"
done_testing
