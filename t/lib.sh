# SPDX-License-Identifier: GPL-2.0-only
# lib.sh - shared by the shell tests: TAP output and the shared kernel
# history. Source it from the project root (prove runs tests from there).

set -uo pipefail

LSB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LINSCHED=$LSB_ROOT/build/bin/linsched
# The tests share one history and one cache with the developer's build:
# downloads and kernel builds are made once.
export LSBISECT_REPO=${LSBISECT_REPO:-$LSB_ROOT/build/kernels.git}
export LSBISECT_CACHE=${LSBISECT_CACHE:-$LSB_ROOT/build/cache}
# The releases the tests run: the newest of each series that the history
# has (tests/CI make sure at least these two exist).
TEST_V61=v6.1.192
TEST_V612=v6.12.118

tap_n=0
tap_failed=0

plan() { echo "1..$1"; }

ok() {
	local cond=$1; shift
	tap_n=$((tap_n + 1))
	if [ "$cond" = 0 ]; then
		echo "ok $tap_n - $*"
	else
		echo "not ok $tap_n - $*"
		tap_failed=$((tap_failed + 1))
	fi
}

diag() { echo "# $*"; }

skip_all() { echo "1..0 # SKIP $*"; exit 4; }

done_testing() { [ "$tap_failed" = 0 ]; exit $?; }

# Make sure the shared history holds the two test releases (incremental:
# nothing happens when they are there).
ensure_kernels() {
	if git -C "$LSBISECT_REPO" rev-parse -q --verify "$TEST_V61^{commit}" >/dev/null 2>&1 &&
	   git -C "$LSBISECT_REPO" rev-parse -q --verify "$TEST_V612^{commit}" >/dev/null 2>&1; then
		return 0
	fi
	"$LINSCHED" kernels --versions "${TEST_V61#v},${TEST_V612#v}" >&2 ||
		skip_all "cannot make the kernel history (no Debian archive?)"
}

# json FILE EXPR: evaluate a python expression on the parsed JSON 'r'
json() {
	python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"
}
