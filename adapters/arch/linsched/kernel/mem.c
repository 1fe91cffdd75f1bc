// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory: kmalloc on the host allocator (always zeroed, so runs are
 * deterministic), per-CPU areas, and the boot-time objects that
 * init/init_task.c points at.
 */
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/fdtable.h>
#include <linux/fs_struct.h>
#include <linux/memblock.h>
#include <linux/mm_types.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/nsproxy.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <asm/sections.h>

#include "linsched.h"

/* ---- kmalloc ---- */

__typeof__(kmalloc_caches) kmalloc_caches;

static void *linsched_kmalloc(size_t size)
{
	return lh_zalloc(size ? size : 1);
}

void kfree(const void *p)
{
	if (!ZERO_OR_NULL_PTR(p))
		lh_free((void *)p);
}

/*
 * memblock, for the boot-time masks of isolation.c (isolcpus=): 7.x
 * allocates them with memblock_alloc_or_panic() and frees them late.
 */
void *__memblock_alloc_or_panic(phys_addr_t size, phys_addr_t align,
				const char *func);
void *__memblock_alloc_or_panic(phys_addr_t size, phys_addr_t align,
				const char *func)
{
	return linsched_kmalloc(size);
}

void memblock_free(void *ptr, size_t size)
{
	kfree(ptr);
}

#ifdef LINSCHED_KMALLOC_NOPROF
void *__kmalloc_noprof(size_t size, gfp_t flags)
{
	return linsched_kmalloc(size);
}

void *__kmalloc_node_noprof(DECL_BUCKET_PARAMS(size, b), gfp_t flags, int node)
{
	return linsched_kmalloc(size);
}

void *__kmalloc_cache_noprof(struct kmem_cache *s, gfp_t flags, size_t size)
{
	return linsched_kmalloc(size);
}

void *__kmalloc_cache_node_noprof(struct kmem_cache *s, gfp_t gfpflags,
				  int node, size_t size)
{
	return linsched_kmalloc(size);
}
#else
void *__kmalloc(size_t size, gfp_t flags)
{
	return linsched_kmalloc(size);
}

void *__kmalloc_node(size_t size, gfp_t flags, int node)
{
	return linsched_kmalloc(size);
}

void *kmalloc_trace(struct kmem_cache *s, gfp_t flags, size_t size)
{
	return linsched_kmalloc(size);
}

void *kmalloc_node_trace(struct kmem_cache *s, gfp_t gfpflags, int node,
			 size_t size)
{
	return linsched_kmalloc(size);
}
#endif

/* ---- slab caches: the task groups' (KMEM_CACHE(task_group, 0)) ---- */

struct kmem_cache {
	unsigned int size;
};

static struct kmem_cache *linsched_kmem_cache(unsigned int size)
{
	struct kmem_cache *s = linsched_kmalloc(sizeof(*s));

	s->size = size;
	return s;
}

#ifdef LINSCHED_KMEM_CACHE_CREATE_ARGS
struct kmem_cache *__kmem_cache_create_args(const char *name,
					    unsigned int object_size,
					    struct kmem_cache_args *args,
					    slab_flags_t flags)
{
	return linsched_kmem_cache(object_size);
}
#else
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	return linsched_kmem_cache(size);
}
#endif

#ifdef LINSCHED_KMALLOC_NOPROF
void *kmem_cache_alloc_noprof(struct kmem_cache *s, gfp_t flags)
#else
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
#endif
{
	return linsched_kmalloc(s->size);
}

void kmem_cache_free(struct kmem_cache *s, void *p)
{
	kfree(p);
}

/* ---- per-CPU areas: the static section copied per CPU, then a bump
 * allocator for dynamic per-CPU memory at the same offset in every area ---- */

#define LINSCHED_PERCPU_DYNAMIC	(1UL << 20)

unsigned long __per_cpu_offset[NR_CPUS] __read_mostly;
static unsigned long percpu_static_size, percpu_dyn_used;

void linsched_percpu_setup(void)
{
	unsigned long size, unit;
	char *area;
	int cpu;

	percpu_static_size = ALIGN(__per_cpu_end - __per_cpu_start, 64);
	unit = percpu_static_size + LINSCHED_PERCPU_DYNAMIC;
	size = unit * nr_cpu_ids;
	area = lh_zalloc(size);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		char *base = area + unit * cpu;

		memcpy(base, __per_cpu_start, __per_cpu_end - __per_cpu_start);
		__per_cpu_offset[cpu] = base - __per_cpu_start;
	}
}

static void __percpu *linsched_alloc_percpu(size_t size, size_t align)
{
	unsigned long off;
	int cpu;

	if (align < 8)
		align = 8;
	off = ALIGN(percpu_static_size + percpu_dyn_used, align);
	if (off + size > percpu_static_size + LINSCHED_PERCPU_DYNAMIC)
		panic("linsched: per-CPU area exhausted (%zu bytes asked)",
		      size);
	percpu_dyn_used = off + size - percpu_static_size;
	for_each_possible_cpu(cpu)
		memset(__per_cpu_start + off + __per_cpu_offset[cpu], 0, size);
	return (void __percpu *)(__per_cpu_start + off);
}

