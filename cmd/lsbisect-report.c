// SPDX-License-Identifier: GPL-2.0-only
/*
 * lsbisect-report.c - the answer of a bisection, as report/ writes it: on
 * standard output, as report.txt and report.json, and as a gnuplot plot
 * of the metric over the tested revisions.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "guile/guile.h"
#include "plots/plots.h"
#include "report/report.h"

static enum report_outcome outcome_of(enum guile_outcome o)
{
	switch (o) {
	case GUILE_CULPRIT:
		return REPORT_CULPRIT;
	case GUILE_AMBIGUOUS:
		return REPORT_AMBIGUOUS;
	default:
		return REPORT_NO_REGRESSION;
	}
}

/* What report/ needs of @cfg and @a; the strings stay theirs. */
static void bisection_of(struct report_bisection *b,
			 const struct guile_config *cfg,
			 const struct guile_answer *a,
			 struct report_step *steps)
{
	size_t i;

	for (i = 0; i < a->nr_steps; i++) {
		const struct guile_step *st = &a->steps[i];

		steps[i] = (struct report_step){
			.step = st->step, .cls = st->cls,
			.commit = st->commit, .verdict = st->verdict,
			.reason = st->reason, .value = st->value,
			.has_value = st->has_value, .nr_runs = st->nr_runs,
			.joined = st->joined, .nr_joined = st->nr_joined,
			.values = st->values, .nr_values = st->nr_values,
			.good_values = st->good_values,
			.nr_good_values = st->nr_good_values,
			.details = st->details,
		};
	}
	*b = (struct report_bisection){
		.repo = cfg->repo, .paths = cfg->paths,
		.good = cfg->good, .bad = cfg->bad,
		.workload = cfg->run.workload, .topology = cfg->run.topology,
		.duration = cfg->run.duration, .threshold = cfg->threshold,
		.seeds = cfg->seeds, .max_seeds = cfg->max_seeds,
		.script = cfg->script,
		.first_parent = cfg->first_parent,
		.outcome = outcome_of(a->outcome), .classes = a->classes,
		.culprit = a->culprit, .candidates = a->candidates,
		.nr_candidates = a->nr_candidates, .steps = steps,
		.nr_steps = a->nr_steps, .metric = a->metric,
		.higher_is_better = a->higher_is_better,
		.log_path = a->log_path, .nr_built = a->nr_built,
		.nr_ran = a->nr_ran, .nr_cached = a->nr_cached,
		.nr_from_log = a->nr_from_log, .nr_corrupt = a->nr_corrupt,
	};
}

int lsbisect_report(const struct guile_config *cfg,
		 const struct guile_answer *a, const char *out_dir)
{
	struct report_step *steps = calloc(a->nr_steps + 1, sizeof(*steps));
	struct report_bisection b;
	int ret, plot;

	if (!steps) {
		fprintf(stderr, "error: out of memory\n");
		return -1;
	}
	bisection_of(&b, cfg, a, steps);
	ret = report_bisection_write(&b, out_dir, stdout, &plot);
	if (ret)
		fprintf(stderr, "error: %s\n", report_last_error());
	if (plot)
		fprintf(stderr, "warning: %s: no '%s/plot.png' (plot.gp and plot.dat are there)\n",
			plot_strerror(plot), out_dir);
	free(steps);
	return ret;
}
