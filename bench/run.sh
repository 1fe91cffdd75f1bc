#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/run.sh - whole-process benchmarks of lsbisect (see bench/README.md).
#
# Run from the repository root after 'make' ('make bench' does both).
# Prints a table and writes build/bench/results.json.
#
# Environment (all optional):
#   BENCH_REVS          revisions to measure (default "v6.1.192 v6.12.118
#                       v7.3.4"; the instruction counts compare each with
#                       the one before it)
#   BENCH_SKIP_INSNS=1  skip the instruction counts (section 3c, callgrind)
#   BENCH_SKIP_GROUPS=1 skip task groups and hotplug (section 3d, callgrind)
#   BENCH_SKIP_PI=1     skip PI mutexes under contention (section 3e)
#   BENCH_BUILD_REPS    cold builds per revision (default 3)
#   BENCH_REPS          repetitions of the other measurements (default 5)
#   BENCH_SIM_WALL      wall seconds each simulation run aims at (default 1.5)
#   BENCH_SKIP_BUILD=1  skip the cold builds (quick iteration)
#   BENCH_SKIP_SUITE=1  skip the whole workload suite run
#   BENCH_SKIP_BISECT=1 skip the 44-commit test bisection (section 5)
#   BENCH_SKIP_METRICS=1  skip the metrics overhead (section 3b)
#   BENCH_SKIP_TRACE=1  skip the traces' overhead (section 3f: text, then trace.dat)
#   BENCH_SKIP_REPORT=1 skip the release report (section 6; ~4 min)
#   BENCH_REPORT        the report's OLD and NEW (default "v6.1.170 v6.1.192")
#   BENCH_SKIP_CLASSES=1  skip classifying generated histories (section 8,
#                       bench/classes.sh; its BENCH_CLASSES_* apply)
#   BENCH_SKIP_HUNT=1   skip the hunt's cases a second (section 9)
#   BENCH_SKIP_SLURM=1  skip the Slurm sweep (section 7; installs Slurm and
#                       MUNGE if missing and starts a private cluster)
#   BENCH_SUITE_REV     revision the suite runs on (default v6.1.192)
#   BENCH_OUT           results file (default build/bench/results.json)
#   LINSCHED            the driver (default build/bin/linsched)
#
# Exit status: 0 when every figure was measured (PASS or MISS alike),
# 1 when something failed to run.

set -euo pipefail
export LC_ALL=C

LINSCHED=${LINSCHED:-build/bin/linsched}
REVS=(${BENCH_REVS:-v6.1.192 v6.12.118 v7.3.4})
BUILD_REPS=${BENCH_BUILD_REPS:-3}
REPS=${BENCH_REPS:-5}
SIM_WALL=${BENCH_SIM_WALL:-1.5}
OUT=${BENCH_OUT:-build/bench/results.json}
TIME_BIN=/usr/bin/time

# Targets.
T_BUILD_S=15		# cold build, seconds, at most
T_OVERHEAD_S=0.2	# driver overhead, seconds, at most
T_SPEED16=150		# simulated/wall, at least (16 CPUs, 64 tasks)
T_SPEED64=40		# simulated/wall, at least (64 CPUs, 256 tasks)
T_RSS_MB=200		# peak RSS of the simulator, MB, at most
T_METRICS=1.15		# wall with --metrics / wall without, at most
T_TRACE=2.0		# wall with --trace (text or trace.dat, default events) / wall without, 16 CPUs, at most
T_SUITE_S=600		# the whole suite, 10 s simulated each on quad-smt, at most
T_REPORT_COLD_S=2700	# release report: full suite x 3 topologies x 3 seeds, cold results
T_REPORT_WARM_S=60	# the same report again
T_SLURM_RATIO=1.3	# 200-unit sweep: Slurm wall / local wall, at most
T_INSN_RATIO=0.85	# a series' speed against the one before (instructions), at least
T_HARNESS_PCT=20	# instructions outside the kernel (sim, metrics, power, libc), %, at most
T_HUNT_RATE=20		# hunt cases a second, 8-CPU machines, <= 32 tasks, 0.5 s, at least
T_CPUIDLE_RATIO=1.10	# the revision's cpuidle against --cpuidle sim (instructions), at most
T_GROUPS=1.2		# the 16-CPU mix in task groups / without (instructions), at most
T_HOTPLUG=1.0		# a hotplug event / a cpuset domain rebuild (instructions), at most
T_PI_GROWTH=1.1		# PI contenders: instructions per instance added 1024->4096 / 256->512, at most

# The workloads: a mix of always-running, periodic and random tasks.
W16='hog*8+periodic*24:run=1ms:sleep=4ms+random*24:run=2ms:sleep=6ms+periodic*8:run=100us:sleep=900us'
W64='hog*32+periodic*96:run=1ms:sleep=4ms+random*96:run=2ms:sleep=6ms+periodic*32:run=100us:sleep=900us'
TOPO16=2x4x2
TOPO64=server-64

die() { echo "bench: $*" >&2; exit 1; }

[[ -x $LINSCHED ]] || die "$LINSCHED not found: run 'make' first (or 'make bench')"
[[ -x $TIME_BIN ]] || die "$TIME_BIN missing: install the Debian package 'time'"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/lsbisect-bench.XXXXXX")
cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT

# ---- helpers ----

now() { echo "$EPOCHREALTIME"; }			# seconds.microseconds
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }

# best VALUES...: the smallest; median VALUES...: the middle one (or mean of two).
best() { printf '%s\n' "$@" | sort -g | head -n1; }
worst() { printf '%s\n' "$@" | sort -g | tail -n1; }
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) printf "%.4f", v[(NR + 1) / 2];
		      else printf "%.4f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
calc() { awk "BEGIN { printf \"%.4f\", $* }"; }
fmt() { awk -v v="$1" -v p="${2:-2}" 'BEGIN { printf "%.*f", p, v }'; }
# verdict VALUE OP TARGET: PASS or MISS
verdict() {
	if awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { exit !(op == "<=" ? v <= t : v >= t) }'; then
		echo PASS
	else
		echo MISS
	fi
}
jlist() { local IFS=,; echo "[$*]"; }

ROWS=()		# printed table rows: name|version|best|median|target|status
JSON=()		# JSON objects, one per figure

row() { ROWS+=("$1|$2|$3|$4|$5|$6"); }

# ---- machine ----

CPU_MODEL=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
NCPU=$(nproc)
GIT_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
GIT_DIRTY=$( [[ -n $(git status --porcelain 2>/dev/null | head -n1) ]] && echo true || echo false)
LOAD=$(cut -d' ' -f1 /proc/loadavg)
START=$(now)

echo "lsbisect benchmarks — $CPU_MODEL, $NCPU CPUs, commit $GIT_REV$( [[ $GIT_DIRTY == true ]] && echo ' (dirty)')"
echo "revisions: ${REVS[*]}; cold builds x$BUILD_REPS, other figures x$REPS"
if awk -v l="$LOAD" 'BEGIN { exit !(l >= 0.5) }'; then
	echo "warning: load average $LOAD before starting: other work on this machine skews the figures"
fi
echo

# ---- warm builds: the simulator executables (also warms the page cache) ----

declare -A EXE KVER
for rev in "${REVS[@]}"; do
	EXE[$rev]=$("$LINSCHED" build "$rev") || die "linsched build $rev failed"
	[[ -x ${EXE[$rev]} ]] || die "linsched build $rev printed '${EXE[$rev]}', not an executable"
done

# ---- 1. cold build, and a one-file change built from it ----

