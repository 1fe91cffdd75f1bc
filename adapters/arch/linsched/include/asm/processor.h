/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_PROCESSOR_H
#define _ASM_LINSCHED_PROCESSOR_H

#ifndef __ASSEMBLY__
#include <linux/types.h>

struct task_struct;
struct lh_context;

/*
 * The host context a simulated task runs on (its saved stack pointer) and
 * the arch's per-task data (arch/linsched/kernel/linsched.h).
 */
struct thread_struct {
	struct lh_context *ctx;
	void *priv;
};

#define INIT_THREAD	{ }

#define cpu_relax()		barrier()
#define TASK_SIZE		(~0UL)
#define TASK_UNMAPPED_BASE	0
#define STACK_TOP		TASK_SIZE
#define STACK_TOP_MAX		TASK_SIZE
#define KSTK_EIP(tsk)		0
#define KSTK_ESP(tsk)		0
#define task_pt_regs(tsk)	((struct pt_regs *)0)

static inline unsigned long __get_wchan(struct task_struct *p)
{
	return 0;
}




#endif
#endif
