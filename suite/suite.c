// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite - the generated workload suite (see suite.h).
 *
 * Each family is a grid of parameters; the list is made once, in a fixed
 * order, by walking the grids. A pattern's text is made from its
 * parameters and the CPU count only. rt-app times are integers in
 * microseconds; event keys repeated within one object get a numeric
 * suffix, as rt-app's own examples write them ("run", "run1").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/common.h"

#include "suite/suite.h"

enum family {
	F_HOG,
	F_PERIODIC,
	F_BURSTY,
	F_RANDOM,
	F_WAKECHAIN,
	F_PRODCONS,
	F_FORK,
	F_NICE,
	F_PINNED,
	F_RT,
	F_IDLEBATCH,
	F_BARRIER,
	F_LOCK,
	F_IDLE,
	F_PI,
	F_GROUPWEIGHT,
	F_GROUPBW,
	F_GROUPIDLE,
	F_GROUPUCLAMP,
	F_HOTPLUG,
	F_ISOLATION,
	F_NR,
};

static const char *const family_names[F_NR] = {
	"hog", "periodic", "bursty", "random", "wakechain", "prodcons",
	"fork", "nice", "pinned", "rt", "idlebatch", "barrier", "lock", "idle",
	"pi", "groupweight", "groupbw", "groupidle", "groupuclamp", "hotplug",
	"isolation",
};

static const char *const family_desc[F_NR] = {
	"always-running tasks, from one in all to four per CPU",
	"run then wait for a periodic timer, over duty cycles, periods and counts",
	"bursts of short run/sleep cycles separated by long idle gaps",
	"run and sleep lengths drawn from exponential, lognormal, normal and uniform distributions",
	"chains of tasks each waking the next (suspend/resume), led by a periodic task",
	"producer/consumer pairs: the producer resumes its consumer",
	"fork storms: parents fork bursts of short-lived children",
	"always-running or periodic tasks at two nice levels, or spread over all forty",
	"tasks pinned to one CPU, a pair, half the machine or one CPU each, beside unpinned ones",
	"SCHED_FIFO, SCHED_RR or SCHED_DEADLINE periodic tasks beside fair tasks",
	"SCHED_IDLE or SCHED_BATCH hogs alone or beside fair tasks",
	"parallel phases: threads run then meet at a barrier, evenly or with stragglers",
	"lock contention: threads take one mutex around a critical section",
	"mostly idle: short runs at long periods, to stress idle states and NO_HZ",
	"priority inversion on every CPU: a fair holder, a FIFO waiter and a medium FIFO hog, with and without pi_enabled",
	"task groups of unequal cpu.weight, two or four, of always-running or periodic tasks",
	"a group held to a cpu.max quota of a quarter to three quarters of the machine, flat or through a child group, beside free tasks",
	"a cpu.idle group of always-running tasks beside a normal group of periodic ones",
	"groups of periodic tasks under cpu.uclamp.min or cpu.uclamp.max",
	"CPUs going offline and coming back (the last one or half of them, once or every 100 ms) under hogs or periodic tasks",
	"an exclusive cpuset partition (root: its own domain; isolated: no balancing) of one CPU or half of them, with tasks inside and outside",
};

/* Parameters of a pattern; their meaning depends on the family. */
struct pattern {
	char name[64];
	enum family fam;
	double m;		/* tasks (or groups) per CPU; 0: n tasks */
	int n;
	int a, b, c, d;
};

/* rt-app's names for the distributions of our extension */
enum dist { D_EXP, D_LOGNORMAL, D_NORMAL, D_UNIFORM, D_NR };
static const char *const dist_names[D_NR] = {
	"exponential", "lognormal", "normal", "uniform",
};

enum policy { P_OTHER, P_FIFO, P_RR, P_IDLE, P_BATCH, P_DEADLINE };
static const char *const policy_names[] = {
	"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_IDLE", "SCHED_BATCH",
	"SCHED_DEADLINE",
};
static const char *const policy_short[] = {
	"other", "fifo", "rr", "idle", "batch", "deadline",
};

#define MAX_PATTERNS 1024
#define FORKS_MAX 1000		/* forks per forking task, under rt-app's 1024 */

static struct pattern patterns[MAX_PATTERNS];
static int nr_patterns = -1;

/* "2.0", "0.5", "0.25", "0.125": at least one decimal, no trailing zeros */
static void fmt_mult(char *buf, size_t len, double m)
{
	size_t n;

	snprintf(buf, len, "%.3f", m);
	n = strlen(buf);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
}

/* "x2.0-cpus" for a count relative to CPUs, "n3" for an absolute one */
static void fmt_count(char *buf, size_t len, double m, int n)
{
	char mult[16];

	if (m > 0) {
		fmt_mult(mult, sizeof(mult), m);
		snprintf(buf, len, "x%s-cpus", mult);
	} else {
		snprintf(buf, len, "n%d", n);
	}
}

/* "50us", "1ms", "1500us", "2s" */
static void fmt_us(char *buf, size_t len, int us)
{
	if (us >= 1000000 && us % 1000000 == 0)
		snprintf(buf, len, "%ds", us / 1000000);
	else if (us >= 1000 && us % 1000 == 0)
		snprintf(buf, len, "%dms", us / 1000);
	else
		snprintf(buf, len, "%dus", us);
}

static struct pattern *add(enum family fam, double m, int n)
{
	struct pattern *p;

	if (nr_patterns == MAX_PATTERNS)
		abort();	/* the grids outgrew the table: raise it */
	p = &patterns[nr_patterns++];
	memset(p, 0, sizeof(*p));
	p->fam = fam;
	p->m = m;
	p->n = n;
	return p;
}

static void name(struct pattern *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void name(struct pattern *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->name, sizeof(p->name), fmt, ap);
	va_end(ap);
}

