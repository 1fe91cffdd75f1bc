// SPDX-License-Identifier: GPL-2.0-only
/*
 * path.c - the kernel's call path in a build instrumented with
 * -finstrument-functions (the "work" variant): every function of the
 * kernel objects calls __cyg_profile_func_enter() on entry and
 * __cyg_profile_func_exit() on its way out; a plain build never calls
 * either, and nothing here runs.
 *
 * Each host context (the event loop's stack, where interrupts run, and
 * every task's own stack) has a shadow stack of the kernel functions it
 * is in. The current one is sim_shadow_cur, which lh_context_switch()
 * (ctx.S) keeps on the stack it leaves and takes back from the one it
 * enters: a task's kernel frames wait with it while others run. A context
 * gets its shadow stack at its first kernel call; a task's is not freed
 * when it exits (a few hundred bytes, until the run ends).
 *
 * At a WARN or a crash, the current shadow stack is the path: the kernel
 * functions it was in, innermost first, by name from the executable's
 * symbol table (its local symbols too: the scheduler's functions are
 * static, so dladdr(), which sees only the dynamic ones, would not do),
 * read once, at the first path asked for.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/sim_internal.h"

struct sim_shadow {
	unsigned int depth, cap;
	void *fn[];
};

/* The running context's; saved and restored by lh_context_switch(). */
struct sim_shadow *sim_shadow_cur;

static __attribute__((noinline, cold, no_instrument_function)) struct sim_shadow *
shadow_grow(struct sim_shadow *s)
{
	unsigned int cap = s ? 2 * s->cap : 32, depth = s ? s->depth : 0;

	s = realloc(s, sizeof(*s) + cap * sizeof(s->fn[0]));
	if (!s)
		sim_die("out of memory for the kernel's call path");
	s->depth = depth;
	s->cap = cap;
	sim_shadow_cur = s;
	return s;
}

void __cyg_profile_func_enter(void *fn, void *site)
	__attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *site)
	__attribute__((no_instrument_function));

void __cyg_profile_func_enter(void *fn, void *site)
{
	struct sim_shadow *s = sim_shadow_cur;

	(void)site;
	sim.kernel_calls++;
	if (__builtin_expect(!s || s->depth == s->cap, 0))
		s = shadow_grow(s);
	s->fn[s->depth] = fn;
	s->depth++;
}

/*
 * The function that returns is the top one. Were an exit ever missed (a
 * function left by no return), the frames above @fn are dropped with it,
 * and an exit of a function not on the stack changes nothing.
 */
void __cyg_profile_func_exit(void *fn, void *site)
{
	struct sim_shadow *s = sim_shadow_cur;
	unsigned int d;

	(void)site;
	if (!s || !s->depth)
		return;
	if (__builtin_expect(s->fn[s->depth - 1] == fn, 1)) {
		s->depth--;
		return;
	}
	for (d = s->depth - 1; d > 0; d--)
		if (s->fn[d - 1] == fn) {
			s->depth = d - 1;
			return;
		}
}

unsigned int sim_path_depth(void)
{
	return sim_shadow_cur ? sim_shadow_cur->depth : 0;
}

/* ---- names: the executable's symbol table, read once ---- */

struct sym {
	uintptr_t addr, size;
	const char *name;
};

static struct sym *syms;
static size_t nr_syms;
static int syms_read;

static int by_addr(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* names at one address in their order: the first is the one said */
	return strcmp(a->name, b->name);
}

/* The functions of /proc/self/exe's .symtab (kept mapped: the names). */
static void read_symbols(void)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *map;
	struct stat st;
	size_t i, k, n;
	int fd;

	syms_read = 1;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*eh)) {
		close(fd);
		return;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	eh = (const Elf64_Ehdr *)map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > (size_t)st.st_size)
		return;
	sh = (const Elf64_Shdr *)(map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const Elf64_Shdr *str;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > (size_t)st.st_size ||
		    str->sh_offset + str->sh_size > (size_t)st.st_size)
			continue;
		sym = (const Elf64_Sym *)(map + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		syms = calloc(n ? n : 1, sizeof(*syms));
		if (!syms)
			return;
		for (k = 0; k < n; k++) {
			if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC ||
			    !sym[k].st_value || sym[k].st_name >= str->sh_size)
				continue;
			syms[nr_syms].addr = sym[k].st_value;
			syms[nr_syms].size = sym[k].st_size;
			syms[nr_syms++].name = map + str->sh_offset +
					       sym[k].st_name;
		}
		qsort(syms, nr_syms, sizeof(*syms), by_addr);
		return;
	}
}

/*
 * The name of the function at @fn, without a compiler's suffix
 * (".isra.0", ".constprop.0", ".part.0"): the same in every build of the
 * source. "?" when no symbol has it.
 */
static void name_of(char *out, size_t len, uintptr_t fn)
{
	size_t lo = 0, hi = nr_syms, mid;
	const struct sym *s;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (syms[mid].addr <= fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(out, len, "?");
		return;
	}
	s = &syms[lo - 1];
	/* the first name at that address: the order is the names' */
	while (lo > 1 && syms[lo - 2].addr == s->addr)
		s = &syms[--lo - 1];
	if (fn != s->addr && fn - s->addr >= s->size) {
		snprintf(out, len, "?");
		return;
	}
	snprintf(out, len, "%.*s", (int)strcspn(s->name, "."), s->name);
}

int sim_path(char names[][SIM_PATH_NAME], int max)
{
	const struct sim_shadow *s = sim_shadow_cur;
	int n = 0;

	if (!s || !s->depth)
		return 0;
	if (!syms_read)
		read_symbols();
	for (; n < max && (unsigned int)n < s->depth; n++)
		name_of(names[n], SIM_PATH_NAME,
			(uintptr_t)s->fn[s->depth - 1 - (unsigned int)n]);
	return n;
}

void sim_path_text(char *out, size_t len, const char *sep)
{
	char names[SIM_PATH_MAX][SIM_PATH_NAME];
	int n = sim_path(names, SIM_PATH_MAX), i;
	size_t at = 0;

	out[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s",
				       i ? sep : "", names[i]);
}
