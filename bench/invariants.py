#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""How many suite patterns break each invariant, per run of the suite.

usage: bench/invariants.py [-v] DIR...

Each DIR is a `linsched suite run --out DIR` (its results/*.json). For
each: the patterns with a result, those breaking any invariant, and per
check (idle_while_waiting, starvation, useless_migrations, kernel
warnings) how many break it; -v lists them with their count and first
violation. The before/after counts of the README's "Invariants" came
from:

    for r in v6.12.118 v7.3.4; do
        build/bin/linsched suite run $r --topology quad-smt --duration 1s \\
            --jobs 2 --out build/inv-$r
    done
    bench/invariants.py build/inv-v6.12.118 build/inv-v7.3.4
"""
import json
import os
import sys

CHECKS = ('idle_while_waiting', 'starvation', 'useless_migrations',
          'kernel_warnings')


def count(inv, check):
    return inv[check] if check == 'kernel_warnings' else inv[check]['count']


def main(argv):
    verbose = '-v' in argv
    dirs = [a for a in argv if a != '-v']
    if not dirs:
        sys.exit(__doc__.split('\n\n')[1])
    for d in dirs:
        res = os.path.join(d, 'results')
        n = broken = 0
        per = {c: [] for c in CHECKS}
        for f in sorted(os.listdir(res)):
            with open(os.path.join(res, f)) as fh:
                inv = json.load(fh).get('invariants')
            if not inv:
                continue
            n += 1
            hit = False
            for c in CHECKS:
                if count(inv, c):
                    hit = True
                    first = inv[c].get('first') if c != 'kernel_warnings' else None
                    per[c].append((f[:-5], count(inv, c), first))
            broken += hit
        print('%s: %d patterns, %d break an invariant' % (d, n, broken))
        for c in CHECKS:
            print('  %-20s %d' % (c, len(per[c])))
            if verbose:
                for name, k, first in per[c]:
                    print('      %s %d %s' % (name, k, json.dumps(first)))


if __name__ == '__main__':
    main(sys.argv[1:])