static void gen_hog(void)
{
	static const double mults[] = {
		0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.125, 1.25,
		1.5, 1.75, 2.0, 2.5, 3.0, 4.0,
	};
	static const int offsets[] = { -1, 1 };
	static const int absolute[] = { 1, 2 };
	char cnt[32];
	size_t i;

	for (i = 0; i < sizeof(absolute) / sizeof(*absolute); i++) {
		struct pattern *p = add(F_HOG, 0, absolute[i]);

		name(p, "hog-n%d", absolute[i]);
	}
	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++) {
		struct pattern *p = add(F_HOG, mults[i], 0);

		fmt_count(cnt, sizeof(cnt), mults[i], 0);
		name(p, "hog-%s", cnt);
	}
	for (i = 0; i < sizeof(offsets) / sizeof(*offsets); i++) {
		struct pattern *p = add(F_HOG, 1.0, 0);

		p->a = offsets[i];
		name(p, "hog-cpus-%s%d", offsets[i] < 0 ? "minus" : "plus",
		     abs(offsets[i]));
	}
}

static void gen_periodic(void)
{
	static const int duty[] = { 5, 10, 25, 50, 75, 90 };
	static const int period_ms[] = { 1, 4, 16, 64, 100 };
	static const double mults[] = { 0.5, 1.0, 2.0 };
	char cnt[32];
	size_t i, j, k;

	for (i = 0; i < sizeof(duty) / sizeof(*duty); i++)
		for (j = 0; j < sizeof(period_ms) / sizeof(*period_ms); j++)
			for (k = 0; k < sizeof(mults) / sizeof(*mults); k++) {
				struct pattern *p = add(F_PERIODIC, mults[k], 0);

				p->a = duty[i];
				p->b = period_ms[j] * 1000;
				fmt_count(cnt, sizeof(cnt), mults[k], 0);
				name(p, "periodic-d%d-p%dms-%s", duty[i],
				     period_ms[j], cnt);
			}
}

static void gen_bursty(void)
{
	static const int burst_ms[] = { 5, 20, 100 };
	static const int gap_ms[] = { 20, 100, 500 };
	static const double mults[] = { 0.5, 1.0, 2.0 };
	char cnt[32];
	size_t i, j, k;

	for (i = 0; i < sizeof(burst_ms) / sizeof(*burst_ms); i++)
		for (j = 0; j < sizeof(gap_ms) / sizeof(*gap_ms); j++)
			for (k = 0; k < sizeof(mults) / sizeof(*mults); k++) {
				struct pattern *p = add(F_BURSTY, mults[k], 0);

				p->a = burst_ms[i];
				p->b = gap_ms[j] * 1000;
				fmt_count(cnt, sizeof(cnt), mults[k], 0);
				name(p, "bursty-b%dms-g%dms-%s", burst_ms[i],
				     gap_ms[j], cnt);
			}
}

static void gen_random(void)
{
	static const int run_ms[] = { 1, 4, 16 };
	static const int util[] = { 10, 30, 60 };
	static const double mults[] = { 1.0, 2.0 };
	char cnt[32];
	size_t i, j, k;
	int d;

	for (d = 0; d < D_NR; d++)
		for (i = 0; i < sizeof(run_ms) / sizeof(*run_ms); i++)
			for (j = 0; j < sizeof(util) / sizeof(*util); j++)
				for (k = 0; k < sizeof(mults) / sizeof(*mults); k++) {
					struct pattern *p = add(F_RANDOM, mults[k], 0);

					p->a = d;
					p->b = run_ms[i] * 1000;
					p->c = util[j];
					fmt_count(cnt, sizeof(cnt), mults[k], 0);
					name(p, "random-%s-r%dms-u%d-%s",
					     dist_names[d], run_ms[i], util[j], cnt);
				}
}

static void gen_wakechain(void)
{
	static const int len[] = { 2, 3, 4, 8, 16 };
	static const int run_us[] = { 50, 500, 2000 };
	char run[16];
	size_t i, j;
	int k;

	for (i = 0; i < sizeof(len) / sizeof(*len); i++)
		for (j = 0; j < sizeof(run_us) / sizeof(*run_us); j++)
			for (k = 0; k < 2; k++) {
				struct pattern *p = add(F_WAKECHAIN, k ? 0.5 : 0, 1);

				p->a = len[i];
				p->b = run_us[j];
				fmt_us(run, sizeof(run), run_us[j]);
				name(p, "wakechain-l%d-r%s-%s", len[i], run,
				     k ? "x0.5-cpus" : "n1");
			}
}

static void gen_prodcons(void)
{
	static const double mults[] = { 0, 0.5, 1.0, 2.0 };
	static const int prod_us[] = { 100, 1000 };
	static const int cons_us[] = { 50, 500, 2000 };
	static const int gap_us[] = { 1000, 10000 };
	char cnt[32], pr[16], co[16], gap[16];
	size_t i, j, k, l;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(prod_us) / sizeof(*prod_us); j++)
			for (k = 0; k < sizeof(cons_us) / sizeof(*cons_us); k++)
				for (l = 0; l < sizeof(gap_us) / sizeof(*gap_us); l++) {
					struct pattern *p = add(F_PRODCONS, mults[i], 1);

					p->a = prod_us[j];
					p->b = cons_us[k];
					p->c = gap_us[l];
					fmt_count(cnt, sizeof(cnt), mults[i], 1);
					fmt_us(pr, sizeof(pr), prod_us[j]);
					fmt_us(co, sizeof(co), cons_us[k]);
					fmt_us(gap, sizeof(gap), gap_us[l]);
					name(p, "prodcons-p%s-c%s-g%s-%s", pr, co,
					     gap, cnt);
				}
}

static void gen_fork(void)
{
	static const double mults[] = { 0, 0.5 };
	static const int burst[] = { 4, 16, 64 };
	static const int child_us[] = { 100, 1000, 10000 };
	static const int gap_per_child_us[] = { 5000, 20000 };
	char cnt[32], ch[16], gap[16];
	size_t i, j, k, l;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(burst) / sizeof(*burst); j++)
			for (k = 0; k < sizeof(child_us) / sizeof(*child_us); k++)
				for (l = 0; l < sizeof(gap_per_child_us) /
					    sizeof(*gap_per_child_us); l++) {
					struct pattern *p = add(F_FORK, mults[i], 1);

					p->a = burst[j];
					p->b = child_us[k];
					/* the gap grows with the burst: a bounded fork rate */
					p->c = burst[j] * gap_per_child_us[l];
					fmt_count(cnt, sizeof(cnt), mults[i], 1);
					fmt_us(ch, sizeof(ch), child_us[k]);
					fmt_us(gap, sizeof(gap), p->c);
					name(p, "fork-b%d-c%s-g%s-%s", burst[j], ch,
					     gap, cnt);
				}
}

