# SPDX-License-Identifier: GPL-2.0-only
# lib.sh - shared by the shell tests: TAP output in git's t/ style, JSON
# assertions and the shared kernel history. Source it from the project
# root (prove runs tests from there).

set -uo pipefail

LSB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The build under test: $O as make check passes it (default build/).
LSB_O=${O:-build}
case $LSB_O in /*) ;; *) LSB_O=$LSB_ROOT/$LSB_O ;; esac
LINSCHED=$LSB_O/bin/linsched
LSBISECT=$LSB_O/bin/lsbisect
# The tests share one history and one cache with the developer's build:
# downloads and kernel builds are made once.
export LSBISECT_REPO=${LSBISECT_REPO:-$LSB_O/kernels.git}
export LSBISECT_CACHE=${LSBISECT_CACHE:-$LSB_O/cache}
# The releases the tests run: one of each series the arch is tested on
# (tests/CI make sure these exist; other releases are fetched only by the
# tests that need them).
TEST_V61=v6.1.192
TEST_V612=v6.12.118
TEST_V72=v7.2.13
TEST_V73=v7.3.4
TEST_RELEASES="$TEST_V61 $TEST_V612 $TEST_V72 $TEST_V73"
NR_RELEASES=$(set -- $TEST_RELEASES; echo $#)

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

# test_expect_success DESCRIPTION COMMANDS: one test, after git's t/: the
# commands (an && chain, in a subshell-free eval) must succeed; on failure
# they are printed as a diagnostic.
test_expect_success() {
	local desc=$1 body=$2
	if eval "$body"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		# on stderr too: prove shows it, and so does a CI log
		diag "failed: $desc: $body" | tee /dev/stderr
	fi
}

# test_done: the status prove reads, after the last test.
test_done() { done_testing; }

# json_is FILE PATH EXPECTED: the JSON value at dotted PATH in FILE (object
# keys, array indexes) printed as Python prints it equals EXPECTED. Values
# are arguments, never pasted into the program.
json_is() {
	local got
	got=$(json_get "$1" "$2") || return 1
	[ "$got" = "$3" ] || { diag "$1: $2 is '$got', expected '$3'"; return 1; }
}

# json_get FILE PATH: print the value at dotted PATH in FILE.
json_get() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.') if sys.argv[2] else []:
    r = r[int(k)] if isinstance(r, list) else r[k]
print(r)
PY
}

skip_all() { echo "1..0 # SKIP $*"; exit 4; }

# vm_prereqs VERSION: skip the file without what linsched vm needs: QEMU,
# rt-app, busybox-static and the release's cached linux-source package
vm_prereqs() {
	command -v qemu-system-x86_64 >/dev/null &&
		command -v rt-app >/dev/null && [ -x /bin/busybox ] ||
		skip_all "qemu-system-x86_64, rt-app or busybox-static missing (make deps)"
	ls "$LSBISECT_CACHE/debs/linux-source-${1%.*}_$1-"*_all.deb >/dev/null 2>&1 ||
		skip_all "no cached linux-source package of $1 (linsched kernels --versions $1)"
}

# lines FILE: how many lines FILE has
lines() { wc -l < "$1" | tr -d ' '; }

# wait_for SECONDS COMMAND...: until COMMAND succeeds; 1 after SECONDS
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.2
	done
}

done_testing() { [ "$tap_failed" = 0 ]; exit $?; }

# Make sure the shared history holds every release the tests run: the four
# test releases, the whole 6.1 and 6.12 series (t/0930, t/1010, t/1020 and
# the catalogue's) and 7.3-rc7 (incremental: nothing happens when the named
# ones are there). All at once, before make check's lanes start (t/0100):
# a release added in the middle of the history moves the tags after it, so
# no test adds one while another runs.
TEST_HISTORY="$TEST_RELEASES v6.1.170 v6.1.176 v6.1.187 v6.12.95 v6.12.107 v7.3-rc7"
ensure_kernels() {
	local rev missing=
	for rev in $TEST_HISTORY; do
		git -C "$LSBISECT_REPO" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1 ||
			missing=1
	done
	[ -z "$missing" ] && return 0
	"$LINSCHED" kernels --series 6.1,6.12 >&2 &&
		"$LINSCHED" kernels --versions "$(echo $TEST_HISTORY | sed 's/v//g; s/ /,/g')" >&2 ||
		skip_all "cannot make the kernel history (no Debian archive?)"
}

# json FILE EXPR [VALUE...]: print a Python expression of the parsed JSON
# 'r'; the VALUEs are the list 'a' (a[0], ...), never pasted into EXPR.
json() {
	local file=$1 expr=$2
	shift 2
	python3 -c "import json,sys; r=json.load(open(sys.argv[1])); a=sys.argv[2:]; print($expr)" "$file" "$@"
}

# within V LO HI: LO <= V <= HI, as numbers (fractions too)
within() {
	python3 -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= v <= hi)' "$@"
}

# svg_check FILE N: FILE parses as an SVG document of more than N elements
svg_check() {
	python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.tag.endswith('svg') and len(list(r.iter())) > int(sys.argv[2]) else 1)" "$1" "$2"
}

# png_check FILE WxH: the number of distinct colours of a valid PNG of that
# size (signature, IHDR, pixels decoded with zlib and the PNG filters);
# fails on anything else.
png_check() {
	python3 - "$1" "$2" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
w, h = map(int, sys.argv[2].split('x'))
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, hdr = 8, b'', None
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        hdr = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
assert hdr[:2] == (w, h), 'size %dx%d' % hdr[:2]
assert hdr[2] == 8 and hdr[3] in (2, 6) and hdr[6] == 0, 'format %r' % (hdr,)
bpp = 3 if hdr[3] == 2 else 4
raw, stride, prev, colours, i = zlib.decompress(idat), w * bpp, None, set(), 0
for y in range(h):
    ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    prev = prev or bytearray(stride)
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if ft == 1: line[x] = (line[x] + a) & 255
        elif ft == 2: line[x] = (line[x] + b) & 255
        elif ft == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif ft == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    colours.update(bytes(line[x:x + 3]) for x in range(0, stride, bpp))
    prev = line
print(len(colours))
PY
}

# trend_dat DIR CODE: run python CODE, which sets ok, on DIR/trend.dat of
# 'linsched trend'; it is given d, the rows (dicts by the header's names,
# metric values as floats), METRICS, the six metrics trend draws, and
# metric(r, name), that metric of a 'linsched run --json' result r, found
# as trend finds it (in "metrics", then "power")
trend_dat() {
	python3 - "$1" "$2" <<'PY'
import json, math, shlex, sys
lines = open(sys.argv[1] + '/trend.dat').read().splitlines()
names = lines[0][2:].split()
d = []
for l in lines:
    if l.startswith('#'):
        continue
    row = dict(zip(names, shlex.split(l)))
    for k in names[6:]:
        row[k] = float(row[k])
    d.append(row)
METRICS = ('balance_score', 'work_conservation', 'wakeup_latency_ns.p99',
           'throughput', 'energy_j', 'mean_power_w')
def metric(r, name):
    for root in ('metrics', 'power'):
        n = r[root]
        for p in name.split('.'):
            n = n.get(p) if isinstance(n, dict) else None
        if isinstance(n, (int, float)):
            return n
ok = False
exec(sys.argv[2])
sys.exit(0 if ok else 1)
PY
}
