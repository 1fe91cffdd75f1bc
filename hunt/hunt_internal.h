/* SPDX-License-Identifier: GPL-2.0-only */
/* hunt_internal.h - what the hunt's files share */
#ifndef LSB_HUNT_INTERNAL_H
#define LSB_HUNT_INTERNAL_H

#include "hunt/hunt.h"

/* splitmix64: the next number of the generator in *@s */
unsigned long long hunt_rand(unsigned long long *s);

#endif
