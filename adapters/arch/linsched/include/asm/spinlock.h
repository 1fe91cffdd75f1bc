/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every simulated CPU runs on one host thread and kernel code never runs
 * concurrently with itself, so a lock found held can never be released by
 * waiting: it is a deadlock in the kernel or a bug in the simulator, and
 * the run ends with that message.
 */
#ifndef _ASM_LINSCHED_SPINLOCK_H
#define _ASM_LINSCHED_SPINLOCK_H

#include <asm/spinlock_types.h>
#include <asm/processor.h>

void linsched_lock_bug(const char *what, const void *lock);

#define arch_spin_is_locked(x)		((x)->lock != 0)
#define arch_spin_is_contended(x)	0

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	if (lock->lock)
		linsched_lock_bug("spinlock already held", lock);
	lock->lock = 1;
}

static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	if (lock->lock)
		return 0;
	lock->lock = 1;
	return 1;
}

static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	lock->lock = 0;
}

static inline void arch_read_lock(arch_rwlock_t *rw)
{
	if (rw->lock < 0)
		linsched_lock_bug("rwlock write-held on read", rw);
	rw->lock++;
}

static inline int arch_read_trylock(arch_rwlock_t *rw)
{
	if (rw->lock < 0)
		return 0;
	rw->lock++;
	return 1;
}

static inline void arch_read_unlock(arch_rwlock_t *rw)
{
	rw->lock--;
}

static inline void arch_write_lock(arch_rwlock_t *rw)
{
	if (rw->lock)
		linsched_lock_bug("rwlock held on write", rw);
	rw->lock = -1;
}

static inline int arch_write_trylock(arch_rwlock_t *rw)
{
	if (rw->lock)
		return 0;
	rw->lock = -1;
	return 1;
}

static inline void arch_write_unlock(arch_rwlock_t *rw)
{
	rw->lock = 0;
}

#endif
