// SPDX-License-Identifier: GPL-2.0-only
/*
 * plots.c - gnuplot quoting and running.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
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

/* What plot_run() found wrong with an image, for plot_strerror(). */
static char image_error[4300];

/*
 * Whether @path is a whole image: gnuplot exits 0 when its writes failed
 * (a full disk leaves a cut PNG or an empty SVG), so the end is checked:
 * a PNG ends with its IEND chunk, an SVG with its closing tag.
 * Return: 1 whole, 0 absent, -1 cut short.
 */
static int image_whole(const char *path, int png)
{
	static const unsigned char iend[12] = {
		0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82,
	};
	char tail[12];
	size_t n;
	long size;
	FILE *f = fopen(path, "rb");

	if (!f)
		return errno == ENOENT ? 0 : -1;
	n = 0;
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) >= 12 &&
	    !fseek(f, size - 12, SEEK_SET))
		n = fread(tail, 1, sizeof(tail), f);
	fclose(f);
	if (n != sizeof(tail))
		return -1;
	if (png)
		return memcmp(tail, iend, sizeof(iend)) ? -1 : 1;
	while (n > 6 && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
		n--;
	return memcmp(tail + n - 6, "</svg>", 6) ? -1 : 1;
}

/*
 * The images a script draws are named after it (NAME.gp draws NAME.png
 * and, through plot_begin(), NAME.svg): none of an earlier run's may pass
 * for this one's, and the PNG must be there and whole.
 */
static int images(const char *dir, const char *script, int check)
{
	static const char *const ext[] = { "png", "svg" };
	size_t len = strlen(script);
	struct statvfs vfs;
	char path[4200];
	int i, whole;

	if (len > 3 && !strcmp(script + len - 3, ".gp"))
		len -= 3;
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%.*s.%s", dir, (int)len,
			 script, ext[i]);
		if (!check) {
			unlink(path);
			continue;
		}
		whole = image_whole(path, i == 0);
		if (whole > 0 || (!whole && i))
			continue;
		snprintf(image_error, sizeof(image_error),
			 "gnuplot exited 0 but '%s' is %s%s", path,
			 whole ? "cut short" : "missing",
			 !statvfs(dir, &vfs) && !vfs.f_bavail ?
				 ": No space left on device" : "");
		images(dir, script, 0);
		return -1;
	}
	return 0;
}

int plot_run(const char *dir, const char *script)
{
	int status;
	pid_t pid;

	images(dir, script, 0);
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
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return PLOT_EFAILED;
	return images(dir, script, 1) ? PLOT_EIMAGE : PLOT_OK;
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
	case PLOT_EIMAGE:
		return image_error;
	default:
		return "cannot run gnuplot in that directory";
	}
}