# bench_commit REV FILE LINE: a commit on REV with LINE appended to FILE,
# made without a checkout in a bare clone of the kernels (fixed dates: the
# same commit every time)
bench_commit() {
	local rev=$1 file=$2 line=$3 repo=$TMP/rebuild.git base blob tree
	[[ -d $repo ]] || git clone -q --shared --bare "$(dirname "$LINSCHED")/../kernels.git" "$repo"
	base=$(git -C "$repo" rev-parse "$rev^{commit}")
	blob=$( { git -C "$repo" cat-file blob "$base:$file"; echo "$line"; } |
		git -C "$repo" hash-object -w --stdin)
	GIT_INDEX_FILE=$TMP/rebuild.index git -C "$repo" read-tree "$base"
	GIT_INDEX_FILE=$TMP/rebuild.index git -C "$repo" update-index --cacheinfo "100644,$blob,$file"
	tree=$(GIT_INDEX_FILE=$TMP/rebuild.index git -C "$repo" write-tree)
	GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000" \
		git -C "$repo" commit-tree "$tree" -p "$base" -m "bench: one line in $file"
}

# rebuild_from REV CACHE FILE LINE FIRST: a commit on REV changing FILE,
# built in CACHE, which holds REV's cold build, as often as the other
# figures, the new build removed after each time; the build log's first
# line must match FIRST (how it was built). Sets TIMES, and GCCS to gcc's
# time on FILE's object as the log gives it (none for kbuild's builds).
rebuild_from() {
	local rev=$1 cache=$2 file=$3 line=$4 first=$5 c exe i t0 t1 g
	local obj=${file%.c}.o
	c=$(bench_commit "$rev" "$file" "$line")
	TIMES=(); GCCS=()
	for ((i = 1; i <= REPS; i++)); do
		t0=$(now)
		exe=$(LSBISECT_CACHE=$cache "$LINSCHED" build "$c" --repo "$TMP/rebuild.git" 2>"$TMP/rebuild.err") ||
			{ cat "$TMP/rebuild.err" >&2; die "the $file change on $rev did not build"; }
		t1=$(now)
		grep -q "$first" "$(dirname "$exe")/build.log" ||
			die "the $file change on $rev was not built from $rev's ($(head -n1 "$(dirname "$exe")/build.log"))"
		# the build log times each compile: gcc's own share is the floor
		g=$(sed -n "s|^  CC $obj: \([0-9.]*\) s\$|\1|p" "$(dirname "$exe")/build.log")
		rm -rf "$(dirname "$exe")"
		TIMES+=("$(elapsed "$t0" "$t1")")
		if [[ -n $g ]]; then GCCS+=("$g"); fi
	done
}