/* nice pairs; lo == hi == 99 means "spread over -20..19" */
static const int nice_pairs[][2] = {
	{ 0, 1 }, { 0, 5 }, { 0, 10 }, { 0, 19 }, { -20, 19 }, { -10, 10 },
	{ -5, 0 }, { 99, 99 },
};

static void fmt_nice(char *buf, size_t len, int nice)
{
	if (nice < 0)
		snprintf(buf, len, "m%d", -nice);
	else
		snprintf(buf, len, "%d", nice);
}

static void gen_nice(void)
{
	static const double mults[] = { 1.0, 2.0, 3.0 };
	char cnt[32], lo[16], hi[16];
	size_t i, j;
	int kind;

	for (i = 0; i < sizeof(nice_pairs) / sizeof(*nice_pairs); i++)
		for (kind = 0; kind < 2; kind++)
			for (j = 0; j < sizeof(mults) / sizeof(*mults); j++) {
				struct pattern *p = add(F_NICE, mults[j], 0);

				p->a = nice_pairs[i][0];
				p->b = nice_pairs[i][1];
				p->c = kind;
				fmt_count(cnt, sizeof(cnt), mults[j], 0);
				if (p->a == 99) {
					name(p, "nice-spread-%s-%s",
					     kind ? "periodic" : "hog", cnt);
					continue;
				}
				fmt_nice(lo, sizeof(lo), p->a);
				fmt_nice(hi, sizeof(hi), p->b);
				name(p, "nice-%sv%s-%s-%s", lo, hi,
				     kind ? "periodic" : "hog", cnt);
			}
}

enum layout { L_CPU0, L_PAIR, L_HALF, L_EACH, L_NR };
static const char *const layout_names[L_NR] = { "cpu0", "cpu01", "half", "each" };

static void gen_pinned(void)
{
	static const double pinned[] = { 0.5, 1.0 };
	static const double free_[] = { 0.5, 1.0, 2.0 };
	char pc[32], fc[32];
	size_t i, j;
	int l, kind;

	for (l = 0; l < L_NR; l++)
		for (i = 0; i < sizeof(pinned) / sizeof(*pinned); i++)
			for (j = 0; j < sizeof(free_) / sizeof(*free_); j++)
				for (kind = 0; kind < 2; kind++) {
					struct pattern *p = add(F_PINNED, pinned[i], 0);

					p->a = l;
					p->b = kind;
					p->c = (int)(free_[j] * 1000);
					fmt_count(pc, sizeof(pc), pinned[i], 0);
					fmt_count(fc, sizeof(fc), free_[j], 0);
					name(p, "pinned-%s-%s-free-%s-%s",
					     layout_names[l], pc,
					     kind ? "periodic" : "hog", fc);
				}
}

static void gen_rt(void)
{
	static const double mults[] = { 0, 0.25, 0.5, 1.0 };
	static const int duty[] = { 10, 50, 95 };
	char cnt[32];
	size_t i, j;
	int pol, fair;

	for (pol = P_FIFO; pol <= P_RR; pol++)
		for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
			for (j = 0; j < sizeof(duty) / sizeof(*duty); j++)
				for (fair = 0; fair < 2; fair++) {
					struct pattern *p = add(F_RT, mults[i], 1);

					p->a = pol;
					p->b = duty[j];
					p->c = fair;
					fmt_count(cnt, sizeof(cnt), mults[i], 1);
					name(p, "rt-%s-d%d-%s-with-%s",
					     policy_short[pol], duty[j], cnt,
					     fair ? "periodic" : "hog");
				}
}

/* SCHED_DEADLINE: a runtime of 10 or 30 % of a 10 ms period */
static void gen_deadline(void)
{
	static const double mults[] = { 0, 0.5 };
	static const int util[] = { 10, 30 };
	char cnt[32];
	size_t i, j;
	int fair;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(util) / sizeof(*util); j++)
			for (fair = 0; fair < 2; fair++) {
				struct pattern *p = add(F_RT, mults[i], 1);

				p->a = P_DEADLINE;
				p->b = util[j];
				p->c = fair;
				fmt_count(cnt, sizeof(cnt), mults[i], 1);
				name(p, "rt-deadline-u%d-%s-with-%s", util[j],
				     cnt, fair ? "periodic" : "hog");
			}
}

static const char *const companion_names[] = {
	"alone", "periodic-x1.0-cpus", "hog-x0.5-cpus", "hog-x1.0-cpus",
};

static void gen_idlebatch(void)
{
	static const double mults[] = { 0.5, 1.0, 2.0 };
	char cnt[32];
	size_t i, comp;
	int pol;

	for (pol = P_IDLE; pol <= P_BATCH; pol++)
		for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
			for (comp = 0; comp < 4; comp++) {
				struct pattern *p = add(F_IDLEBATCH, mults[i], 0);

				p->a = pol;
				p->b = comp;
				fmt_count(cnt, sizeof(cnt), mults[i], 0);
				if (comp)
					name(p, "idlebatch-%s-%s-with-%s",
					     policy_short[pol], cnt,
					     companion_names[comp]);
				else
					name(p, "idlebatch-%s-%s",
					     policy_short[pol], cnt);
			}
}

enum shape { S_EVEN, S_SKEW, S_STRAGGLER, S_NR };
static const char *const shape_names[S_NR] = { "even", "skew", "straggler" };

static void gen_barrier(void)
{
	static const double mults[] = { 0.5, 1.0, 1.5, 2.0 };
	static const int work_us[] = { 500, 5000, 50000 };
	char cnt[32], w[16];
	size_t i, j;
	int s;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(work_us) / sizeof(*work_us); j++)
			for (s = 0; s < S_NR; s++) {
				struct pattern *p = add(F_BARRIER, mults[i], 0);

				p->a = work_us[j];
				p->b = s;
				fmt_count(cnt, sizeof(cnt), mults[i], 0);
				fmt_us(w, sizeof(w), work_us[j]);
				name(p, "barrier-w%s-%s-%s", w, shape_names[s], cnt);
			}
}

/*
 * Priority inversion per CPU: a fair task holds a mutex for a critical
 * section of every 50 ms, a FIFO task wants it 1 ms in, a medium FIFO hog
 * wakes 2 ms in; with pi_enabled (rt-app's PTHREAD_PRIO_INHERIT) and
 * without.
 */
