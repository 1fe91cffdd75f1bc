# SPDX-License-Identifier: GPL-2.0-only
# slurm.sh - a private single-node Slurm cluster for the tests and benches
# (Debian 12: Slurm 22.05 and MUNGE 0.5). Source it after lib.sh:
#
#   slurm_install || skip_all "..."     # the Debian packages, if missing
#   trap 'slurm_stop' EXIT               # before starting anything
#   slurm_start "$tmp/slurm" || ...      # munged, slurmctld, slurmd
#   id=$(sbatch --parsable --array=0-7 ...)
#   slurm_wait "$id" 60                  # until every task has ended
#   slurm_states "$id"                   # "TASK STATE" lines
#   slurm_stop
#
# Everything lives under the directory given to slurm_start: the MUNGE key
# and socket, slurm.conf, the controller's state, slurmd's spool, pid files
# and logs. Nothing under /etc, /run or /var is used or changed, no daemon
# of the system is contacted, and the ports are free ones picked at start,
# so two clusters (two shells) can run side by side. One cluster per shell:
# the state below is kept in shell variables and SLURM_CONF.
#
# How the client commands reach this cluster and its MUNGE: slurm_start
# exports SLURM_CONF, which every Slurm command (sbatch, squeue, scancel,
# sinfo, scontrol) reads instead of /etc/slurm/slurm.conf. The private conf
# names the controller's host and port and, in AuthInfo=socket=..., the
# private munged socket: auth/munge (every RPC) and cred/munge (the job
# credentials slurmd checks) both take the socket from there, so neither a
# MUNGE environment variable nor /run/munge is involved. Daemons and jobs
# inherit SLURM_CONF too. (Without SLURM_CONF and /etc/slurm/slurm.conf the
# commands fail at once: "Could not establish a configuration source".)
#
# What was found on this setup (Slurm 22.05.8, MUNGE 0.5.15, 2 CPUs, root,
# no systemd); t/1100-slurm-cluster.sh checks the first three:
# - A batch job runs as the submitting user (root here) in the directory
#   sbatch ran in, with the submitting environment, PATH included (sbatch's
#   default --export=ALL); SLURM_ARRAY_JOB_ID and SLURM_ARRAY_TASK_ID are
#   set.
# - select/cons_tres with CR_CPU (set here: the 22.05 default,
#   select/linear, allocates entire nodes) runs one array task per CPU:
#   --array=0-7 runs 2 at a time here; --array=0-N%K at most min(K, CPUs).
#   The controller starts tasks on its scheduling pass, about once a
#   second, so a CPU freed by a finished task waits up to ~1 s: 8 empty
#   tasks take ~3.8 s (4 waves), 8 tasks of 0.5 s ~5.5 s. An array task
#   must run many units to hide that.
# - No reachable controller: `scontrol ping` does not retry; it exits 1 at
#   once (<0.01 s) printing "Slurmctld(primary) at HOST is DOWN". sbatch,
#   squeue, sinfo retry for MessageTimeout - 1 s (9 s with the default 10;
#   LSB_SLURM_MSG_TIMEOUT sets it) and then exit 1 with "sbatch: error:
#   Batch job submission failed: Unable to contact slurm controller (connect
#   failure)" or "slurm_load_jobs error: Unable to contact slurm controller
#   (connect failure)". With munged down instead, every command, ping
#   included, fails in ~2 s with "Munge encode failed: Failed to access
#   "SOCKET": No such file or directory (Did you start munged?)".
# - Without accounting, sacct fails at once ("Slurm accounting storage is
#   disabled"). The controller keeps a finished task for MinJobAge (300 s):
#   `squeue -t all -j ID -o '%K %T'` and `scontrol show job ID` give its
#   final state, then "Invalid job id specified". scancel of one task: that
#   task is CANCELLED at once and its processes are killed. A task whose
#   slurmstepd is killed (a lost node) is another matter: its processes go
#   on (and may even finish their work), and it stays RUNNING until the
#   controller's periodic node registration misses it (about 20 x
#   SlurmdTimeout/3 by what was seen): 39 s with SlurmdTimeout=6, ~110 s
#   with 20, still RUNNING after 23 min with the default 300 (a test of it
#   sets a small SlurmdTimeout in LSB_SLURM_CONF_EXTRA). Then Slurm
#   requeues it by itself (JobRequeue=1: PENDING, reason BeginTime, run
#   again ~2 min later, so a unit can run twice with no resubmission by the
#   driver); with sbatch --no-requeue it ends NODE_FAIL. So a driver
#   should submit with --no-requeue, take a task that left the unfinished
#   states (or that the controller forgot) as finished, and judge its
#   success by the done-marker (or results) the task writes last, never by
#   Slurm's record; a task stuck RUNNING needs a time limit (--time) or a
#   heartbeat file.
# - slurmctld forks a "slurmscriptd" helper that exits with it. A job's
#   slurmstepd is not a child of slurmd (its parent is pid 1) and outlives
#   it with the job, so slurm_stop cancels the jobs first and then kills
#   what a dead slurmd left. Here pid 1 does not reap, so ended slurmstepds
#   stay as "<defunct>" zombies of pid 1 (harmless).

