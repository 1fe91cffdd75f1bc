// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroup core the scheduler's cpu controller runs on: a hierarchy of
 * cgroups on the default (v2) hierarchy with the cpu controller alone,
 * one css_set per cgroup, tasks moved through the controller's own
 * can_attach/attach, control files written through its own cftypes, and
 * the CPU time the kernel charges each cgroup (cgroup_account_cputime()).
 *
 * kernel/cgroup/ is not built: it needs kernfs, the VFS and idr. What the
 * scheduler calls of it is here (the css_set of a task, the taskset of an
 * attach, the walks over descendants and over a css's tasks, the parsing
 * of a control file's numbers); groups are made, written and joined by
 * the simulator's init through lk_cgroup_*(), as a shell writes cgroupfs.
 */
#include <asm/linsched_adapter.h>
#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/kernfs.h>
#include <linux/kstrtox.h>
#include <linux/mm_types.h>
#include <linux/mmu_context.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/cputime.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../../../kernel/sched/sched.h"
#include "linsched.h"

/* The cpu controller on the default hierarchy: cgroup v2's rules. */
DEFINE_STATIC_KEY_TRUE(cpu_cgrp_subsys_on_dfl_key);

struct lk_cgroup {
	struct cgroup cgrp;		/* what cgroup_account_cputime() charges */
	struct css_set *cset;		/* its tasks point here */
	struct css_set own_cset;
	struct cgroup_subsys_state *css;	/* the cpu controller's */
	struct lk_cgroup *parent;
	u64 usage_ns;			/* its tasks' and its descendants' */
	int id;
	char path[LINSCHED_CGROUP_PATH_MAX];
};

/* init_task's css_set: every task starts in the root cgroup */
struct css_set init_css_set;
static struct lk_cgroup root_cgroup = { .cset = &init_css_set, .path = "/" };
static int nr_cgroups = 1;
static u64 css_serial;

static struct lk_cgroup *cgroup_lk(struct cgroup *cgrp)
{
	return container_of(cgrp, struct lk_cgroup, cgrp);
}

static struct lk_cgroup *css_lk(struct cgroup_subsys_state *css)
{
	return cgroup_lk(css->cgroup);
}

/* What cgroup_init_subsys() and online_css() do for a new css. */
static int linsched_css_online(struct lk_cgroup *cg,
			       struct cgroup_subsys_state *css)
{
	struct cgroup_subsys *ss = &cpu_cgrp_subsys;
	int ret = 0;

	css->cgroup = &cg->cgrp;
	css->ss = ss;
	css->parent = cg->parent ? cg->parent->css : NULL;
	/* never freed: no reference counting (css_get() skips it) */
	css->flags |= CSS_NO_REF;
	css->id = cg->id;
	css->serial_nr = css_serial++;
	INIT_LIST_HEAD(&css->sibling);
	INIT_LIST_HEAD(&css->children);
	if (css->parent)
		list_add_tail_rcu(&css->sibling, &css->parent->children);
	cg->css = css;
	cg->cset->subsys[cpu_cgrp_id] = css;
	cg->cset->dfl_cgrp = &cg->cgrp;
	if (ss->css_online)
		ret = ss->css_online(css);
	if (!ret)
		css->flags |= CSS_ONLINE;
	return ret;
}

/* After sched_init(), before the first fork: cgroup_init_early()'s part. */
void linsched_cgroup_init(void)
{
	struct cgroup_subsys_state *css;

	INIT_LIST_HEAD(&init_css_set.tasks);
	refcount_set(&init_css_set.refcount, 1);
	init_css_set.dom_cset = &init_css_set;
	RCU_INIT_POINTER(init_task.cgroups, &init_css_set);
	css = cpu_cgrp_subsys.css_alloc(NULL);
	if (IS_ERR_OR_NULL(css) || linsched_css_online(&root_cgroup, css))
		panic("linsched: the cpu controller's root css did not come up");
	list_add_tail(&init_task.cg_list, &init_css_set.tasks);
}

/* A new task joins its parent's css_set, as cgroup_post_fork() does. */
void linsched_cgroup_fork(struct task_struct *p)
{
	INIT_LIST_HEAD(&p->cg_list);
	list_add_tail(&p->cg_list, &p->cgroups->tasks);
}

/* A dead task leaves it (7.x calls this from finish_task_switch()). */
void cgroup_task_dead(struct task_struct *p)
{
	list_del_init(&p->cg_list);
}

struct lk_cgroup *lk_cgroup_root(void)
{
	return &root_cgroup;
}

struct lk_cgroup *lk_cgroup_new(struct lk_cgroup *parent, const char *name,
				int *err)
{
	struct cgroup_subsys_state *css;
	struct lk_cgroup *cg;

	cg = kzalloc(sizeof(*cg), GFP_KERNEL);
	cg->parent = parent;
	cg->id = nr_cgroups++;
	cg->cset = &cg->own_cset;
	INIT_LIST_HEAD(&cg->cset->tasks);
	refcount_set(&cg->cset->refcount, 1);
	cg->cset->dom_cset = cg->cset;
	cg->cgrp.self.parent = &parent->cgrp.self;
	cg->cgrp.level = parent->cgrp.level + 1;
	snprintf(cg->path, sizeof(cg->path), "%s%s%s", parent->path,
		 parent->parent ? "/" : "", name);
	css = cpu_cgrp_subsys.css_alloc(parent->css);
	if (IS_ERR_OR_NULL(css)) {
		*err = css ? PTR_ERR(css) : -ENOMEM;
		kfree(cg);
		return NULL;
	}
	*err = linsched_css_online(cg, css);
	if (*err)
		return NULL;
	linsched_trace("cgroup_mkdir", "root=1 id=%d level=%d path=%s", cg->id,
		       cg->cgrp.level, cg->path);
	return cg;
}

/* ---- control files: what cgroup_file_write() does with a cftype ---- */

struct cgroup_subsys_state *of_css(struct kernfs_open_file *of)
{
	return of->priv;
}

static struct cftype *linsched_cftype(struct lk_cgroup *cg, const char *name)
{
	struct cftype *sets[] = { cpu_cgrp_subsys.dfl_cftypes,
				  cpu_cgrp_subsys.legacy_cftypes };
	struct cftype *cft;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		for (cft = sets[i]; cft && cft->name[0]; cft++) {
			if (strcmp(cft->name, name))
				continue;
			if ((cft->flags & CFTYPE_NOT_ON_ROOT) && !cg->parent)
				continue;
			if ((cft->flags & CFTYPE_ONLY_ON_ROOT) && cg->parent)
				continue;
			return cft;
		}
	}
	return NULL;
}

