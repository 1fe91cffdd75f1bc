#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched topology: list the presets, show one as JSON that reads back, and
# capture this machine from sysfs into a file the simulator accepts.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$LINSCHED" topology list)
missing=
for p in up dual quad dual-socket-dual-core quad-smt dual-socket-quad-core hex \
	dual-socket-hex-smt biglittle-4+4 dynamiq-1+3+4 numa-2 numa-4 server-64; do
	echo "$out" | grep -q "^$p " || missing="$missing $p"
done
[ -z "$missing" ]
ok $? "topology list names the thirteen presets${missing:+ (missing:$missing)}"
echo "$out" | grep -q '^server-64 *64 *1 *2 '
ok $? "server-64: 64 CPUs, 1 type, 2 nodes"

"$LINSCHED" topology show biglittle-4+4 >"$tmp/bl.json" &&
	[ "$(json "$tmp/bl.json" "len(r['cpus']), r['cpu_types']['little']['capacity']")" = "8 398" ]
ok $? "topology show biglittle-4+4 prints its JSON"
"$LINSCHED" topology show "$tmp/bl.json" | cmp -s - "$tmp/bl.json"
ok $? "the shown JSON reads back unchanged"

"$LINSCHED" topology --from-sysfs -o "$tmp/here.json" 2>"$tmp/notes" &&
	[ "$(json "$tmp/here.json" "len(r['cpus'])")" = "$(getconf _NPROCESSORS_ONLN)" ]
ok $? "topology --from-sysfs -o captures this machine's $(getconf _NPROCESSORS_ONLN) CPUs"
sed 's/^/# /' "$tmp/notes"
"$LINSCHED" run "$TEST_V61" --topology "$tmp/here.json" --workload 'hog*3' \
	--duration 100ms --json "$tmp/r.json" --quiet &&
	[ "$(json "$tmp/r.json" "len(r['cpus'])")" = "$(getconf _NPROCESSORS_ONLN)" ]
ok $? "the kernel boots on the captured machine and runs a workload"

sed 's/"capacity": 398/"capacity": 0/' "$tmp/bl.json" >"$tmp/bad.json"
"$LINSCHED" topology show "$tmp/bad.json" 2>"$tmp/err" >/dev/null
[ $? = 1 ] && grep -q "^error: topology '$tmp/bad.json':6:16: cpu_types.little: 'capacity'" "$tmp/err"
ok $? "a bad file is refused with file:line:column: $(cat "$tmp/err")"

"$LINSCHED" run "$TEST_V61" --topology "$tmp/bad.json" --workload hog 2>"$tmp/err2"
[ $? = 2 ] && grep -q "topology '$tmp/bad.json':6:16" "$tmp/err2"
ok $? "linsched run refuses it too, before building, with status 2"

"$LINSCHED" topology show 2>/dev/null
[ $? = 2 ]
ok $? "a usage error exits 2"
done_testing