static void gen_pi(void)
{
	static const int cs_us[] = { 2000, 10000 }, mid_us[] = { 5000, 30000 };
	char cs[16], mid[16];
	size_t i, j;
	int pi;

	for (i = 0; i < sizeof(cs_us) / sizeof(*cs_us); i++)
		for (j = 0; j < sizeof(mid_us) / sizeof(*mid_us); j++)
			for (pi = 0; pi < 2; pi++) {
				struct pattern *p = add(F_PI, 1, 0);

				p->a = cs_us[i];
				p->b = mid_us[j];
				p->c = pi;
				fmt_us(cs, sizeof(cs), cs_us[i]);
				fmt_us(mid, sizeof(mid), mid_us[j]);
				name(p, "pi-cs%s-mid%s-%s", cs, mid, pi ? "on" : "off");
			}
}

static void gen_lock(void)
{
	static const double mults[] = { 0.5, 1.0, 2.0 };
	static const int cs_us[] = { 10, 100, 1000 };
	static const int out_us[] = { 100, 1000, 10000 };
	char cnt[32], cs[16], out[16];
	size_t i, j, k;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(cs_us) / sizeof(*cs_us); j++)
			for (k = 0; k < sizeof(out_us) / sizeof(*out_us); k++) {
				struct pattern *p = add(F_LOCK, mults[i], 0);

				p->a = cs_us[j];
				p->b = out_us[k];
				fmt_count(cnt, sizeof(cnt), mults[i], 0);
				fmt_us(cs, sizeof(cs), cs_us[j]);
				fmt_us(out, sizeof(out), out_us[k]);
				name(p, "lock-cs%s-out%s-%s", cs, out, cnt);
			}
}

static void gen_idle(void)
{
	static const double mults[] = { 0, 0.25, 1.0, 4.0 };
	/* at most 5 % of a CPU each, 20 % of the machine in all */
	static const int period_ms[] = { 2, 4, 16, 100, 1000 };
	static const int run_us[] = { 20, 100 };
	char cnt[32], run[16];
	size_t i, j, k;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(period_ms) / sizeof(*period_ms); j++)
			for (k = 0; k < sizeof(run_us) / sizeof(*run_us); k++) {
				struct pattern *p = add(F_IDLE, mults[i], 1);

				p->a = period_ms[j] * 1000;
				p->b = run_us[k];
				fmt_count(cnt, sizeof(cnt), mults[i], 1);
				fmt_us(run, sizeof(run), run_us[k]);
				name(p, "idle-r%s-p%dms-%s", run, period_ms[j], cnt);
			}
}

static void gen_groupweight(void)
{
	static const int groups[] = { 2, 4 }, ratio[] = { 2, 10 };
	static const double mults[] = { 1.0, 2.0 };
	char cnt[32];
	size_t i, j, k;
	int kind;

	for (i = 0; i < sizeof(groups) / sizeof(*groups); i++)
		for (j = 0; j < sizeof(ratio) / sizeof(*ratio); j++)
			for (k = 0; k < sizeof(mults) / sizeof(*mults); k++)
				for (kind = 0; kind < 2; kind++) {
					struct pattern *p = add(F_GROUPWEIGHT, mults[k], 0);

					p->a = groups[i];
					p->b = ratio[j];
					p->c = kind;
					fmt_count(cnt, sizeof(cnt), mults[k], 0);
					name(p, "groupweight-g%d-w%dto1-%s-%s", groups[i],
					     ratio[j], kind ? "periodic" : "hog", cnt);
				}
}

static void gen_groupbw(void)
{
	static const int quota_pct[] = { 25, 50, 75 }, period_ms[] = { 10, 100 };
	size_t i, j;
	int nested;

	for (i = 0; i < sizeof(quota_pct) / sizeof(*quota_pct); i++)
		for (j = 0; j < sizeof(period_ms) / sizeof(*period_ms); j++)
			for (nested = 0; nested < 2; nested++) {
				struct pattern *p = add(F_GROUPBW, 1.0, 0);

				p->a = quota_pct[i];
				p->b = period_ms[j] * 1000;
				p->c = nested;
				name(p, "groupbw-q%d-p%dms-%s", quota_pct[i],
				     period_ms[j], nested ? "nested" : "flat");
			}
}

static void gen_groupidle(void)
{
	static const double mults[] = { 0.5, 1.0, 2.0 };
	static const int duty[] = { 25, 75 };
	char cnt[32];
	size_t i, j;

	for (i = 0; i < sizeof(mults) / sizeof(*mults); i++)
		for (j = 0; j < sizeof(duty) / sizeof(*duty); j++) {
			struct pattern *p = add(F_GROUPIDLE, mults[i], 0);

			p->a = duty[j];
			fmt_count(cnt, sizeof(cnt), mults[i], 0);
			name(p, "groupidle-idle-%s-with-d%d", cnt, duty[j]);
		}
}

static void gen_groupuclamp(void)
{
	static const int pct[] = { 20, 50, 80 };
	static const double mults[] = { 0.5, 1.0 };
	char cnt[32];
	size_t i, j;
	int max;

	for (max = 0; max < 2; max++)
		for (i = 0; i < sizeof(pct) / sizeof(*pct); i++)
			for (j = 0; j < sizeof(mults) / sizeof(*mults); j++) {
				struct pattern *p = add(F_GROUPUCLAMP, mults[j], 0);

				p->a = max;
				p->b = pct[i];
				fmt_count(cnt, sizeof(cnt), mults[j], 0);
				name(p, "groupuclamp-%s%d-%s", max ? "max" : "min",
				     pct[i], cnt);
			}
}

enum hotplug_load { HL_HOG1, HL_HOG2, HL_PERIODIC, HL_NR };
static const char *const hotplug_loads[HL_NR] = {
	"hog-x1.0-cpus", "hog-x2.0-cpus", "periodic-d25-p4ms-x1.0-cpus",
};

static void gen_hotplug(void)
{
	int half, load, flap;

	for (half = 0; half < 2; half++)
		for (load = 0; load < HL_NR; load++)
			for (flap = 0; flap < 2; flap++) {
				struct pattern *p = add(F_HOTPLUG, 1.0, 0);

				p->a = half;
				p->b = load;
				p->c = flap;
				name(p, "hotplug-%s-%s-%s", half ? "half" : "last",
				     flap ? "flap100ms" : "once", hotplug_loads[load]);
			}
}

