#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The generated workload suite: at least 500 distinct named patterns in
# every family, written byte-for-byte the same every time, and all of them
# run to the end on one revision and one topology.
. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 17
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

FAMILIES="hog periodic bursty random wakechain prodcons fork nice pinned rt idlebatch barrier lock idle pi groupweight groupbw groupidle groupuclamp hotplug isolation"

"$LINSCHED" suite list >"$tmp/names"
ok $? "linsched suite list runs"
n=$(wc -l <"$tmp/names")
distinct=$(sort -u "$tmp/names" | wc -l)
test_expect_success "at least 500 patterns, all distinct ($n listed, $distinct distinct)" \
	'[ "$n" -ge 500 ] && [ "$n" = "$distinct" ]'
bad=$(grep -cvE '^[a-z0-9][a-z0-9.-]{0,63}$' "$tmp/names")
test_expect_success "every name is lowercase letters, digits, dots and dashes, at most 64 ($bad not)" \
	'[ "$bad" = 0 ]'

missing=
for f in $FAMILIES; do
	grep -q "^$f-" "$tmp/names" || missing="$missing $f"
done
test_expect_success "every family has patterns (missing:${missing:- none})" \
	'[ -z "$missing" ]'
"$LINSCHED" suite list --families >"$tmp/families"
test_expect_success "--families lists the $(wc -l <"$tmp/families") families and their counts add up to $n" \
	'
	[ "$(awk '\''{ s += $2 } END { print s }'\'' "$tmp/families")" = "$n" ] &&
	[ "$(awk '\''{ print $1 }'\'' "$tmp/families" | tr '\''\n'\'' '\'' '\'')" = "$FAMILIES " ]
'

# reproducible: the generator is the suite
"$LINSCHED" suite write "$tmp/w1" && "$LINSCHED" suite write "$tmp/w2"
ok $? "linsched suite write, twice"
diff -r "$tmp/w1" "$tmp/w2" >/dev/null
ok $? "two writes give identical files"
test_expect_success "one NAME.json per listed pattern" \
	'
	[ "$(ls "$tmp/w1" | wc -l)" = "$n" ] &&
	[ "$(ls "$tmp/w1" | sed '\''s/\.json$//'\'' | sort)" = "$(sort "$tmp/names")" ]
'
"$LINSCHED" suite write "$tmp/w16" --cpus 16 --match 'hog-x1.0-cpus'
inst8=$(json "$tmp/w1/hog-x1.0-cpus.json" "r['tasks']['hog']['instance']")
inst16=$(json "$tmp/w16/hog-x1.0-cpus.json" "r['tasks']['hog']['instance']")
test_expect_success "counts relative to CPUs follow --cpus (hog-x1.0-cpus: $inst8 on 8, $inst16 on 16); --match selects" \
	'[ "$inst8" = 8 ] && [ "$inst16" = 16 ] && [ "$(ls "$tmp/w16")" = hog-x1.0-cpus.json ]'

# the whole suite on one revision and one machine
"$LINSCHED" suite run "$TEST_V61" --topology quad-smt --duration 1s \
	--out "$tmp/run" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
ok $rc "suite run $TEST_V61 on quad-smt, 1s each: every pattern finished ($(tail -n2 "$tmp/run.out" | head -n1))"
[ $rc = 0 ] || { diag "$(cat "$tmp/run.err")"; diag "$(cat "$tmp/run.out")"; }
fin=$(json "$tmp/run/summary.json" "r['finished']")
test_expect_success "summary.json: $fin of $n finished" \
	'[ "$fin" = "$n" ]'
good=$(python3 - "$tmp/run/results" "$tmp/names" <<'EOF'
import json, sys
names = open(sys.argv[2]).read().split()
good = 0
for name in names:
    try:
        r = json.load(open('%s/%s.json' % (sys.argv[1], name)))
    except (OSError, ValueError):
        continue
    good += r.get('duration_ns') == 1000000000 and r.get('topology') == 'quad-smt' and len(r.get('tasks', [])) > 0
print(good)
EOF
)
test_expect_success "one result per pattern, each 1 s on quad-smt with its tasks ($good of $n)" \
	'[ "$good" = "$n" ]'

# what runs at the same time does not change a result
"$LINSCHED" suite run "$TEST_V61" --topology quad-smt --duration 1s \
	--out "$tmp/sub" --jobs 3 --match 'random-*' --match 'fork-*' >/dev/null 2>&1
ok $? "suite run --jobs 3 --match selects and runs"
# (the results name their workload file, which lives in each output dir)
read -r same total < <(python3 - "$tmp/sub/results" "$tmp/run/results" <<'EOF'
import json, os, sys
same = total = 0
for f in sorted(os.listdir(sys.argv[1])):
    a = json.load(open(os.path.join(sys.argv[1], f)))
    b = json.load(open(os.path.join(sys.argv[2], f)))
    a.pop('workload', None)
    b.pop('workload', None)
    total += 1
    same += a == b
print(same, total)
EOF
)
test_expect_success "$same of $total results are the same as the full run's" \
	'[ "$total" -gt 50 ] && [ "$same" = "$total" ]'

# a pattern that does not finish is that pattern's result, and the status
"$LINSCHED" suite run "$TEST_V61" --duration 1000000s --timeout 1 --match hog-n1 \
	--out "$tmp/hang" >"$tmp/hang.out" 2>&1
rc=$?
st=$(json "$tmp/hang/results/hog-n1.json" "r['status']" 2>/dev/null)
test_expect_success "a pattern past --timeout is reported hung, with exit status 5 (status $rc, result '$st')" \
	'[ $rc = 5 ] && [ "$st" = hung ] && grep -q '\''^hung: hog-n1: timed out'\'' "$tmp/hang.out"'

"$LINSCHED" suite run no-such-revision --duration 200ms --out "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
rc=$?
test_expect_success "an unknown revision is an error (status $rc)" \
	'[ $rc != 0 ] && grep -q '\''^error: '\'' "$tmp/bad.err"'
"$LINSCHED" suite run "$TEST_V61" --topology no-such-machine >/dev/null 2>"$tmp/bad.err"
rc=$?
test_expect_success "an unknown topology is a usage error" \
	'[ $rc = 2 ] && grep -q '\''^error: '\'' "$tmp/bad.err"'
done_testing
