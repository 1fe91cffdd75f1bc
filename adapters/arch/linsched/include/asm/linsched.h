/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * State of the simulated machine that the arch headers read inline: which
 * simulated CPU the kernel code is running on, each CPU's current task and
 * interrupt flag. Written only by arch/linsched/kernel/ (the door between
 * kernel code and the simulator).
 */
#ifndef _ASM_LINSCHED_LINSCHED_H
#define _ASM_LINSCHED_LINSCHED_H

#ifndef __ASSEMBLY__
struct task_struct;

extern int linsched_cpu;
extern struct task_struct *linsched_curr[];
extern unsigned long linsched_irqflags[];
#endif

#endif