static void gen_isolation(void)
{
	int isolated, half, outside;

	for (isolated = 0; isolated < 2; isolated++)
		for (half = 0; half < 2; half++)
			for (outside = 0; outside < 2; outside++) {
				struct pattern *p = add(F_ISOLATION, 1.0, 0);

				p->a = isolated;
				p->b = half;
				p->c = outside;
				name(p, "isolation-%s-%s-outside-%s",
				     isolated ? "isolated" : "root",
				     half ? "half" : "one",
				     outside ? "x1.5-cpus" : "x0.5-cpus");
			}
}

static void generate(void)
{
	if (nr_patterns >= 0)
		return;
	nr_patterns = 0;
	gen_hog();
	gen_periodic();
	gen_bursty();
	gen_random();
	gen_wakechain();
	gen_prodcons();
	gen_fork();
	gen_nice();
	gen_pinned();
	gen_rt();
	gen_deadline();
	gen_idlebatch();
	gen_barrier();
	gen_lock();
	gen_idle();
	gen_pi();
	gen_groupweight();
	gen_groupbw();
	gen_groupidle();
	gen_groupuclamp();
	gen_hotplug();
	gen_isolation();
}

int suite_count(void)
{
	generate();
	return nr_patterns;
}

const char *suite_pattern_name(int i)
{
	generate();
	return i >= 0 && i < nr_patterns ? patterns[i].name : NULL;
}

const char *suite_pattern_family(int i)
{
	generate();
	return i >= 0 && i < nr_patterns ? family_names[patterns[i].fam] : NULL;
}

int suite_find(const char *name)
{
	int i;

	generate();
	for (i = 0; i < nr_patterns; i++)
		if (!strcmp(patterns[i].name, name))
			return i;
	return -1;
}

const char *const *suite_families(size_t *n)
{
	*n = F_NR;
	return family_names;
}

const char *suite_family_description(const char *family)
{
	int f;

	for (f = 0; f < F_NR; f++)
		if (!strcmp(family_names[f], family))
			return family_desc[f];
	return NULL;
}

/* ---- the text ---- */

/* m tasks per CPU (at least one), or n tasks when m is 0, plus @off */
static int count(double m, int n, int off, int cpus)
{
	int c = m > 0 ? (int)(m * cpus + 0.5) : n;

	c += off;
	return c < 1 ? 1 : c;
}

/* Events of one object, each key unique: "run", "run1", "run2"... */
struct seq {
	cJSON *obj;
	int nr;		/* events so far in @obj */
};

static void seq_init(struct seq *s, cJSON *obj)
{
	s->obj = obj;
	s->nr = 0;
}

static void ev(struct seq *s, const char *type, cJSON *val)
{
	char key[32];

	if (cJSON_GetObjectItemCaseSensitive(s->obj, type))
		snprintf(key, sizeof(key), "%s%d", type, s->nr);
	else
		snprintf(key, sizeof(key), "%s", type);
	s->nr++;
	cJSON_AddItemToObject(s->obj, key, val);
}

static void ev_us(struct seq *s, const char *type, int us)
{
	ev(s, type, cJSON_CreateNumber(us < 1 ? 1 : us));
}

static void ev_str(struct seq *s, const char *type, const char *str)
{
	ev(s, type, cJSON_CreateString(str));
}

static void ev_timer(struct seq *s, int period_us)
{
	cJSON *t = cJSON_CreateObject();

	cJSON_AddStringToObject(t, "ref", "unique");
	cJSON_AddNumberToObject(t, "period", period_us);
	ev(s, "timer", t);
}

/*
 * Our extension (workloads/README.md): "lsb-run" and "lsb-sleep" draw their
 * length from a distribution per use. The spreads are fixed here: normal
 * has a standard deviation of a quarter of the mean, lognormal of half the
 * mean, uniform spans half to one and a half times the mean.
 */
static void ev_dist(struct seq *s, const char *type, enum dist d, int mean_us)
{
	cJSON *o = cJSON_CreateObject();
	char key[32];

	snprintf(key, sizeof(key), "lsb-%s", type);
	cJSON_AddStringToObject(o, "distribution", dist_names[d]);
	switch (d) {
	case D_EXP:
		cJSON_AddNumberToObject(o, "mean", mean_us);
		break;
	case D_LOGNORMAL:
		cJSON_AddNumberToObject(o, "mean", mean_us);
		cJSON_AddNumberToObject(o, "stddev", mean_us / 2);
		break;
	case D_NORMAL:
		cJSON_AddNumberToObject(o, "mean", mean_us);
		cJSON_AddNumberToObject(o, "stddev", mean_us / 4);
		break;
	case D_UNIFORM:
	case D_NR:
		cJSON_AddNumberToObject(o, "min", mean_us / 2);
		cJSON_AddNumberToObject(o, "max", mean_us + mean_us / 2);
		break;
	}
	ev(s, key, o);
}

static cJSON *task(cJSON *tasks, const char *name, int instance)
{
	cJSON *t = cJSON_CreateObject();

	cJSON_AddItemToObject(tasks, name, t);
	if (instance != 1)
		cJSON_AddNumberToObject(t, "instance", instance);
	return t;
}

static void set_policy(cJSON *t, enum policy pol, int prio)
{
	cJSON_AddStringToObject(t, "policy", policy_names[pol]);
	if (prio)
		cJSON_AddNumberToObject(t, "priority", prio);
}

static void set_cpus(cJSON *t, int first, int n)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(first + i));
	cJSON_AddItemToObject(t, "cpus", a);
}

/* n always-running tasks */
static cJSON *hogs(cJSON *tasks, const char *name, int n)
{
	cJSON *t = task(tasks, name, n);
	struct seq s;

	seq_init(&s, t);
	ev_us(&s, "run", 100000);
	return t;
}

/* n tasks running run_us of every period */
static cJSON *periodic_us(cJSON *tasks, const char *name, int n, int run_us,
			  int period_us)
{
	cJSON *t = task(tasks, name, n);
	struct seq s;

	seq_init(&s, t);
	ev_us(&s, "run", run_us);
	ev_timer(&s, period_us);
	return t;
}

