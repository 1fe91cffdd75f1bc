/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host stack switching for simulated tasks (x86-64 System V): save the
 * callee-saved registers on the current stack, swap stack pointers, and
 * restore them from the other. A new context starts in sim_context_start
 * with the task in %r12 and the entry function in %r13. The context's
 * shadow stack of kernel functions (sim_shadow_cur, path.c: a work
 * build's; NULL in any other) is kept beside the registers.
 */
	.text
	.globl	lh_context_switch
	.type	lh_context_switch, @function
/* void lh_context_switch(struct lh_context **from, struct lh_context *to) */
lh_context_switch:
	.cfi_startproc
	pushq	sim_shadow_cur(%rip)
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	popq	sim_shadow_cur(%rip)
	ret
	.cfi_endproc
	.size	lh_context_switch, .-lh_context_switch

	.globl	sim_context_start
	.type	sim_context_start, @function
sim_context_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	%r12, %rdi
	andq	$-16, %rsp
	call	*%r13
	ud2
	.cfi_endproc
	.size	sim_context_start, .-sim_context_start

	.section .note.GNU-stack,"",@progbits
