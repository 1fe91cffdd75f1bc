/* SPDX-License-Identifier: GPL-2.0-only */
/* A flat identity "physical" memory: there is no MMU to model. */
#ifndef _ASM_LINSCHED_PAGE_H
#define _ASM_LINSCHED_PAGE_H

#include <linux/const.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#ifndef __ASSEMBLY__
#include <linux/types.h>

#define clear_page(page)	memset((page), 0, PAGE_SIZE)
#define copy_page(to, from)	memcpy((to), (from), PAGE_SIZE)
#define clear_user_page(page, vaddr, pg)	clear_page(page)
#define copy_user_page(to, from, vaddr, pg)	copy_page(to, from)

typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pmd; } pmd_t;
typedef struct { unsigned long pgd; } pgd_t;
typedef struct { unsigned long pgprot; } pgprot_t;
typedef struct page *pgtable_t;

#define pte_val(x)	((x).pte)
#define pmd_val(x)	((x).pmd)
#define pgd_val(x)	((x).pgd)
#define pgprot_val(x)	((x).pgprot)
#define __pte(x)	((pte_t) { (x) })
#define __pmd(x)	((pmd_t) { (x) })
#define __pgd(x)	((pgd_t) { (x) })
#define __pgprot(x)	((pgprot_t) { (x) })

#define PAGE_OFFSET		(0UL)
#define ARCH_PFN_OFFSET		(0UL)
#define __va(x)			((void *)((unsigned long)(x)))
#define __pa(x)			((unsigned long)(x))
#define virt_to_pfn(kaddr)	(__pa(kaddr) >> PAGE_SHIFT)
#define pfn_to_virt(pfn)	__va((pfn) << PAGE_SHIFT)
#define virt_to_page(addr)	pfn_to_page(virt_to_pfn(addr))
#define page_to_virt(page)	pfn_to_virt(page_to_pfn(page))
#define virt_addr_valid(kaddr)	(1)
#define page_to_phys(page)	((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT)

/*
 * 7.x's FLATMEM depends on !NUMA, so a NUMA build has no memory model; the
 * flat identity map is the same either way.
 */
#if !defined(CONFIG_FLATMEM) && !defined(CONFIG_SPARSEMEM)
extern struct page *mem_map;
#define __pfn_to_page(pfn)	(mem_map + ((pfn) - ARCH_PFN_OFFSET))
#define __page_to_pfn(page)	((unsigned long)((page) - mem_map) + ARCH_PFN_OFFSET)
#endif

#include <asm-generic/memory_model.h>
#endif

#include <asm-generic/getorder.h>

#endif
