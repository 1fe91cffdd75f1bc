/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ASM_LINSCHED_PGTABLE_H
#define _ASM_LINSCHED_PGTABLE_H

#include <asm-generic/pgtable-nopud.h>
#include <asm/page.h>

#define pgd_present(pgd)	(1)
#define pgd_none(pgd)		(0)
#define pgd_bad(pgd)		(0)
#define pgd_clear(pgdp)
#define kern_addr_valid(addr)	(1)
#define pmd_offset(a, b)	((void *)0)

#define PAGE_NONE		__pgprot(0)
#define PAGE_SHARED		__pgprot(0)
#define PAGE_COPY		__pgprot(0)
#define PAGE_READONLY		__pgprot(0)
#define PAGE_KERNEL		__pgprot(0)

#define swapper_pg_dir		((pgd_t *)0)
#define ZERO_PAGE(vaddr)	((void)(vaddr), virt_to_page(0))
#define VMALLOC_START		0UL
#define VMALLOC_END		(~0UL)
#define KMAP_START		0UL
#define KMAP_END		(~0UL)

static inline int pte_file(pte_t pte) { return 0; }

#endif