/* n tasks running duty % of every period */
static cJSON *periodic(cJSON *tasks, const char *name, int n, int duty,
		       int period_us)
{
	return periodic_us(tasks, name, n, period_us / 100 * duty, period_us);
}

static void text_hog(cJSON *tasks, const struct pattern *p, int cpus)
{
	hogs(tasks, "hog", count(p->m, p->n, p->a, cpus));
}

static void text_periodic(cJSON *tasks, const struct pattern *p, int cpus)
{
	periodic(tasks, "per", count(p->m, p->n, 0, cpus), p->a, p->b);
}

static void text_bursty(cJSON *tasks, const struct pattern *p, int cpus)
{
	cJSON *t = task(tasks, "burst", count(p->m, p->n, 0, cpus));
	cJSON *phases = cJSON_AddObjectToObject(t, "phases");
	cJSON *burst = cJSON_AddObjectToObject(phases, "burst");
	cJSON *quiet = cJSON_AddObjectToObject(phases, "quiet");
	struct seq s;

	cJSON_AddNumberToObject(burst, "loop", p->a);
	seq_init(&s, burst);
	ev_us(&s, "run", 800);
	ev_us(&s, "sleep", 200);
	seq_init(&s, quiet);
	ev_us(&s, "sleep", p->b);
}

static void text_random(cJSON *tasks, const struct pattern *p, int cpus)
{
	cJSON *t = task(tasks, "rand", count(p->m, p->n, 0, cpus));
	struct seq s;

	seq_init(&s, t);
	ev_dist(&s, "run", p->a, p->b);
	ev_dist(&s, "sleep", p->a, p->b * (100 - p->c) / p->c);
}

static void text_wakechain(cJSON *tasks, const struct pattern *p, int cpus)
{
	int chains = count(p->m, p->n, 0, cpus), len = p->a, run = p->b;
	/* a chain's round fits four times in the head's period */
	int period = 4 * len * run < 2000 ? 2000 : 4 * len * run;
	char nm[32], next[32];
	int c, i;

	for (c = 0; c < chains; c++)
		for (i = 0; i < len; i++) {
			cJSON *t;
			struct seq s;

			snprintf(nm, sizeof(nm), "c%dt%d", c, i);
			snprintf(next, sizeof(next), "c%dt%d", c, i + 1);
			t = task(tasks, nm, 1);
			seq_init(&s, t);
			if (!i) {
				/* heads start spread over the period */
				if (c)
					cJSON_AddNumberToObject(t, "delay",
								period / chains * c);
				ev_us(&s, "run", run);
				ev_str(&s, "resume", next);
				ev_timer(&s, period);
				continue;
			}
			ev_str(&s, "suspend", nm);
			ev_us(&s, "run", run);
			if (i + 1 < len)
				ev_str(&s, "resume", next);
		}
}

static void text_prodcons(cJSON *tasks, const struct pattern *p, int cpus)
{
	int pairs = count(p->m, p->n, 0, cpus), k;
	char pn[16], cn[16];

	for (k = 0; k < pairs; k++) {
		cJSON *t;
		struct seq s;

		snprintf(pn, sizeof(pn), "prod%d", k);
		snprintf(cn, sizeof(cn), "cons%d", k);
		t = task(tasks, pn, 1);
		seq_init(&s, t);
		ev_us(&s, "run", p->a);
		ev_str(&s, "resume", cn);
		ev_us(&s, "sleep", p->c);
		t = task(tasks, cn, 1);
		seq_init(&s, t);
		ev_str(&s, "suspend", cn);
		ev_us(&s, "run", p->b);
	}
}

static void text_fork(cJSON *tasks, const struct pattern *p, int cpus)
{
	cJSON *t = task(tasks, "spawner", count(p->m, p->n, 0, cpus));
	cJSON *phases, *storm, *calm;
	struct seq s;

	/* rt-app lets a task fork 1024 times at most: the storms stop there */
	cJSON_AddNumberToObject(t, "loop", FORKS_MAX / p->a);
	phases = cJSON_AddObjectToObject(t, "phases");
	storm = cJSON_AddObjectToObject(phases, "storm");
	calm = cJSON_AddObjectToObject(phases, "calm");
	cJSON_AddNumberToObject(storm, "loop", p->a);
	seq_init(&s, storm);
	ev_str(&s, "fork", "kid");
	ev_us(&s, "run", 20);
	seq_init(&s, calm);
	ev_us(&s, "sleep", p->c);

	/* the template: made only by fork, runs once and exits */
	t = task(tasks, "kid", 0);
	cJSON_AddNumberToObject(t, "loop", 1);
	seq_init(&s, t);
	ev_us(&s, "run", p->b);
}

static void nice_task(cJSON *tasks, const char *name, int n, int nice,
		      int kind)
{
	cJSON *t = kind ? periodic(tasks, name, n, 50, 10000) :
			  hogs(tasks, name, n);

	/* rt-app: a fair task's priority is its nice value */
	cJSON_AddNumberToObject(t, "priority", nice);
}

static void text_nice(cJSON *tasks, const struct pattern *p, int cpus)
{
	int n = count(p->m, p->n, 0, cpus), i;
	char nm[16];

	if (p->a == 99) {
		for (i = 0; i < n; i++) {
			snprintf(nm, sizeof(nm), "n%d", i);
			nice_task(tasks, nm, 1, n > 1 ? -20 + 39 * i / (n - 1) : 0,
				  p->c);
		}
		return;
	}
	nice_task(tasks, "lo", n / 2 ? n / 2 : 1, p->a, p->c);
	nice_task(tasks, "hi", n - n / 2 ? n - n / 2 : 1, p->b, p->c);
}

static void text_pinned(cJSON *tasks, const struct pattern *p, int cpus)
{
	int n = count(p->m, p->n, 0, cpus), i;
	int nfree = count(p->c / 1000.0, 0, 0, cpus);
	char nm[16];
	cJSON *t;

	switch (p->a) {
	case L_EACH:
		for (i = 0; i < n; i++) {
			snprintf(nm, sizeof(nm), "pin%d", i);
			t = p->b ? periodic(tasks, nm, 1, 50, 10000) :
				   hogs(tasks, nm, 1);
			set_cpus(t, i % cpus, 1);
		}
		break;
	default:
		t = p->b ? periodic(tasks, "pin", n, 50, 10000) :
			   hogs(tasks, "pin", n);
		set_cpus(t, 0, p->a == L_CPU0 ? 1 :
			       p->a == L_PAIR ? (cpus > 1 ? 2 : 1) :
			       (cpus / 2 ? cpus / 2 : 1));
		break;
	}
	if (p->b)
		periodic(tasks, "free", nfree, 30, 4000);
	else
		hogs(tasks, "free", nfree);
}

