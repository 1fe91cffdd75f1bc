/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_SMP_H
#define _ASM_LINSCHED_SMP_H

#include <asm/linsched.h>

#define raw_smp_processor_id()	(linsched_cpu)

struct cpumask;
void arch_send_call_function_single_ipi(int cpu);
void arch_send_call_function_ipi_mask(const struct cpumask *mask);

#endif
