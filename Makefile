# SPDX-License-Identifier: GPL-2.0-only
# lsbisect - build with plain GNU Make (git's Makefile is the model).
#
#   make            build everything into $(O) (default: build/)
#   make check      run every test through prove
#   make asan       build and run the C unit tests under ASan/UBSan
#   make bench      run the benchmarks
#   make deps       install the Debian packages the build needs
#   make install    install under $(PREFIX)
#   V=1             show the full commands

O ?= build
PREFIX ?= /usr/local
CC ?= cc
CFLAGS ?= -O2 -g
LSB_CFLAGS := -std=gnu11 -Wall -Wextra -Wmissing-prototypes -I. -I$(O)/gen \
	-Iadapters/arch/linsched/include/uapi -MMD -MP
# CI fails on a warning in our code (kernel code keeps kbuild's flags).
ifeq ($(CI),true)
LSB_CFLAGS += -Werror
endif
PKGS := libgit2 libcjson libtracecmd libtraceevent
LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Guile is embedded by guile/ only: its flags go to that module and the
# program that links it (lsbisect).
GUILE_CFLAGS = $(shell pkg-config --cflags guile-3.0 2>/dev/null)
GUILE_LIBS = $(shell pkg-config --libs guile-3.0 2>/dev/null)
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

ifeq ($(V),1)
Q :=
QUIET_CC :=
QUIET_LD :=
QUIET_GEN :=
else
Q := @
QUIET_CC = @echo '   CC      $@';
QUIET_LD = @echo '   LD      $@';
QUIET_GEN = @echo '   GEN     $@';
endif

# Debian packages the build and the tests need; `make deps` installs the
# missing ones (run as root on a fresh Debian 12).
DEB_PKGS := build-essential pkg-config libgit2-dev guile-3.0-dev libcjson-dev \
	gnuplot-nox bc flex bison libelf-dev git xz-utils perl cpio python3 time \
	trace-cmd rt-app busybox-static libssl-dev chromium chromium-driver \
	libtracecmd-dev libtraceevent-dev libtracefs-dev kernelshark xvfb xauth
# linsched vm's QEMU, without the recommended GUI and firmware extras
DEB_PKGS_NORECOMMENDS := qemu-system-x86

