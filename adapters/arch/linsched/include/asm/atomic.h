/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Atomics from the compiler's __atomic builtins. The simulator runs every
 * simulated CPU on one host thread, so these only need to be correct, not
 * fast under contention; the generic atomic64 is absent on 64-bit.
 */
#ifndef _ASM_LINSCHED_ATOMIC_H
#define _ASM_LINSCHED_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/cmpxchg.h>
#include <asm/barrier.h>

#define ATOMIC64_INIT(i)		{ (i) }

#define arch_atomic_read(v)		READ_ONCE((v)->counter)
#define arch_atomic_set(v, i)		WRITE_ONCE(((v)->counter), (i))
#define arch_atomic64_read(v)		READ_ONCE((v)->counter)
#define arch_atomic64_set(v, i)		WRITE_ONCE(((v)->counter), (i))

#define LINSCHED_ATOMIC_OP(pfx, type, op)				\
static __always_inline void arch_##pfx##_##op(type i, pfx##_t *v)	\
{									\
	__atomic_fetch_##op(&v->counter, i, __ATOMIC_SEQ_CST);		\
}									\
static __always_inline type arch_##pfx##_fetch_##op(type i, pfx##_t *v)	\
{									\
	return __atomic_fetch_##op(&v->counter, i, __ATOMIC_SEQ_CST);	\
}

#define LINSCHED_ATOMIC_RET(pfx, type, op)				\
static __always_inline type arch_##pfx##_##op##_return(type i, pfx##_t *v) \
{									\
	return __atomic_##op##_fetch(&v->counter, i, __ATOMIC_SEQ_CST);	\
}

#define LINSCHED_ATOMIC_ALL(pfx, type)					\
LINSCHED_ATOMIC_OP(pfx, type, add)					\
LINSCHED_ATOMIC_OP(pfx, type, sub)					\
LINSCHED_ATOMIC_OP(pfx, type, and)					\
LINSCHED_ATOMIC_OP(pfx, type, or)					\
LINSCHED_ATOMIC_OP(pfx, type, xor)					\
LINSCHED_ATOMIC_RET(pfx, type, add)					\
LINSCHED_ATOMIC_RET(pfx, type, sub)					\
static __always_inline type arch_##pfx##_xchg(pfx##_t *v, type n)	\
{									\
	return __atomic_exchange_n(&v->counter, n, __ATOMIC_SEQ_CST);	\
}									\
static __always_inline type arch_##pfx##_cmpxchg(pfx##_t *v, type o, type n) \
{									\
	__atomic_compare_exchange_n(&v->counter, &o, n, 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	return o;							\
}

LINSCHED_ATOMIC_ALL(atomic, int)
LINSCHED_ATOMIC_ALL(atomic64, s64)

#define arch_atomic_add			arch_atomic_add
#define arch_atomic_sub			arch_atomic_sub
#define arch_atomic_and			arch_atomic_and
#define arch_atomic_or			arch_atomic_or
#define arch_atomic_xor			arch_atomic_xor
#define arch_atomic_fetch_add		arch_atomic_fetch_add
#define arch_atomic_fetch_sub		arch_atomic_fetch_sub
#define arch_atomic_fetch_and		arch_atomic_fetch_and
#define arch_atomic_fetch_or		arch_atomic_fetch_or
#define arch_atomic_fetch_xor		arch_atomic_fetch_xor
#define arch_atomic_add_return		arch_atomic_add_return
#define arch_atomic_sub_return		arch_atomic_sub_return
#define arch_atomic_xchg		arch_atomic_xchg
#define arch_atomic_cmpxchg		arch_atomic_cmpxchg
#define arch_atomic64_add		arch_atomic64_add
#define arch_atomic64_sub		arch_atomic64_sub
#define arch_atomic64_and		arch_atomic64_and
#define arch_atomic64_or		arch_atomic64_or
#define arch_atomic64_xor		arch_atomic64_xor
#define arch_atomic64_fetch_add		arch_atomic64_fetch_add
#define arch_atomic64_fetch_sub		arch_atomic64_fetch_sub
#define arch_atomic64_fetch_and		arch_atomic64_fetch_and
#define arch_atomic64_fetch_or		arch_atomic64_fetch_or
#define arch_atomic64_fetch_xor		arch_atomic64_fetch_xor
#define arch_atomic64_add_return	arch_atomic64_add_return
#define arch_atomic64_sub_return	arch_atomic64_sub_return
#define arch_atomic64_xchg		arch_atomic64_xchg
#define arch_atomic64_cmpxchg		arch_atomic64_cmpxchg

#endif
