/* SPDX-License-Identifier: GPL-2.0-only */
/* No memory model to speak of: the simulator has no physical memory. */
#ifndef _ASM_LINSCHED_SPARSEMEM_H
#define _ASM_LINSCHED_SPARSEMEM_H

#endif