int lk_cgroup_write(struct lk_cgroup *cg, const char *file, const char *value)
{
	struct kernfs_open_file of = { .priv = cg->css };
	struct cftype *cft;
	char buf[128];
	ssize_t ret;
	u64 u;
	s64 s;

	if (strncmp(file, "cpu.", 4) || !(cft = linsched_cftype(cg, file + 4)))
		return -ENOENT;
	/* as "echo VALUE > FILE" writes it */
	if (snprintf(buf, sizeof(buf), "%s\n", value) >= (int)sizeof(buf))
		return -E2BIG;
	if (cft->write_u64) {
		ret = kstrtoull(strstrip(buf), 0, &u);
		if (!ret)
			ret = cft->write_u64(cg->css, cft, u);
	} else if (cft->write_s64) {
		ret = kstrtoll(strstrip(buf), 0, &s);
		if (!ret)
			ret = cft->write_s64(cg->css, cft, s);
	} else if (cft->write) {
		ret = cft->write(&of, buf, strlen(buf), 0);
	} else {
		return -EACCES;
	}
	return ret < 0 ? (int)ret : 0;
}

/* ---- moving a task: cgroup_migrate() with one task ---- */

struct cgroup_taskset {
	struct task_struct *task;
	struct cgroup_subsys_state *css;
	bool seen;
};

