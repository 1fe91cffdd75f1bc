/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_LINSCHED_PTRACE_H
#define _UAPI_ASM_LINSCHED_PTRACE_H

#endif
