/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_CURRENT_H
#define _ASM_LINSCHED_CURRENT_H

#include <asm/linsched.h>

#ifndef __ASSEMBLY__
static __always_inline struct task_struct *get_current(void)
{
	return linsched_curr[linsched_cpu];
}

#define current get_current()
#endif

#endif