struct task_struct *cgroup_taskset_first(struct cgroup_taskset *tset,
					 struct cgroup_subsys_state **dst_cssp)
{
	tset->seen = false;
	return cgroup_taskset_next(tset, dst_cssp);
}

struct task_struct *cgroup_taskset_next(struct cgroup_taskset *tset,
					struct cgroup_subsys_state **dst_cssp)
{
	if (tset->seen)
		return NULL;
	tset->seen = true;
	*dst_cssp = tset->css;
	return tset->task;
}

int lk_cgroup_attach(struct lk_task *task, struct lk_cgroup *cg)
{
	struct task_struct *p = (struct task_struct *)task;
	struct cgroup_taskset tset = { .task = p, .css = cg->css };
	struct cgroup_subsys *ss = &cpu_cgrp_subsys;
	int ret;

	if (p->cgroups == cg->cset)
		return 0;
	if (ss->can_attach) {
		ret = ss->can_attach(&tset);
		if (ret)
			return ret;
	}
	list_move_tail(&p->cg_list, &cg->cset->tasks);
	rcu_assign_pointer(p->cgroups, cg->cset);
	ss->attach(&tset);
	linsched_trace("cgroup_attach_task",
		       "dst_root=1 dst_id=%d dst_level=%d dst_path=%s pid=%d comm=%s",
		       cg->id, cg->cgrp.level, cg->path, p->pid, p->comm);
	return 0;
}

void lk_cgroup_stats(struct lk_cgroup *cg, struct linsched_cgroup_stats *out)
{
	struct task_group *tg = container_of(cg->css, struct task_group, css);
	struct cfs_bandwidth *b = &tg->cfs_bandwidth;

	memset(out, 0, sizeof(*out));
	out->usage_ns = cg->usage_ns;
	if (!cg->parent)
		return;
	out->nr_periods = b->nr_periods;
	out->nr_throttled = b->nr_throttled;
	out->throttled_ns = b->throttled_time;
}

/*
 * A task its group's bandwidth holds back: on a throttled runqueue (6.x
 * keeps it queued there; 7.x dequeues it at its return to user mode).
 * It waits for quota, not for a CPU.
 */
bool linsched_task_throttled(struct task_struct *p)
{
	return p->sched_class == &fair_sched_class &&
	       cfs_rq_of(&p->se)->throttle_count;
}

/*
 * The revision's throttle_cfs_rq() walks the task groups below the one
 * that ran out of quota with tg_throttle_down(), unthrottle_cfs_rq() with
 * tg_unthrottle_up(), on one runqueue: the link wraps fair.c's calls of
 * walk_tg_tree_from() (-Wl,--wrap, adapters/build.c), so that after each
 * such walk every task of those groups is told whether its group is now
 * throttled on that CPU, as the kernel's throttle_count of the group's
 * cfs_rq there says. There a task is held (6.x throttles the whole
 * cfs_rq, its queued tasks with it, and never dequeues them; 7.x's
 * task-based throttle dequeues each at its return to user mode and
 * enqueues them again in tg_unthrottle_up(): no tracepoint shows either),
 * and the load balancer does not move it there (can_migrate_task():
 * throttled_lb_pair(), 7.x's lb_throttled_hierarchy()). tg_nop() on the
 * other side and a runqueue as the data tell these walks from the others
 * (cpu.max's __cfs_schedulable(), RT's).
 */
int __real_walk_tg_tree_from(struct task_group *from, tg_visitor down,
			     tg_visitor up, void *data);
int __wrap_walk_tg_tree_from(struct task_group *from, tg_visitor down,
			     tg_visitor up, void *data);

static void bandwidth_walked(struct task_group *from, int cpu)
{
	struct cgroup_subsys_state *css;
	struct task_struct *p;

	rcu_read_lock();
	css_for_each_descendant_pre(css, &from->css) {
		struct task_group *tg = container_of(css, struct task_group, css);
		bool held = LINSCHED_TG_CFS_RQ(tg, cpu)->throttle_count;

		linsched_counter_throttled(css_lk(css)->path, cpu, held);
		list_for_each_entry(p, &css_lk(css)->cset->tasks, cg_list)
			if (p->sched_class == &fair_sched_class)
				linsched_sched_held(p, cpu, held);
	}
	rcu_read_unlock();
}

