#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# KernelShark opens a run's trace.dat: the real GUI, on a virtual X
# display (xvfb-run; -ac, as the user cannot read root's cookie), as an
# ordinary user (as root it first asks whether to go on). It loads the file and is still showing it seconds later,
# with no ERROR line; a cut file makes it say ERROR, so the check can
# fail.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the user it runs as reads the traces and keeps its settings here
chmod 755 "$tmp"
mkdir -m 777 "$tmp/home"

# kernelshark FILE LOG: status 124 when it was still running after 10 s
kernelshark_open() {
	(cd "$tmp/home" && HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/home \
		xvfb-run -a -s "-ac -screen 0 1280x800x24" runuser -u nobody -- timeout 10 kernelshark "$1") \
		> "$2" 2>&1
}

"$LINSCHED" run "$TEST_V73" --workload 'hog*2+periodic*4:run=2ms:sleep=6ms' \
	--topology quad --duration 200ms --trace "$tmp/run.dat" --quiet
ok $? "a run writes its trace.dat"
chmod 644 "$tmp/run.dat"
kernelshark_open "$tmp/run.dat" "$tmp/log"
rc=$?
test_expect_success "KernelShark loads the trace.dat and shows it, no ERROR (status $rc)" \
	'[ $rc -eq 124 ] && grep -q "Loading.*run.dat" "$tmp/log" &&
	 ! grep -q ERROR "$tmp/log" || { cat "$tmp/log"; false; }'
head -c 3000 "$tmp/run.dat" > "$tmp/cut.dat"
chmod 644 "$tmp/cut.dat"
kernelshark_open "$tmp/cut.dat" "$tmp/cut.log"
test_expect_success "a cut trace.dat makes it say ERROR" \
	'grep -q "ERROR.*cut.dat" "$tmp/cut.log" || { cat "$tmp/cut.log"; false; }'
test_done
