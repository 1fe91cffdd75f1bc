#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# linsched vm: the same release booted as a real kernel in QEMU. On 7.3.4
# (its kernel built once from the cached Debian package, then cached),
# 2 vCPUs, rt-app's busy loops: four share the two CPUs evenly; in two
# groups of equal weight, one loop against four gets 0.60-0.70 of a CPU,
# as the simulator says of the same workload, and 0.90-1.0 once --write
# sets the kernel's cgroup_mode to 7.2's "smp"; timed events (hotplug, a
# bandwidth limit) run at their times; a guest past its time limit is that
# run's result. `--build-only` builds the kernel (or finds it built: at
# once) and boots nothing; while another process builds the same kernel
# (holds its lock) it waits, says so once, and takes that build's kernel.
# On an SMT machine QEMU numbers the vCPUs otherwise than
# the topology: a pinned loop and the trace follow the topology's numbers.
# What QEMU cannot mirror (an asymmetric machine,
# frequencies) and a release with no full tree are refused with the reason.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

ensure_kernels
vm_prereqs 7.3.4
plan 20
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
REV=$TEST_V73
W=$LSB_ROOT/t/workloads
# icount: guest time counts instructions, steady on a loaded host
ACCEL=${LSB_VM_ACCEL:-tcg-icount}

# ---- refusals, before anything is built ----
"$LINSCHED" vm "$REV" --workload 'hog*4' --topology biglittle-4+4 \
	--out "$tmp/asym" 2> "$tmp/asym.err"
status=$?
test_expect_success "an asymmetric machine is refused with the reason (status $status)" '
	[ $status = 2 ] && [ ! -e "$tmp/asym" ] &&
	[ "$(cat "$tmp/asym.err")" = "error: topology '\''biglittle-4+4'\'': QEMU cannot mirror it: asymmetric capacity (CPU type '\''big'\'' has 1024, '\''little'\'' 398): every vCPU is the same" ]'

"$LINSCHED" vm "$REV" --workload 'hog*4' --topology dual --out "$tmp/opp" \
	2> "$tmp/opp.err"
status=$?
test_expect_success "frequencies (OPPs) are refused: a vCPU has none (status $status)" '
	[ $status = 2 ] && grep -q "^error: topology '\''dual'\'': QEMU cannot mirror it: CPU type '\''core'\'' has 6 OPPs" "$tmp/opp.err"'

# the bundled history as a full repository: its trees hold the subset only
"$LINSCHED" vm "$REV" --repo "$LSBISECT_REPO" --workload 'hog*2' \
	--topology 1x2x1 --out "$tmp/subset" 2> "$tmp/subset.err"
status=$?
test_expect_success "a repository without the whole tree: no full tree (status $status)" '
	[ $status = 6 ] &&
	grep -q "^error: revision '\''$REV'\'': no full tree: the repository'\''s tree has no arch/x86/Makefile" "$tmp/subset.err" &&
	[ $(grep -c "^error:" "$tmp/subset.err") = 1 ] &&
	[ -z "$(ls "$LSBISECT_CACHE/vm" | grep tree.tmp)" ]'

# a cache without the release's package
private_cache "$tmp/cache"
LSBISECT_CACHE=$tmp/cache "$LINSCHED" vm "$REV" --workload 'hog*2' \
	--topology 1x2x1 --out "$tmp/nodeb" 2> "$tmp/nodeb.err"
status=$?
test_expect_success "a release whose package is not cached: no full tree (status $status)" '
	[ $status = 6 ] &&
	grep -q "^error: revision '\''$REV'\'' (release 7.3.4): no full tree: the package '\''.*/linux-source-7.3_7.3.4-.*_all.deb'\'' is not in the cache" "$tmp/nodeb.err"'

"$LINSCHED" vm "$REV" --build-only --workload hog > /dev/null 2> "$tmp/bow.err"
status=$?
test_expect_success "--build-only with a boot option is refused (status $status)" '
	[ $status = 2 ] &&
	[ "$(cat "$tmp/bow.err")" = "error: --build-only boots nothing: it takes --repo, --jobs and --verbose only" ]'

