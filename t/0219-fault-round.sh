#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Faults over the commands that write output directories: on a file
# system that fills up part-way, a command either writes every file whole
# and exits 0, or exits non-zero saying "No space left on device" and
# where; gnuplot, which exits 0 when its writes fail, is not taken at its
# word.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
tmp=$(mktemp -d)
mounts=
cleanup() {
	local m
	for m in $mounts; do
		umount "$m" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
private_cache "$tmp/cache"
export LSBISECT_CACHE=$tmp/cache
REV=$TEST_V61

# small KB: a fresh tmpfs of KB kilobytes at $tmp/sKB
small() {
	mkdir -p "$tmp/s$1" && mount -t tmpfs -o "size=$1k" tmpfs "$tmp/s$1" &&
		mounts="$mounts $tmp/s$1"
}
mkdir -p "$tmp/probe"
mount -t tmpfs -o size=8k tmpfs "$tmp/probe" 2>/dev/null ||
	skip_all "cannot mount a tmpfs here (not root?)"
umount "$tmp/probe"
plan 3

# whole DIR: every PNG ends with IEND, every SVG with </svg>
whole() {
	python3 - "$1" <<'PY'
import glob, sys
for p in glob.glob(sys.argv[1] + '/*.png'):
    assert open(p, 'rb').read()[-8:-4] == b'IEND', p
for p in glob.glob(sys.argv[1] + '/*.svg'):
    assert open(p, 'rb').read().rstrip().endswith(b'</svg>'), p
PY
}

# ---- 1. linsched timeline on file systems from 8 to 256 KB ----
"$LINSCHED" timeline "$REV" -w 'hog*2' -t dual -d 100ms --out "$tmp/tl" \
	>/dev/null 2>&1
ok $? "timeline with room: its files written"
bad= failed=0 fine=0
for kb in 8 16 24 32 40 48 56 64 96 128 256; do
	small $kb || { bad="$bad $kb:mount"; continue; }
	"$LINSCHED" timeline "$REV" -w 'hog*2' -t dual -d 100ms \
		--out "$tmp/s$kb/tl" >/dev/null 2>"$tmp/err$kb"
	status=$?
	if [ $status = 0 ]; then
		whole "$tmp/s$kb/tl" && [ -s "$tmp/s$kb/tl/timeline.png" ] &&
			[ -s "$tmp/s$kb/tl/timeline.svg" ] || bad="$bad $kb:cut"
		fine=$((fine + 1))
	else
		grep -q "No space left on device" "$tmp/err$kb" ||
			bad="$bad $kb:$(head -c 200 "$tmp/err$kb")"
		failed=$((failed + 1))
	fi
done
test_expect_success "full: exit 0 with whole images or an error saying the disk is full (${bad:-all}; $failed failed, $fine whole)" \
	'[ -z "$bad" ] && [ $failed -ge 3 ] && [ $fine -ge 1 ]'
grep -h "gnuplot exited 0 but" "$tmp"/err* > "$tmp/gnuplot.err"
test_expect_success "and a cut image is named: $(head -n1 "$tmp/gnuplot.err")" \
	'[ -s "$tmp/gnuplot.err" ]'

test_done
