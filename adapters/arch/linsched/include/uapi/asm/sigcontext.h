/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_LINSCHED_SIGCONTEXT_H
#define _UAPI_ASM_LINSCHED_SIGCONTEXT_H

struct sigcontext {
	unsigned long regs[1];
};

#endif
