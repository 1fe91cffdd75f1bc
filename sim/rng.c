// SPDX-License-Identifier: GPL-2.0-only
/* Deterministic random numbers: xoshiro256** seeded through splitmix64. */
#include <math.h>

#include "sim/sim_internal.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sim_rng_seed(uint64_t s[4], uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t sim_rng_next(uint64_t s[4])
{
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double sim_rng_exp(uint64_t s[4], double mean)
{
	/* 53 random bits in (0, 1] */
	double u = ((sim_rng_next(s) >> 11) + 1) * (1.0 / 9007199254740992.0);

	return -mean * log(u);
}
