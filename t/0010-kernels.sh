#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bisect/kernels.sh makes a real kernel history from Debian's linux-source
# packages. Two releases (plus one the archive does not serve) keep it quick;
# downloads go to the shared cache, $O/cache/debs.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/t/lib.sh"
script=$top/bisect/kernels.sh
cache=$LSBISECT_CACHE/debs
versions=6.1.192,6.12.118,6.1.1

check() { # DESCRIPTION COMMAND...
	local d=$1
	shift
	"$@" >/dev/null 2>&1
	ok $? "$d"
}
diag_lines() {
	sed 's/^/# /'
}
elapsed() { # START END
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'
}

if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	echo "1..0 # SKIP needs apt-get and dpkg-deb"
	exit 4
fi
etc_apt=$(find /etc/apt -type f | LC_ALL=C sort | xargs sha1sum 2>/dev/null | sha1sum)

plan 26

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t0010.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/a/kernels.git
g() { git --git-dir="$out" "$@"; }

# First build.
t0=$(date +%s.%N)
"$script" --out "$out" --cache "$cache" --versions "$versions" >"$tmp/out1" 2>"$tmp/err1"
rc=$?
t1=$(date +%s.%N)
ok $rc "first build exits 0"
[[ $rc == 0 ]] || diag_lines <"$tmp/err1"
echo "# first build (download if not cached, 2 extractions + commits): $(elapsed "$t0" "$t1")s"
grep 'extracted in' "$tmp/err1" | diag_lines

check "tag v6.1.192 exists" g rev-parse --verify -q refs/tags/v6.1.192
check "tag v6.12.118 exists" g rev-parse --verify -q refs/tags/v6.12.118
check "main is v6.12.118 and HEAD is main" \
	test "$(g rev-parse -q --verify HEAD)" = "$(g rev-parse -q --verify v6.12.118)" -a \
	"$(g symbolic-ref HEAD)" = refs/heads/main
check "v6.1.192 is the parent of v6.12.118, the root" \
	test "$(g rev-parse -q --verify 'v6.12.118^')" = "$(g rev-parse -q --verify v6.1.192)" -a \
	"$(g rev-list --count v6.12.118)" = 2

files=$(g ls-tree -r --name-only v6.12.118 2>/dev/null)
has() { grep -qxF "$1" <<<"$files"; }
missing=
for f in kernel/sched/fair.c include/linux/sched.h scripts/Makefile.build \
	arch/x86/Kconfig drivers/cpufreq/Kconfig; do
	has "$f" || missing+=" $f"
done
test_expect_success "the tree of v6.12.118 holds the subset${missing:+ (missing:$missing)}" \
	'[[ -z $missing ]]'
extra=
for f in drivers/cpufreq/cpufreq.c mm/memory.c; do
	has "$f" && extra+=" $f"
done
test_expect_success "the tree leaves out what the subset does not name${extra:+ (present:$extra)}" \
	'[[ -z $extra ]]'
check "scripts/setlocalversion keeps mode 100755" \
	grep -q '^100755 ' <(g ls-tree v6.12.118 scripts/setlocalversion)
check "the tree is reachable from refs/lsbisect/trees/6.12.118" \
	test "$(g rev-parse -q --verify refs/lsbisect/trees/6.12.118)" = "$(g rev-parse -q --verify 'v6.12.118^{tree}')"

check "commits are by lsbisect <lsbisect@localhost>" \
	test "$(g log --format='%an <%ae>|%cn <%ce>' main | sort -u)" = \
	"lsbisect <lsbisect@localhost>|lsbisect <lsbisect@localhost>"
check "the message names the release and its Debian package" \
	grep -q '^Linux 6.1.192 (Debian linux-source-6.1 6.1.192-' <(g log -1 --format=%s v6.1.192)

check "the unserved version is reported" \
	grep -qF 'warning: linux-source 6.1.1 is not served by the archive; skipped' "$tmp/err1"
check "the unserved version is skipped" test -z "$(g tag -l v6.1.1)"
check "stdout names the repository and each tag's commit" \
	test "$(cat "$tmp/out1")" = "$(printf '%s\nv6.1.192 %s\nv6.12.118 %s' "$out" \
		"$(g rev-parse -q --verify v6.1.192)" "$(g rev-parse -q --verify v6.12.118)")"
check "no temporary directory is left beside the repository" \
	test "$(ls -A "$tmp/a")" = kernels.git

