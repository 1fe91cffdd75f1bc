#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-prebuild.sh - make check's background build of the VM kernel that
# t/1300-vm.sh and t/1310-vm-compare.sh boot: $TEST_V73's, by `linsched vm
# --build-only`, so with the key they use; the key's lock makes a test
# that needs it meanwhile wait for it rather than build it again. At nice
# 19, on the CPU the serial tests leave idle. Not a test.
#
#   vm-prebuild.sh start LOG   start it in its own session, output to LOG;
#                              print its pid (nothing, and start nothing,
#                              when the VM tests would skip for want of
#                              QEMU, rt-app or busybox-static)
#   vm-prebuild.sh stop PID    stop it, kbuild and all, and wait until
#                              every process of it is gone (SIGTERM;
#                              SIGKILL after 2 min)
#
# On a fresh machine the release's history and package come from the
# first test that needs them: the build waits for both (make check stops
# it when prove ends, built or not, so it waits for nothing forever).
. "$(dirname "$0")/lib.sh"

rel=${TEST_V73#v}
ready() {
	git -C "$LSBISECT_REPO" rev-parse -q --verify "$TEST_V73^{commit}" >/dev/null 2>&1 &&
		ls "$LSBISECT_CACHE/debs/linux-source-${rel%.*}_$rel-"*_all.deb >/dev/null 2>&1
}

run() {
	if ! ready; then
		echo "vm-prebuild: $(date -u +%T) waiting for $TEST_V73 in '$LSBISECT_REPO' and its package in '$LSBISECT_CACHE/debs'"
		until ready; do
			sleep 5
		done
	fi
	echo "vm-prebuild: $(date -u +%T) linsched vm $TEST_V73 --build-only"
	local start=$SECONDS status
	nice -n 19 "$LINSCHED" vm "$TEST_V73" --build-only
	status=$?
	echo "vm-prebuild: $(date -u +%T) status $status after $((SECONDS - start)) s"
	return $status
}

case ${1-} in
start)
	command -v qemu-system-x86_64 >/dev/null && command -v rt-app >/dev/null &&
		[ -x /bin/busybox ] || exit 0
	# its own session and process group: stop reaches every process
	setsid "$0" run >"$2" 2>&1 </dev/null &
	echo $!
	;;
run)
	run
	;;
stop)
	# its leader waits for linsched: gone, so is the rest (and a process
	# that has its pid since is not this one's)
	tr '\0' ' ' 2>/dev/null <"/proc/$2/cmdline" | grep -q 'vm-prebuild\.sh run' ||
		exit 0
	# kbuild ends at once; kernel.sh's removal of its tree takes a while
	kill -TERM -- "-$2" 2>/dev/null || exit 0
	for _ in $(seq 600); do
		kill -0 -- "-$2" 2>/dev/null || exit 0
		sleep 0.2
	done
	kill -KILL -- "-$2" 2>/dev/null
	exit 0
	;;
*)
	echo "usage: vm-prebuild.sh start LOG | stop PID" >&2
	exit 2
	;;
esac
