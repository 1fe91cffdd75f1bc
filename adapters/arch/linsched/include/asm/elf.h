/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_ELF_H
#define _ASM_LINSCHED_ELF_H

#define ELF_CLASS	ELFCLASS64
#define ELF_DATA	ELFDATA2LSB
#define ELF_ARCH	62
#define ELF_EXEC_PAGESIZE	4096
#define elf_check_arch(x)	0
#define ELF_PLATFORM		(NULL)
#define ELF_HWCAP		(0)

typedef unsigned long elf_greg_t;
#define ELF_NGREG	1
typedef elf_greg_t elf_gregset_t[ELF_NGREG];
typedef struct { unsigned long r; } elf_fpregset_t;

#endif
