/* SPDX-License-Identifier: GPL-2.0-only */
/* The interrupt flag of the simulated CPU the code runs on. */
#ifndef _ASM_LINSCHED_IRQFLAGS_H
#define _ASM_LINSCHED_IRQFLAGS_H

#include <asm/linsched.h>

#define ARCH_IRQ_DISABLED	0UL
#define ARCH_IRQ_ENABLED	1UL

static inline unsigned long arch_local_save_flags(void)
{
	return linsched_irqflags[linsched_cpu];
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	linsched_irqflags[linsched_cpu] = flags;
}

#define arch_local_irq_restore arch_local_irq_restore
#define arch_local_save_flags arch_local_save_flags

#include <asm-generic/irqflags.h>

#endif
