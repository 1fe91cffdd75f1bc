#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A metric name means the same in every command (metrics/catalogue.c): the
# Scheme strategy's (metric R NAME) reads migrations_per_s as the sum over
# domain levels and wakeup_latency_ns as its p99, as linsched report does,
# and takes its direction from the catalogue.

. "$(dirname "$0")/lib.sh"

ensure_kernels
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

W='hog*6+periodic*4:run=1ms:sleep=3ms'
RUN=(-w "$W" -t quad-smt -d 500ms)

cat > "$tmp/m.scm" <<'SCM'
(let ((r (run (session 'good) 1)))
  (format #t "~a ~a ~a ~a ~a~%"
          (metric r "migrations_per_s") (metric r "wakeup_latency_ns")
          (metric r "migrations_per_s.MC")
          (higher-is-better? "throughput")
          (higher-is-better? "migrations_per_s")))
SCM

test_expect_success "linsched run --json of $TEST_V61" \
	'"$LINSCHED" run "$TEST_V61" "${RUN[@]}" --json "$tmp/r.json" -q'

test_expect_success "the Scheme strategy reads the same run's metrics" \
	'"$LSBISECT" --scheme "$tmp/m.scm" "$TEST_V61" "$TEST_V612" "$W" \
		--topology quad-smt --duration 500ms > "$tmp/m.out" 2> "$tmp/m.err"'

read -r sum p99 mc hib_tp hib_mig < "$tmp/m.out"
want=$(python3 - "$tmp/r.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))['metrics']
print(sum(m['migrations_per_s'].values()), m['wakeup_latency_ns']['p99'],
      m['migrations_per_s'].get('MC', 0))
PY
)
read -r want_sum want_p99 want_mc <<< "$want"

same() { python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 1e-9 * max(1, abs(b)))' "$1" "$2"; }

test_expect_success "migrations_per_s is the sum over domain levels ($sum = $want_sum)" \
	'same "$sum" "$want_sum" && same "$mc" "$want_mc"'
test_expect_success "wakeup_latency_ns is its p99 ($p99 = $want_p99)" \
	'same "$p99" "$want_p99"'
test_expect_success "the direction comes from the catalogue (throughput $hib_tp, migrations_per_s $hib_mig)" \
	'[ "$hib_tp" = "#t" ] && [ "$hib_mig" = "#f" ]'

test_done
