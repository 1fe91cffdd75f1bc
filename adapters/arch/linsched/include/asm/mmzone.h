/* SPDX-License-Identifier: GPL-2.0-only */
/* NUMA nodes have no memory here; node data exists for the types' sake. */
#ifndef _ASM_LINSCHED_MMZONE_H
#define _ASM_LINSCHED_MMZONE_H

#include <linux/numa.h>

extern struct pglist_data *node_data[];
#define NODE_DATA(nid)	(node_data[nid])

#endif
