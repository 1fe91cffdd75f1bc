/* SPDX-License-Identifier: GPL-2.0-only */
/* xchg/cmpxchg from compiler builtins (the generic ones refuse SMP). */
#ifndef _ASM_LINSCHED_CMPXCHG_H
#define _ASM_LINSCHED_CMPXCHG_H

#define arch_xchg(ptr, x)						\
	__atomic_exchange_n((ptr), (x), __ATOMIC_SEQ_CST)

#define arch_cmpxchg(ptr, o, n)						\
({									\
	__typeof__(*(ptr)) __old = (o);					\
	__atomic_compare_exchange_n((ptr), &__old, (n), 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	__old;								\
})

#define arch_cmpxchg_local(ptr, o, n)	arch_cmpxchg((ptr), (o), (n))
#define arch_cmpxchg64(ptr, o, n)	arch_cmpxchg((ptr), (o), (n))
#define arch_cmpxchg64_local(ptr, o, n)	arch_cmpxchg((ptr), (o), (n))
#define arch_cmpxchg_relaxed(ptr, o, n)	arch_cmpxchg((ptr), (o), (n))
#define arch_cmpxchg64_relaxed(ptr, o, n) arch_cmpxchg((ptr), (o), (n))

#endif