# Second run over the same repository: nothing new.
g for-each-ref >"$tmp/refs1"
find "$out/objects" -type f | sort >"$tmp/objs1"
t0=$(date +%s.%N)
"$script" --out "$out" --cache "$cache" --versions "$versions" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
t1=$(date +%s.%N)
secs=$(elapsed "$t0" "$t1")
echo "# second run: ${secs}s"
test_expect_success "second run exits 0 and extracts nothing" \
	'[[ $rc == 0 ]] && ! grep -q extracting "$tmp/err2"'
cmp -s <(g for-each-ref) "$tmp/refs1"
ok $? "second run changes no ref"
cmp -s <(find "$out/objects" -type f | sort) "$tmp/objs1"
ok $? "second run writes no object"

# A fresh repository from the same releases has the same commit ids; two
# runs at once on it: the second waits for the first, saying so, and then
# finds the releases made.
out2=$tmp/b/kernels.git
t0=$(date +%s.%N)
"$script" --out "$out2" --cache "$cache" --versions "$versions" >"$tmp/out3b" 2>"$tmp/err3b" &
pid=$!
"$script" --out "$out2" --cache "$cache" --versions "$versions" >"$tmp/out3" 2>"$tmp/err3"
rc=$?
wait $pid
rc2=$?
t1=$(date +%s.%N)
echo "# fresh build from the cache, two runs at once: $(elapsed "$t0" "$t1")s"
test_expect_success "a fresh build gives the same commit ids" \
	'[[ $rc == 0 ]] && cmp -s <(sed 1d "$tmp/out1") <(sed 1d "$tmp/out3")'
test_expect_success "so does a second run at the same time, which waits for the first ($(cat "$tmp/err3" "$tmp/err3b" | grep -m1 waiting))" \
	'[[ $rc2 == 0 ]] && cmp -s <(sed 1d "$tmp/out1") <(sed 1d "$tmp/out3b") &&
	 grep -q "^note: waiting for pid [0-9]* (linsched kernels), which is using the download cache" "$tmp/err3" "$tmp/err3b" &&
	 [[ $(grep -c extracting "$tmp/err3" "$tmp/err3b" | grep -c ":0$") == 1 ]] &&
	 [[ $(ls -A "$tmp/b") == kernels.git ]] && git --git-dir="$out2" fsck --no-progress 2>/dev/null'
echo "# repository size: $(du -sk "$out" | cut -f1) KiB"

# Release candidates and the newer series, through the private APT
# configuration: named as git allows, in Debian's order.
"$script" --out "$out" --cache "$cache" --versions 7.3-rc7,7.3.4 --list >"$tmp/list" 2>"$tmp/list.err"
test_expect_success "--list puts 7.3-rc7 before 7.3.4 ($(cut -f1 "$tmp/list" | tr '\n' ' '))" \
	'[[ $(cut -f1,3 "$tmp/list" | tr '\''\t\n'\'' '\'': '\'') == "6.1.192:built 6.12.118:built 7.3-rc7:new 7.3.4:new " ]]'
"$script" --out "$out" --cache "$cache" --series 6.1,9.9 --list >/dev/null 2>"$tmp/series.err"
rc=$?
test_expect_success "a series the archive does not serve is reported and skipped" \
	'[[ $rc == 0 ]] && grep -qF '\''warning: the archive serves no release of series 9.9; skipped'\'' "$tmp/series.err"'
apt_list=$(dirname "$cache")/apt/sources.list
test_expect_success "the private sources list adds the suites of the newer kernels ($apt_list)" \
	'grep -q '\'' trixie-backports main$'\'' "$apt_list" && grep -q '\'' experimental main$'\'' "$apt_list"'
"$script" --out "$out" --cache "$cache" --versions 7.3-rc7 >"$tmp/out4" 2>"$tmp/err4"
rc=$?
[[ $rc == 0 ]] || diag_lines <"$tmp/err4"
check "tag v7.3-rc7 exists, on the child of v6.12.118" \
	test "$(g rev-parse -q --verify 'v7.3-rc7^')" = "$(g rev-parse -q --verify v6.12.118)"
check "its message names the rc and the Debian package" \
	grep -q '^Linux 7.3-rc7 (Debian linux-source-7.3 7.3~rc7-' <(g log -1 --format=%s v7.3-rc7)
check "the machine's APT configuration is unchanged" \
	test "$(find /etc/apt -type f | LC_ALL=C sort | xargs sha1sum 2>/dev/null | sha1sum)" = "$etc_apt"

test_done