# the packages; installing them starts no daemon without systemd
LSB_SLURM_PACKAGES="slurmctld slurmd slurm-client munge"

# How long the start may take (seconds) before it counts as failed.
LSB_SLURM_START_TIMEOUT=${LSB_SLURM_START_TIMEOUT:-30}
# MessageTimeout: how long a command waits for (and retries) the controller.
LSB_SLURM_MSG_TIMEOUT=${LSB_SLURM_MSG_TIMEOUT:-10}
# LSB_SLURM_CONF_EXTRA: more slurm.conf lines (later ones win), e.g.
# "SlurmdTimeout=20" for a test of a lost node.

slurm_dir=
slurm_pids=()
slurm_names=()
# the shell that started the cluster: a subshell inherits the variables
# above but neither owns nor stops its parent's daemons
slurm_owner=
# the daemons the last slurm_stop stopped, for a test to check
slurm_stopped_pids=()
slurm_stopped_names=()

# slurm_install: install the packages that are missing (apt-get, quiet);
# return 1 with the reason on stderr if they cannot be installed
slurm_install() {
	local p missing=() log
	for p in $LSB_SLURM_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "slurm_install: ${missing[*]} not installed and not root" >&2
		return 1
	fi
	log=$(mktemp) || return 1
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >"$log" 2>&1; then
		# an old package list: update once and try again
		if ! { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
		       DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			       --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
			echo "slurm_install: apt-get install ${missing[*]} failed:" >&2
			tail -n 15 "$log" >&2
			rm -f "$log"
			return 1
		fi
	fi
	rm -f "$log"
	for p in munged slurmctld slurmd sbatch squeue scancel sinfo scontrol; do
		if ! command -v "$p" >/dev/null; then
			echo "slurm_install: '$p' missing after the install" >&2
			return 1
		fi
	done
}

# _slurm_free_ports N: N distinct TCP ports nobody listens on, outside the
# kernel's ephemeral range (so no outgoing connection takes one meanwhile)
_slurm_free_ports() {
	python3 - "$1" <<'PY'
import random, socket, sys
lo, hi = 20000, 32000
ports = []
while len(ports) < int(sys.argv[1]):
    p = random.randrange(lo, hi)
    if p in ports:
        continue
    s = socket.socket()
    try:
        s.bind(('', p))
        ports.append(p)
    except OSError:
        pass
    finally:
        s.close()
print(' '.join(map(str, ports)))
PY
}

# slurm_alive PID NAME: PID is a live (not zombie) process named NAME
# (e.g. one of slurm_pids with its slurm_names); the name guards against a
# pid reused by someone else
slurm_alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	[[ $stat == "$1 ($2) "* ]] && [[ $stat != "$1 ($2) Z "* ]]
}

