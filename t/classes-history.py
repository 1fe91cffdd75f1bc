#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""classes-history.py - a long made-up history on a kernel-sized tree, for
listing and classifying commits (t/0940-classes-scale.sh, bench/classes.sh).

usage: classes-history.py REPO COMMITS [--files N] [--seed S]

Makes the bare repository REPO with git fast-import: a base commit (tag
"base") whose tree looks like a full kernel tree (about N files, default
40000: drivers/, Documentation/, arch/*, fs/, net/, sound/, tools/ with
Kconfig files at every depth, beside the build subset's Makefile, Kbuild,
include/, init/, kernel/, lib/, scripts/, io_uring/), then COMMITS commits on
refs/heads/main, merges of topic branches included. Most commits change
files outside the build subset; some change kernel/sched/*.c,
include/linux/*.h, Makefile, a Kconfig deep in drivers/, add or remove a
directory with a Kconfig, change a Kconfig's mode, or restore an earlier
content. The same arguments make the same commit ids.
"""
import argparse
import random
import subprocess
import sys

p = argparse.ArgumentParser()
p.add_argument("repo")
p.add_argument("commits", type=int)
p.add_argument("--files", type=int, default=40000)
p.add_argument("--seed", type=int, default=1)
a = p.parse_args()
rnd = random.Random(a.seed)
scale = a.files / 40000.0


def n(k):
    return max(1, int(k * scale))


# ---- the base tree: path -> (mode, content) ----
base = {}


def add(path, mode="100644"):
    base[path] = (mode, "%s 0\n" % path)


# the build subset
for f in ("Makefile", "Kbuild", "Kconfig"):
    add(f)
for i in range(n(600)):
    add("include/linux/h%d.h" % i)
for i in range(n(150)):
    add("include/uapi/linux/u%d.h" % i)
for i in range(n(60)):
    add("include/asm-generic/g%d.h" % i)
for f in ("main.c", "init_task.c", "Kconfig", "Makefile"):
    add("init/" + f)
for i in range(n(120)):
    add("kernel/k%d.c" % i)
for f in ("Kconfig.hz", "Kconfig.preempt", "Makefile"):
    add("kernel/" + f)
for f in ("core.c", "fair.c", "rt.c", "deadline.c", "idle.c", "topology.c",
          "loadavg.c", "pelt.c", "cpufreq_schedutil.c", "sched.h", "Makefile"):
    add("kernel/sched/" + f)
for i in range(n(250)):
    add("lib/l%d.c" % i)
for f in ("Kconfig", "Kconfig.debug", "Makefile"):
    add("lib/" + f)
for i in range(n(60)):
    add("scripts/s%d.c" % i)
add("scripts/Kconfig.include")
for i in range(n(25)):
    add("scripts/kconfig/c%d.c" % i)
add("scripts/checkpatch.pl", "100755")
add("io_uring/io-wq.h")
for i in range(n(25)):
    add("io_uring/u%d.c" % i)
add("io_uring/Kconfig")

# outside: directories of every depth, with Kconfig files spread inside
outside_files = []


def tree(prefix, depth, width, files):
    for i in range(files):
        path = "%sf%d.%s" % (prefix, i, "ch"[i % 2])
        add(path)
        outside_files.append(path)
    if rnd.random() < 0.8:
        add(prefix + "Kconfig")
    if rnd.random() < 0.1:
        add(prefix + "Kconfig.debug")
    add(prefix + "Makefile")
    if depth:
        for i in range(width):
            tree("%sd%d/" % (prefix, i), depth - 1, max(1, width - 1),
                 files)


for i in range(n(130)):
    tree("drivers/sub%d/" % i, 3, 3, 8)
for i in range(n(120)):
    for j in range(n(50)):
        path = "Documentation/area%d/doc%d.rst" % (i, j)
        add(path)
        outside_files.append(path)
for arch in ("x86", "arm64", "arm", "riscv", "powerpc", "mips", "s390",
             "loongarch", "sparc", "parisc", "m68k", "xtensa"):
    add("arch/%s/Kconfig" % arch)
    add("arch/%s/Kconfig.debug" % arch)
    for part in ("kernel", "mm", "boot", "lib", "include/asm", "configs"):
        tree("arch/%s/%s/" % (arch, part), 1, 3, n(15))
add("arch/x86/entry/syscalls/syscall_64.tbl")
add("arch/Kconfig")
for i in range(n(60)):
    tree("fs/fs%d/" % i, 1, 2, 12)
for i in range(n(50)):
    tree("net/proto%d/" % i, 1, 2, 12)
for i in range(n(30)):
    tree("sound/card%d/" % i, 1, 2, 8)
for top in ("crypto", "security", "mm", "block", "virt", "samples",
            "certs", "usr", "rust"):
    tree(top + "/", 1, 3, n(20))
for i in range(n(80)):
    add("tools/include/linux/t%d.h" % i)
tree("tools/testing/selftests/", 2, 4, 10)
add("MAINTAINERS")
add("COPYING")
# Names a glob or a path order can get wrong: a tree named like a match,
# names that are no match, a symbolic link and an executable that are,
# sibling directories whose tree order is not strcmp order.
add("drivers/Kconfig.d/a.c")
add("drivers/mykconfig")
add("drivers/kconfig.c")
add("drivers/sub0/Kconfig.link", "120000")
add("drivers/sub0/Kconfig.sh", "100755")
for d in ("drivers/gpu/", "drivers/gpu-extra/", "drivers/gpu.old/"):
    add(d + "Kconfig")
    add(d + "x.c")
    outside_files.append(d + "x.c")

kconfigs = sorted(p for p in base if p.split("/")[-1].startswith("Kconfig")
                  and p.startswith("drivers/") and p.count("/") >= 4)
sched = sorted(p for p in base if p.startswith("kernel/sched/"))
headers = sorted(p for p in base if p.startswith("include/linux/"))

# ---- the history ----
out = []
mark = 0
when = 1700000000
gen = 0


def data(s):
    b = s.encode()
    out.append(b"data %d\n" % len(b))
    out.append(b)
    out.append(b"\n")


def emit(ref, parents, changes, subject):
    """One commit on ref; changes: path -> (mode, content) or None."""
    global mark, when
    mark += 1
    when += 60
    out.append(b"commit %s\nmark :%d\n" % (ref.encode(), mark))
    out.append(b"committer Test Committer <committer@example.org> %d +0000\n"
               % when)
    data(subject + "\n")
    if parents:
        out.append(b"from :%d\n" % parents[0])
    for m in parents[1:]:
        out.append(b"merge :%d\n" % m)
    for path in sorted(changes):
        v = changes[path]
        if v is None:
            out.append(b"D %s\n" % path.encode())
        else:
            out.append(b"M %s inline %s\n" % (v[0].encode(), path.encode()))
            data(v[1])
    return mark


def change(files):
    """A random commit's changes to the tree files, and its subject."""
    global gen
    gen += 1
    k = rnd.random()
    ch = {}
    if k < 0.80:
        for _ in range(rnd.randint(1, 3)):
            path = rnd.choice(outside_files)
            if path in files:
                ch[path] = (files[path][0], "%s %d\n" % (path, gen))
        what = "outside"
    elif k < 0.83:
        path = rnd.choice(sched)
        ch[path] = ("100644", "%s %d\n" % (path, gen))
        what = "sched"
    elif k < 0.86:
        path = rnd.choice(headers)
        ch[path] = ("100644", "%s %d\n" % (path, gen))
        what = "header"
    elif k < 0.88:
        path = rnd.choice(kconfigs)
        if path in files:
            ch[path] = (files[path][0], "%s %d\n" % (path, gen))
        what = "kconfig"
    elif k < 0.885:
        ch["Makefile"] = ("100644", "Makefile %d\n" % gen)
        what = "makefile"
    elif k < 0.90:
        # a new directory deep in drivers/, with or without a Kconfig
        d = "drivers/sub%d/d0/new%d/" % (rnd.randrange(n(130)), gen)
        ch[d + "x.c"] = ("100644", "x %d\n" % gen)
        if rnd.random() < 0.5:
            ch[d + "Kconfig"] = ("100644", "config NEW%d\n" % gen)
        what = "newdir"
    elif k < 0.91:
        # a directory goes, its Kconfig with it
        d = "drivers/sub%d/d1/" % rnd.randrange(n(130))
        for path in files:
            if path.startswith(d):
                ch[path] = None
        what = "rmdir"
    elif k < 0.915:
        path = rnd.choice(kconfigs)
        if path in files:
            mode = "100755" if files[path][0] == "100644" else "100644"
            ch[path] = (mode, files[path][1])
        what = "chmod"
    elif k < 0.93:
        # back to the base content: a tree, or a subset, seen before
        path = rnd.choice(sched + kconfigs[:20] + outside_files[:50])
        if path in files and path in base:
            ch[path] = base[path]
        what = "restore"
    elif k < 0.94:
        what = "empty"
    else:
        for _ in range(rnd.randint(1, 5)):
            path = rnd.choice(outside_files)
            if path in files:
                ch[path] = (files[path][0], "%s %d\n" % (path, gen))
        what = "outside"
    return ch, what


def apply(files, ch):
    for path, v in ch.items():
        if v is None:
            files.pop(path, None)
        else:
            files[path] = v


main = dict(base)
tip = emit("refs/heads/main", [], base, "base")
out.append(b"reset refs/tags/base\nfrom :%d\n" % tip)
topics = []		# [ref, tip mark, tree, paths changed since the fork]
made = 0
while made < a.commits:
    k = rnd.random()
    if k < 0.01 and len(topics) < 3:
        topics.append(["refs/heads/topic%d" % mark, tip, dict(main), set()])
        continue
    if topics and k < 0.30:
        t = rnd.choice(topics)
        if len(t[3]) >= 3 and rnd.random() < 0.1:
            # merge it back: main's tree with the topic's changes
            ch = {p: t[2].get(p) for p in t[3]}
            tip = emit("refs/heads/main", [tip, t[1]], ch, "Merge " + t[0])
            apply(main, ch)
            topics.remove(t)
        else:
            ch, what = change(t[2])
            t[1] = emit(t[0], [t[1]], ch, what)
            apply(t[2], ch)
            t[3].update(ch)
        made += 1
        continue
    ch, what = change(main)
    tip = emit("refs/heads/main", [tip], ch, what)
    apply(main, ch)
    made += 1
for t in topics:
    # topics still open: merged at the end
    ch = {p: t[2].get(p) for p in t[3]}
    tip = emit("refs/heads/main", [tip, t[1]], ch, "Merge " + t[0])
    apply(main, ch)

subprocess.run(["git", "init", "-q", "--bare", a.repo], check=True)
subprocess.run(["git", "-C", a.repo, "fast-import", "--quiet"],
               input=b"".join(out), check=True)
print("%d files in the base tree, %d commits after it" % (len(base), mark - 1))
