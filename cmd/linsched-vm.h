/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linsched vm --compare (cmd/linsched-vm-compare.c): the simulator against
 * the real kernel's runs, per metric, with a verdict. The CLI layer's
 * header, shared by cmd/linsched-vm.c and cmd/linsched-vm-compare.c only.
 */
#ifndef LSB_CMD_LINSCHED_VM_H
#define LSB_CMD_LINSCHED_VM_H

#include <stdint.h>

struct cJSON;
struct driver_paths;
struct topology;
struct workload;

/* The exit status of a comparison where some metric differs. */
#define VM_EXIT_DIFFER 8

/*
 * A kind of metric and how far the simulator may be from the VM's band:
 * the band [min, max] over the boots is widened on each side by
 * max(@abs, @rel * max(|min|, |max|)).
 */
struct vm_cmp_tol {
	const char *kind;
	double abs, rel;
	const char *why;
};

#define VM_CMP_NR_KINDS 6

/* The default tolerances, copied into @tab. */
void vm_cmp_tolerances(struct vm_cmp_tol tab[VM_CMP_NR_KINDS]);

/*
 * --tolerance KIND=V: KIND's tolerance becomes V alone (absolute for
 * share, conservation, fairness and latency; relative for migrations and
 * balance), its other part 0. Return 0, or -1 after the error.
 */
int vm_cmp_tolerance_arg(struct vm_cmp_tol tab[VM_CMP_NR_KINDS],
			 const char *arg);

/* What one comparison needs: the boots are already in @dir. */
struct vm_cmp_in {
	const char *rev, *repo, *workload, *topology_spec, *dir;
	uint64_t window_ns;	/* the boots' (summary.json's): the simulator's
				   duration too */
	const struct topology *topo;
	const struct workload *wl;
	const struct driver_paths *paths;
	int seeds, jobs, verbose;
	const struct vm_cmp_tol *tol;
	const char *jitter;	/* the simulator's --jitter, as a number
				   ("0.01"); NULL: none */
};

/*
 * vm_compare() - run the simulator for seeds 1..@in->seeds (cached; with
 * @in->jitter, recorded in compare.json),
 * score each ok boot of @in->dir (summary.json, run-N/trace.txt over the
 * measured window), print the table and write @in->dir/compare.json.
 * @rows: receives the comparison's metrics (a cJSON array, the caller's)
 *
 * Return: 0 every metric agrees, VM_EXIT_DIFFER some differs, or 1/2
 * after the error.
 */
int vm_compare(const struct vm_cmp_in *in, struct cJSON **rows);

/*
 * The realism report @path: a row per workload and metric, the fraction
 * of comparisons that agree; its head says the simulator's @jitter (NULL:
 * none). @names and @rows: @n workloads' comparisons. Return 0, or 1
 * after the error.
 */
int vm_realism_md(const char *path, const char *rev, const char *topology,
		  const char *jitter, const char *const *names,
		  struct cJSON *const *rows, int n);

#endif
