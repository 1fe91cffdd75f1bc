#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The private single-node Slurm cluster of t/slurm.sh, which the Slurm
# executor's tests use: it starts, runs job arrays (all tasks, as root, in
# the submitting environment, at most one task per CPU or %K), cancels one
# task of an array, coexists with a second cluster, and stops every daemon
# it started, by pid, also when the test body fails. Timings are printed as
# TAP comments.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm.sh"

[ "$(id -u)" = 0 ] || skip_all "the private Slurm cluster needs root"
if ! slurm_install; then
	echo "Bail out! cannot install Slurm and MUNGE (slurmctld slurmd slurm-client munge)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
plan 14

# seconds since $1 (an $EPOCHREALTIME), two decimals
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }
# pids_dead: none of slurm_stopped_pids is a live daemon of its name
pids_dead() { [ -z "$(slurm_stopped_alive)" ]; }
# alive PID: a process that has not ended (a zombie has)
alive() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	[[ ${st##*) } != Z* ]]
}
# max_overlap FILE...: the most tasks running at once, from "start end"
# lines
max_overlap() {
	awk '{ print $1, 1; print $2, -1 }' "$@" | sort -k1,1n -k2,2n |
		awk '{ n += $2; if (n > m) m = n } END { print m + 0 }'
}

t0=$EPOCHREALTIME
if ! slurm_start "$tmp/c1"; then
	echo "Bail out! the private Slurm cluster does not start"
	exit 1
fi
ok 0 "a private cluster starts, its node idle"
diag "start: $(since "$t0") s"
cpus=$(nproc)
[ "${#slurm_pids[@]}" = 3 ] && [ "${slurm_names[*]}" = "munged slurmctld slurmd" ] &&
	[ "$SLURM_CONF" = "$tmp/c1/slurm.conf" ] &&
	grep -qx "AuthInfo=socket=$tmp/c1/munge/munge.socket.2" "$SLURM_CONF" &&
	[ "$(sinfo -h -o '%D %c %t')" = "1 $cpus idle" ]
ok $? "three daemons, SLURM_CONF names the private socket, one node with $cpus CPUs"

# An array task: records who it runs as, where and with what PATH, and
# when it ran; writes its output under a temporary name and renames it.
mkdir -p "$tmp/work/out"
cat >"$tmp/work/task.sh" <<'EOF'
#!/bin/bash
s=$EPOCHREALTIME
f=out/${SLURM_ARRAY_JOB_ID}_$SLURM_ARRAY_TASK_ID
printf 'uid=%s\ncwd=%s\npath=%s\nvar=%s\n' "$(id -u)" "$PWD" "$PATH" \
	"${LSB_TEST_VAR:-}" >"$f.tmp"
sleep "${TASK_SLEEP:-0.5}"
echo "$s $EPOCHREALTIME" >"$f.time"
mv "$f.tmp" "$f"
EOF
chmod +x "$tmp/work/task.sh"
cd "$tmp/work" || exit 1

t0=$EPOCHREALTIME
id=$(LSB_TEST_VAR=hello sbatch --parsable --array=0-7 -o 'log-%A_%a' task.sh)
slurm_wait "$id" 60
ok $? "an 8-task array ($id) leaves the queue"
diag "8-task array of 0.5 s tasks: $(since "$t0") s"
n=0
for i in 0 1 2 3 4 5 6 7; do
	[ -s "out/${id}_$i" ] && n=$((n + 1))
done
[ $n = 8 ] && [ "$(slurm_states "$id" | grep -c ' COMPLETED$')" = 8 ]
ok $? "all 8 tasks wrote their output and are COMPLETED ($n)"
printf 'uid=0\ncwd=%s\npath=%s\nvar=hello\n' "$tmp/work" "$PATH" >expect
cmp -s expect "out/${id}_3"
ok $? "a task runs as root in the submitting directory, PATH and environment"
m=$(max_overlap out/"${id}"_*.time)
[ "$m" -ge 1 ] && [ "$m" -le "$cpus" ]
ok $? "at most one task per CPU at a time ($m of $cpus)"

# %1: one task at a time whatever the CPUs
id=$(TASK_SLEEP=0.2 sbatch --parsable --array=0-2%1 -o 'log-%A_%a' task.sh)
slurm_wait "$id" 60 && [ "$(max_overlap out/"${id}"_*.time)" = 1 ] &&
	[ "$(cat out/"${id}"_*.time | wc -l)" = 3 ]
ok $? "--array=0-2%1 runs its 3 tasks one at a time"

# scancel one task of an array mid-run: the tasks wait for a go file
cat >"$tmp/work/wait.sh" <<'EOF'
#!/bin/bash
echo $$ >"pid_$SLURM_ARRAY_TASK_ID"
for i in $(seq 300); do
	[ -e go ] && break
	sleep 0.1
done
[ -e go ] && touch "done_$SLURM_ARRAY_TASK_ID"
EOF
chmod +x "$tmp/work/wait.sh"
id=$(sbatch --parsable --array=0-1 -o 'log-%A_%a' wait.sh)
running() { [ "$(squeue -h -j "$id" -t R -o %i | wc -l)" = 2 ] && [ -s pid_1 ]; }
slurm_until 20 running
scancel "${id}_1"
cancelled() { slurm_states "$id" | grep -qx '1 CANCELLED'; }
slurm_until 10 cancelled && touch go && slurm_wait "$id" 30 &&
	[ "$(slurm_states "$id" | tr '\n' ' ')" = "0 COMPLETED 1 CANCELLED " ] &&
	[ -e done_0 ] && [ ! -e done_1 ] && ! alive "$(cat pid_1)"
ok $? "scancel of task 1 mid-run: CANCELLED, its process gone, no done-marker; task 0 COMPLETED"
scontrol show job "${id}_1" | grep -q 'JobState=CANCELLED'
ok $? "scontrol show job tells the same without accounting"

# A second cluster beside the first; its slurmd dies (a lost node) with a
# job running, then its test body fails: the EXIT trap stops all it
# started, and the job that slurmd left behind.
(
	trap 'slurm_stop' EXIT
	slurm_start "$tmp/c2" || exit 2
	echo "${slurm_pids[*]}" >"$tmp/c2.pids"
	echo "${slurm_names[*]}" >"$tmp/c2.names"
	rm -f go pid_0
	j=$(sbatch --parsable -o /dev/null --array=0 wait.sh)
	slurm_until 20 test -s pid_0
	cp pid_0 "$tmp/c2.job"
	grep -h '^Slurm.*Port=' "$SLURM_CONF" >"$tmp/c2.ports"
	squeue -h -o %i >"$tmp/c2.queue"
	echo "$j" >"$tmp/c2.jobid"
	kill "${slurm_pids[2]}"
	slurm_until 10 eval '! slurm_alive "${slurm_pids[2]}" slurmd'
	false
	exit
) 2>"$tmp/c2.err"
rc=$?
slurm_stopped_pids=()
slurm_stopped_names=()
read -ra slurm_stopped_pids <"$tmp/c2.pids"
read -ra slurm_stopped_names <"$tmp/c2.names"
[ $rc = 1 ] && [ "${#slurm_stopped_pids[@]}" = 3 ] && pids_dead &&
	[ -s "$tmp/c2.job" ] && ! alive "$(cat "$tmp/c2.job")" &&
	grep -q '^slurm_stop: killing the job steps of slurmstepd' "$tmp/c2.err"
ok $? "a failing body in a subshell stops the second cluster's 3 daemons and the job its dead slurmd left"
! grep -Fxf <(grep -h '^Slurm.*Port=' "$SLURM_CONF") "$tmp/c2.ports" >/dev/null &&
	[ "$(cat "$tmp/c2.queue")" = "$(cat "$tmp/c2.jobid")_0" ] &&
	[ "$(sinfo -h -o %t)" = idle ] && [ -z "$(squeue -h -o %i)" ]
ok $? "the two clusters used other ports and queues; the first still runs"

# stop with a job running: it is cancelled first
mkdir "$tmp/w3" && cd "$tmp/w3" || exit 1
sbatch --parsable -o /dev/null ../work/wait.sh >/dev/null
slurm_until 20 test -s pid_
t0=$EPOCHREALTIME
slurm_stop
diag "stop (one job running): $(since "$t0") s"
pids_dead && [ "${#slurm_stopped_pids[@]}" = 3 ] && [ ${#slurm_pids[@]} = 0 ] &&
	[ -s pid_ ] && ! alive "$(cat pid_)"
ok $? "slurm_stop: no daemon of its pids (${slurm_stopped_pids[*]}) alive, nor its job"

# no controller: scontrol ping says so at once (other commands retry for
# MessageTimeout)
t0=$EPOCHREALTIME
out=$(scontrol ping 2>&1)
rc=$?
t=$(since "$t0")
[ $rc = 1 ] && [[ $out == *DOWN* ]] && awk -v t="$t" 'BEGIN { exit !(t < 2) }'
ok $? "scontrol ping without a controller fails at once ($t s)"
slurm_stop
ok $? "slurm_stop again is harmless"
done_testing
