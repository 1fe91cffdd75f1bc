// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated tasks' user-mode code. Each runs on its own stack as a
 * kernel task; "run" work occupies the CPU for work x 1024 / capacity ns
 * of the CPU time the kernel actually gives it, and sleeps go through the
 * kernel's own blocking and wakeup paths.
 */
#include <stdlib.h>
#include <string.h>

#include <asm/door.h>

#include "sim/sim_internal.h"

struct sim_task {
	const struct workload_task *w;
	void *ktask;
	struct sim_event segment;
	uint64_t rng[4];
};

static struct sim_task *tasks;
static int nr_tasks;

int sim_tasks_init(const struct sim_config *cfg)
{
	int i, j;

	nr_tasks = cfg->wl->nr_tasks;
	tasks = calloc(nr_tasks, sizeof(*tasks));
	if (!tasks)
		sim_die("out of memory for tasks");
	for (i = 0; i < nr_tasks; i++) {
		const struct workload_task *w = &cfg->wl->tasks[i];

		for (j = 0; j < w->nr_cpus; j++)
			if (w->cpus[j] >= cfg->topo->nr_cpus) {
				fprintf(stderr,
					"error: workload '%s': task '%s': CPU %d is beyond the topology's %d CPUs\n",
					cfg->wl->spec, w->name, w->cpus[j],
					cfg->topo->nr_cpus);
				return -1;
			}
		tasks[i].w = w;
		tasks[i].segment.type = SIM_EV_SEGMENT;
		tasks[i].segment.heap_idx = -1;
		sim_rng_seed(tasks[i].rng, cfg->seed * 0x100000001b3ULL + i);
	}
	return 0;
}

/* Occupy the CPU until @work ns of work at full capacity are done. */
static void task_run(struct sim_task *t, uint64_t work)
{
	while (work) {
		unsigned int cap;
		uint64_t t0, dur, elapsed;
		int cpu;

		lk_task_user_return();
		cpu = lk_this_cpu();
		cap = sim.cfg->topo->cpu[cpu].capacity;
		dur = (uint64_t)(((unsigned __int128)work * 1024 + cap - 1) / cap);
		t0 = sim.now;
		sim_event_push(&t->segment,
			       dur > UINT64_MAX - t0 ? UINT64_MAX : t0 + dur,
			       cpu);
		lk_yield();
		sim_event_cancel(&t->segment);
		elapsed = sim.now - t0;
		if (elapsed >= dur)
			work = 0;
		else
			work -= (uint64_t)((unsigned __int128)elapsed * cap / 1024);
	}
}

static uint64_t draw(struct sim_task *t, uint64_t mean)
{
	uint64_t v = (uint64_t)sim_rng_exp(t->rng, (double)mean);

	return v ? v : 1;
}

/* Run until simulated time @until, then allow every CPU. */
static void task_unpin(struct sim_task *t, uint64_t until)
{
	int *all, i;

	while (sim.now < until)
		task_run(t, until - sim.now);
	all = calloc(sim.nr_cpus, sizeof(*all));
	if (!all)
		sim_die("out of memory");
	for (i = 0; i < sim.nr_cpus; i++)
		all[i] = i;
	lk_task_set_affinity(t->ktask, sim.nr_cpus, all);
	free(all);
}

static void task_main(void *payload)
{
	struct sim_task *t = payload;
	const struct workload_task *w = t->w;
	uint64_t round;

	if (w->unpin_ns)
		task_unpin(t, w->unpin_ns);
	for (round = 0; !w->loops || round < w->loops; round++) {
		switch (w->kind) {
		case WORKLOAD_HOG:
			task_run(t, w->loops ? w->run_ns : UINT64_MAX / 2);
			break;
		case WORKLOAD_YIELD:
			task_run(t, w->run_ns);
			lk_task_yield();
			break;
		case WORKLOAD_PERIODIC:
			task_run(t, w->run_ns);
			lk_task_sleep(w->sleep_ns);
			break;
		case WORKLOAD_RANDOM:
			task_run(t, draw(t, w->run_ns));
			lk_task_sleep(draw(t, w->sleep_ns));
			break;
		}
	}
}

/* Called by init (pid 1) once the machine is up: fork every task. */
void sim_tasks_start(void)
{
	int i;

	for (i = 0; i < nr_tasks; i++) {
		const struct workload_task *w = tasks[i].w;
		struct linsched_task_attr attr = {
			.name = w->name,
			.policy = w->policy,
			.nice = w->nice,
			.rt_priority = w->prio,
			.util_min = -1,
			.util_max = -1,
			.nr_allowed = w->nr_cpus,
			.allowed = w->cpus,
			.main = task_main,
			.payload = &tasks[i],
		};
		const char *why = NULL;

		tasks[i].ktask = lk_task_new(&attr, &why);
		if (!tasks[i].ktask)
			sim_die("workload '%s': task '%s': %s", sim.cfg->wl->spec,
				w->name, why);
	}
}

int sim_tasks_results(struct sim_result *out)
{
	int i;

	out->nr_tasks = nr_tasks;
	out->tasks = calloc(nr_tasks ? nr_tasks : 1, sizeof(*out->tasks));
	if (!out->tasks)
		sim_die("out of memory");
	for (i = 0; i < nr_tasks; i++) {
		struct sim_task_result *r = &out->tasks[i];
		struct linsched_task_stats st;

		lk_task_stats(tasks[i].ktask, &st);
		snprintf(r->name, sizeof(r->name), "%s", tasks[i].w->name);
		r->pid = st.pid;
		r->cpu = st.cpu;
		r->sum_exec_ns = st.sum_exec_ns;
		r->nr_migrations = st.nr_migrations;
		r->nr_switches = st.nr_switches;
		r->nr_voluntary = st.nr_voluntary;
		r->nr_involuntary = st.nr_involuntary;
	}
	return 0;
}
