/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_TLB_H
#define _ASM_LINSCHED_TLB_H

#define tlb_flush(tlb)	do { } while (0)
#include <asm-generic/tlb.h>

#endif
