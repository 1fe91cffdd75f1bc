/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_CACHE_H
#define _ASM_LINSCHED_CACHE_H

#define L1_CACHE_SHIFT	6
#define L1_CACHE_BYTES	(1 << L1_CACHE_SHIFT)

#endif