# Modules: every .c in the folder goes into the library of that module.
BISECT_SRC := $(wildcard bisect/*.c)
ADAPTERS_SRC := $(wildcard adapters/*.c)
DRIVER_SRC := $(wildcard driver/*.c)
COMMON_SRC := $(wildcard common/*.c)
GUILE_SRC := $(wildcard guile/*.c)
SUITE_SRC := $(wildcard suite/*.c)
PLOTS_SRC := $(wildcard plots/*.c)
REPORT_SRC := $(wildcard report/*.c)
BUGS_SRC := $(wildcard bugs/*.c)
COVERAGE_SRC := $(wildcard coverage/*.c)
HUNT_SRC := $(wildcard hunt/*.c)
VM_SRC := $(wildcard vm/*.c)
SIM_SRC := $(wildcard sim/*.c) common/json.c $(wildcard topologies/*.c) $(wildcard workloads/*.c) $(wildcard metrics/*.c) \
	$(wildcard power/*.c)
SIM_ASM := $(wildcard sim/*.S)
CMD_SRC := $(wildcard cmd/*.c)
TEST_SRC := $(wildcard t/unit/*.c)

obj = $(patsubst %.c,$(O)/obj/%.o,$(1))
BISECT_OBJ := $(call obj,$(BISECT_SRC))
ADAPTERS_OBJ := $(call obj,$(ADAPTERS_SRC))
DRIVER_OBJ := $(call obj,$(DRIVER_SRC))
COMMON_OBJ := $(call obj,$(COMMON_SRC))
GUILE_OBJ := $(call obj,$(GUILE_SRC))
SUITE_OBJ := $(call obj,$(SUITE_SRC))
PLOTS_OBJ := $(call obj,$(PLOTS_SRC))
REPORT_OBJ := $(call obj,$(REPORT_SRC))
BUGS_OBJ := $(call obj,$(BUGS_SRC))
COVERAGE_OBJ := $(call obj,$(COVERAGE_SRC))
HUNT_OBJ := $(call obj,$(HUNT_SRC))
VM_OBJ := $(call obj,$(VM_SRC))
SIM_OBJ := $(call obj,$(SIM_SRC)) $(patsubst %.S,$(O)/obj/%.o,$(SIM_ASM))
TESTS := $(patsubst t/unit/%.c,$(O)/t/%.t,$(TEST_SRC))

PROGRAMS := $(O)/bin/linsched $(O)/bin/lsbisect

# What the programs read at run time, laid out as installed: the arch
# overlay, the config fragment, the linker script, the simulator runtime and
# the history builder.
SHARE := $(O)/share/lsbisect
SHARE_FILES := $(SHARE)/linsched.config $(SHARE)/linsched.lds \
	$(SHARE)/libsim.a $(SHARE)/kernels.sh $(SHARE)/subset.list \
	$(SHARE)/arch/linsched/.stamp $(SHARE)/guile/lsbisect/strategy.scm \
	$(SHARE)/bugs/.stamp $(SHARE)/vm/kernel.sh $(SHARE)/vm/vm.config
ARCH_FILES := $(shell find adapters/arch/linsched -type f)
BUGS_FILES := $(shell find bugs/catalogue -type f)

all: $(PROGRAMS) $(SHARE_FILES) $(TESTS)
.PHONY: all check asan bench cppcheck deps demo fuzz install clean FORCE
# keep the objects make would see as intermediate
.SECONDARY:

# Rebuild everything when the flags change (git's GIT-CFLAGS trick).
$(O)/CFLAGS: FORCE
	@mkdir -p $(O)
	@echo '$(CC) $(CFLAGS) $(LSB_CFLAGS) $(PKG_CFLAGS) $(GUILE_CFLAGS)' > $@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# The version lives in one object (git's GIT-VERSION-FILE): a new commit
# recompiles common/version.c and relinks, nothing else.
$(O)/VERSION: FORCE
	@mkdir -p $(O)
	@echo '$(VERSION)' > $@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(O)/obj/common/version.o: $(O)/VERSION
$(O)/obj/common/version.o: MODULE_CFLAGS = -DLSB_VERSION='"$(VERSION)"'

$(O)/gen/subset_list.h: bisect/subset.list
	$(QUIET_GEN)mkdir -p $(dir $@) && \
	{ echo '/* generated from bisect/subset.list */'; \
	  grep -v -e '^#' -e '^$$' $< | sed 's/.*/"&",/'; } > $@.tmp && mv $@.tmp $@

$(O)/obj/%.o: %.c $(O)/CFLAGS $(O)/gen/subset_list.h
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(CFLAGS) $(LSB_CFLAGS) $(PKG_CFLAGS) $(MODULE_CFLAGS) -c -o $@ $<

$(GUILE_OBJ): MODULE_CFLAGS = $(GUILE_CFLAGS)

$(O)/obj/%.o: %.S $(O)/CFLAGS
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(CFLAGS) -c -o $@ $<

# Every module's archive, one rule: its objects are the prerequisites.
# The simulator runtime is linked into each revision's executable by the
# adapters, so it is kept as a library too.
$(O)/lib/lib%.a:
	@mkdir -p $(dir $@)
	$(QUIET_LD)rm -f $@ && ar rcs $@ $^

$(O)/lib/libsim.a: $(SIM_OBJ)
$(O)/lib/libbisect.a: $(BISECT_OBJ)
$(O)/lib/libadapters.a: $(ADAPTERS_OBJ)
$(O)/lib/libdriver.a: $(DRIVER_OBJ)
$(O)/lib/libcommon.a: $(COMMON_OBJ)
$(O)/lib/libguile-lsb.a: $(GUILE_OBJ)
$(O)/lib/libsuite.a: $(SUITE_OBJ)
$(O)/lib/libplots.a: $(PLOTS_OBJ)
$(O)/lib/libreport.a: $(REPORT_OBJ)
$(O)/lib/libbugs.a: $(BUGS_OBJ)
$(O)/lib/libcoverage.a: $(COVERAGE_OBJ)
$(O)/lib/libhunt.a: $(HUNT_OBJ)
$(O)/lib/libvm.a: $(VM_OBJ)

HOST_LIBS := $(O)/lib/libreport.a $(O)/lib/libbugs.a $(O)/lib/libcoverage.a $(O)/lib/libhunt.a $(O)/lib/libvm.a $(O)/lib/libplots.a $(O)/lib/libsuite.a $(O)/lib/libdriver.a \
	$(O)/lib/libadapters.a $(O)/lib/libbisect.a $(O)/lib/libsim-host.a $(O)/lib/libcommon.a

# The parts of the runtime the host programs use too (topology presets,
# the simulator's option values).
$(O)/lib/libsim-host.a: $(call obj,$(wildcard topologies/*.c) $(wildcard workloads/*.c) \
		$(wildcard metrics/*.c) $(wildcard power/*.c) sim/options.c sim/score.c)

$(SHARE)/%: adapters/%
	@mkdir -p $(dir $@)
	$(QUIET_GEN)cp $< $@

$(SHARE)/libsim.a: $(O)/lib/libsim.a
	@mkdir -p $(dir $@)
	$(QUIET_GEN)cp $< $@

$(SHARE)/kernels.sh $(SHARE)/subset.list: $(SHARE)/%: bisect/%
	@mkdir -p $(dir $@)
	$(QUIET_GEN)cp -p $< $@

# linsched vm: the VM kernel's build script and config fragment
$(SHARE)/vm/%: vm/%
	@mkdir -p $(dir $@)
	$(QUIET_GEN)cp -p $< $@

$(SHARE)/guile/%.scm: guile/%.scm
	@mkdir -p $(dir $@)
	$(QUIET_GEN)cp $< $@

$(SHARE)/arch/linsched/.stamp: $(ARCH_FILES)
	$(QUIET_GEN)rm -rf $(SHARE)/arch && mkdir -p $(SHARE)/arch && \
	cp -R adapters/arch/linsched $(SHARE)/arch/ && touch $@

# The catalogue of bugs: its entries and their workloads.
$(SHARE)/bugs/.stamp: $(BUGS_FILES)
	$(QUIET_GEN)rm -rf $(SHARE)/bugs && mkdir -p $(SHARE)/bugs && \
	cp -R bugs/catalogue/. $(SHARE)/bugs/ && touch $@

# A program is cmd/NAME.c plus its subcommands in cmd/NAME-*.c.
.SECONDEXPANSION:
$(O)/bin/%: $(O)/obj/cmd/%.o $$(call obj,$$(wildcard cmd/$$*-*.c)) $(HOST_LIBS)
	@mkdir -p $(dir $@)
	$(QUIET_LD)$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(MODULE_LIBS) $(HOST_LIBS) $(LIBS)

# lsbisect embeds Guile through guile/, and takes linsched's engine options.
$(O)/bin/lsbisect: $(O)/lib/libguile-lsb.a $(O)/obj/cmd/linsched-units.o
$(O)/bin/lsbisect: MODULE_LIBS = $(O)/lib/libguile-lsb.a $(GUILE_LIBS) -lm

$(O)/t/%.t: $(O)/obj/t/unit/%.o $(HOST_LIBS)
	@mkdir -p $(dir $@)
	$(QUIET_LD)$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(HOST_LIBS) $(LIBS)

# Unit tests of simulator parts the host programs do not link.
$(O)/t/idle.t: $(call obj,sim/idle.c)

# Two tests at a time, in the lanes t/testrules.yml draws: the machine has
# two cores and most tests use one.
check: all
	O=$(O) prove --timer -j2 --exec '' $(TESTS) $(sort $(wildcard t/[0-9]*.sh))

# Whole-process benchmarks with figures and ratios; see bench/README.
bench: all
	bench/run.sh

# The C unit tests under ASan/UBSan, built apart in $(O)/asan.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
asan:
	$(MAKE) O=$(O)/asan CFLAGS='$(ASAN_FLAGS)' \
		$(patsubst $(O)/t/%,$(O)/asan/t/%,$(TESTS))
	ASAN_OPTIONS=detect_leaks=1 prove --exec '' $(patsubst $(O)/t/%,$(O)/asan/t/%,$(TESTS))

# The workload and topology parsers under libFuzzer (FUZZ_SECONDS each).
fuzz:
	fuzz/run.sh

# Static analysis of our own C (kernel code keeps kbuild's checks).
cppcheck:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--inline-suppr -I. -Iadapters/arch/linsched/include/uapi \
		--suppress=missingIncludeSystem \
		bisect adapters/*.c bugs common coverage driver guile hunt metrics plots power report sim suite topologies vm workloads cmd t/unit

deps:
	@missing=$$(for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	elif ! apt-cache madison linux-source-6.1 2>/dev/null | grep -q .; then \
		$$sudo apt-get update -qq; \
	fi
	@missing=$$(for p in $(DEB_PKGS_NORECOMMENDS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	if [ -n "$$missing" ]; then \
		echo "installing (no recommends): $$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# The main job on the bundled default: make the kernel history from
# Debian's packages, then bisect its 6.1 releases for the throughput of a
# misfit task next to a busy SMT sibling on an asymmetric machine (a rule
# of 6.1.190 stops pulling it onto the big core). Status 0 (culprit) and 1
# (no regression) both make a finished demo.
DEMO_WORKLOAD := hog*1:cpus=2+hog*1:name=misfit:cpus=0:unpin=10ms
DEMO_ARGS := '$(DEMO_WORKLOAD)' --topology topologies/examples/asym-smt.json \
	--metric throughput --duration 1s
demo: all
	$(O)/bin/linsched kernels
	first=$$(git -C $(O)/kernels.git tag -l 'v6.1.*' --sort=v:refname | head -n1); \
	last=$$(git -C $(O)/kernels.git tag -l 'v6.1.*' --sort=v:refname | tail -n1); \
	$(O)/bin/lsbisect $$first $$last $(DEMO_ARGS) --out $(O)/demo-bisect; \
	status=$$?; [ $$status -le 1 ] || exit $$status

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/lsbisect
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	cp -R $(SHARE)/. $(DESTDIR)$(PREFIX)/share/lsbisect/
	rm -f $(DESTDIR)$(PREFIX)/share/lsbisect/arch/linsched/.stamp \
		$(DESTDIR)$(PREFIX)/share/lsbisect/bugs/.stamp

clean:
	rm -rf $(O)/obj $(O)/bin $(O)/lib $(O)/t $(O)/gen $(O)/share $(O)/asan \
		$(O)/CFLAGS $(O)/VERSION

-include $(shell find $(O)/obj -name '*.d' 2>/dev/null)