#ifdef LINSCHED_KMALLOC_NOPROF
void __percpu *pcpu_alloc_noprof(size_t size, size_t align, bool reserved,
				 gfp_t gfp)
{
	return linsched_alloc_percpu(size, align);
}
#else
void __percpu *__alloc_percpu(size_t size, size_t align)
{
	return linsched_alloc_percpu(size, align);
}
#endif

void free_percpu(void __percpu *ptr)
{
	/* the bump allocator keeps dynamic per-CPU memory to the end */
}

/* ---- objects init/init_task.c points at ---- */

unsigned long init_stack[THREAD_SIZE / sizeof(unsigned long)];
struct cred init_cred = {
	.usage = ATOMIC_INIT(4),
};
struct files_struct init_files;
struct fs_struct init_fs;
struct nsproxy init_nsproxy;
struct pid init_struct_pid;
struct mm_struct init_mm = {
	.mm_count = ATOMIC_INIT(1),
};

void __mmdrop(struct mm_struct *mm)
{
	panic("linsched: __mmdrop() on a simulated mm");
}

void put_task_stack(struct task_struct *tsk)
{
}

void __put_task_struct(struct task_struct *tsk)
{
	/* kept: the simulator reports every task that ran at the end */
}

#ifdef LINSCHED_PUT_TASK_STRUCT_RCU_CB
void __put_task_struct_rcu_cb(struct rcu_head *rhp)
{
	__put_task_struct(container_of(rhp, struct task_struct, rcu));
}
#endif

void put_task_struct_rcu_user(struct task_struct *task)
{
	struct linsched_task *lt = task_lt(task);

	if (refcount_dec_and_test(&task->rcu_users) && lt->kind == LT_USER) {
		lh_context_free(lt->stack);
		lt->stack = NULL;
		task->thread.ctx = NULL;
	}
}

#ifdef CONFIG_NUMA
/* ---- mm/'s NUMA data: nodes without memory ---- */

nodemask_t node_states[NR_NODE_STATES] __read_mostly = {
	[N_POSSIBLE] = NODE_MASK_ALL,
};
unsigned int nr_node_ids __read_mostly = MAX_NUMNODES;
unsigned int nr_online_nodes __read_mostly = 1;
int node_reclaim_distance __read_mostly = RECLAIM_DISTANCE;
DEFINE_PER_CPU(int, numa_node);
struct pglist_data *node_data[MAX_NUMNODES];
#endif

/* ---- CPU masks, kernel/cpu.c's ---- */

struct cpumask __cpu_possible_mask __read_mostly;
struct cpumask __cpu_online_mask __read_mostly;
struct cpumask __cpu_present_mask __read_mostly;
struct cpumask __cpu_active_mask __read_mostly;
struct cpumask __cpu_dying_mask __read_mostly;
atomic_t __num_online_cpus __read_mostly;
#ifdef LINSCHED_SET_CPU_POSSIBLE_EXTERN
unsigned int __num_possible_cpus __read_mostly;

void set_cpu_possible(unsigned int cpu, bool possible)
{
	if (possible) {
		if (!cpumask_test_and_set_cpu(cpu, &__cpu_possible_mask))
			__num_possible_cpus++;
	} else if (cpumask_test_and_clear_cpu(cpu, &__cpu_possible_mask)) {
		__num_possible_cpus--;
	}
}
#endif
unsigned int nr_cpu_ids __read_mostly = NR_CPUS;
bool cpuhp_tasks_frozen;

#define LS_BIT1(x)	[(x) + 1][0] = (1UL << (x))
#define LS_BIT2(x)	LS_BIT1(x), LS_BIT1((x) + 1)
#define LS_BIT4(x)	LS_BIT2(x), LS_BIT2((x) + 2)
#define LS_BIT8(x)	LS_BIT4(x), LS_BIT4((x) + 4)
#define LS_BIT16(x)	LS_BIT8(x), LS_BIT8((x) + 8)
#define LS_BIT32(x)	LS_BIT16(x), LS_BIT16((x) + 16)

const unsigned long cpu_bit_bitmap[BITS_PER_LONG + 1][BITS_TO_LONGS(NR_CPUS)] = {
	LS_BIT32(0), LS_BIT32(32),
};

void set_cpu_online(unsigned int cpu, bool online)
{
	if (online) {
		if (!cpumask_test_and_set_cpu(cpu, &__cpu_online_mask))
			atomic_inc(&__num_online_cpus);
	} else if (cpumask_test_and_clear_cpu(cpu, &__cpu_online_mask)) {
		atomic_dec(&__num_online_cpus);
	}
}
