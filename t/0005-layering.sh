#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The layering rule of docs/ARCHITECTURE.md, read off the #include lines:
# each module includes only the modules below it, and only the simulator
# and the kernel side include the door.

. "$(dirname "$0")/lib.sh"
cd "$LSB_ROOT" || exit 1

# module: the modules its sources may include (besides itself)
allowed() {
	case $1 in
	common|topologies|plots) echo "" ;;
	suite) echo "common" ;;
	metrics|power|workloads) echo "topologies" ;;
	# sim/ links one file of common/: json.c, the exact JSON numbers
	sim) echo "common metrics power topologies workloads" ;;
	bisect|adapters) echo "common" ;;
	driver) echo "adapters bisect common metrics sim topologies workloads" ;;
	report) echo "bisect common driver metrics plots suite" ;;
	bugs) echo "bisect common" ;;
	coverage) echo "common" ;;
	hunt) echo "common topologies" ;;
	vm) echo "bisect common topologies workloads" ;;
	guile) echo "bisect common driver metrics" ;;
	cmd) echo "*" ;;
	t) echo "*" ;;
	esac
}

modules="common topologies workloads suite plots metrics power sim bisect adapters driver report bugs coverage hunt vm guile cmd"

# includes MODULE: "file:module" for each of our headers it includes
includes() {
	grep -Ho '^#include "[a-z_]*/' "$1"/*.[ch] 2>/dev/null |
		sed 's|^\([^:]*\):#include "\([a-z_]*\)/|\1:\2|'
}

# violations MODULE: the includes the rule does not allow
violations() {
	local mod=$1 ok line inc
	ok=$(allowed "$mod")
	[ "$ok" = "*" ] && return 0
	includes "$mod" | while IFS= read -r line; do
		inc=${line##*:}
		[ "$inc" = "$mod" ] && continue
		case " $ok " in *" $inc "*) continue ;; esac
		echo "$line"
	done
}

plan 4

bad=
for m in $modules; do
	bad+=$(violations "$m")
done
test_expect_success "every module includes only the modules below it" \
	'[ -z "$bad" ] || { diag "not allowed: $bad"; false; }'

door=$(grep -l '#include <asm/door.h>' */*.c */*.h 2>/dev/null | grep -v '^sim/' || true)
test_expect_success "only sim/ includes the door (besides the kernel side)" \
	'[ -z "$door" ] || { diag "door included by: $door"; false; }'

# the rule itself is checked: a made-up violation is found
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/sim"
printf '#include "driver/driver.h"\n#include "metrics/metrics.h"\n' > "$tmp/sim/x.c"
found=$(cd "$tmp" && violations sim)
test_expect_success "a simulator file that includes driver/ is a violation" \
	'[ "$found" = "sim/x.c:driver" ]'

mkdir "$tmp/metrics"
printf '#include "common/common.h"\n' > "$tmp/metrics/x.c"
found=$(cd "$tmp" && violations metrics)
test_expect_success "metrics/ may not include common/ (only its json.c is linked into the simulator, for sim/)" \
	'[ "$found" = "metrics/x.c:common" ]'

test_done