static void text_rt(cJSON *tasks, const struct pattern *p, int cpus)
{
	int n = count(p->m, p->n, 0, cpus);
	cJSON *t;

	if (p->a == P_DEADLINE) {
		/* the work fits the reserved runtime with a fifth to spare */
		t = periodic_us(tasks, "dl", n, p->b * 100 * 8 / 10, 10000);
		set_policy(t, P_DEADLINE, 0);
		cJSON_AddNumberToObject(t, "dl-runtime", p->b * 100);
		cJSON_AddNumberToObject(t, "dl-period", 10000);
	} else {
		t = periodic(tasks, "rt", n, p->b, 10000);
		set_policy(t, p->a, 50);
	}
	if (p->c)
		periodic(tasks, "fair", count(2.0, 0, 0, cpus), 30, 4000);
	else
		hogs(tasks, "fair", count(1.0, 0, 0, cpus));
}

static void text_idlebatch(cJSON *tasks, const struct pattern *p, int cpus)
{
	cJSON *t = hogs(tasks, policy_short[p->a], count(p->m, p->n, 0, cpus));

	set_policy(t, p->a, 0);
	switch (p->b) {
	case 1:
		periodic(tasks, "fair", count(1.0, 0, 0, cpus), 20, 10000);
		break;
	case 2:
		hogs(tasks, "fair", count(0.5, 0, 0, cpus));
		break;
	case 3:
		hogs(tasks, "fair", count(1.0, 0, 0, cpus));
		break;
	}
}

static void text_barrier(cJSON *tasks, const struct pattern *p, int cpus)
{
	int n = count(p->m, p->n, 0, cpus), i, work;
	char nm[16];

	if (n < 2)
		n = 2;	/* a barrier needs two */
	for (i = 0; i < n; i++) {
		cJSON *t;
		struct seq s;

		work = p->a;
		if (p->b == S_SKEW && i >= n / 2)
			work += work / 2;
		else if (p->b == S_STRAGGLER && !i)
			work *= 3;
		snprintf(nm, sizeof(nm), "w%d", i);
		t = task(tasks, nm, 1);
		seq_init(&s, t);
		ev_us(&s, "run", work);
		ev_str(&s, "barrier", "phase");
	}
}

static void text_lock(cJSON *tasks, const struct pattern *p, int cpus)
{
	cJSON *t = task(tasks, "lk", count(p->m, p->n, 0, cpus));
	struct seq s;

	seq_init(&s, t);
	ev_us(&s, "run", p->b);
	ev_str(&s, "lock", "mutex");
	ev_us(&s, "run", p->a);
	ev_str(&s, "unlock", "mutex");
}

/*
 * One task of a pi pattern on CPU @c, every 50 ms after @delay_us: @run_us
 * of work, inside @mutex when it is given. FIFO when @prio is not 0.
 */
static void pi_task(cJSON *tasks, const char *role, int c, int prio,
		    int delay_us, const char *mutex, int run_us)
{
	char name[32];
	struct seq s;
	cJSON *t;

	snprintf(name, sizeof(name), "%s-%d", role, c);
	t = task(tasks, name, 1);
	set_cpus(t, c, 1);
	if (prio)
		set_policy(t, P_FIFO, prio);
	if (delay_us)
		cJSON_AddNumberToObject(t, "delay", delay_us);
	seq_init(&s, t);
	if (mutex)
		ev_str(&s, "lock", mutex);
	ev_us(&s, "run", run_us);
	if (mutex)
		ev_str(&s, "unlock", mutex);
	ev_timer(&s, 50000);
}

static void text_pi(cJSON *tasks, const struct pattern *p, int cpus)
{
	char mutex[32];
	int c;

	for (c = 0; c < cpus; c++) {
		snprintf(mutex, sizeof(mutex), "m%d", c);
		pi_task(tasks, "holder", c, 0, 0, mutex, p->a);
		pi_task(tasks, "waiter", c, 50, 1000, mutex, 500);
		pi_task(tasks, "medium", c, 20, 2000, NULL, p->b);
	}
}

static void text_idle(cJSON *tasks, const struct pattern *p, int cpus)
{
	periodic_us(tasks, "tiny", count(p->m, p->n, 0, cpus), p->b, p->a);
}

/* ---- groups and system events: our extension's lsb-taskgroups, lsb-events ---- */

/* @name's control file @file gets @value at boot. */
static void group_file(cJSON *root, const char *name, const char *file,
		       const char *value)
{
	cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "lsb-taskgroups");
	cJSON *g;

	if (!groups)
		groups = cJSON_AddObjectToObject(root, "lsb-taskgroups");
	g = cJSON_GetObjectItemCaseSensitive(groups, name);
	if (!g)
		g = cJSON_AddObjectToObject(groups, name);
	if (file)
		cJSON_AddStringToObject(g, file, value);
}

static void in_group(cJSON *t, const char *path)
{
	cJSON_AddStringToObject(t, "taskgroup", path);
}

/* CPU @cpu goes offline (@online 0) or back at @us. */
static void cpu_event(cJSON *root, int us, int cpu, int online)
{
	cJSON *evs = cJSON_GetObjectItemCaseSensitive(root, "lsb-events");
	cJSON *e = cJSON_CreateObject();

	if (!evs)
		evs = cJSON_AddArrayToObject(root, "lsb-events");
	cJSON_AddNumberToObject(e, "time", us);
	cJSON_AddNumberToObject(e, "cpu", cpu);
	cJSON_AddBoolToObject(e, "online", online);
	cJSON_AddItemToArray(evs, e);
}

