// SPDX-License-Identifier: GPL-2.0-only
/*
 * version.c - the tool's version (git describe), compiled into this one
 * object so that a new commit rebuilds nothing else.
 */
#include "common/common.h"

const char *lsb_version(void)
{
	return LSB_VERSION;
}
