// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk, BUG/panic/WARN, and the handful of symbols from subsystems the
 * scheduler references but the simulation has no use for: syscalls that
 * set the time, security hooks, user-copy helpers, context tracking.
 * printf-style formatting comes from the host C library (kernel-only
 * format extensions such as %pS print as plain pointers).
 */
#include <linux/cpuhotplug.h>
#include <linux/ctype.h>
#include <linux/context_tracking.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/random.h>
#include <linux/restart_block.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/ktime.h>
#include <linux/idr.h>
#include <linux/utsname.h>
#include <linux/user_namespace.h>
#include <linux/sched/user.h>
#include <generated/utsrelease.h>
#include <asm/irq_regs.h>

#include "linsched.h"

int oops_in_progress;
bool static_key_initialized;

static int linsched_vlog(const char *fmt, va_list ap)
{
	char buf[1024];
	int level = -1, n;

	if (fmt[0] == KERN_SOH_ASCII && fmt[1]) {
		if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		fmt += 2;
	}
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	lh_log(level, buf);
	return n;
}

int _printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = linsched_vlog(fmt, ap);
	va_end(ap);
	return n;
}

int _printk_deferred(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = linsched_vlog(fmt, ap);
	va_end(ap);
	return n;
}

int __printk_ratelimit(const char *func)
{
	return 1;
}

void panic(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	oops_in_progress = 1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lh_panic(buf);
}

void warn_slowpath_fmt(const char *file, const int line, unsigned int taint,
		       const char *fmt, ...)
{
	char where[512];
	va_list ap;
	int n;

	n = snprintf(where, sizeof(where), "WARNING: CPU: %d PID: %d at %s:%d",
		     smp_processor_id(), current->pid, file, line);
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(where + n, sizeof(where) - n, fmt, ap);
		va_end(ap);
	}
	lh_warn(where);
}

void add_taint(unsigned int flag, enum lockdep_ok lockdep_ok)
{
}

void check_panic_on_warn(const char *origin)
{
}

void linsched_lock_bug(const char *what, const void *lock)
{
	panic("linsched: %s (lock %p): a deadlock on one CPU", what, lock);
}

void dump_stack(void)
{
	lh_log(4, "(no stack dump in the simulator: run the revision's executable under gdb)");
}

void show_regs(struct pt_regs *regs)
{
	dump_stack();
}

void show_stack(struct task_struct *task, unsigned long *sp,
		const char *loglvl)
{
	dump_stack();
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < (int)size ? n : (int)size - 1;
}

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = kmalloc(n + 1, gfp);
	va_start(ap, fmt);
	vsnprintf(p, n + 1, fmt, ap);
	va_end(ap);
	return p;
}

char *strnchrnul(const char *s, size_t count, int c)
{
	while (count-- && *s && *s != (char)c)
		s++;
	return (char *)s;
}

int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

void get_random_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		unsigned long long r = lh_random();
		size_t n = len < sizeof(r) ? len : sizeof(r);

		memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}

/* ---- tasks and pids ---- */

pid_t __task_pid_nr_ns(struct task_struct *task, enum pid_type type,
		       struct pid_namespace *ns)
{
	return task->pid;
}

struct task_struct *find_task_by_vpid(pid_t nr)
{
	return NULL;
}

void calculate_sigpending(void)
{
}

long do_no_restart_syscall(struct restart_block *param)
{
	return -EINTR;
}

bool set_kthread_struct(struct task_struct *p)
{
	return true;
}

void kthread_set_per_cpu(struct task_struct *k, int cpu)
{
	struct linsched_task *lt = task_lt(k);

	lt->kthread = cpu >= 0;
	lt->kthread_cpu = cpu;
}

bool kthread_is_per_cpu(struct task_struct *k)
{
	struct linsched_task *lt = task_lt(k);

	return (k->flags & PF_KTHREAD) && lt && lt->kthread;
}

bool kthread_should_stop(void)
{
	return false;
}

bool kthread_should_stop_or_park(void)
{
	return false;
}

/* ---- CPU hotplug and context tracking: boot is done by linsched.c ---- */

void idle_thread_set_boot_cpu(void)
{
}

void ct_idle_enter(void)
{
}

void ct_idle_exit(void)
{
}

/* ---- syscalls of kernel/time/time.c: the simulated clock is not settable ---- */

int cap_settime(const struct timespec64 *ts, const struct timezone *tz)
{
	return -EPERM;
}

int cap_task_setscheduler(struct task_struct *p)
{
	return 0;
}

int do_settimeofday64(const struct timespec64 *ts)
{
	return -EPERM;
}

int do_adjtimex(struct __kernel_timex *txc)
{
	return -EPERM;
}

void timekeeping_warp_clock(void)
{
}

/* ---- user memory: simulated tasks make no system calls with pointers ---- */

int check_zeroed_user(const void __user *from, size_t size)
{
	return -EFAULT;
}