/* Group 0 weighs @b times the others (cpu.weight 100 x b, 100). */
static void text_groupweight(cJSON *root, cJSON *tasks,
			     const struct pattern *p, int cpus)
{
	char path[16], nm[16], w[16];
	int g, n = count(p->m, 0, 0, cpus);

	for (g = 0; g < p->a; g++) {
		cJSON *t;

		snprintf(path, sizeof(path), "/g%d", g);
		snprintf(nm, sizeof(nm), "g%d", g);
		snprintf(w, sizeof(w), "%d", g ? 100 : 100 * p->b);
		group_file(root, path, "cpu.weight", w);
		t = p->c ? periodic(tasks, nm, n, 50, 16000) : hogs(tasks, nm, n);
		in_group(t, path);
	}
}

/* /lim may use a% of the machine each period; free hogs beside it */
static void text_groupbw(cJSON *root, cJSON *tasks, const struct pattern *p,
			 int cpus)
{
	char max[48];
	const char *path = p->c ? "/lim/child" : "/lim";

	snprintf(max, sizeof(max), "%lld %d",
		 (long long)p->b * cpus * p->a / 100, p->b);
	group_file(root, "/lim", "cpu.max", max);
	in_group(hogs(tasks, "lim", count(p->m, 0, 0, cpus)), path);
	hogs(tasks, "free", count(0.5, 0, 0, cpus));
}

static void text_groupidle(cJSON *root, cJSON *tasks, const struct pattern *p,
			   int cpus)
{
	group_file(root, "/background", "cpu.idle", "1");
	group_file(root, "/normal", NULL, NULL);
	in_group(hogs(tasks, "idler", count(p->m, 0, 0, cpus)), "/background");
	in_group(periodic(tasks, "worker", count(1.0, 0, 0, cpus), p->a, 16000),
		 "/normal");
}

static void text_groupuclamp(cJSON *root, cJSON *tasks,
			     const struct pattern *p, int cpus)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", p->b);
	group_file(root, "/clamped", p->a ? "cpu.uclamp.max" : "cpu.uclamp.min",
		   v);
	in_group(periodic(tasks, "clamped", count(p->m, 0, 0, cpus), 25, 16000),
		 "/clamped");
	periodic(tasks, "free", count(p->m, 0, 0, cpus), 25, 16000);
}

/* the last CPU or the upper half, down at 200 ms, up at 600 ms; or every 100 ms */
static void text_hotplug(cJSON *root, cJSON *tasks, const struct pattern *p,
			 int cpus)
{
	int first = p->a ? cpus - cpus / 2 : cpus - 1, c, k;

	if (p->b == HL_PERIODIC)
		periodic(tasks, "pt", count(1.0, 0, 0, cpus), 25, 4000);
	else
		hogs(tasks, "hog", count(p->b == HL_HOG2 ? 2.0 : 1.0, 0, 0, cpus));
	if (first < 1)
		return;		/* one CPU: nothing can go */
	for (k = 0; k < (p->c ? 5 : 1); k++)
		for (c = first; c < cpus; c++) {
			cpu_event(root, p->c ? 100000 + 200000 * k : 200000, c, 0);
			cpu_event(root, p->c ? 200000 + 200000 * k : 600000, c, 1);
		}
}

/* the upper CPU or half: a partition with its tasks; others outside */
static void text_isolation(cJSON *root, cJSON *tasks, const struct pattern *p,
			   int cpus)
{
	int n = p->b ? cpus / 2 : 1, first = cpus - n;
	char list[32];

	hogs(tasks, "outside", count(p->c ? 1.5 : 0.5, 0, 0, cpus));
	if (n < 1 || first < 1)
		return;		/* one CPU: no partition can leave the root one */
	snprintf(list, sizeof(list), n > 1 ? "%d-%d" : "%d", first, cpus - 1);
	group_file(root, "/part", "cpuset.cpus", list);
	group_file(root, "/part", "cpuset.cpus.partition",
		   p->a ? "isolated" : "root");
	in_group(periodic(tasks, "inside", n * 2, 50, 16000), "/part");
}

char *suite_pattern_json(int i, int nr_cpus)
{
	const struct pattern *p;
	cJSON *root, *tasks, *global;
	char *text;

	generate();
	if (i < 0 || i >= nr_patterns || nr_cpus < 1 || nr_cpus > 4096)
		return NULL;
	p = &patterns[i];
	root = cJSON_CreateObject();
	if (!root)
		return NULL;
	tasks = cJSON_AddObjectToObject(root, "tasks");
	switch (p->fam) {
	case F_HOG: text_hog(tasks, p, nr_cpus); break;
	case F_PERIODIC: text_periodic(tasks, p, nr_cpus); break;
	case F_BURSTY: text_bursty(tasks, p, nr_cpus); break;
	case F_RANDOM: text_random(tasks, p, nr_cpus); break;
	case F_WAKECHAIN: text_wakechain(tasks, p, nr_cpus); break;
	case F_PRODCONS: text_prodcons(tasks, p, nr_cpus); break;
	case F_FORK: text_fork(tasks, p, nr_cpus); break;
	case F_NICE: text_nice(tasks, p, nr_cpus); break;
	case F_PINNED: text_pinned(tasks, p, nr_cpus); break;
	case F_RT: text_rt(tasks, p, nr_cpus); break;
	case F_IDLEBATCH: text_idlebatch(tasks, p, nr_cpus); break;
	case F_BARRIER: text_barrier(tasks, p, nr_cpus); break;
	case F_LOCK: text_lock(tasks, p, nr_cpus); break;
	case F_IDLE: text_idle(tasks, p, nr_cpus); break;
	case F_PI: text_pi(tasks, p, nr_cpus); break;
	case F_GROUPWEIGHT: text_groupweight(root, tasks, p, nr_cpus); break;
	case F_GROUPBW: text_groupbw(root, tasks, p, nr_cpus); break;
	case F_GROUPIDLE: text_groupidle(root, tasks, p, nr_cpus); break;
	case F_GROUPUCLAMP: text_groupuclamp(root, tasks, p, nr_cpus); break;
	case F_HOTPLUG: text_hotplug(root, tasks, p, nr_cpus); break;
	case F_ISOLATION: text_isolation(root, tasks, p, nr_cpus); break;
	case F_NR: break;
	}
	global = cJSON_AddObjectToObject(root, "global");
	cJSON_AddStringToObject(global, "default_policy", "SCHED_OTHER");
	if (p->fam == F_PI)
		cJSON_AddBoolToObject(global, "pi_enabled", p->c);
	text = lsb_json_print(root, 1);
	cJSON_Delete(root);
	return text;
}
