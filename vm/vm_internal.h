/* SPDX-License-Identifier: GPL-2.0-only */
/* vm/'s own: the last error and QEMU's argument list. */
#ifndef LSB_VM_INTERNAL_H
#define LSB_VM_INTERNAL_H

#include "vm/vm.h"

void vm_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Set vm_last_error() and return @code. */
int vm_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append an argument to @m->args (@m->overflow when full). */
void vm_arg(struct vm_machine *m, const char *s);
void vm_argf(struct vm_machine *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
