/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_MMU_CONTEXT_H
#define _ASM_LINSCHED_MMU_CONTEXT_H

#include <asm-generic/nommu_context.h>

#endif
