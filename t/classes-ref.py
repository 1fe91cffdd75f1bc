#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""classes-ref.py - check a 'linsched classes' listing against git itself
(t/0940-classes-scale.sh).

usage: classes-ref.py REPO RULES LISTING GOOD BAD [--first-parent]
                      [--sample N] [--other LISTING]

RULES is bisect/subset.list. Prints one line per check, "0 what" when it
holds and "1 what" when it does not, for lib.sh's ok(). Nothing here shares
code with bisect/: the commits come from git rev-list, whether two
neighbours differ in the build subset from git diff-tree (a changed path
that a rule takes), and the subset hash of sampled commits from git ls-tree
and the manifest format bisect.h documents, sorted and hashed here.
"""
import argparse
import fnmatch
import hashlib
import re
import subprocess

p = argparse.ArgumentParser()
p.add_argument("repo")
p.add_argument("rules")
p.add_argument("listing")
p.add_argument("good")
p.add_argument("bad")
p.add_argument("--first-parent", action="store_true")
p.add_argument("--sample", type=int, default=50)
p.add_argument("--other", help="another listing: the same commits must "
               "have the same subset hashes in both")
a = p.parse_args()


def git(*args, data=None):
    return subprocess.run(["git", "-C", a.repo] + list(args), input=data,
                          check=True, capture_output=True).stdout


rules = [l.strip() for l in open(a.rules)
         if l.strip() and not l.startswith("#")]
globs = [r[3:] for r in rules if r.startswith("**/")]
dirs = [r[:-1] for r in rules
        if not r.startswith("**/") and r.endswith("/") and len(r) >= 2]
glob_re = re.compile("|".join("(?:%s)" % fnmatch.translate(g)
                              for g in globs) or "(?!)")
files = [r for r in rules if not r.startswith("**/") and
         not (r.endswith("/") and len(r) >= 2)]


def report(cond, what):
    print("%d %s" % (0 if cond else 1, what))


def in_subset(path):
    """Does a change of the file at path change the build subset?"""
    if any(path == d or path.startswith(d + "/") for d in dirs):
        return True
    return path in files or bool(glob_re.match(path.rsplit("/", 1)[-1]))


def subset_hash(commit):
    """The subset hash from the whole tree, as bisect.h defines it."""
    entries = []
    for rec in git("ls-tree", "-r", "-t", "-z", "--full-tree",
                   commit).split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, oid = meta.split()
        entries.append((mode, kind, oid, path.decode()))
    present = {e[3] for e in entries if e[1] == b"tree" and e[3] in dirs}
    inside = tuple(d + "/" for d in present)
    lines = {}
    for mode, kind, oid, path in entries:
        if inside and path.startswith(inside):
            continue
        if kind == b"tree":
            if path not in present:
                continue
        elif path not in files and not glob_re.match(path.rsplit("/", 1)[-1]):
            continue
        lines[path] = b"%s %s %s\n" % (mode, oid, path.encode())
    text = b"".join(lines[k] for k in sorted(lines, key=str.encode))
    return hashlib.sha1(b"blob %d\0" % len(text) + text).hexdigest()


rows = [l.split() for l in open(a.listing)]
commits = [r[1] for r in rows]
fp = ["--first-parent"] if a.first_parent else []
what = "first parents" if a.first_parent else "full history"

# 1. the commits: GOOD, then exactly those git rev-list gives
want = git("rev-list", *fp, "%s..%s" % (a.good, a.bad)).decode().split()
good = git("rev-parse", a.good + "^{commit}").decode().strip()
bad = git("rev-parse", a.bad + "^{commit}").decode().strip()
report(rows and rows[0][0] == "0" and commits[0] == good and
       sorted(commits[1:]) == sorted(want) and commits[-1] == bad,
       "%s: GOOD, then the %d commits of git rev-list %s..%s, BAD last"
       % (what, len(want), a.good, a.bad))

# 2. oldest first: every commit after its parents in the range
pos = {c: i for i, c in enumerate(commits)}
late = 0
for line in git("rev-list", "--parents", *fp,
                "%s..%s" % (a.good, a.bad)).decode().splitlines():
    c, *parents = line.split()
    if a.first_parent:
        parents = parents[:1]
    late += any(pos.get(q, -1) > pos[c] for q in parents if q in pos)
report(late == 0, "%s: no commit before its parents (%d are)" % (what, late))

# 3. classes: a new number exactly where the subset hash changes
bad_classes = 0
for i in range(1, len(rows)):
    k, prev = int(rows[i][0]), int(rows[i - 1][0])
    new = rows[i][2] != rows[i - 1][2]
    bad_classes += k != (prev + 1 if new or i == 1 else prev)
nr_classes = int(rows[-1][0])
report(bad_classes == 0, "%s: %d classes, numbered where the subset hash "
       "changes" % (what, nr_classes))

# 4. every neighbour pair: a subset change by git diff-tree exactly where
# the hashes differ
pairs = ["%s %s\n" % (commits[i - 1], commits[i])
         for i in range(1, len(commits))]
out = git("diff-tree", "--stdin", "--always", "-r", "--no-renames",
          "--name-only", "-z", data="".join(pairs).encode())
changed, cur, ids = [], None, set(commits)
for tok in out.decode().split("\0"):
    if tok in ids:
        cur = len(changed)
        changed.append(False)
    elif tok:
        changed[cur] = changed[cur] or in_subset(tok)
wrong = [i + 1 for i, ch in enumerate(changed)
         if ch != (rows[i][2] != rows[i + 1][2])]
report(len(changed) == len(pairs) and not wrong,
       "%s: %d of %d neighbours differ in the subset by git diff-tree, as "
       "the hashes say (wrong: %s)"
       % (what, sum(changed), len(pairs), wrong[:5]))

# 5. the hash itself on a sample: evenly spread commits, GOOD, BAD, and
# both sides of evenly spread class boundaries
firsts = [i for i in range(1, len(rows)) if rows[i][0] != rows[i - 1][0]]
sample = {0, len(rows) - 1}
sample.update(range(0, len(rows), max(1, len(rows) // a.sample)))
for i in firsts[::max(1, len(firsts) // (a.sample // 2 or 1))]:
    sample.update((i - 1, i))
wrong = [commits[i][:12] for i in sorted(sample)
         if subset_hash(commits[i]) != rows[i][2]]
report(not wrong, "%s: the subset hash of %d sampled commits (%d at class "
       "boundaries) is git ls-tree's manifest hash (wrong: %s)"
       % (what, len(sample), len([i for i in sample if i in firsts]),
          wrong[:5]))

# 6. one commit, one hash, whatever the listing
if a.other:
    other = {r[1]: r[2] for r in (l.split() for l in open(a.other))}
    common = [r for r in rows if r[1] in other]
    report(common and all(other[r[1]] == r[2] for r in common),
           "%s: the %d commits also in %s have the same hashes there"
           % (what, len(common), a.other.rsplit("/", 1)[-1]))
