// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler features a real x86 kernel of the tree boots with, where
 * the tree's default hangs on an option that x86 selects and this arch
 * does not.
 */
#include <asm/linsched_adapter.h>
#include <linux/types.h>
#include <linux/sched.h>
#include <linux/mm_types.h>
#include <linux/mmu_context.h>
#include <linux/sched/cputime.h>

#include "../../../kernel/sched/sched.h"
#include "linsched.h"

void __init linsched_features_init(void)
{
#ifdef LINSCHED_HRTICK_AS_X86
	/*
	 * features.h: HRTICK and HRTICK_DL on with HRTIMER_REARM_DEFERRED,
	 * which needs GENERIC_ENTRY and HAVE_GENERIC_TIF_BITS
	 */
	sysctl_sched_features |= 1UL << __SCHED_FEAT_HRTICK |
				 1UL << __SCHED_FEAT_HRTICK_DL;
#endif
}