# one_file_rebuild REV CACHE: a line added to kernel/sched/fair.c (the
# largest object): that object compiled again; and to kernel/sched/Makefile,
# which no record places: kbuild's own build from REV's outputs.
T_REBUILD_S=3		# one .c file changed from a built revision, seconds, at most
one_file_rebuild() {
	local rev=$1 cache=$2 st
	rebuild_from "$rev" "$cache" kernel/sched/fair.c "/* bench */" '^from .*: 1 of '
	[[ ${#GCCS[@]} == "${#TIMES[@]}" ]] || die "the one-file build of $rev logged no time for fair.o"
	st=$(verdict "$(median "${TIMES[@]}")" "<=" $T_REBUILD_S)
	row "  one .c file changed (s)" "$rev" "$(fmt "$(best "${TIMES[@]}")")" "$(fmt "$(median "${TIMES[@]}")")" "<= $T_REBUILD_S" "$st"
	row "    of which gcc on fair.c (s)" "$rev" "$(fmt "$(best "${GCCS[@]}")")" "$(fmt "$(median "${GCCS[@]}")")" "" ""
	JSON+=("{\"name\":\"one_file_rebuild\",\"revision\":\"$rev\",\"file\":\"kernel/sched/fair.c\",\"unit\":\"s\",\"runs\":$(jlist "${TIMES[@]}"),\"gcc_s\":$(jlist "${GCCS[@]}"),\"best\":$(best "${TIMES[@]}"),\"median\":$(median "${TIMES[@]}"),\"target\":$T_REBUILD_S,\"target_op\":\"<=\",\"status\":\"$st\"}")
	rebuild_from "$rev" "$cache" kernel/sched/Makefile "# bench" '^from .*: kbuild, '
	row "  kernel/sched/Makefile changed (s)" "$rev" "$(fmt "$(best "${TIMES[@]}")")" "$(fmt "$(median "${TIMES[@]}")")" "" ""
	JSON+=("{\"name\":\"makefile_rebuild\",\"revision\":\"$rev\",\"file\":\"kernel/sched/Makefile\",\"unit\":\"s\",\"runs\":$(jlist "${TIMES[@]}"),\"best\":$(best "${TIMES[@]}"),\"median\":$(median "${TIMES[@]}")}")
}

declare -A BUILD_BEST BUILD_MED
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
	for rev in "${REVS[@]}"; do
		times=(); cpus=()
		for ((i = 1; i <= BUILD_REPS; i++)); do
			cache=$(mktemp -d "$TMP/cache.XXXXXX")
			t0=$(now)
			exe=$(LSBISECT_CACHE=$cache "$TIME_BIN" -f '%U %S' -o "$TMP/build.cpu" \
				"$LINSCHED" build "$rev" 2>"$TMP/build.err") ||
				{ cat "$TMP/build.err" >&2; die "cold build of $rev failed"; }
			t1=$(now)
			read -r cu cs < <(tail -n1 "$TMP/build.cpu")
			cpus+=("$(calc "$cu + $cs")")
			[[ -x $exe && $exe == "$cache"/* ]] ||
				die "cold build of $rev gave '$exe', not an executable in the fresh cache"
			((i < BUILD_REPS)) && rm -rf "$cache"
			times+=("$(elapsed "$t0" "$t1")")
			printf '  cold build %-10s run %d/%d: %ss (%s CPU-s, load %s)\n' "$rev" "$i" "$BUILD_REPS" \
				"$(fmt "${times[-1]}")" "$(fmt "${cpus[-1]}" 1)" "$(cut -d' ' -f1 /proc/loadavg)"
		done
		b=$(best "${times[@]}"); m=$(median "${times[@]}")
		BUILD_BEST[$rev]=$b; BUILD_MED[$rev]=$m
		st=$(verdict "$m" "<=" $T_BUILD_S)
		row "cold build (s)" "$rev" "$(fmt "$b")" "$(fmt "$m")" "<= $T_BUILD_S" "$st"
		row "  CPU time user+sys (s)" "$rev" "$(fmt "$(best "${cpus[@]}")" 1)" "$(fmt "$(median "${cpus[@]}")" 1)" "" ""
		JSON+=("{\"name\":\"cold_build\",\"revision\":\"$rev\",\"unit\":\"s\",\"runs\":$(jlist "${times[@]}"),\"cpu_s\":$(jlist "${cpus[@]}"),\"best\":$b,\"median\":$m,\"target\":$T_BUILD_S,\"target_op\":\"<=\",\"status\":\"$st\"}")
		one_file_rebuild "$rev" "$cache"
		rm -rf "$cache"
	done
fi

# ---- 2. driver overhead of a warm 'linsched run' ----

declare -A OVH
for rev in "${REVS[@]}"; do
	args=(--workload 'hog*1' --topology up --duration 1ms --json /dev/null)
	trun=(); texe=()
	for ((i = 1; i <= REPS; i++)); do	# interleaved, so drift hits both alike
		t0=$(now)
		"$LINSCHED" run "$rev" "${args[@]}" >/dev/null 2>"$TMP/run.err" ||
			{ cat "$TMP/run.err" >&2; die "linsched run $rev failed"; }
		t1=$(now)
		"${EXE[$rev]}" "${args[@]}" >/dev/null 2>"$TMP/run.err" ||
			{ cat "$TMP/run.err" >&2; die "${EXE[$rev]} failed"; }
		t2=$(now)
		trun+=("$(elapsed "$t0" "$t1")"); texe+=("$(elapsed "$t1" "$t2")")
	done
	rb=$(best "${trun[@]}"); rm_=$(median "${trun[@]}")
	eb=$(best "${texe[@]}"); em=$(median "${texe[@]}")
	ob=$(calc "$rb - $eb"); om=$(calc "$rm_ - $em")
	OVH[$rev]="$rm_ $em $om"
	st=$(verdict "$om" "<=" $T_OVERHEAD_S)
	row "run overhead (s)" "$rev" "$(fmt "$ob" 3)" "$(fmt "$om" 3)" "<= $T_OVERHEAD_S" "$st"
	row "  linsched run (s)" "$rev" "$(fmt "$rb" 3)" "$(fmt "$rm_" 3)" "" ""
	row "  simulator alone (s)" "$rev" "$(fmt "$eb" 3)" "$(fmt "$em" 3)" "" ""
	JSON+=("{\"name\":\"run_overhead\",\"revision\":\"$rev\",\"unit\":\"s\",\"linsched_run\":{\"runs\":$(jlist "${trun[@]}"),\"best\":$rb,\"median\":$rm_},\"simulator\":{\"runs\":$(jlist "${texe[@]}"),\"best\":$eb,\"median\":$em},\"best\":$ob,\"median\":$om,\"target\":$T_OVERHEAD_S,\"target_op\":\"<=\",\"status\":\"$st\"}")
done

# ---- 3. simulation speed and peak RSS ----

# simrun REV TOPO WORKLOAD DURATION_S [OPTION...]: sets WALL (s), CPU
# (user+sys s), RSS (KB), EVENTS
simrun() {
	local t0 t1
	t0=$(now)
	"$TIME_BIN" -f '%M %U %S' -o "$TMP/rss" "${EXE[$1]}" --topology "$2" --workload "$3" \
		--duration "${4}s" --seed 1 --json "$TMP/sim.json" "${@:5}" >/dev/null 2>"$TMP/sim.err" ||
		{ cat "$TMP/sim.err" >&2; die "${EXE[$1]} --topology $2 failed"; }
	t1=$(now)
	WALL=$(elapsed "$t0" "$t1")
	read -r RSS CPU_U CPU_S < <(tail -n1 "$TMP/rss")
	CPU=$(calc "$CPU_U + $CPU_S")
	EVENTS=$(awk -F'[:,]' '/"events"/ { gsub(/[ \t]/, "", $2); print $2; exit }' "$TMP/sim.json")
}

# calibrate TOPO WORKLOAD: simulated seconds that take about $SIM_WALL of
# wall time on the fastest revision (so every revision runs >= that long)
calibrate() {
	local rev d speed fastest=0
	for rev in "${REVS[@]}"; do
		d=1
		while :; do
			simrun "$rev" "$1" "$2" "$d"
			if awk -v w="$WALL" 'BEGIN { exit !(w >= 0.2) }' || ((d >= 4096)); then
				break
			fi
			d=$((d * 4))
		done
		speed=$(calc "$d / $WALL")
		fastest=$(awk -v a="$fastest" -v b="$speed" 'BEGIN { print (b > a) ? b : a }')
	done
	awk -v s="$fastest" -v w="$SIM_WALL" 'BEGIN { d = s * w; d = (d == int(d)) ? d : int(d) + 1; print (d < 1) ? 1 : d }'
}

declare -A SPEED SPEED_BEST MOVH
for case in 16 64; do
	if [[ $case == 16 ]]; then
		topo=$TOPO16; wl=$W16; target=$T_SPEED16; label="16 CPUs/64 tasks"
	else
		topo=$TOPO64; wl=$W64; target=$T_SPEED64; label="64 CPUs/256 tasks"
	fi
	dur=$(calibrate "$topo" "$wl")
	echo "  $label on $topo: ${dur}s simulated per run"
	for rev in "${REVS[@]}"; do
		walls=(); speeds=(); cspeeds=(); rsss=(); events=
		for ((i = 1; i <= REPS; i++)); do
			simrun "$rev" "$topo" "$wl" "$dur"
			walls+=("$WALL"); speeds+=("$(calc "$dur / $WALL")"); rsss+=("$RSS")
			cspeeds+=("$(calc "$dur / ($CPU > 0 ? $CPU : 0.01)")")
			if [[ -n $events && $events != "$EVENTS" ]]; then
				die "$rev on $topo is not deterministic: $events then $EVENTS events"
			fi
			events=$EVENTS
		done
		sb=$(worst "${speeds[@]}")	# the best run is the fastest one
		sm=$(median "${speeds[@]}")
		wm=$(median "${walls[@]}")
		cb=$(worst "${cspeeds[@]}"); cm=$(median "${cspeeds[@]}")
		rb=$(best "${rsss[@]}"); rmx=$(worst "${rsss[@]}")
		rss_mb=$(calc "$rmx / 1024")
		evps=$(calc "$events / $wm")
		SPEED[$case,$rev]="$sm $rss_mb $events $wm"
		SPEED_BEST[$case,$rev]=$sb
		st=$(verdict "$sm" ">=" "$target")
		st_rss=$(verdict "$rss_mb" "<=" $T_RSS_MB)
		row "speed $label (sim/wall)" "$rev" "$(fmt "$sb" 1)x" "$(fmt "$sm" 1)x" ">= ${target}x" "$st"
		row "  wall per run (s)" "$rev" "$(fmt "$(best "${walls[@]}")")" "$(fmt "$wm")" ">= 1" \
			"$(verdict "$(best "${walls[@]}")" ">=" 1 | sed 's/MISS/SHORT/; s/PASS/ok/')"
		row "  sim/CPU time (user+sys)" "$rev" "$(fmt "$cb" 1)x" "$(fmt "$cm" 1)x" "" ""
		row "  events/s (wall), ${events} events" "$rev" "" "$(fmt "$(calc "$evps / 1e6")" 2)M" "" ""
		row "  peak RSS $label (MB)" "$rev" "$(fmt "$(calc "$rb / 1024")" 1)" "$(fmt "$rss_mb" 1)" "<= $T_RSS_MB" "$st_rss"
		JSON+=("{\"name\":\"sim_speed_$case\",\"revision\":\"$rev\",\"topology\":\"$topo\",\"workload\":\"$wl\",\"simulated_s\":$dur,\"events\":$events,\"wall_s\":$(jlist "${walls[@]}"),\"unit\":\"simulated/wall\",\"runs\":$(jlist "${speeds[@]}"),\"per_cpu_time\":$(jlist "${cspeeds[@]}"),\"best\":$sb,\"median\":$sm,\"events_per_wall_s\":$evps,\"target\":$target,\"target_op\":\">=\",\"status\":\"$st\"}")
		JSON+=("{\"name\":\"peak_rss_$case\",\"revision\":\"$rev\",\"topology\":\"$topo\",\"unit\":\"MB\",\"runs_kb\":$(jlist "${rsss[@]}"),\"max\":$rss_mb,\"target\":$T_RSS_MB,\"target_op\":\"<=\",\"status\":\"$st_rss\"}")

		# ---- 3f. what a trace costs (--trace, default events), text
		# then trace.dat, 16 CPUs: the same runs with and without, one
		# after the other ----
		if [[ $case == 16 && ${BENCH_SKIP_TRACE:-0} != 1 ]]; then
			for fmt in text dat; do
				woff=(); won=(); ratios=(); cratios=()
				for ((i = 1; i <= REPS; i++)); do
					simrun "$rev" "$topo" "$wl" "$dur"
					woff+=("$WALL"); coff=$CPU
					rm -f "$TMP/run.$fmt"
					simrun "$rev" "$topo" "$wl" "$dur" --trace "$TMP/run.$fmt" --trace-format "$fmt"
					won+=("$WALL")
					[[ $EVENTS == "$events" ]] ||
						die "$rev on $topo: --trace changed the run: $events then $EVENTS events"
					ratios+=("$(calc "${won[-1]} / ${woff[-1]}")")
					cratios+=("$(calc "$CPU / ($coff > 0 ? $coff : 0.01)")")
				done
				tsize=$(stat -c %s "$TMP/run.$fmt")
				rm -f "$TMP/run.$fmt"
				mb=$(best "${ratios[@]}"); mm=$(median "${ratios[@]}")
				st=$(verdict "$mm" "<=" $T_TRACE)
				row "trace overhead $label, $fmt (x)" "$rev" "$(fmt "$mb" 3)" "$(fmt "$mm" 3)" "<= $T_TRACE" "$st"
				row "  CPU time with / without" "$rev" "$(fmt "$(best "${cratios[@]}")" 3)" "$(fmt "$(median "${cratios[@]}")" 3)" "" ""
				row "  trace size (MB)" "$rev" "" "$(fmt "$(calc "$tsize / 1048576")" 1)" "" ""
				JSON+=("{\"name\":\"trace_overhead_${fmt}_$case\",\"revision\":\"$rev\",\"topology\":\"$topo\",\"simulated_s\":$dur,\"unit\":\"wall with --trace / wall without\",\"bytes\":$tsize,\"wall_without_s\":$(jlist "${woff[@]}"),\"wall_with_s\":$(jlist "${won[@]}"),\"runs\":$(jlist "${ratios[@]}"),\"per_cpu_time\":$(jlist "${cratios[@]}"),\"best\":$mb,\"median\":$mm,\"target\":$T_TRACE,\"target_op\":\"<=\",\"status\":\"$st\"}")
			done
		fi

		# ---- 3b. what --metrics costs: the same runs with and without,
		# one after the other (so drift hits both alike) ----
		[[ ${BENCH_SKIP_METRICS:-0} == 1 ]] && continue
		woff=(); won=(); ratios=(); cratios=()
		for ((i = 1; i <= REPS; i++)); do
			simrun "$rev" "$topo" "$wl" "$dur" --no-metrics
			woff+=("$WALL"); coff=$CPU
			simrun "$rev" "$topo" "$wl" "$dur"
			won+=("$WALL")
			[[ $EVENTS == "$events" ]] ||
				die "$rev on $topo: --metrics changed the run: $events then $EVENTS events"
			ratios+=("$(calc "${won[-1]} / ${woff[-1]}")")
			cratios+=("$(calc "$CPU / ($coff > 0 ? $coff : 0.01)")")
		done
		mb=$(best "${ratios[@]}"); mm=$(median "${ratios[@]}")
		MOVH[$case,$rev]="$(median "${woff[@]}") $(median "${won[@]}") $mm"
		st=$(verdict "$mm" "<=" $T_METRICS)
		row "metrics overhead $label (x)" "$rev" "$(fmt "$mb" 3)" "$(fmt "$mm" 3)" "<= $T_METRICS" "$st"
		row "  CPU time with / without" "$rev" "$(fmt "$(best "${cratios[@]}")" 3)" "$(fmt "$(median "${cratios[@]}")" 3)" "" ""
		JSON+=("{\"name\":\"metrics_overhead_$case\",\"revision\":\"$rev\",\"topology\":\"$topo\",\"simulated_s\":$dur,\"unit\":\"wall with --metrics / wall without\",\"wall_without_s\":$(jlist "${woff[@]}"),\"wall_with_s\":$(jlist "${won[@]}"),\"runs\":$(jlist "${ratios[@]}"),\"per_cpu_time\":$(jlist "${cratios[@]}"),\"best\":$mb,\"median\":$mm,\"target\":$T_METRICS,\"target_op\":\"<=\",\"status\":\"$st\"}")
	done
done

# ---- 3c. instructions per simulated second (callgrind: deterministic,
# so ratios hold on a noisy machine): each revision against the one before
# it in REVS, e.g. 7.3 against 6.12; and the harness's share ----

INSN_SIM_S=${BENCH_INSN_SIM_S:-2}

# cg_harness CALLGRIND.OUT: the instructions outside the kernel's code. The
# kernel's objects have no debug information: their functions are "???:"
# in the simulator executable, or in "???" when callgrind lost the object
# on a task's stack (a task's user side, sim/tasks.c, keeps its file name);
# a kernel built with it would name files under the build's src/. The rest
# is the harness: sim/, metrics/, power/, workloads/, libc, libm, cJSON.
cg_harness() {
	callgrind_annotate --auto=no --threshold=100 "$1" | awk '
		/ file:function$/ { on = 1; next }
		on && /^ *[0-9,]+ \( *[0-9.]+%\) / {
			n = $1; gsub(",", "", n)
			fn = $0; sub(/^ *[0-9,]+ \( *[0-9.]+%\) +/, "", fn)
			if (!(fn ~ /^\?\?\?:/ && fn ~ /(linsched-sim|\?\?\?)\]$/) &&
			    fn !~ /\/cache\/builds\/[^\/]*\/src\//) s += n
		}
		END { print s + 0 }'
}

if [[ ${BENCH_SKIP_INSNS:-0} != 1 ]] && command -v valgrind >/dev/null; then
	declare -A INSNS
	for case in 16 64; do
		if [[ $case == 16 ]]; then topo=$TOPO16; wl=$W16; else topo=$TOPO64; wl=$W64; fi
		prev=
		for rev in "${REVS[@]}"; do
			valgrind --tool=callgrind --callgrind-out-file="$TMP/cg3c.out" "${EXE[$rev]}" \
				--topology "$topo" --workload "$wl" --duration "${INSN_SIM_S}s" --seed 1 \
				--json /dev/null >/dev/null 2>"$TMP/cg.err" ||
				{ cat "$TMP/cg.err" >&2; die "callgrind of $rev on $topo failed"; }
			n=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$TMP/cg.err")
			[[ -n $n ]] || die "callgrind printed no instruction count for $rev"
			INSNS[$case,$rev]=$n
			per=$(calc "$n / $INSN_SIM_S / 1e6")
			row "instructions per simulated s, $case CPUs (M)" "$rev" "" "$(fmt "$per" 1)" "" ""
			h=$(cg_harness "$TMP/cg3c.out")
			pct=$(calc "100 * $h / $n")
			st=$(verdict "$pct" "<=" $T_HARNESS_PCT)
			row "  harness share, $case CPUs (% of instructions)" "$rev" "" "$(fmt "$pct" 1)" "<= $T_HARNESS_PCT" "$st"
			if [[ -n ${SPEED_BEST[$case,$rev]:-} ]]; then
				# the fastest run with no harness at all, at the same
				# rate of instructions: what the kernel's code allows
				row "  speed bound, kernel code alone (sim/wall)" "$rev" "$(fmt "$(calc "${SPEED_BEST[$case,$rev]} * $n / ($n - $h)")" 1)x" "" "" ""
			fi
			JSON+=("{\"name\":\"harness_share_$case\",\"revision\":\"$rev\",\"topology\":\"$topo\",\"workload\":\"$wl\",\"simulated_s\":$INSN_SIM_S,\"instructions\":$n,\"harness\":$h,\"unit\":\"% of instructions outside the kernel\",\"median\":$pct,\"target\":$T_HARNESS_PCT,\"target_op\":\"<=\",\"status\":\"$st\"}")
			if [[ $case == 16 ]]; then
				# the revision's cpuidle (the default) against the
				# simulator's model of menu with no kernel driver
				valgrind --tool=callgrind --callgrind-out-file="$TMP/cg3c-sim.out" "${EXE[$rev]}" \
					--topology "$topo" --workload "$wl" --duration "${INSN_SIM_S}s" --seed 1 \
					--cpuidle sim --json /dev/null >/dev/null 2>"$TMP/cg.err" ||
					{ cat "$TMP/cg.err" >&2; die "callgrind of $rev --cpuidle sim failed"; }
				ns=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$TMP/cg.err")
				r=$(calc "$n / $ns")
				st=$(verdict "$r" "<=" $T_CPUIDLE_RATIO)
				row "  revision's cpuidle vs --cpuidle sim (instructions)" "$rev" "" "$(fmt "$r" 3)" "<= $T_CPUIDLE_RATIO" "$st"
				JSON+=("{\"name\":\"cpuidle_cost_$case\",\"revision\":\"$rev\",\"topology\":\"$topo\",\"workload\":\"$wl\",\"simulated_s\":$INSN_SIM_S,\"instructions\":$n,\"instructions_sim\":$ns,\"unit\":\"instructions with the revision's cpuidle / with --cpuidle sim\",\"median\":$r,\"target\":$T_CPUIDLE_RATIO,\"target_op\":\"<=\",\"status\":\"$st\"}")
			fi
			if [[ -n $prev ]]; then
				r=$(calc "${INSNS[$case,$prev]} / $n")
				st=$(verdict "$r" ">=" $T_INSN_RATIO)
				row "  speed vs $prev (instructions)" "$rev" "" "$(fmt "$r" 3)" ">= $T_INSN_RATIO" "$st"
				JSON+=("{\"name\":\"insn_ratio_$case\",\"revision\":\"$rev\",\"against\":\"$prev\",\"topology\":\"$topo\",\"simulated_s\":$INSN_SIM_S,\"instructions\":$n,\"instructions_against\":${INSNS[$case,$prev]},\"unit\":\"instructions of $prev / of $rev\",\"median\":$r,\"target\":$T_INSN_RATIO,\"target_op\":\">=\",\"status\":\"$st\"}")
			fi
			prev=$rev
		done
	done
fi

# ---- 3d. task groups and CPU hotplug (callgrind: instructions) ----
# The 16-CPU mix as rt-app JSON, plain; the same tasks in four task groups
# of different cpu.weight; with CPU 15 going offline and back ten times;
# and with a cpuset partition of CPU 15 made and undone ten times (a sched
# domain rebuild each, through partition_sched_domains()). "harness" counts
# the instructions outside the kernel's objects (which have no debug
# information): the simulator, metrics, power, libc.

# cg_count REV WORKLOAD: sets INS (all), HARNESS (outside the kernel: our
# functions, which have debug information, and the libraries) and EVENTS
# (the simulator's events, from the run's results)
cg_count() {
	valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "${EXE[$1]}" \
		--topology "$TOPO16" --workload "$2" --duration "${INSN_SIM_S}s" --seed 1 \
		--json "$TMP/cg.json" >/dev/null 2>"$TMP/cg.err" ||
		{ cat "$TMP/cg.err" >&2; die "callgrind of $1 with $2 failed"; }
	INS=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$TMP/cg.err")
	HARNESS=$(callgrind_annotate --auto=no --threshold=100 "$TMP/cg.out" | awk '
		/ file:function$/ { on = 1; next }
		on && /^ *[0-9,]+ \( *[0-9.]+%\) / {
			n = $1; gsub(",", "", n)
			fn = $0; sub(/^ *[0-9,]+ \( *[0-9.]+%\) +/, "", fn)
			# the kernel: no debug information, in the simulator binary
			if (!(fn ~ /^\?\?\?:/ && fn ~ /(linsched-sim|\?\?\?)\]$/)) s += n
		}
		END { print s + 0 }')
	EVENTS=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["events"])' "$TMP/cg.json")
}

if [[ ${BENCH_SKIP_GROUPS:-0} != 1 ]] && command -v valgrind >/dev/null; then
	python3 - "$TMP" <<'PY'
import json, sys
d = sys.argv[1]
tasks = {
    "hog": {"instance": 8, "run": 100000},
    "per": {"instance": 24, "run": 1000, "sleep": 4000},
    "rnd": {"instance": 24, "lsb-run": {"distribution": "exponential", "mean": 2000},
            "lsb-sleep": {"distribution": "exponential", "mean": 6000}},
    "small": {"instance": 8, "run": 100, "sleep": 900},
}
def dump(name, w):
    json.dump(dict(w, tasks=tasks), open("%s/%s.json" % (d, name), "w"), indent=1)
dump("plain", {})
grouped = json.loads(json.dumps(tasks))
for t, g in (("hog", "/batch"), ("per", "/web"), ("rnd", "/rnd"), ("small", "/sys")):
    grouped[t]["taskgroup"] = g
json.dump({"lsb-taskgroups": {"/batch": {"cpu.weight": 50}, "/web": {"cpu.weight": 200},
                              "/rnd": {"cpu.weight": 100}, "/sys": {"cpu.weight": 100}},
           "tasks": grouped}, open(d + "/groups.json", "w"), indent=1)
hp, cs = [], []
for k in range(10):
    t = 100000 + 80000 * k
    hp += [{"time": t, "cpu": 15, "online": False}, {"time": t + 40000, "cpu": 15, "online": True}]
    cs += [{"time": t, "taskgroup": "/p", "cpuset.cpus.partition": "root"},
           {"time": t + 40000, "taskgroup": "/p", "cpuset.cpus.partition": "member"}]
dump("hotplug", {"lsb-events": hp})
dump("rebuild", {"lsb-taskgroups": {"/p": {"cpuset.cpus": "15"}}, "lsb-events": cs})
PY
	for rev in "${REVS[@]}"; do
		cg_count "$rev" "$TMP/plain.json"; p_ins=$INS; p_h=$HARNESS; p_ev=$EVENTS
		cg_count "$rev" "$TMP/groups.json"; g_ins=$INS; g_h=$HARNESS; g_ev=$EVENTS
		r=$(calc "$g_ins / $p_ins"); rh=$(calc "$g_h / $p_h")
		re=$(calc "($g_ins / $g_ev) / ($p_ins / $p_ev)"); rhe=$(calc "($g_h / $g_ev) / ($p_h / $p_ev)")
		st=$(verdict "$r" "<=" $T_GROUPS)
		row "task groups / none, 16 CPUs (instructions)" "$rev" "" "$(fmt "$r" 3)" "<= $T_GROUPS" "$st"
		row "  harness alone (outside the kernel)" "$rev" "" "$(fmt "$rh" 3)" "<= $T_GROUPS" "$(verdict "$rh" "<=" $T_GROUPS)"
		row "  per simulator event: all, harness ($p_ev, $g_ev events)" "$rev" "$(fmt "$re" 3)" "$(fmt "$rhe" 3)" "" ""
		JSON+=("{\"name\":\"groups_ratio_16\",\"revision\":\"$rev\",\"topology\":\"$TOPO16\",\"simulated_s\":$INSN_SIM_S,\"instructions\":$g_ins,\"instructions_plain\":$p_ins,\"harness\":$g_h,\"harness_plain\":$p_h,\"events\":$g_ev,\"events_plain\":$p_ev,\"per_event_ratio\":$re,\"harness_per_event_ratio\":$rhe,\"unit\":\"instructions with 4 groups / without\",\"median\":$r,\"harness_ratio\":$rh,\"target\":$T_GROUPS,\"target_op\":\"<=\",\"status\":\"$st\"}")
		cg_count "$rev" "$TMP/hotplug.json"; h_ins=$INS
		cg_count "$rev" "$TMP/rebuild.json"; c_ins=$INS
		per_h=$(calc "($h_ins - $p_ins) / 20"); per_c=$(calc "($c_ins - $p_ins) / 20")
		r=$(calc "$per_h / $per_c")
		st=$(verdict "$r" "<=" $T_HOTPLUG)
		row "hotplug event / domain rebuild (instructions)" "$rev" "" "$(fmt "$r" 3)" "<= $T_HOTPLUG" "$st"
		row "  per hotplug event, per rebuild (k)" "$rev" "$(fmt "$(calc "$per_h / 1000")" 0)" "$(fmt "$(calc "$per_c / 1000")" 0)" "" ""
		JSON+=("{\"name\":\"hotplug_event_cost\",\"revision\":\"$rev\",\"topology\":\"$TOPO16\",\"simulated_s\":$INSN_SIM_S,\"events\":20,\"instructions_per_hotplug_event\":$per_h,\"instructions_per_rebuild\":$per_c,\"unit\":\"instructions per hotplug event / per cpuset domain rebuild\",\"median\":$r,\"target\":$T_HOTPLUG,\"target_op\":\"<=\",\"status\":\"$st\"}")
	done
fi

# ---- 3e. PI mutexes under contention: N instances of one lock/run/
# unlock/sleep task on one PI mutex, 20 ms on quad, on the last revision;
# the cost must grow no faster than N (issue 25: it was quadratic) ----

if [[ ${BENCH_SKIP_PI:-0} != 1 ]]; then
	pirev=${REVS[-1]}
	PI_NS=(256 512 1024 4096)
	pwalls=(); pins=(); nins=()
	for n in "${PI_NS[@]}"; do
		for pi in true false; do
			printf '{"tasks": {"t": {"instance": %d, "lock": "m", "run": 10, "unlock": "m", "sleep": 100}}, "global": {"pi_enabled": %s}}\n' \
				"$n" "$pi" >"$TMP/pi-$n-$pi.json"
		done
		walls=()
		for ((i = 1; i <= REPS; i++)); do
			simrun "$pirev" quad "$TMP/pi-$n-true.json" 0.02
			walls+=("$WALL")
		done
		row "PI mutex, $n contenders, 20 ms (s)" "$pirev" "$(fmt "$(best "${walls[@]}")" 3)" "$(fmt "$(median "${walls[@]}")" 3)" "" ""
		pwalls+=("$(jlist "${walls[@]}")")
		command -v valgrind >/dev/null || continue
		for pi in true false; do
			valgrind --tool=callgrind --callgrind-out-file="$TMP/cgpi.out" "${EXE[$pirev]}" \
				--topology quad --workload "$TMP/pi-$n-$pi.json" --duration 20ms --seed 1 \
				--json /dev/null >/dev/null 2>"$TMP/cg.err" ||
				{ cat "$TMP/cg.err" >&2; die "callgrind of $pirev with $n PI contenders failed"; }
			c=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$TMP/cg.err")
			[[ -n $c ]] || die "callgrind printed no instruction count for $pirev"
			if [[ $pi == true ]]; then pins+=("$c"); else nins+=("$c"); fi
		done
		row "  instructions, with PI / without (M)" "$pirev" "$(fmt "$(calc "${pins[-1]} / 1e6")" 1)" "$(fmt "$(calc "${nins[-1]} / 1e6")" 1)" "" ""
	done
	if ((${#pins[@]} == 4)); then
		# what each instance adds, from 1024 to 4096 against 256 to 512:
		# 1 when the cost is linear in the instances, 6.7 when quadratic
		r=$(calc "(${pins[3]} - ${pins[2]}) / 3072 / ((${pins[1]} - ${pins[0]}) / 256)")
		st=$(verdict "$r" "<=" $T_PI_GROWTH)
		row "PI mutex, per instance 1024-4096 / 256-512 (instructions)" "$pirev" "" "$(fmt "$r" 3)" "<= $T_PI_GROWTH" "$st"
		row "  with PI / without, 4096 contenders" "$pirev" "" "$(fmt "$(calc "${pins[3]} / ${nins[3]}")" 3)" "" ""
		JSON+=("{\"name\":\"pi_contention\",\"revision\":\"$pirev\",\"topology\":\"quad\",\"simulated_s\":0.02,\"instances\":$(jlist "${PI_NS[@]}"),\"wall_s\":$(jlist "${pwalls[@]}"),\"instructions\":$(jlist "${pins[@]}"),\"instructions_without_pi\":$(jlist "${nins[@]}"),\"unit\":\"instructions per instance 1024-4096 / 256-512\",\"median\":$r,\"target\":$T_PI_GROWTH,\"target_op\":\"<=\",\"status\":\"$st\"}")
	else
		JSON+=("{\"name\":\"pi_contention\",\"revision\":\"$pirev\",\"topology\":\"quad\",\"simulated_s\":0.02,\"instances\":$(jlist "${PI_NS[@]}"),\"wall_s\":$(jlist "${pwalls[@]}")}")
	fi
fi

# ---- 4. the whole workload suite: every pattern, 10 s simulated each ----

if [[ ${BENCH_SKIP_SUITE:-0} != 1 ]]; then
	srev=${BENCH_SUITE_REV:-v6.1.192}
	sargs=(--topology quad-smt --duration 10s --jobs 2 --out "$TMP/suite")
	"$LINSCHED" build "$srev" >/dev/null || die "linsched build $srev failed"
	echo "  suite: $("$LINSCHED" suite list | wc -l) patterns on $srev, ${sargs[*]:0:4}"
	t0=$(now)
	"$LINSCHED" suite run "$srev" "${sargs[@]}" >"$TMP/suite.out" 2>"$TMP/suite.err" ||
		{ cat "$TMP/suite.out" "$TMP/suite.err" >&2; die "linsched suite run $srev: not every pattern finished"; }
	t1=$(now)
	swall=$(elapsed "$t0" "$t1")
	read -r snr sfin < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["patterns"], r["finished"])' \
		"$TMP/suite/summary.json")
	st=$(verdict "$swall" "<=" $T_SUITE_S)
	row "suite, $snr patterns x 10 s (s)" "$srev" "$(fmt "$swall" 1)" "$(fmt "$swall" 1)" "<= $T_SUITE_S" "$st"
	row "  patterns per wall second" "$srev" "" "$(fmt "$(calc "$snr / $swall")" 1)" "" ""
	JSON+=("{\"name\":\"suite\",\"revision\":\"$srev\",\"topology\":\"quad-smt\",\"simulated_s\":10,\"jobs\":2,\"patterns\":$snr,\"finished\":$sfin,\"unit\":\"s\",\"runs\":[$swall],\"best\":$swall,\"median\":$swall,\"target\":$T_SUITE_S,\"target_op\":\"<=\",\"status\":\"$st\"}")
fi

# ---- 5. the 44-commit test bisection (t/bench-bisect.sh): lsbisect with
# cold caches, the same again, and git bisect run building every step ----

T_BISECT_COLD_S=25	# the test bisection with cold caches, at most
T_BISECT_WARM_S=10	# the same again, at most
T_BISECT_RATIO=5	# git bisect run / lsbisect cold, at least
if [[ ${BENCH_SKIP_BISECT:-0} != 1 ]]; then
	bash t/bench-bisect.sh >"$TMP/bisect.out" 2>"$TMP/bisect.err" ||
		{ cat "$TMP/bisect.out" "$TMP/bisect.err" >&2; die "t/bench-bisect.sh failed"; }
	bcold=$(awk '/^lsbisect cold:/ { print $3 }' "$TMP/bisect.out")
	bwarm=$(awk '/^lsbisect warm:/ { print $3 }' "$TMP/bisect.out")
	bgit=$(awk '/^git bisect run:/ { print $4 }' "$TMP/bisect.out")
	bccache=$(awk '/^git bisect run with ccache:/ { print $6 }' "$TMP/bisect.out")
	[[ -n $bcold && -n $bwarm && -n $bgit && -n $bccache ]] ||
		{ cat "$TMP/bisect.out" >&2; die "t/bench-bisect.sh printed no times"; }
	bratio=$(calc "$bgit / $bcold")
	row "bisection, 44 commits, cold (s)" "v6.1.192+" "$(fmt "$bcold" 1)" "$(fmt "$bcold" 1)" "<= $T_BISECT_COLD_S" "$(verdict "$bcold" "<=" $T_BISECT_COLD_S)"
	row "bisection again, warm (s)" "v6.1.192+" "$(fmt "$bwarm" 2)" "$(fmt "$bwarm" 2)" "<= $T_BISECT_WARM_S" "$(verdict "$bwarm" "<=" $T_BISECT_WARM_S)"
	row "git bisect run, same history (s)" "v6.1.192+" "$(fmt "$bgit" 1)" "$(fmt "$bgit" 1)" "" ""
	row "  git bisect run / lsbisect cold (x)" "v6.1.192+" "$(fmt "$bratio" 2)" "$(fmt "$bratio" 2)" ">= $T_BISECT_RATIO" "$(verdict "$bratio" ">=" $T_BISECT_RATIO)"
	bcratio=$(calc "$bccache / $bcold")
	row "git bisect run with ccache (s)" "v6.1.192+" "$(fmt "$bccache" 1)" "$(fmt "$bccache" 1)" "" ""
	row "  git bisect run with ccache / lsbisect cold (x)" "v6.1.192+" "$(fmt "$bcratio" 2)" "$(fmt "$bcratio" 2)" "" ""
	JSON+=("{\"name\":\"bisection\",\"commits\":44,\"cold_s\":$bcold,\"warm_s\":$bwarm,\"git_bisect_run_s\":$bgit,\"ratio_git_to_cold\":$bratio,\"git_bisect_run_ccache_s\":$bccache,\"ratio_git_ccache_to_cold\":$bcratio}")
fi

# ---- 6. a release report: the whole suite on two revisions over three
# machines, 3 seeds, 10 s each; cold = an empty result cache beside the
# shared builds, then the same report again ----

if [[ ${BENCH_SKIP_REPORT:-0} != 1 ]]; then
	read -r rold rnew <<<"${BENCH_REPORT:-v6.1.170 v6.1.192}"
	for rev in "$rold" "$rnew"; do
		"$LINSCHED" build "$rev" >/dev/null || die "linsched build $rev failed"
	done
	rcache=$TMP/report-cache
	mkdir -p "$rcache"
	base=${LSBISECT_CACHE:-$(dirname "$LINSCHED")/../cache}
	ln -s "$(cd "$base" && pwd)/builds" "$rcache/builds"
	ln -s "$(cd "$base" && pwd)/trees" "$rcache/trees"
	echo "  report: $rold -> $rnew, full suite x quad-smt, dynamiq-1+3+4, numa-2 x 3 seeds x 10 s, cold results"
	for pass in cold warm; do
		t0=$(now)
		rs=0
		LSBISECT_CACHE=$rcache "$LINSCHED" report "$rold" "$rnew" --out "$TMP/report" --quiet \
			>"$TMP/report.out" 2>"$TMP/report.err" || rs=$?
		t1=$(now)
		[[ $rs == 0 || $rs == 1 ]] || { cat "$TMP/report.err" >&2; die "linsched report $rold $rnew: status $rs"; }
		w=$(elapsed "$t0" "$t1")
		runs=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(len(r["results"]) * 2 * r["seeds"])' "$TMP/report/report.json")
		if [[ $pass == cold ]]; then target=$T_REPORT_COLD_S; else target=$T_REPORT_WARM_S; fi
		st=$(verdict "$w" "<=" "$target")
		row "report $pass, $runs runs (s)" "$rold..$rnew" "$(fmt "$w" 1)" "$(fmt "$w" 1)" "<= $target" "$st"
		JSON+=("{\"name\":\"report_$pass\",\"revision\":\"$rold..$rnew\",\"runs\":$runs,\"unit\":\"s\",\"best\":$w,\"median\":$w,\"target\":$target,\"target_op\":\"<=\",\"status\":\"$st\"}")
	done
fi

# ---- 7. a 220-unit sweep (LinSched's 60 s each) through Slurm (a private single-node cluster,
# t/slurm.sh) against the local executor, each with an empty result cache,
# alternating, BENCH_SLURM_REPS times ----

if [[ ${BENCH_SKIP_SLURM:-0} != 1 ]]; then
	srev=${BENCH_SUITE_REV:-v6.1.192}
	(
		set +eu
		export LSB_ROOT=$PWD
		. t/lib.sh >/dev/null
		. t/slurm.sh
		slurm_install || exit 3
		trap 'slurm_stop' EXIT
		slurm_start "$TMP/slurm" >&2 || exit 3
		"$LINSCHED" build "$srev" >/dev/null || exit 1
		. t/history.sh
		for i in $(seq "${BENCH_SLURM_REPS:-3}"); do
			for engine in local slurm; do
				c=$TMP/sc-$engine-$i
				private_cache "$c"
				t0=$(date +%s.%N)
				LSBISECT_CACHE=$c "$LINSCHED" sweep "$srev" --match 'periodic-*' --match 'hog-*' \
					--topology numa-4 --topology quad-smt --duration 60s --engine $engine \
					--out "$TMP/sweep-$engine" -q >/dev/null 2>"$TMP/sweep-$engine.err" || exit 1
				t1=$(date +%s.%N)
				echo "$engine $(python3 -c "print($t1 - $t0)") $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["units"])' "$TMP/sweep-$engine/sweep.json")"
			done
		done
	) >"$TMP/slurm.times" && rs=0 || rs=$?
	if [[ $rs == 3 ]]; then
		echo "  slurm: no cluster (Slurm could not be installed or started): skipped"
	elif [[ $rs != 0 ]]; then
		cat "$TMP"/sweep-*.err >&2 2>/dev/null
		die "the Slurm sweep failed"
	else
		units=$(awk 'NR == 1 { print $3 }' "$TMP/slurm.times")
		mapfile -t lw < <(awk '$1 == "local" { print $2 }' "$TMP/slurm.times")
		mapfile -t sw < <(awk '$1 == "slurm" { print $2 }' "$TMP/slurm.times")
		ratios=()
		for i in "${!lw[@]}"; do ratios+=("$(calc "${sw[i]} / ${lw[i]}")"); done
		lm=$(median "${lw[@]}"); sm=$(median "${sw[@]}"); rm_=$(median "${ratios[@]}")
		st=$(verdict "$rm_" "<=" $T_SLURM_RATIO)
		row "sweep $units units, local (s)" "$srev" "$(fmt "$(best "${lw[@]}")" 1)" "$(fmt "$lm" 1)" "" ""
		row "sweep $units units, slurm (s)" "$srev" "$(fmt "$(best "${sw[@]}")" 1)" "$(fmt "$sm" 1)" "" ""
		row "  slurm / local" "$srev" "$(fmt "$(best "${ratios[@]}")" 2)" "$(fmt "$rm_" 2)" "<= $T_SLURM_RATIO" "$st"
		JSON+=("{\"name\":\"slurm_sweep\",\"revision\":\"$srev\",\"units\":$units,\"local_s\":[$(IFS=,; echo "${lw[*]}")],\"slurm_s\":[$(IFS=,; echo "${sw[*]}")],\"unit\":\"ratio\",\"best\":$(best "${ratios[@]}"),\"median\":$rm_,\"target\":$T_SLURM_RATIO,\"target_op\":\"<=\",\"status\":\"$st\"}")
	fi
fi

# ---- 8. classifying commits: 'linsched classes' on generated histories of
# 5,000 and 15,000 commits over kernel-sized trees, this bisect/ and the one
# before it hashed subsets incrementally (bench/classes.sh) ----

if [[ ${BENCH_SKIP_CLASSES:-0} != 1 ]]; then
	LINSCHED=$LINSCHED bench/classes.sh >"$TMP/classes.out" 2>"$TMP/classes.err" ||
		{ cat "$TMP/classes.out" "$TMP/classes.err" >&2; die "bench/classes.sh failed"; }
	cat "$TMP/classes.err"
	declare -A CLS_BEFORE
	while read -r _ size version b m rate k cpu crate; do
		[[ $version == before ]] && CLS_BEFORE[$size]=$rate
	done < <(grep '^classes ' "$TMP/classes.out")
	while read -r _ size version b m rate k cpu crate; do
		[[ $version == after ]] || continue
		st=$(verdict "$rate" ">=" 1000)
		row "classes, ${size%%:*} commits/${size##*:} files (commits/s)" "generated" \
			"$(fmt "$(calc "${size%%:*} / $b")" 0)" "$rate" ">= 1000" "$st"
		row "  per CPU second (commits/s)" "generated" "" "$crate" "" ""
		[[ -n ${CLS_BEFORE[$size]:-} ]] &&
			row "  before incremental hashing (commits/s)" "generated" "" "${CLS_BEFORE[$size]}" "" ""
		JSON+=("{\"name\":\"classes\",\"commits\":${size%%:*},\"files\":${size##*:},\"classes\":$k,\"unit\":\"commits/s\",\"best_s\":$b,\"median_s\":$m,\"median\":$rate,\"cpu_s\":$cpu,\"per_cpu_s\":$crate,\"before\":${CLS_BEFORE[$size]:-null},\"target\":1000,\"target_op\":\">=\",\"status\":\"$st\"}")
	done < <(grep '^classes ' "$TMP/classes.out")
fi

# ---- 9. the hunt: cases a second ----
# linsched hunt on the newest revision, quad-smt and the 8-CPU shapes, up
# to 32 tasks, 0.5 s simulated, 400 cases, no shrinking: the rate its
# hunt.json reports (whole search, process starts and judging included).

if [[ ${BENCH_SKIP_HUNT:-0} != 1 ]]; then
	hrev=${REVS[${#REVS[@]}-1]}
	for ((i = 0; i < REPS; i++)); do
		rm -rf "$TMP/hunt"
		"$LINSCHED" hunt "$hrev" --runs 400 --max-tasks 32 --findings 0 \
			-t quad-smt -t 2x4x1 -t 1x4x2 -t 2x2x2 --jobs 2 \
			--out "$TMP/hunt" >/dev/null 2>"$TMP/hunt.err" ||
			[[ $? == 7 ]] || { cat "$TMP/hunt.err" >&2; die "linsched hunt failed"; }
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cases_per_s"])' \
			"$TMP/hunt/hunt.json"
	done > "$TMP/hunt.rates"
	hbest=$(sort -g "$TMP/hunt.rates" | tail -n 1)
	hmed=$(sort -g "$TMP/hunt.rates" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	st=$(verdict "$hmed" ">=" "$T_HUNT_RATE")
	row "hunt, 8 CPUs, <= 32 tasks, 0.5 s (cases/s)" "$hrev" \
		"$(fmt "$hbest" 1)" "$(fmt "$hmed" 1)" ">= $T_HUNT_RATE" "$st"
	JSON+=("{\"name\":\"hunt_rate\",\"revision\":\"$hrev\",\"unit\":\"cases/s\",\"best\":$hbest,\"median\":$hmed,\"target\":$T_HUNT_RATE,\"target_op\":\">=\",\"status\":\"$st\"}")
fi

# ---- the table ----

echo
{
	echo "benchmark|revision|best|median|target|status"
	echo "---------|--------|----|------|------|------"
	printf '%s\n' "${ROWS[@]}"
} | column -t -s '|' 2>/dev/null || printf '%s\n' "${ROWS[@]}"

# ---- ratios: the same figure across the two revisions, and run vs simulator ----

echo
if ((${#REVS[@]} >= 2)); then
	a=${REVS[0]}; b=${REVS[1]}
	echo "ratios ($b / $a, medians; > 1 means $b takes more / runs faster):"
	{
		echo "figure|$a|$b|ratio"
		if [[ -n ${BUILD_MED[$a]:-} && -n ${BUILD_MED[$b]:-} ]]; then
			echo "cold build (s)|$(fmt "${BUILD_MED[$a]}")|$(fmt "${BUILD_MED[$b]}")|$(fmt "$(calc "${BUILD_MED[$b]} / ${BUILD_MED[$a]}")")"
		fi
		for case in 16 64; do
			read -r sa ra ea wa <<<"${SPEED[$case,$a]}"
			read -r sb_ rb_ eb wb <<<"${SPEED[$case,$b]}"
			echo "speed $case CPUs (sim/wall)|$(fmt "$sa" 1)x|$(fmt "$sb_" 1)x|$(fmt "$(calc "$sb_ / $sa")")"
			echo "events $case CPUs|$ea|$eb|$(fmt "$(calc "$eb / $ea")")"
			echo "peak RSS $case CPUs (MB)|$(fmt "$ra" 1)|$(fmt "$rb_" 1)|$(fmt "$(calc "$rb_ / $ra")")"
		done
	} | column -t -s '|' 2>/dev/null
	echo
fi
if [[ ${BENCH_SKIP_METRICS:-0} != 1 ]]; then
	echo "--metrics: wall without and with (medians), and the median of the per-pair ratios:"
	{
		echo "case|revision|without (s)|with (s)|ratio"
		for case in 16 64; do
			for rev in "${REVS[@]}"; do
				read -r off on r <<<"${MOVH[$case,$rev]}"
				echo "$case CPUs|$rev|$(fmt "$off")|$(fmt "$on")|$(fmt "$r" 3)"
			done
		done
	} | column -t -s '|' 2>/dev/null
	echo
fi
echo "linsched run vs simulator alone (medians):"
{
	echo "revision|linsched run (s)|simulator (s)|overhead (s)|ratio"
	for rev in "${REVS[@]}"; do
		read -r r e o <<<"${OVH[$rev]}"
		echo "$rev|$(fmt "$r" 3)|$(fmt "$e" 3)|$(fmt "$o" 3)|$(fmt "$(calc "$r / ($e > 0 ? $e : 0.0001)")" 1)x"
	done
} | column -t -s '|' 2>/dev/null

# ---- JSON ----

END=$(now)
LOAD_END=$(cut -d' ' -f1 /proc/loadavg)
mkdir -p "$(dirname "$OUT")"
{
	printf '{\n"machine":{"cpu":"%s","nproc":%d,"loadavg_at_start":%s,"loadavg_at_end":%s},\n' \
		"${CPU_MODEL//\"/}" "$NCPU" "$LOAD" "$LOAD_END"
	printf '"commit":"%s","dirty":%s,\n' "$GIT_REV" "$GIT_DIRTY"
	printf '"date":"%s","bench_wall_s":%s,\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(elapsed "$START" "$END")"
	printf '"results":[\n'
	n=${#JSON[@]}
	for ((i = 0; i < n; i++)); do
		printf '%s%s\n' "${JSON[i]}" "$( ((i < n - 1)) && echo ,)"
	done
	printf ']\n}\n'
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
if command -v jq >/dev/null; then
	jq -e . "$OUT" >/dev/null || die "$OUT is not valid JSON"
fi
echo
echo "bench took $(fmt "$(elapsed "$START" "$END")" 0)s (load average $LOAD at start, $LOAD_END at end); results in $OUT"
