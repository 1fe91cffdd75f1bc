/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plots - the gnuplot side of the reports: quoting text for a gnuplot
 * script and running gnuplot on a script in its directory. The commands
 * write the data files and scripts (a user restyles a plot by editing its
 * .gp and running gnuplot there); this module only makes them safe and
 * runs them.
 */
#ifndef LSB_PLOTS_H
#define LSB_PLOTS_H

#include <stdio.h>

/**
 * plot_quote() - write a double-quoted gnuplot string
 * @f: the script
 * @s: any text; a newline becomes gnuplot's line break, a quote or
 *	backslash is escaped
 */
void plot_quote(FILE *f, const char *s);

/**
 * plot_begin() - start a script that draws one plot as NAME.png and NAME.svg
 * @f: the script
 * @name: the images' base name
 * @w: width in pixels
 * @h: height
 * @title: the plot's title (quoted with plot_quote()); NULL for none
 *
 * The script loops over the two terminals, plain text (noenhanced); end
 * it with plot_end() after the plot commands.
 */
void plot_begin(FILE *f, const char *name, int w, int h, const char *title);

/**
 * plot_end() - end a script plot_begin() started
 * @f: the script
 */
void plot_end(FILE *f);

/**
 * enum plot_status - what plot_run() found
 * @PLOT_OK: gnuplot exited 0
 * @PLOT_ENOGNUPLOT: gnuplot could not be started (not installed?)
 * @PLOT_EFAILED: gnuplot exited non-zero or died (its messages went to
 *	standard error)
 * @PLOT_ESYS: fork or wait failed, or the directory is not there
 * @PLOT_EIMAGE: gnuplot exited 0, but the PNG the script draws is missing
 *	or cut short, or its SVG is cut short (a full disk: gnuplot does not
 *	fail on a write error)
 */
enum plot_status {
	PLOT_OK = 0,
	PLOT_ENOGNUPLOT = 1,
	PLOT_EFAILED = 2,
	PLOT_ESYS = 3,
	PLOT_EIMAGE = 4,
};

/**
 * plot_run() - run gnuplot on a script, in the script's directory
 * @dir: the directory (the script's data files are read from there)
 * @script: the script's name in @dir, NAME.gp: it draws NAME.png (and
 *	NAME.svg); an earlier run's images of that name are removed first,
 *	and this run's are checked whole
 *
 * Return: an enum plot_status.
 */
int plot_run(const char *dir, const char *script);

/**
 * plot_strerror() - a plot_run() status in words
 * @status: an enum plot_status
 *
 * Return: a static string; for PLOT_EIMAGE it names the image and says
 * whether the file system is full, until the next plot_run().
 */
const char *plot_strerror(int status);

#endif
