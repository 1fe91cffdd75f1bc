#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vm/kernel.sh - build the x86_64 bzImage `linsched vm` boots, from a full
# kernel tree: a Debian linux-source .deb (--deb) or a directory (--tree,
# an export of a user's clone). Run by vm/vm.c; not a user command.
#
#   kernel.sh (--deb F.deb | --tree DIR) --config FRAG --out DIR
#             [--check SUBSET_DIR] [-j N] [--verbose]
#
# The build happens in OUT.tmp.PID (the tree extracted there, kbuild's
# objects in its o/), which becomes OUT by rename(2) once it holds
# bzImage, config (the kernel's .config), preempt (the model chosen) and
# check (what --check found); a failure removes it. With --check, the
# tree's kernel/sched and include/linux/sched* are compared with the
# bundled history's export of the release: "identical" or the files that
# differ (said on stderr, the build goes on).
#
# Exit: 0 built; 2 no full tree (no arch/x86/Makefile: nothing said) or
# bad arguments;
# 3 the kernel did not configure or build (the last lines of kbuild's
# output on stderr, all of it in OUT.log); 1 anything else.
set -u -o pipefail

die() { echo "error: $*" >&2; exit "${code:-1}"; }

deb= tree= frag= out= check= jobs=2 verbose=0
while (($#)); do
	case $1 in
	--deb) deb=$2; shift 2 ;;
	--tree) tree=$2; shift 2 ;;
	--config) frag=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--check) check=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--verbose) verbose=1; shift ;;
	*) code=2 die "kernel.sh: unknown argument '$1'" ;;
	esac
done
[[ -n $out && -n $frag && ( -n $deb || -n $tree ) ]] ||
	code=2 die "kernel.sh: needs --out, --config and --deb or --tree"

# kbuild runs in the tree (make -C): every path absolute
out=$(realpath -m -- "$out") frag=$(realpath -- "$frag") || exit 1
[[ -z $deb ]] || deb=$(realpath -- "$deb") || exit 1
[[ -z $tree ]] || tree=$(realpath -- "$tree") || exit 1
[[ -z $check ]] || check=$(realpath -- "$check") || exit 1
tmp=$out.tmp.$$
log=$out.log
cleanup() { rm -rf -- "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
rm -rf -- "$tmp"
mkdir -p -- "$tmp" || die "cannot create '$tmp'"

if [[ -n $deb ]]; then
	src=$tmp/src
	mkdir -- "$src" || die "cannot create '$src'"
	echo "linsched vm: extracting the tree from '$(basename -- "$deb")'" >&2
	# the package holds usr/src/linux-source-X.Y.tar.xz (the whole tree)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		tar -xJ -C "$src" --strip-components=1 ||
		die "'$deb': cannot extract usr/src/linux-source-*.tar.xz"
else
	src=$tree
fi
# no full tree: status 2, said by the caller, which knows the revision
[[ -f $src/arch/x86/Makefile ]] || exit 2
: >"$log" || die "cannot write '$log'"

if [[ -n $check ]]; then
	differ=$(diff -rq -- "$check/kernel/sched" "$src/kernel/sched" 2>&1;
		 for f in "$check"/include/linux/sched*; do
			 b=${f#"$check"/}
			 diff -rq -- "$f" "$src/$b" 2>&1
		 done)
	if [[ -z $differ ]]; then
		echo identical >"$tmp/check"
	else
		printf '%s\n' "$differ" >"$tmp/check"
		echo "warning: the full tree's kernel/sched differs from the bundled history's:" >&2
		printf '%s\n' "$differ" | head -n 10 >&2
	fi
fi

# The preemption model, by the tree's Kconfig: a 7.x x86 kernel selects
# ARCH_HAS_PREEMPT_LAZY, and PREEMPT_VOLUNTARY depends on its absence.
if grep -qs '^config PREEMPT_LAZY' "$src/kernel/Kconfig.preempt" &&
   grep -qs 'select ARCH_HAS_PREEMPT_LAZY' "$src/arch/x86/Kconfig"; then
	preempt=PREEMPT_LAZY
else
	preempt=PREEMPT_VOLUNTARY
fi
echo "$preempt" >"$tmp/preempt"

o=$tmp/o
mk() { make -C "$src" O="$o" ARCH=x86_64 "$@" >>"$log" 2>&1; }
fail() {
	echo "error: kernel $1 failed (kbuild's output: '$log'); its last lines:" >&2
	grep -v '^make' "$log" | tail -n 15 >&2
	exit 3
}
echo "linsched vm: configuring ($preempt)" >&2
mk tinyconfig || fail "configuration"
args=()
while read -r line; do
	case $line in
	CONFIG_*=y) n=${line%%=*}; args+=(--enable "${n#CONFIG_}") ;;
	CONFIG_*=n) n=${line%%=*}; args+=(--disable "${n#CONFIG_}") ;;
	CONFIG_*=*) n=${line%%=*}; args+=(--set-val "${n#CONFIG_}" "${line#*=}") ;;
	esac
done <"$frag"
args+=(--disable PREEMPT_NONE --disable PREEMPT_VOLUNTARY --disable PREEMPT
       --disable PREEMPT_LAZY --enable "$preempt")
"$src/scripts/config" --file "$o/.config" "${args[@]}" >>"$log" 2>&1 ||
	fail "configuration"
mk olddefconfig || fail "configuration"
"$src/scripts/config" --file "$o/.config" "${args[@]}" >>"$log" 2>&1 ||
	fail "configuration"
mk olddefconfig || fail "configuration"
grep -q "^CONFIG_$preempt=y" "$o/.config" ||
	{ echo "CONFIG_$preempt did not stay set" >>"$log"; fail "configuration"; }

echo "linsched vm: building the kernel (make -j$jobs bzImage; minutes)" >&2
if ((verbose)); then
	make -C "$src" O="$o" ARCH=x86_64 -j"$jobs" bzImage 2>&1 | tee -a "$log" >&2 ||
		fail "build"
else
	mk -j"$jobs" bzImage || fail "build"
fi
cp -- "$o/arch/x86/boot/bzImage" "$tmp/bzImage" &&
	cp -- "$o/.config" "$tmp/config" || die "cannot copy the kernel into '$tmp'"
rm -rf -- "$o" "$tmp/src"
mv -T -- "$tmp" "$out" || die "cannot rename '$tmp' to '$out'"
trap - EXIT
