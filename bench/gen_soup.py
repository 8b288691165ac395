#!/usr/bin/env python3
"""Writes a triangle soup as OBJ to stdout: N triangles, each of three independent random vertices
in the unit cube (no shared vertices, heavy overlap). `python3 bench/gen_soup.py 200000 >soup.obj`
gives the 22 MB file of issue 12. Deterministic for a given seed."""
import random
import sys


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    out = sys.stdout
    out.write("# triangle soup: %d random triangles, seed %d (bench/gen_soup.py)\n" % (count, seed))
    for _ in range(3 * count):
        out.write("v %.6f %.6f %.6f\n" % (rng.random(), rng.random(), rng.random()))
    for t in range(count):
        out.write("f %d %d %d\n" % (3 * t + 1, 3 * t + 2, 3 * t + 3))


if __name__ == "__main__":
    main()