# ---- the kernel, built once ----
start=$SECONDS
"$LINSCHED" vm "$REV" --build-only > "$tmp/bo.out" 2> "$tmp/bo.err"
status=$?
diag "--build-only: $((SECONDS - start)) s (the kernel's build when not cached)"
sed 's/^/# /' "$tmp/bo.err"
bz=$(cat "$tmp/bo.out")
key=$(basename "$(dirname "$bz")")
test_expect_success "--build-only builds the kernel or finds it, and prints its bzImage (status $status)" '
	[ $status = 0 ] && [ "$bz" = "$LSBISECT_CACHE/vm/$key/bzImage" ] &&
	[ ${#key} = 40 ] && [ -s "$bz" ] && [ -s "$LSBISECT_CACHE/vm/$key/config" ]'

start=$SECONDS
"$LINSCHED" vm "$REV" --build-only > "$tmp/bo2.out" 2> "$tmp/bo2.err"
status=$?
took=$((SECONDS - start))
test_expect_success "--build-only of a built kernel builds nothing, says nothing (status $status, $took s)" '
	[ $status = 0 ] && [ "$(cat "$tmp/bo2.out")" = "$bz" ] &&
	! grep -q . "$tmp/bo2.err" && [ $took -le 60 ]'

# Another process builds the key (holds KEY.lock, then renames its entry
# into place: here a copy of the built one): --build-only waits for it and
# takes its kernel, building nothing (kernel.sh would write KEY.log).
lk=$tmp/lk
private_cache "$lk"
mkdir -p "$lk/vm"
ln -s "$LSBISECT_CACHE/debs" "$lk/debs"
other_build() {
	exec 9> "$lk/vm/$key.lock"
	flock 9 || return 1
	touch "$lk/held"
	sleep 5
	cp -R "$LSBISECT_CACHE/vm/$key" "$lk/vm/$key.tmp.$BASHPID" &&
		mv -T "$lk/vm/$key.tmp.$BASHPID" "$lk/vm/$key"
}
other_build &
other=$!
wait_for 30 test -e "$lk/held"
LSBISECT_CACHE=$lk "$LINSCHED" vm "$REV" --build-only > "$tmp/lk.out" 2> "$tmp/lk.err" &
waiter=$!
sleep 2
kill -0 $waiter 2> /dev/null
waited=$?
wait $other
# a waiter that builds instead would take minutes: stopped
wait_for 60 eval '! kill -0 $waiter 2> /dev/null' || kill $waiter
wait $waiter
status=$?
sed 's/^/# /' "$tmp/lk.err"
test_expect_success "a build of the kernel under way elsewhere is waited for, said once, and its kernel taken (status $status)" '
	[ $waited = 0 ] && [ $status = 0 ] &&
	[ "$(cat "$tmp/lk.out")" = "$lk/vm/$key/bzImage" ] &&
	[ "$(cat "$tmp/lk.err")" = "linsched vm: waiting for another build of the VM kernel ${key:0:12} (the lock '\''$lk/vm/$key.lock'\'' is held)" ] &&
	[ ! -e "$lk/vm/$key.log" ] && [ -z "$(ls "$lk/vm" | grep "\.tmp\.")" ] &&
	cmp "$lk/vm/$key/bzImage" "$bz"'

# ---- four busy loops on two vCPUs ----
start=$SECONDS
"$LINSCHED" vm "$REV" --workload 'hog*4' --topology 1x2x1 --duration 4 \
	--runs 2 --accel "$ACCEL" --out "$tmp/hogs" > "$tmp/hogs.out" 2> "$tmp/hogs.err"
status=$?
diag "hogs: $((SECONDS - start)) s"
sed 's/^/# /' "$tmp/hogs.out"
test_expect_success "four hogs on two vCPUs, two boots: each 0.45-0.55 of a CPU (status $status)" '
	[ $status = 0 ] && json_is "$tmp/hogs/summary.json" runs.1.status ok &&
	for run in 0 1; do
		for i in 0 1 2 3; do
			s=$(json "$tmp/hogs/summary.json" "r[\"runs\"][$run][\"tasks\"][$i][\"share\"]") &&
			within "$s" 0.45 0.55 || { diag "run $run hog-$i: $s"; false; }
		done
	done'

test_expect_success "the run keeps the trace, tasks, groups, kernel log and summary" '
	d=$tmp/hogs/run-1 &&
	grep -q "sched_switch: prev_comm=hog-" "$d/trace.txt" &&
	grep -q "lsb-vm: window start" "$d/trace.txt" &&
	grep -q "lsb-vm: window end" "$d/trace.txt" &&
	grep -q "Linux version 7.3.4" "$d/dmesg" &&
	grep -q "Exiting" "$d/rt-app.log" && ! grep -q "must be installed" "$d/rt-app.log" &&
	json_is "$d/tasks.json" 0.name hog-0 &&
	json_is "$d/tasks.json" 3.group / &&
	json_is "$tmp/hogs/summary.json" release 7.3.4 &&
	json_is "$tmp/hogs/summary.json" preempt PREEMPT_LAZY &&
	json_is "$tmp/hogs/summary.json" kernel_sched_vs_bundled identical &&
	json_is "$tmp/hogs/summary.json" accel "$ACCEL" &&
	json_is "$tmp/hogs/summary.json" qemu_machine.1 cpus=2,sockets=1,cores=2,threads=1 &&
	[ ! -e "$tmp/hogs/initramfs.cpio.gz" ] && [ ! -e "$d/disk.raw" ]'

# ---- two groups of equal weight: 1 loop against 4 ----
# (rt-app's calibration: measured by the release's first boot, kept)
start=$SECONDS
"$LINSCHED" vm "$REV" --workload "$W/vm-two-groups.json" --topology 1x2x1 \
	--duration 6 --accel "$ACCEL" --out "$tmp/groups" > "$tmp/groups.out" \
	2> "$tmp/groups.err"
status=$?
diag "two groups: $((SECONDS - start)) s"
sed 's/^/# /' "$tmp/groups.out"
lone=$(json "$tmp/groups/summary.json" "[t['share'] for t in r['runs'][0]['tasks'] if t['name'] == 'lone'][0]" 2>/dev/null)
test_expect_success "in the VM the lone loop of group a gets 0.60-0.70 of a CPU (status $status, $lone)" '
	[ $status = 0 ] && within "$lone" 0.60 0.70 &&
	grep -q "^== /a" "$tmp/groups/run-1/cgroups" &&
	json_is "$tmp/groups/run-1/tasks.json" 0.group /a'
key=$(json "$tmp/groups/summary.json" "r['kernel_key']" 2>/dev/null)
cal=$(cat "$LSBISECT_CACHE/vm/$key.calibration-$ACCEL" 2>/dev/null)
test_expect_success "the second boot of the release used the cached kernel and rt-app's calibration ($cal ns)" '
	grep -q "^linsched vm: boot 1/1" "$tmp/groups.err" &&
	! grep -q "building the VM kernel" "$tmp/groups.err" &&
	[ -n "$cal" ] && json_is "$tmp/groups/summary.json" rtapp_calibration_ns "$cal" &&
	json_is "$tmp/groups/rtapp.json" global.calibration "$cal" &&
	grep -q "^\[rt-app\] <notice> pLoad = ${cal}ns$" "$tmp/groups/run-1/rt-app.log"'

LSBISECT_CACHE=$tmp/cache "$LINSCHED" run "$REV" --workload "$W/vm-two-groups.json" \
	--topology 1x2x1 --duration 6 --json "$tmp/sim.json" --quiet 2> "$tmp/sim.err"
status=$?
sim=$(json "$tmp/sim.json" "round([t['sum_exec_ns'] for t in r['tasks'] if t['name'] == 'lone'][0] / r['duration_ns'], 4)" 2>/dev/null)
test_expect_success "the simulator of 7.3.4 says the same: 0.60-0.70 (status $status, $sim)" '
	[ $status = 0 ] && within "$sim" 0.60 0.70'

# the kernel's own switch back to 7.2's group weights (debugfs cgroup_mode
# "smp": calc_smp_shares()) takes the cgroup_concur finding away on the
# real kernel too, as the catalogue's revert does in the simulator
"$LINSCHED" vm "$REV" --workload "$W/vm-two-groups.json" --topology 1x2x1 \
	--duration 4 --accel "$ACCEL" --out "$tmp/smp" \
	--write /sys/kernel/debug/sched/cgroup_mode=smp > /dev/null 2> "$tmp/smp.err"
status=$?
smp=$(json "$tmp/smp/summary.json" "[t['share'] for t in r['runs'][0]['tasks'] if t['name'] == 'lone'][0]" 2>/dev/null)
test_expect_success "--write cgroup_mode=smp: the lone loop gets its CPU back, 0.90-1.0 (status $status, $smp)" '
	[ $status = 0 ] && within "$smp" 0.90 1.01 &&
	grep -q "^/sys/kernel/debug/sched/cgroup_mode: up (smp) concur" "$tmp/smp/run-1/writes" &&
	json_is "$tmp/smp/summary.json" writes.0 /sys/kernel/debug/sched/cgroup_mode=smp'
"$LINSCHED" vm "$REV" --workload hog --topology 1x2x1 --out "$tmp/badw" \
	--write /sys/kernel/debug/sched/cgroup_mode > /dev/null 2> "$tmp/badw.err"
status=$?
test_expect_success "--write without a value is refused before anything runs (status $status)" '
	[ $status = 2 ] && [ ! -e "$tmp/badw" ] &&
	grep -q "^error: --write '\''/sys/kernel/debug/sched/cgroup_mode'\'': expected FILE=VALUE" "$tmp/badw.err"'

# ---- SMT: QEMU's vCPUs numbered otherwise than the topology's CPUs ----
# 1x2x2: CPU 2 is CPU 0's sibling here, vCPU 1 in QEMU. A loop pinned to
# CPU 2 runs on vCPU 1 and its trace comes back on CPU 2; the free loop
# ends on the other core (1 or 3), in the VM as in the simulator.
"$LINSCHED" vm "$REV" --workload 'hog*1:cpus=2+hog*1' --topology 1x2x2 \
	--duration 3 --accel "$ACCEL" --out "$tmp/smt" > /dev/null 2> "$tmp/smt.err"
status=$?
# the CPUs a task was switched in or out on ("[NNN]" -> N), one a line
cpus_of() {
	sed -n "/lsb-vm: window end/q; s/.*\[0*\([0-9][0-9]*\)\] .*sched_switch:.*_comm=$2 .*/\1/p" "$1" | sort -u
}
test_expect_success "SMT in the VM: a loop pinned to CPU 2 runs on vCPU 1, and comes back as CPU 2 (status $status)" '
	[ $status = 0 ] && d=$tmp/smt/run-1 &&
	json_is "$tmp/smt/summary.json" qemu_machine.1 cpus=4,sockets=1,cores=2,threads=2 &&
	[ "$(json "$tmp/smt/summary.json" "r[\"guest_cpu\"]")" = "[0, 2, 1, 3]" ] &&
	[ "$(json "$tmp/smt/rtapp.json" "r[\"tasks\"][\"hog-0\"][\"cpus\"]")" = "[1]" ] &&
	json_is "$d/tasks.json" 0.cpu 2 &&
	[ "$(cpus_of "$d/trace.txt" hog-0)" = "$(cpus_of "$d/trace.txt" hog-0 | grep -x 2)" ] &&
	[ "$(cpus_of "$d/trace.guest.txt" hog-0)" = "$(cpus_of "$d/trace.guest.txt" hog-0 | grep -x 1)" ] &&
	[ "$(grep -c "sched_switch" "$d/trace.txt")" = "$(grep -c "sched_switch" "$d/trace.guest.txt")" ]'
vm_free=$(json "$tmp/smt/run-1/tasks.json" "r[1][\"cpu\"]" 2>/dev/null)
"$LINSCHED" run "$REV" --workload 'hog*1:cpus=2+hog*1' --topology 1x2x2 \
	--duration 3 --json "$tmp/smt-sim.json" --quiet 2> /dev/null
sim_free=$(json "$tmp/smt-sim.json" "r[\"tasks\"][1][\"cpu\"]" 2>/dev/null)
test_expect_success "the free loop ends on the other core: VM CPU $vm_free, simulator CPU $sim_free" '
	case "$vm_free:$sim_free" in [13]:[13]) true ;; *) false ;; esac'

# timed events: hotplug and a bandwidth limit, through sysfs and cgroupfs
"$LINSCHED" vm "$REV" --workload "$W/vm-events.json" --topology 1x2x1 \
	--accel "$ACCEL" --out "$tmp/events" > /dev/null 2> "$tmp/events.err"
status=$?
test_expect_success "lsb-events run at their times: CPU 1 off and on, /b throttled (status $status)" '
	[ $status = 0 ] && d=$tmp/events/run-1 &&
	[ "$(cat "$d/events")" = "0.500000 ok /sys/devices/system/cpu/cpu1/online 0
1.000000 ok /sys/devices/system/cpu/cpu1/online 1
1.500000 ok /cg/b/cpu.cfs_period_us 100000
1.500000 ok /cg/b/cpu.cfs_quota_us 50000" ] &&
	grep -q "CPU 1 is now offline" "$d/dmesg" &&
	[ "$(sed -n "/^== \/b/,\$ s/^nr_throttled //p" "$d/cgroups")" -gt 0 ]'

# a guest that does not end in time is that run's result
"$LINSCHED" vm "$REV" --workload hog --topology 1x2x1 --duration 60 \
	--timeout 3 --accel "$ACCEL" --out "$tmp/hung" > /dev/null 2> "$tmp/hung.err"
status=$?
test_expect_success "a guest past --timeout is killed: run hung, status 5 ($status)" '
	[ $status = 5 ] && json_is "$tmp/hung/summary.json" runs.0.status hung &&
	grep -q "^linsched vm: run 1: the guest hung: no end in 3 s" "$tmp/hung.err" &&
	[ -s "$tmp/hung/run-1/console" ] && [ ! -e "$tmp/hung/run-1/disk.raw" ] &&
	! grep -q "^error:" "$tmp/hung.err"'

test_expect_success "--help lists the exit statuses" '
	"$LINSCHED" vm --help > "$tmp/help" &&
	grep -q "^Exit status: 0 every run ran" "$tmp/help" &&
	grep -q "^      --recalibrate   let rt-app measure" "$tmp/help" &&
	grep -q "6 no full tree for REV" "$tmp/help" &&
	grep -q "^      --build-only    build REV'\''s kernel" "$tmp/help"'

test_done
