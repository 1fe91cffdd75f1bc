/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_LINSCHED_BYTEORDER_H
#define _UAPI_ASM_LINSCHED_BYTEORDER_H

#include <linux/byteorder/little_endian.h>

#endif
