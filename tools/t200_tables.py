#!/usr/bin/python3
"""Reduce Blue Robotics' T200 sheets (tests/data/t200/t200_<V>V.csv) to the breakpoints that
src/actuation/t200.cpp ships, and print them as its C++ tables.

Each sheet is first made non-decreasing by the pool-adjacent-violators fit (a row is below the one
before it in five places, by at most 0.02 kgf: 10 V at 1700 us, 12 V at 1104 and 1896 us, 14 V at
1900 us, 18 V at 1132 us), so a table can be inverted by an allocation; then, from 1100 us, each next breakpoint is the farthest sheet row
that the straight line from the current one passes within TOLERANCE kgf of every row in between,
the ends of the dead band (the first and last row of zero thrust) always kept.

usage: tools/t200_tables.py [TOLERANCE]   (default 0.03 kgf)
"""
import csv
import pathlib
import sys

SHEETS = (10, 12, 14, 16, 18, 20)
DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "t200"


def read_sheet(volts):
    with open(DATA / f"t200_{volts}V.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return [float(r["pwm_us"]) for r in rows], [float(r["thrust_kgf"]) for r in rows]


def non_decreasing(y):
    blocks = []  # [mean, count]
    for v in y:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, n2 = blocks.pop()
            v1, n1 = blocks.pop()
            blocks.append([(v1 * n1 + v2 * n2) / (n1 + n2), n1 + n2])
    out = []
    for v, n in blocks:
        out += [round(v, 4)] * n
    return out


def line_fits(x, y, i, j, tolerance):
    for k in range(i + 1, j):
        at = y[i] + (y[j] - y[i]) * (x[k] - x[i]) / (x[j] - x[i])
        if abs(at - y[k]) > tolerance:
            return False
    return True


def breakpoints(x, y, tolerance):
    zeros = [k for k, v in enumerate(y) if v == 0.0]
    forced = sorted({0, len(x) - 1, zeros[0], zeros[-1]})
    keep, i = [0], 0
    while i < len(x) - 1:
        stop = min(k for k in forced if k > i)
        best = i + 1
        for j in range(i + 1, stop + 1):
            if line_fits(x, y, i, j, tolerance):
                best = j
            else:
                break
        keep.append(best)
        i = best
    return keep


def main():
    tolerance = float(sys.argv[1]) if len(sys.argv) > 1 else 0.03
    for volts in SHEETS:
        x, raw = read_sheet(volts)
        y = non_decreasing(raw)
        rows = ", ".join(f"{{{int(x[k])}, {y[k]:g}}}" for k in breakpoints(x, y, tolerance))
        print(f"constexpr SheetPoint kSheet{volts}V[] = {{{rows}}};")


if __name__ == "__main__":
    main()
