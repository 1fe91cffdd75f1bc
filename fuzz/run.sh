#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz/run.sh - build the parser fuzzers with libFuzzer, ASan and UBSan and
# run each for FUZZ_SECONDS (see fuzz/README.md). 'make fuzz' runs it.
#
# Environment (all optional):
#   FUZZ_SECONDS   seconds each harness runs (default 600)
#   FUZZ_TARGETS   harnesses to run (default "workload topology")
#   FUZZ_PARALLEL  1: run the harnesses at the same time (default 1)
#   FUZZ_OUT       work directory: builds, corpora, crashes, logs
#                  (default build/fuzz)
#   CLANG          the compiler (default clang)
#   FUZZ_CFLAGS    more compiler flags, e.g. -fno-sanitize=float-cast-overflow
#                  to look past a known finding
#
# Exit status: 0 when no harness found a crash, hang or leak; 1 otherwise
# (the input that did it is named, under FUZZ_OUT/artifacts/).

set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${FUZZ_SECONDS:-600}
TARGETS=(${FUZZ_TARGETS:-workload topology})
PARALLEL=${FUZZ_PARALLEL:-1}
OUT=${FUZZ_OUT:-build/fuzz}
CLANG=${CLANG:-clang}
LINSCHED=${LINSCHED:-build/bin/linsched}

die() { echo "fuzz: $*" >&2; exit 1; }

command -v "$CLANG" >/dev/null || die "$CLANG not found: install the Debian package clang"
FLAGS=(-std=gnu11 -g -O1 -fno-omit-frame-pointer -I.
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
	${FUZZ_CFLAGS:-})
LIBS=(-lcjson -lm)

mkdir -p "$OUT/bin"
build() {
	local name=$1; shift
	echo "fuzz: building $OUT/bin/fuzz_$name"
	"$CLANG" "${FLAGS[@]}" -o "$OUT/bin/fuzz_$name" "fuzz/fuzz_$name.c" "$@" "${LIBS[@]}" ||
		die "cannot build fuzz_$name"
}

seed_workload() {
	local dir=$1 f i=0
	cp t/workloads/*.json "$dir/" 2>/dev/null || true
	# a sample of the generated suite, every family
	if [[ -x $LINSCHED ]] && "$LINSCHED" suite write "$OUT/suite" >/dev/null 2>&1; then
		for f in "$OUT"/suite/*.json; do
			((i++ % 7 == 0)) && cp "$f" "$dir/suite-${f##*/}"
		done
	fi
	# compact specs: a 0x01 byte, then the spec
	i=0
	for s in 'hog*8' 'periodic*32:run=1ms:sleep=9ms+hog*2:cpus=0-1' \
		'random*12:run=2ms:sleep=3ms+hog*2' 'hog*4:cpus=0.4:unpin=1ms' \
		'yield*2:run=100us:nice=5:policy=batch' 'periodic*2:policy=fifo:prio=50:loops=10:name=rt'; do
		printf '\001%s' "$s" >"$dir/spec-$((i++))"
	done
}

seed_topology() {
	FUZZ_WRITE_SEEDS=$1 "$OUT/bin/fuzz_topology" || die "fuzz_topology could not write its seeds"
	cp topologies/presets/*.json "$1/" 2>/dev/null || true
}

for t in "${TARGETS[@]}"; do
	case $t in
	workload) build workload workloads/*.c topologies/*.c ;;
	topology) build topology topologies/*.c ;;
	*) die "unknown target '$t' (expected workload or topology)" ;;
	esac
	mkdir -p "$OUT/corpus/$t" "$OUT/seeds/$t" "$OUT/artifacts/$t"
	"seed_$t" "$OUT/seeds/$t"
done

# run TARGET: the fuzzer with its time, size and time-out limits; leak
# detection is on (ASan's default under libFuzzer, made explicit)
run() {
	local t=$1
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$OUT/bin/fuzz_$t" "$OUT/corpus/$t" "$OUT/seeds/$t" \
		-max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -detect_leaks=1 -print_final_stats=1 \
		-artifact_prefix="$OUT/artifacts/$t/" >"$OUT/$t.log" 2>&1
}

echo "fuzz: running ${TARGETS[*]} for ${SECONDS_EACH}s each$( ((PARALLEL)) && echo ', at the same time')"
declare -A PID STATUS
for t in "${TARGETS[@]}"; do
	if ((PARALLEL)); then
		run "$t" & PID[$t]=$!
	else
		run "$t" && STATUS[$t]=0 || STATUS[$t]=$?
	fi
done
for t in "${TARGETS[@]}"; do
	if ((PARALLEL)); then
		wait "${PID[$t]}" && STATUS[$t]=0 || STATUS[$t]=$?
	fi
done

failed=0
for t in "${TARGETS[@]}"; do
	runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$OUT/$t.log")
	cov=$(grep -o 'cov: [0-9]*' "$OUT/$t.log" | tail -n1 | cut -d' ' -f2)
	if [[ ${STATUS[$t]} == 0 ]]; then
		echo "fuzz: $t: no crash, hang or leak in ${runs:-?} runs (coverage ${cov:-?}, corpus $(ls "$OUT/corpus/$t" | wc -l) inputs)"
	else
		failed=1
		echo "fuzz: $t: FAILED (status ${STATUS[$t]}); log $OUT/$t.log" >&2
		grep -E '^==[0-9]+==ERROR|SUMMARY|runtime error|Test unit written|ALARM|fuzz_topology:' "$OUT/$t.log" | head -n 8 >&2 || true
	fi
done
exit $failed
