/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_VMALLOC_H
#define _ASM_LINSCHED_VMALLOC_H

#endif
