// SPDX-License-Identifier: GPL-2.0-only
/* kbuild's prepare step wants this file; linsched has no assembly to feed. */
#include <linux/kbuild.h>

int main(void)
{
	return 0;
}
