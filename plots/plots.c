// SPDX-License-Identifier: GPL-2.0-only
/*
 * plots.c - gnuplot quoting and running.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "plots/plots.h"

void plot_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	fputc('"', f);
}

void plot_begin(FILE *f, const char *name, int w, int h, const char *title)
{
	fprintf(f, "# gnuplot %s.gp (in this directory) draws %s.png and %s.svg\n"
		"do for [t in 'png svg'] {\n"
		"if (t eq 'png') {\n"
		"\tset terminal pngcairo size %d,%d font 'sans,10'\n"
		"} else {\n"
		"\tset terminal svg size %d,%d font 'sans,10' background rgb 'white'\n"
		"}\n"
		"set termoption noenhanced\n"
		"set output '%s.'.t\n", name, name, name, w, h, w, h, name);
	if (title) {
		fputs("set title ", f);
		plot_quote(f, title);
		fputc('\n', f);
	}
}

void plot_end(FILE *f)
{
	fputs("unset output\n}\n", f);
}

int plot_run(const char *dir, const char *script)
{
	int status;
	pid_t pid;

	fflush(NULL);	/* the child must not write our buffers again */
	pid = fork();
	if (pid < 0)
		return PLOT_ESYS;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return PLOT_ESYS;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return PLOT_ENOGNUPLOT;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
		return PLOT_ESYS;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? PLOT_OK :
							   PLOT_EFAILED;
}

const char *plot_strerror(int status)
{
	switch (status) {
	case PLOT_OK:
		return "made";
	case PLOT_ENOGNUPLOT:
		return "cannot run gnuplot (is it installed?)";
	case PLOT_EFAILED:
		return "gnuplot failed";
	default:
		return "cannot run gnuplot in that directory";
	}
}
