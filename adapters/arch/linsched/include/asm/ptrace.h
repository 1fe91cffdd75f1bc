/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_PTRACE_H
#define _ASM_LINSCHED_PTRACE_H

#include <uapi/asm/ptrace.h>

#ifndef __ASSEMBLY__
struct pt_regs {
	unsigned long ip;
	unsigned long sp;
	unsigned long flags;
};

#define user_mode(regs)			0
#define instruction_pointer(regs)	((regs)->ip)
#define user_stack_pointer(regs)	((regs)->sp)
#define profile_pc(regs)		instruction_pointer(regs)
#define current_pt_regs()		((struct pt_regs *)0)
#define arch_has_single_step()		0
#endif

#endif
