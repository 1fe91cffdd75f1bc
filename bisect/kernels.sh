#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernels.sh - make the bundled kernel history: a bare git repository with one
# commit per Debian linux-source point release, holding the linsched build
# subset of each. Run with --help for the details.

set -euo pipefail

prog=${LINSCHED_PROG:-${0##*/}}
script_dir=$(cd "$(dirname "$0")" && pwd)

usage() {
	cat <<EOF
Usage: $prog [--out DIR] [--cache DIR] [--series LIST] [--versions LIST]
       [--update] [--list] [--help]

Make "the bundled kernel history": a bare git repository with one commit per
Debian linux-source point release, each holding only the linsched build subset
of that release's tree. Kernel sources are never part of the project; this
script makes the history on demand from what Debian's archive serves.

Options:
  --out DIR        the bare repository to create or update
                   (default: build/kernels.git, relative to the current dir)
  --cache DIR      where downloaded .deb files are kept (default:
                   \$LSBISECT_CACHE/debs if set, else build/cache/debs);
                   a cached .deb is never downloaded again
  --series LIST    comma-separated kernel series to take every served upstream
                   version of (default: 6.1,6.12,7.2,7.3); a series the
                   archive does not serve is reported on stderr and skipped
  --versions LIST  comma-separated upstream versions to add instead, e.g.
                   6.1.170,6.12.118,7.3-rc7 (or 7.3~rc7); a version the
                   archive does not serve is reported on stderr and skipped
  --update         refresh the private package lists now (they are refreshed
                   anyway when missing or older than a day)
  --list           print the releases the history would hold and exit
  --help           show this text

Releases: the archive decides. The script keeps its own APT configuration
under the cache's parent (default build/cache/apt/: a sources list, package
lists and APT's cache), so the machine's APT sources are never changed: it
takes the URIs of the machine's /etc/apt/sources.list and
/etc/apt/sources.list.d/*.sources with their suites, and adds the suites that
carry newer kernels (\$LSBISECT_APT_SUITES, default "bookworm-backports trixie
trixie-backports sid experimental"; for a -security URI, "trixie-security").
'apt-cache madison linux-source-SERIES' through that configuration says what
is served; for each upstream version the highest Debian revision is used.
Packages are fetched with 'apt-get download' into the cache (atomically: a
temp dir inside the cache, then mv).

Names: a release candidate such as Debian's 7.3~rc7 is tagged v7.3-rc7 and
sorts before 7.3.0 and every 7.3.y (Debian's version order).

Subset: the rules come from \$LINSCHED_SUBSET (newline-separated) if set, else
from subset.list beside this script ('#' starts a comment line):
  NAME      a file
  NAME/     a whole directory
  **/GLOB   every file whose base name matches GLOB, anywhere in the tree
Only those members are extracted from the package's source tarball.

Repository layout (all refs are written at the end, in one transaction, so a
failure leaves the repository as it was):
  refs/lsbisect/trees/VERSION  the release's subset tree, built with git
                               plumbing (never a checkout); a release whose
                               tree exists is not fetched or extracted again
  refs/lsbisect/meta/VERSION   a blob: Debian version, date, subset hash
  refs/tags/vVERSION           lightweight tag on the release's commit
  refs/heads/main              the last commit; HEAD points to it
History: every release in the repository plus those selected, in version order
(sort -V, so 6.1 before 6.12), linear, each commit the parent of the next.
Commits are deterministic: author and committer 'lsbisect <lsbisect@localhost>',
date from the release's Debian changelog, no user or system git config; the
same set of releases gives the same commit ids on any machine. Adding a
release that sorts in the middle rebuilds the commits after it (cheap: the
trees exist) and moves their tags; this is reported on stderr. Trees built
from a different subset are extracted again.

Progress goes to stderr; on success stdout gets the repository path and one
line per tag with its commit id.
EOF
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

warn() {
	printf 'warning: %s\n' "$*" >&2
}

note() {
	printf 'note: %s\n' "$*" >&2
}

usage_error() {
	printf 'error: %s\n' "$*" >&2
	printf "Try '%s --help'.\n" "$prog" >&2
	exit 2
}

# ---------------------------------------------------------------- options

out=build/kernels.git
cache=${LSBISECT_CACHE:+$LSBISECT_CACHE/debs}
cache=${cache:-build/cache/debs}
series_opt=6.1,6.12,7.2,7.3
versions_opt=
list_only=0
force_update=0

while (($#)); do
	case $1 in
	--out) (($# >= 2)) || usage_error "option '--out' needs a value"; out=$2; shift 2 ;;
	--out=*) out=${1#*=}; shift ;;
	--cache) (($# >= 2)) || usage_error "option '--cache' needs a value"; cache=$2; shift 2 ;;
	--cache=*) cache=${1#*=}; shift ;;
	--series) (($# >= 2)) || usage_error "option '--series' needs a value"; series_opt=$2; shift 2 ;;
	--series=*) series_opt=${1#*=}; shift ;;
	--versions) (($# >= 2)) || usage_error "option '--versions' needs a value"; versions_opt=$2; shift 2 ;;
	--versions=*) versions_opt=${1#*=}; shift ;;
	--list) list_only=1; shift ;;
	--update) force_update=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done

[[ -n $out ]] || usage_error "'--out' is empty"
[[ -n $cache ]] || usage_error "'--cache' is empty"

IFS=, read -r -a series_list <<<"$series_opt"
for s in "${series_list[@]}"; do
	[[ $s =~ ^[0-9]+\.[0-9]+$ ]] || usage_error "series '$s': expected MAJOR.MINOR, e.g. 6.1"
done
((${#series_list[@]})) || usage_error "'--series' is empty"

requested=()
if [[ -n $versions_opt ]]; then
	IFS=, read -r -a requested <<<"$versions_opt"
	for i in "${!requested[@]}"; do
		v=${requested[i]/-rc/\~rc}
		[[ $v =~ ^[0-9]+\.[0-9]+(\.[0-9]+|~rc[0-9]+)$ ]] ||
			usage_error "version '${requested[i]}': expected MAJOR.MINOR.PATCH or MAJOR.MINOR-rcN, e.g. 6.1.170 or 7.3-rc7"
		requested[i]=$v
	done
fi

# Upstream versions are Debian's (7.3~rc7, 6.1.170); git names cannot hold
# '~', so refs and tags say 7.3-rc7.
series_of() {
	[[ $1 =~ ^([0-9]+\.[0-9]+) ]]
	printf '%s\n' "${BASH_REMATCH[1]}"
}
ref_name() { printf '%s\n' "${1/\~rc/-rc}"; }

# ---------------------------------------------------------------- environment

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lsb-kernels.XXXXXX")
prefetch_pid=
new_repo=
shm=
cleanup() {
	if [[ -n $prefetch_pid ]]; then
		kill "$prefetch_pid" 2>/dev/null || true
		wait "$prefetch_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp" ${new_repo:+"$new_repo"} ${shm:+"$shm"}
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# No user, system or inherited git setting may change what is written.
while IFS= read -r name; do
	unset "$name"
done < <(compgen -e | grep '^GIT_' || true)
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config
mkdir -p "$HOME"
export GIT_AUTHOR_NAME=lsbisect GIT_AUTHOR_EMAIL=lsbisect@localhost
export GIT_COMMITTER_NAME=lsbisect GIT_COMMITTER_EMAIL=lsbisect@localhost
export LC_ALL=C TZ=UTC

# Settings that would change the content git records, pinned whatever the
# repository's own config says.
git_pin=(-c core.autocrlf=false -c core.filemode=true -c core.symlinks=true
	-c core.ignorecase=false -c core.safecrlf=false -c core.fsmonitor=false
	-c core.untrackedCache=false -c gc.auto=0)

# ---------------------------------------------------------------- subset

if [[ -n ${LINSCHED_SUBSET+set} ]]; then
	# shellcheck disable=SC2016 # the name, not its value
	subset_src='$LINSCHED_SUBSET'
	subset_text=$LINSCHED_SUBSET
else
	subset_src="$script_dir/subset.list"
	[[ -r $subset_src ]] || die "subset '$subset_src': cannot read it"
	subset_text=$(<"$subset_src")
fi

rules=()
while IFS= read -r line; do
	line=${line%$'\r'}
	line=${line#"${line%%[![:space:]]*}"}
	line=${line%"${line##*[![:space:]]}"}
	[[ -z $line || $line == \#* ]] && continue
	case $line in
	/* | ../* | */../* | *[[:space:]]*)
		die "subset $subset_src: rule '$line': must be a relative path without '..' or spaces" ;;
	\*\*/*/* | \*\*/)
		die "subset $subset_src: rule '$line': '**/GLOB' takes a base name" ;;
	esac
	rules+=("$line")
done <<<"$subset_text"
((${#rules[@]})) || die "subset $subset_src: no rules"
subset_hash=$(printf '%s\n' "${rules[@]}" | git hash-object --stdin)

# tar_patterns TOP: wildcard member names that select a superset of the rules
# (in GNU tar '*' matches '/'); prune_tree makes the result exact.
tar_patterns() {
	local top=$1 r
	for r in "${rules[@]}"; do
		case $r in
		\*\*/*) printf '%s\n' "$top/${r#\*\*/}" "$top/*/${r#\*\*/}" ;;
		*/) printf '%s\n' "$top/${r%/}" ;;
		*) printf '%s\n' "$top/$r" ;;
		esac
	done
}

# prune_tree DIR: delete every file the rules do not select. find's -name is
# exactly the '**/GLOB' rule; DIR is a mktemp name, free of glob characters.
prune_tree() {
	local dir=$1 r expr=()
	for r in "${rules[@]}"; do
		((${#expr[@]})) && expr+=(-o)
		case $r in
		\*\*/*) expr+=(-name "${r#\*\*/}") ;;
		*/) expr+=(-path "$dir/${r%/}/*") ;;
		*) expr+=(-path "$dir/$r") ;;
		esac
	done
	find "$dir" ! -type d ! \( "${expr[@]}" \) -delete
}

# ---------------------------------------------------------------- archive

declare -A deb_of=()  # upstream version -> highest Debian version served

wanted_series=("${series_list[@]}")
for v in "${requested[@]}"; do
	wanted_series+=("$(series_of "$v")")
done
mapfile -t wanted_series < <(printf '%s\n' "${wanted_series[@]}" | sort -uV)

pkgs=()
for s in "${wanted_series[@]}"; do
	pkgs+=("linux-source-$s")
done

cache_abs=$(mkdir -p "$cache" && cd "$cache" && pwd)

# The private APT configuration: the machine's archive URIs with the suites
# that carry newer kernels, in lists and a cache of our own.
apt_dir=$(dirname "$cache_abs")/apt
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "Dir::Cache=$apt_dir/cache")
((EUID == 0)) && apt_opts+=(-o APT::Sandbox::User=root)
extra_suites=${LSBISECT_APT_SUITES-bookworm-backports trixie trixie-backports sid experimental}

# machine_sources: "URI SIGNED-BY SUITE..." a line, from the one-line and
# the deb822 formats.
machine_sources() {
	local f line uri= suites= key= types=
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -r $f ]] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\)[[:space:]]\+\([^[:space:]]\+\).*/\2 - \3/p' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -r $f ]] || continue
		{ cat "$f"; echo; } | while IFS= read -r line; do
			case $line in
			Types:*) types=${line#*:} ;;
			URIs:*) uri=${line#*:} ;;
			Suites:*) suites=${line#*:} ;;
			Signed-By:*) key=${line#*:} ;;
			"")
				if [[ -n $uri && " $(echo $types) " == *" deb "* ]]; then
					key=$(echo $key)
					for u in $uri; do
						echo "$u ${key:--} $suites"
					done
				fi
				uri= suites= key= types= ;;
			esac
		done
	done
}

apt_setup() {
	local uri key suites s list=$apt_dir/sources.list.tmp fresh
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
	: >"$list"
	declare -A seen=()
	while read -r uri key suites; do
		[[ -n $uri ]] || continue
		[[ $key == - || $key != /* ]] && key=/usr/share/keyrings/debian-archive-keyring.gpg
		if [[ " $suites " == *-security\ * ]]; then
			suites+=" ${extra_suites:+trixie-security}"
		else
			suites+=" $extra_suites"
		fi
		for s in $suites; do
			[[ -n ${seen[$uri $s]:-} ]] && continue
			seen[$uri $s]=1
			printf 'deb [signed-by=%s] %s %s main\n' "$key" "$uri" "$s" >>"$list"
		done
	done < <(machine_sources)
	[[ -s $list ]] || die "no APT source found in /etc/apt/sources.list or /etc/apt/sources.list.d/"
	if cmp -s "$list" "$apt_dir/sources.list"; then
		rm -f "$list"
	else
		mv -f "$list" "$apt_dir/sources.list"
		force_update=1
	fi
	fresh=$(find "$apt_dir/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 -print -quit)
	if ((force_update)) || [[ -z $fresh ]]; then
		note "refreshing the package lists of $apt_dir/sources.list"
		if ! apt-get -q=2 "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1; then
			# A suite the mirror does not have is not fatal; no lists at all is.
			sed 's/^/  /' "$apt_dir/update.log" >&2
			[[ -n $(find "$apt_dir/lists" -maxdepth 1 -name '*Packages*' -print -quit) ]] ||
				die "apt-get update through $apt_dir/sources.list failed"
			warn "apt-get update reported errors; using the lists it has"
		fi
	fi
}
# hold FILE WHAT: one run at a time per download cache (its APT lists and
# .deb files) and per directory of repositories; a second run waits for
# the first (and then finds its releases made), saying whom it waits for.
# A directory is locked as it is, leaving no file beside the repository.
# The locks go with the process.
hold() {
	local file=$1 what=$2 fd holder
	if [[ -d $file ]]; then
		exec {fd}<"$file" || die "cannot open '$file'"
	else
		exec {fd}>>"$file" || die "cannot open the lock '$file'"
	fi
	if ! flock -n "$fd"; then
		[[ -d $file ]] || holder=$(cat "$file" 2>/dev/null) || true
		note "waiting for ${holder:-another run}, which is using $what"
		flock "$fd" || die "cannot lock '$file'"
	fi
	[[ -d $file ]] || printf 'pid %d (linsched kernels)\n' $$ >"$file"
}
out_abs=$(mkdir -p "$(dirname "$out")" && cd "$(dirname "$out")" && pwd)/$(basename "$out")
hold "$cache_abs/.lock" "the download cache '$cache_abs'"
hold "$(dirname "$out_abs")" "the repositories in '$(dirname "$out_abs")'"

apt_setup

madison=$(apt-cache "${apt_opts[@]}" madison "${pkgs[@]}" 2>/dev/null) || true
while IFS='|' read -r pkg ver src; do
	pkg=${pkg//[[:space:]]/}
	ver=${ver//[[:space:]]/}
	[[ $src == *Packages* && $pkg == linux-source-* && $ver == *-* ]] || continue
	up=${ver%%-*}
	[[ $up =~ ^[0-9]+\.[0-9]+(\.[0-9]+|~rc[0-9]+)$ && $(series_of "$up") == "${pkg#linux-source-}" ]] || continue
	if [[ -z ${deb_of[$up]:-} ]] || dpkg --compare-versions "$ver" gt "${deb_of[$up]}"; then
		deb_of[$up]=$ver
	fi
done <<<"$madison"
((${#deb_of[@]})) ||
	die "the archive serves none of ${pkgs[*]} (apt-cache madison through $apt_dir/sources.list found nothing); try '--update'"

for s in "${series_list[@]}"; do
	served=0
	for v in "${!deb_of[@]}"; do
		[[ $(series_of "$v") == "$s" ]] && served=1 && break
	done
	((served)) || warn "the archive serves no release of series $s; skipped"
done

selected=()
if ((${#requested[@]})); then
	for v in "${requested[@]}"; do
		if [[ -n ${deb_of[$v]:-} ]]; then
			selected+=("$v")
		else
			warn "linux-source $v is not served by the archive; skipped"
		fi
	done
else
	for v in "${!deb_of[@]}"; do
		for s in "${series_list[@]}"; do
			[[ $(series_of "$v") == "$s" ]] && selected+=("$v")
		done
	done
	((${#selected[@]})) || die "the archive serves no release of series ${series_opt}"
fi

# ---------------------------------------------------------------- repository

if [[ -e $out_abs ]]; then
	[[ $(git --git-dir="$out_abs" rev-parse --is-bare-repository 2>/dev/null) == true ]] ||
		die "repository '$out_abs': exists but is not a bare git repository"
	repo_new=0
else
	repo_new=1
fi

g() {
	git "${git_pin[@]}" --git-dir="$repo" "$@"
}

# gq: git with new objects going to a quarantine directory (in memory when
# there is room), the repository's objects as its alternate. Writing ~10000
# loose objects per release to disk was the second-largest cost; at the end
# the quarantine becomes one pack in the repository.
gq() {
	GIT_OBJECT_DIRECTORY=$quarantine GIT_ALTERNATE_OBJECT_DIRECTORIES=$repo/objects \
		git "${git_pin[@]}" --git-dir="$repo" "$@"
}

declare -A have_tree=() meta_deb=() meta_date=() meta_subset=()
existing=()
if ((!repo_new)); then
	repo=$out_abs
	while read -r ref; do
		v=${ref#refs/lsbisect/trees/}
		meta=$(g cat-file blob "refs/lsbisect/meta/$v" 2>/dev/null) || {
			v=${v/-rc/\~rc}
			note "$v: tree has no metadata; extracting it again"
			continue
		}
		v=${v/-rc/\~rc}
		have_tree[$v]=$(g rev-parse --verify "$ref^{tree}")
		while read -r key val; do
			case $key in
			debian) meta_deb[$v]=$val ;;
			date) meta_date[$v]=$val ;;
			subset) meta_subset[$v]=$val ;;
			esac
		done <<<"$meta"
		existing+=("$v")
	done < <(g for-each-ref --format='%(refname)' refs/lsbisect/trees/)
fi

mapfile -t releases < <(printf '%s\n' "${existing[@]}" "${selected[@]}" | sed '/^$/d' | sort -uV)

# Which releases need a tree, and with which Debian version.
declare -A debver=() todo=()
for v in "${releases[@]}"; do
	if [[ -n ${have_tree[$v]:-} && ${meta_subset[$v]:-} == "$subset_hash" ]]; then
		debver[$v]=${meta_deb[$v]}
		if [[ -n ${deb_of[$v]:-} && ${deb_of[$v]} != "${meta_deb[$v]}" ]] &&
			dpkg --compare-versions "${deb_of[$v]}" gt "${meta_deb[$v]}"; then
			note "$v: kept the tree of ${meta_deb[$v]}; the archive now serves ${deb_of[$v]}"
		fi
		continue
	fi
	if [[ -n ${have_tree[$v]:-} ]]; then
		note "$v: tree was built from another subset; extracting it again"
	fi
	[[ -n ${deb_of[$v]:-} ]] ||
		die "release $v: its tree must be extracted again, but the archive no longer serves it"
	debver[$v]=${deb_of[$v]}
	todo[$v]=1
done

if ((list_only)); then
	for v in "${releases[@]}"; do
		if [[ -n ${todo[$v]:-} ]]; then state=new; else state=built; fi
		printf '%s\t%s\t%s\n' "$(ref_name "$v")" "${debver[$v]}" "$state"
	done
	exit 0
fi

((${#releases[@]})) || die "no release to build: none of the requested versions is served"

if ((repo_new)); then
	# Build beside the final place (same file system) and rename at the end.
	new_repo=$(mktemp -d "$(dirname "$out_abs")/.$(basename "$out_abs").XXXXXX")
	repo=$new_repo
	git init -q --bare "$repo"
	git --git-dir="$repo" symbolic-ref HEAD refs/heads/main
else
	repo=$out_abs
fi

# ---------------------------------------------------------------- per release

deb_path() { # VERSION
	local v=$1 s dv
	s=$(series_of "$v")
	dv=${debver[$v]}
	printf '%s/linux-source-%s_%s_all.deb\n' "$cache_abs" "$s" "${dv//:/%3a}"
}

# fetch VERSION: download the release's .deb into the cache unless it is there.
fetch() {
	local v=$1 s deb dl f
	s=$(series_of "$v")
	deb=$(deb_path "$v")
	[[ -s $deb ]] && return 0
	dl=$(mktemp -d "$cache_abs/.download.XXXXXX")
	(
		apt_pid=
		trap '[[ -n $apt_pid ]] && kill "$apt_pid" 2>/dev/null; rm -rf "$dl"' EXIT
		trap 'exit 143' TERM
		cd "$dl"
		apt-get -q=2 "${apt_opts[@]}" download "linux-source-$s=${debver[$v]}" >"$dl/log" 2>&1 &
		apt_pid=$!
		wait "$apt_pid" || { sed 's/^/  /' "$dl/log" >&2; exit 1; }
		apt_pid=
		f=$(basename "$deb")
		[[ -s $f ]] || { echo "  apt-get wrote no '$f'" >&2; exit 1; }
		mv -f "$f" "$deb"
	) || die "download of linux-source-$s=${debver[$v]} failed"
}

# changelog_date VERSION: the date of the newest Debian changelog entry, raw.
changelog_date() {
	local v=$1 s deb d epoch zone
	s=$(series_of "$v")
	deb=$(deb_path "$v")
	d=$(dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/share/doc/linux-source-$s/changelog.Debian.gz" | zcat |
		awk '/^ -- / && d == "" { sub(/^ -- .*>  /, ""); d = $0 } END { print d }') ||
		die "release $v: cannot read the Debian changelog in '$deb' (if the file is damaged, delete it to download it again)"
	zone=${d##* }
	# shellcheck disable=SC2015 # either failing is the error
	[[ $zone =~ ^[+-][0-9]{4}$ ]] && epoch=$(date -d "$d" +%s 2>/dev/null) ||
		die "release $v: cannot parse the changelog date '$d'"
	printf '%s %s\n' "$epoch" "$zone"
}

# Extracted trees are short-lived: on a disk file system writing their ~10000
# files costs several times what it costs in memory, so use tmpfs when it has
# room.
work_root=$tmp
if [[ -d /dev/shm && -w /dev/shm ]] &&
	(($(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }' || echo 0) > 1048576)); then
	shm=$(mktemp -d /dev/shm/lsb-kernels.XXXXXX) && work_root=$shm || shm=
fi
quarantine=$work_root/objects
mkdir -p "$quarantine"

# extract VERSION: write the subset tree, print its id.
extract() {
	local v=$1 s deb work top rc idx
	s=$(series_of "$v")
	deb=$(deb_path "$v")
	work=$work_root/tree.$v
	top=linux-source-$s
	rm -rf "$work"
	mkdir -p "$work"
	mapfile -t pats < <(tar_patterns "$top")
	set +e
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$s.tar.xz" |
		xz -dc -T0 |
		tar -x -C "$work" --no-same-owner --wildcards "${pats[@]}" 2>"$tmp/tar.err"
	rc=("${PIPESTATUS[@]}")
	set -e
	if [[ ${rc[*]} != "0 0 0 0" ]]; then
		# A rule that matches nothing in this release is not an error.
		if [[ ${rc[*]:0:3} == "0 0 0" && ${rc[3]} == 2 ]] &&
			! grep -qv -e ': Not found in archive$' -e 'Exiting with failure status' "$tmp/tar.err"; then
			sed -n "s|^tar: $top/\(.*\): Not found in archive\$|note: $v: no '\1' in this release|p" \
				"$tmp/tar.err" >&2
		else
			sed 's/^/  /' "$tmp/tar.err" >&2
			die "release $v: extracting the subset from '$deb' failed (exit status ${rc[*]})"
		fi
	fi
	[[ -d $work/$top ]] || die "release $v: '$deb' holds no '$top/' tree"
	prune_tree "$work/$top"
	idx=$tmp/index.$v
	GIT_INDEX_FILE=$idx gq --work-tree="$work/$top" add -A -f . ||
		die "release $v: git add failed"
	GIT_INDEX_FILE=$idx gq write-tree || die "release $v: git write-tree failed"
	rm -rf "$work" "$idx"
}

n=${#releases[@]}
todo_list=()
for v in "${releases[@]}"; do
	[[ -n ${todo[$v]:-} ]] && todo_list+=("$v")
done

declare -A tree=() date=() pos=()
i=0
for v in "${releases[@]}"; do
	pos[$v]=$((++i))
	if [[ -z ${todo[$v]:-} ]]; then
		tree[$v]=${have_tree[$v]}
		date[$v]=${meta_date[$v]}
	fi
done

# The next download overlaps the current extraction.
start_prefetch() {
	local v=$1
	prefetch_pid=
	[[ -s $(deb_path "$v") ]] && return 0
	printf '[%d/%d] %s: downloading %s\n' "${pos[$v]}" "$n" "$v" "${debver[$v]}" >&2
	fetch "$v" &
	prefetch_pid=$!
}

if ((${#todo_list[@]})); then
	start_prefetch "${todo_list[0]}"
else
	printf 'all %d release trees exist; nothing to fetch or extract\n' "$n" >&2
fi
for ((k = 0; k < ${#todo_list[@]}; k++)); do
	v=${todo_list[k]}
	if [[ -n $prefetch_pid ]]; then
		pid=$prefetch_pid
		prefetch_pid=
		wait "$pid" || exit 1
	fi
	((k + 1 < ${#todo_list[@]})) && start_prefetch "${todo_list[k + 1]}"
	printf '[%d/%d] %s: extracting\n' "${pos[$v]}" "$n" "$v" >&2
	start=$SECONDS
	date[$v]=$(changelog_date "$v")
	tree[$v]=$(extract "$v")
	printf '[%d/%d] %s: extracted in %ds\n' "${pos[$v]}" "$n" "$v" $((SECONDS - start)) >&2
done

# ---------------------------------------------------------------- history

declare -A commit=()
parent=
for v in "${releases[@]}"; do
	s=$(series_of "$v")
	[[ -n ${todo[$v]:-} ]] && printf '[%d/%d] %s: committing\n' "${pos[$v]}" "$n" "$v" >&2
	msg="Linux $(ref_name "$v") (Debian linux-source-$s ${debver[$v]})

This tree holds the linsched build subset of the release, not the whole kernel."
	c=$(GIT_AUTHOR_DATE=${date[$v]} GIT_COMMITTER_DATE=${date[$v]} \
		gq commit-tree "${tree[$v]}" ${parent:+-p "$parent"} <<<"$msg") ||
		die "release $v: git commit-tree failed"
	commit[$v]=$c
	parent=$c
done

# All refs in one transaction.
moved=()
{
	for v in "${releases[@]}"; do
		if [[ -n ${todo[$v]:-} ]]; then
			meta=$(printf 'debian %s\ndate %s\nsubset %s\n' "${debver[$v]}" "${date[$v]}" "$subset_hash" |
				gq hash-object -w --stdin)
			printf 'update refs/lsbisect/trees/%s %s\n' "$(ref_name "$v")" "${tree[$v]}"
			printf 'update refs/lsbisect/meta/%s %s\n' "$(ref_name "$v")" "$meta"
		fi
		printf 'update refs/tags/v%s %s\n' "$(ref_name "$v")" "${commit[$v]}"
	done
	printf 'update refs/heads/main %s\n' "$parent"
} >"$tmp/refs"
if ((!repo_new)); then
	for v in "${releases[@]}"; do
		old=$(g rev-parse -q --verify "refs/tags/v$(ref_name "$v")" 2>/dev/null) || continue
		[[ $old != "${commit[$v]}" ]] && moved+=("v$(ref_name "$v")")
	done
fi
# Move what this run wrote into the repository as one pack. Walking from the
# new refs (rather than listing the loose objects) gives pack-objects the path
# names that make its deltas good: a third smaller and twice as fast.
if [[ -n $(find "$quarantine" -type f -path '*/[0-9a-f][0-9a-f]/*' -print -quit) ]]; then
	{
		awk '{ print $3 }' "$tmp/refs"
		echo --not
		g for-each-ref --format='%(objectname)'
	} >"$tmp/pack-revs"
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$quarantine \
		g pack-objects --revs -q "$repo/objects/pack/pack" <"$tmp/pack-revs" >/dev/null ||
		die "repository '$out_abs': packing the new objects failed"
fi
g update-ref --stdin <"$tmp/refs" || die "repository '$out_abs': updating the refs failed"
if ((${#moved[@]})); then
	note "a release sorts before existing ones: rebuilt the history after it and moved ${#moved[@]} tag(s): ${moved[*]}"
fi
[[ $(g symbolic-ref -q HEAD || true) == refs/heads/main ]] || g symbolic-ref HEAD refs/heads/main

if ((repo_new)); then
	[[ -e $out_abs ]] && die "repository '$out_abs': appeared while it was being built"
	mv -T "$repo" "$out_abs"
	new_repo=
	repo=$out_abs
fi

printf '%s\n' "$out_abs"
for v in "${releases[@]}"; do
	printf 'v%s %s\n' "$(ref_name "$v")" "${commit[$v]}"
done
