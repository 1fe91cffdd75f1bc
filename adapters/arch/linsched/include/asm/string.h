/* SPDX-License-Identifier: GPL-2.0-only */
/* mem*() and str*() come from the host C library the simulator links. */
#ifndef _ASM_LINSCHED_STRING_H
#define _ASM_LINSCHED_STRING_H

#endif