# _slurm_spawn NAME CMD...: start a daemon in the background (its output
# into DIR/log/NAME.out) and remember its pid
_slurm_spawn() {
	local name=$1
	shift
	local pid i=0
	"$@" >"$slurm_dir/log/$name.out" 2>&1 </dev/null &
	pid=$!
	slurm_pids+=("$pid")
	slurm_names+=("$name")
	# until the forked shell has become the daemon (slurm_alive reads its
	# name), or has died: before its exec it is still "bash"
	until slurm_alive "$pid" "$name" || ! kill -0 "$pid" 2>/dev/null ||
		[ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# _slurm_logs: the tail of what each daemon printed (with -D and --foreground
# all they log), for a failure
_slurm_logs() {
	local f
	for f in "$slurm_dir"/log/*.out; do
		[ -s "$f" ] || continue
		echo "--- $f" >&2
		tail -n 25 "$f" >&2
	done
}

# slurm_until SECONDS CMD...: poll CMD every 0.1 s until it succeeds;
# 1 if it did not within SECONDS
slurm_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

_slurm_node_idle() {
	[ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]
}

# _slurm_all_alive: every daemon started so far still runs
_slurm_all_alive() {
	local i
	for i in "${!slurm_pids[@]}"; do
		slurm_alive "${slurm_pids[$i]}" "${slurm_names[$i]}" || return 1
	done
}

# _slurm_wait_for SECONDS CMD...: like slurm_until, but give up at once
# when a daemon died
_slurm_wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		_slurm_all_alive || return 1
		sleep 0.1
	done
}

# _slurm_forget_parent: in a subshell, forget the cluster of the parent
_slurm_forget_parent() {
	[ "$slurm_owner" = "$BASHPID" ] && return 0
	slurm_pids=()
	slurm_names=()
	slurm_owner=
}

# slurm_start DIR: start a private cluster in DIR (created; DIR must not
# hold a running cluster): MUNGE key and munged, slurm.conf on two free
# ports, slurmctld, slurmd for one node "localhost" with all the CPUs.
# Returns when sinfo shows the node idle; on failure (or after
# LSB_SLURM_START_TIMEOUT s) prints the logs, stops what it started and
# returns 1. Exports SLURM_CONF. Call slurm_stop (e.g. from an EXIT trap,
# set before) to stop it.
slurm_start() {
	local dir=$1 ports ctld_port slurmd_port cpus
	_slurm_forget_parent
	if [ ${#slurm_pids[@]} != 0 ]; then
		echo "slurm_start: a cluster already runs in this shell ($slurm_dir)" >&2
		return 1
	fi
	mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 1
	slurm_dir=$dir
	slurm_owner=$BASHPID
	mkdir -p "$dir"/{etc,munge,state,spool,log,run} &&
		chmod 700 "$dir"/{etc,state,spool,log,run} &&
		# munged wants its socket directory not writable by others
		chmod 711 "$dir/munge" || return 1
	# a fresh cluster: no job of an earlier one is recovered
	rm -rf "${dir:?}"/{state,spool,log,run}/* "$dir/munge/munge.socket.2"
	if ! { [ -s "$dir/etc/munge.key" ] ||
	       { head -c 1024 /dev/urandom >"$dir/etc/munge.key" &&
		 chmod 400 "$dir/etc/munge.key"; }; }; then
		echo "slurm_start: cannot write the MUNGE key in $dir/etc" >&2
		return 1
	fi
	ports=${LSB_SLURM_PORTS:-$(_slurm_free_ports 2)} || return 1
	read -r ctld_port slurmd_port <<<"$ports"
	cpus=$(nproc)
	cat >"$dir/slurm.conf" <<EOF
# a private single-node cluster made by t/slurm.sh
ClusterName=lsb
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MessageTimeout=$LSB_SLURM_MSG_TIMEOUT
MinJobAge=300
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=localhost Default=YES MaxTime=INFINITE State=UP
${LSB_SLURM_CONF_EXTRA:-}
EOF
	: >"$dir/etc/plugstack.conf"
	export SLURM_CONF=$dir/slurm.conf

	# --force: munged refuses a socket below a directory that others
	# cannot traverse (mktemp -d makes mode 700 ones), a check for other
	# users' clients; ours run as the same user, it is a warning then
	_slurm_spawn munged munged --foreground --force \
		--socket="$dir/munge/munge.socket.2" \
		--key-file="$dir/etc/munge.key" --pid-file="$dir/run/munged.pid" \
		--log-file="$dir/log/munged.log" --seed-file="$dir/state/munged.seed"
	if ! _slurm_wait_for 10 test -S "$dir/munge/munge.socket.2"; then
		echo "slurm_start: munged did not start" >&2
		_slurm_logs
		slurm_stop
		return 1
	fi
	_slurm_spawn slurmctld slurmctld -D -i -f "$SLURM_CONF"
	_slurm_spawn slurmd slurmd -D -N localhost -f "$SLURM_CONF"
	if ! _slurm_wait_for "$LSB_SLURM_START_TIMEOUT" _slurm_node_idle; then
		echo "slurm_start: a daemon died or the node is not idle" \
			"after ${LSB_SLURM_START_TIMEOUT}s" >&2
		_slurm_all_alive && sinfo >&2
		_slurm_logs
		slurm_stop
		return 1
	fi
}

# _slurm_queue_empty: no job left that is not finished
_slurm_queue_empty() {
	local out
	out=$(squeue -h -o %i 2>/dev/null) && [ -z "$out" ]
}

# _slurm_kill_steps: kill what is left of this cluster's jobs when slurmd
# could not end them (it died or was killed): the slurmstepds, found by
# the SLURM_CONF they inherit from our slurmd (other clusters' have
# another), and the process groups of their children, the job scripts
_slurm_kill_steps() {
	local f pid c
	for f in /proc/[0-9]*/comm; do
		[ "$(cat "$f" 2>/dev/null)" = slurmstepd ] || continue
		pid=${f#/proc/}
		pid=${pid%/comm}
		grep -qzx "SLURM_CONF=$slurm_dir/slurm.conf" "/proc/$pid/environ" \
			2>/dev/null || continue
		echo "slurm_stop: killing the job steps of slurmstepd $pid" >&2
		for c in $(ps -o pid= --ppid "$pid"); do
			kill -KILL -- "-$c" 2>/dev/null || kill -KILL "$c" 2>/dev/null
		done
		kill -KILL "$pid" 2>/dev/null
	done
}

# slurm_stop: cancel the jobs still there (their slurmstepd and processes
# are not children of slurmd and would outlive it), then stop the daemons
# this shell started, slurmd first, by pid: TERM, up to 10 s, then KILL;
# waits for each; last, the steps of jobs that slurmd left behind. Safe
# to call twice, with nothing started, or from an EXIT trap after a
# failure.
slurm_stop() {
	local i pid name n jobs
	_slurm_forget_parent
	[ ${#slurm_pids[@]} = 0 ] && return 0
	# the queue only when there is a controller to ask (squeue retries
	# for MessageTimeout without one)
	if [[ " ${slurm_names[*]} " == *" slurmctld "* ]] && _slurm_all_alive &&
		! _slurm_queue_empty; then
		mapfile -t jobs < <(squeue -h -o %A 2>/dev/null)
		scancel --quiet "${jobs[@]}" 2>/dev/null
		slurm_until 10 _slurm_queue_empty ||
			echo "slurm_stop: jobs still in the queue, stopping anyway" >&2
	fi
	for ((i = ${#slurm_pids[@]} - 1; i >= 0; i--)); do
		pid=${slurm_pids[$i]}
		name=${slurm_names[$i]}
		slurm_alive "$pid" "$name" && kill -TERM "$pid" 2>/dev/null
		n=0
		while slurm_alive "$pid" "$name" && [ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		if slurm_alive "$pid" "$name"; then
			echo "slurm_stop: $name ($pid) ignored TERM, killing it" >&2
			kill -KILL "$pid" 2>/dev/null
		fi
		wait "$pid" 2>/dev/null
	done
	_slurm_kill_steps
	slurm_stopped_pids=("${slurm_pids[@]}")
	slurm_stopped_names=("${slurm_names[@]}")
	slurm_pids=()
	slurm_names=()
}

# slurm_wait JOBID [SECONDS]: wait until every task of job (array) JOBID
# has ended (or the controller forgot the job); default limit 120 s.
# Returns 1 on timeout, with the queue on stderr, and at once when the
# controller cannot be reached.
slurm_wait() {
	local id=$1 limit=$((${2:-120} * 10)) i=0 out
	while :; do
		# every state but the final ones; squeue fails with "Invalid
		# job id" once MinJobAge has passed: ended as well
		if out=$(squeue -h -j "$id" -t all -o %T 2>&1); then
			grep -vqxE "$_slurm_final" <<<"$out" || return 0
		elif [[ $out == *"Invalid job id"* ]]; then
			return 0
		elif ! scontrol ping >/dev/null 2>&1; then
			echo "slurm_wait: no controller: $out" >&2
			return 1
		fi
		i=$((i + 1))
		if [ $i -ge $limit ]; then
			echo "slurm_wait: job $id not ended after ${2:-120}s" >&2
			squeue -j "$id" >&2
			return 1
		fi
		sleep 0.1
	done
}
# slurm_stopped_alive: the names of the daemons slurm_stop stopped that
# are still alive, each after a space (nothing when none is)
slurm_stopped_alive() {
	local i
	for i in "${!slurm_stopped_pids[@]}"; do
		slurm_alive "${slurm_stopped_pids[$i]}" "${slurm_stopped_names[$i]}" &&
			printf ' %s' "${slurm_stopped_names[$i]}"
	done
	return 0
}

# slurm_cancel_running SECONDS: wait up to SECONDS for an array task to
# run, let it work half a second, cancel it and print its id ("JOB_TASK";
# nothing when none ran in time)
slurm_cancel_running() {
	local victim= i
	for i in $(seq $(($1 * 10))); do
		victim=$(squeue -h -r -t R -o '%i' 2>/dev/null | grep _ | head -1)
		[ -n "$victim" ] && break
		sleep 0.1
	done
	[ -n "$victim" ] && sleep 0.5 && scancel "$victim" && echo "$victim"
}

# the states of a job that has ended
_slurm_final='BOOT_FAIL|CANCELLED|COMPLETED|DEADLINE|FAILED|NODE_FAIL'
_slurm_final+='|OUT_OF_MEMORY|PREEMPTED|REVOKED|TIMEOUT'

# slurm_states JOBID: "TASK STATE" for every task of array job JOBID that
# the controller still remembers, by task (pending ones may be one line,
# "2-7 PENDING")
slurm_states() {
	squeue -h -j "$1" -t all -o '%K %T' 2>/dev/null | sort -n
}
