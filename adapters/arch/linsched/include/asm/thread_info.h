/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_THREAD_INFO_H
#define _ASM_LINSCHED_THREAD_INFO_H

#define THREAD_SIZE_ORDER	2
#define THREAD_SIZE		(4096 << THREAD_SIZE_ORDER)

/* LINSCHED_HAVE_PREEMPT_LAZY: the tree has lazy preemption (probe) */
#include <asm/linsched_adapter.h>

#ifndef __ASSEMBLY__
#include <linux/compiler.h>

struct thread_info {
	unsigned long		flags;
	unsigned long		syscall_work;
	int			preempt_count;
	unsigned int		cpu;
};

#define INIT_THREAD_INFO(tsk)			\
{						\
	.flags		= 0,			\
	.preempt_count	= INIT_PREEMPT_COUNT,	\
}
#endif

#define TIF_SIGPENDING		0
#define TIF_NEED_RESCHED	1
#define TIF_NOTIFY_RESUME	2
#define TIF_NOTIFY_SIGNAL	3
#define TIF_RESTORE_SIGMASK	4
#define TIF_MEMDIE		5
#define TIF_SYSCALL_TRACE	6
#ifdef LINSCHED_HAVE_PREEMPT_LAZY
/* set for a fair wakeup preemption under PREEMPT_LAZY: see lk_needs_resume() */
#define TIF_NEED_RESCHED_LAZY	7
#define _TIF_NEED_RESCHED_LAZY	(1 << TIF_NEED_RESCHED_LAZY)
#endif

#define _TIF_SIGPENDING		(1 << TIF_SIGPENDING)
#define _TIF_NEED_RESCHED	(1 << TIF_NEED_RESCHED)
#define _TIF_NOTIFY_RESUME	(1 << TIF_NOTIFY_RESUME)
#define _TIF_NOTIFY_SIGNAL	(1 << TIF_NOTIFY_SIGNAL)

#endif