void *memdup_user_nul(const void __user *src, size_t len)
{
	return ERR_PTR(-EFAULT);
}

ssize_t memory_read_from_buffer(void *to, size_t count, loff_t *ppos,
				const void *from, size_t available)
{
	return -EFAULT;
}

void __copy_overflow(int size, unsigned long count)
{
	panic("linsched: user copy overflow (%d < %lu)", size, count);
}

#ifdef LINSCHED_DEVM_ADD_ACTION_NAMED
int __devm_add_action(struct device *dev, void (*action)(void *), void *data,
		      const char *name)
{
	return 0;
}
#else
int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	return 0;
}
#endif

/* ---- locks and strings the kernel's lib/ would give ---- */

DEFINE_PER_CPU(struct pt_regs *, __irq_regs);

/* A sleeping lock never contended: a held mutex is a deadlock on one CPU. */
void mutex_lock(struct mutex *lock)
{
	if (atomic_long_read(&lock->owner))
		linsched_lock_bug("mutex already held", lock);
	atomic_long_set(&lock->owner, (unsigned long)current);
}

void mutex_unlock(struct mutex *lock)
{
	atomic_long_set(&lock->owner, 0);
}

#ifdef LINSCHED_MUTEX_INIT_GENERIC
void mutex_init_generic(struct mutex *lock)
#else
void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
#endif
{
	atomic_long_set(&lock->owner, 0);
}

ktime_t ktime_add_safe(const ktime_t lhs, const ktime_t rhs)
{
	ktime_t res = ktime_add_unsafe(lhs, rhs);

	if (res < 0 || res < lhs || res < rhs)
		res = ktime_set(KTIME_SEC_MAX, 0);
	return res;
}

ssize_t LINSCHED_STRSCPY(char *dest, const char *src, size_t count)
{
	size_t i;

	if (!count)
		return -E2BIG;
	for (i = 0; i < count - 1 && src[i]; i++)
		dest[i] = src[i];
	dest[i] = '\0';
	return src[i] ? -E2BIG : (ssize_t)i;
}

/* lib/string.c's: the cpu controller's control files strip their input */
char *strim(char *s)
{
	size_t size = strlen(s);
	char *end;

	if (!size)
		return s;
	end = s + size - 1;
	while (end >= s && isspace(*end))
		end--;
	*(end + 1) = '\0';
	while (isspace(*s))
		s++;
	return s;
}

const char *dev_driver_string(const struct device *dev)
{
	return "";
}

/* ---- init/'s and kernel/'s data that 7.x's init_task and debug read ---- */

/* SYSTEM_BOOTING until linsched.c's boot moves it on, as init/main.c does */
enum system_states system_state __read_mostly;

struct uts_namespace init_uts_ns = {
	.name = {
		.sysname = "Linux",
		.nodename = "linsched",
		.release = UTS_RELEASE,
		.version = "linsched",
		.machine = "linsched",
	},
};

struct user_namespace init_user_ns;
struct user_struct root_user;
#ifdef LINSCHED_INIT_UCOUNTS
struct ucounts init_ucounts;
#endif

#ifdef LINSCHED_LOCAL_INTERRUPT_DISABLE_STATE
DEFINE_PER_CPU(unsigned long, local_interrupt_disable_state);
#endif

#ifdef LINSCHED_GET_RANDOM_U32_BELOW
u32 __get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)(u32)lh_random() * ceil) >> 32);
}
#endif

/*
 * IDs (the energy model numbers its perf domains): a bitmap per ida, for
 * the few idas the scheduler's objects use.
 */
#define LINSCHED_IDAS		8
#define LINSCHED_IDA_IDS	1024

static struct {
	struct ida *ida;
	DECLARE_BITMAP(used, LINSCHED_IDA_IDS);
} idas[LINSCHED_IDAS];

static unsigned long *linsched_ida_bits(struct ida *ida, bool create)
{
	int i;

	for (i = 0; i < LINSCHED_IDAS; i++)
		if (idas[i].ida == ida)
			return idas[i].used;
	for (i = 0; create && i < LINSCHED_IDAS; i++) {
		if (!idas[i].ida) {
			idas[i].ida = ida;
			return idas[i].used;
		}
	}
	if (create)
		panic("linsched: more than %d idas", LINSCHED_IDAS);
	return NULL;
}

int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
		    gfp_t gfp)
{
	unsigned long *bits = linsched_ida_bits(ida, true);
	unsigned long id;

	if (max >= LINSCHED_IDA_IDS)
		max = LINSCHED_IDA_IDS - 1;
	id = find_next_zero_bit(bits, max + 1, min);
	if (id > max)
		return -ENOSPC;
	__set_bit(id, bits);
	return id;
}

void ida_free(struct ida *ida, unsigned int id)
{
	unsigned long *bits = linsched_ida_bits(ida, false);

	if (bits && id < LINSCHED_IDA_IDS)
		__clear_bit(id, bits);
}