int __wrap_walk_tg_tree_from(struct task_group *from, tg_visitor down,
			     tg_visitor up, void *data)
{
	int ret = __real_walk_tg_tree_from(from, down, up, data), cpu;

	if ((down == tg_nop) == (up == tg_nop))
		return ret;
	for_each_possible_cpu(cpu)
		if (data == cpu_rq(cpu)) {
			bandwidth_walked(from, cpu);
			break;
		}
	return ret;
}

/* ---- CPU time: the rstat side of cpu.stat's usage, hierarchical ---- */

void __cgroup_account_cputime(struct cgroup *cgrp, u64 delta_exec)
{
	struct lk_cgroup *cg;

	for (cg = cgroup_lk(cgrp); cg; cg = cg->parent)
		cg->usage_ns += delta_exec;
}

void __cgroup_account_cputime_field(struct cgroup *cgrp,
				    enum cpu_usage_stat index, u64 delta_exec)
{
	/* user/system split: not simulated (a task is all user time) */
}

/* ---- walks ---- */

struct cgroup_subsys_state *
css_next_descendant_pre(struct cgroup_subsys_state *pos,
			struct cgroup_subsys_state *root)
{
	if (!pos)
		return root;
	if (!list_empty(&pos->children))
		return list_first_entry(&pos->children,
					struct cgroup_subsys_state, sibling);
	for (; pos != root; pos = pos->parent)
		if (!list_is_last(&pos->sibling, &pos->parent->children))
			return list_next_entry(pos, sibling);
	return NULL;
}

struct cgroup_subsys_state *
css_rightmost_descendant(struct cgroup_subsys_state *pos)
{
	while (!list_empty(&pos->children))
		pos = list_last_entry(&pos->children,
				      struct cgroup_subsys_state, sibling);
	return pos;
}

/* The tasks of one css: with one css_set per cgroup, that css_set's. */
void css_task_iter_start(struct cgroup_subsys_state *css, unsigned int flags,
			 struct css_task_iter *it)
{
	memset(it, 0, sizeof(*it));
	it->ss = css->ss;
	it->flags = flags;
	it->cur_cset = css_lk(css)->cset;
	it->cur_tasks_head = &it->cur_cset->tasks;
	it->task_pos = it->cur_tasks_head->next;
}

struct task_struct *css_task_iter_next(struct css_task_iter *it)
{
	if (it->task_pos == it->cur_tasks_head)
		return NULL;
	it->cur_task = list_entry(it->task_pos, struct task_struct, cg_list);
	it->task_pos = it->task_pos->next;
	return it->cur_task;
}

void css_task_iter_end(struct css_task_iter *it)
{
	it->cur_task = NULL;
}

/*
 * "12.34" with @dec_shift decimals kept, as an integer (1234 for 2): a
 * whole part (its sign is its own: "-0.5" is 50), then optionally a
 * fraction, rounded half up when it has more digits.
 */
int cgroup_parse_float(const char *input, unsigned int dec_shift, s64 *v)
{
	const char *s = input;
	s64 whole = 0, frac = 0, scale = 1, sign = 1;
	unsigned int digits = 0, i;

	if (*s == '-' || *s == '+')
		sign = *s++ == '-' ? -1 : 1;
	if (!isdigit(*s))
		return -EINVAL;
	for (; isdigit(*s); s++)
		whole = whole * 10 + (*s - '0');
	if (*s == '.') {
		for (s++; isdigit(*s); s++, digits++) {
			if (digits < dec_shift)
				frac = frac * 10 + (*s - '0');
			else if (digits == dec_shift && *s >= '5')
				frac++;
		}
	}
	for (i = min(digits, dec_shift); i < dec_shift; i++)
		frac *= 10;
	for (i = 0; i < dec_shift; i++)
		scale *= 10;
	*v = sign * whole * scale + frac;
	return 0;
}
