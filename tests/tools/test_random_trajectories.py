#!/usr/bin/python3
"""tools/random_trajectories: every trial within the URDF's position and velocity limits, the
1x-2x stretch of the shortest admissible duration, reproducible from its seed, and accepted by
the scenario it is written for, whose joint channels then stay within the velocity limits.
Usage: tests/tools/test_random_trajectories.py REPO_ROOT SIM_EXECUTABLE"""
import csv
import io
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import h5py
import numpy as np

root, sim = sys.argv[1], sys.argv[2]
tool = os.path.join(root, "tools", "random_trajectories")
urdf = os.path.join(root, "scenarios", "kolano2024", "alpha5.urdf")
scenario = os.path.join(root, "scenarios", "kolano2024", "alpha5_trajectory.yaml")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def generate(*args):
    return subprocess.run([tool, *args], capture_output=True, text=True, check=True).stdout


def rows(text):
    table = list(csv.reader(io.StringIO(text)))
    return table[0], [[float(x) for x in r] for r in table[1:]]


# The limits, read here from the URDF on their own.
limits = {}
for j in ET.parse(urdf).getroot().findall("joint"):
    if j.get("type") in ("revolute", "prismatic"):
        lim = j.find("limit")
        limits[j.get("name")] = (float(lim.get("lower")), float(lim.get("upper")), float(lim.get("velocity")))
check(sorted(limits) == ["axis_b", "axis_c", "axis_d", "axis_e"], f"moving joints {sorted(limits)}")

# Reproducible: the same seed gives the same bytes; another seed other trials; trial k is
# trial k whatever the number of trials.
a = generate("--seed", "7", "--trials", "200")
check(a == generate("--seed", "7", "--trials", "200"), "same seed, same file")
check(a != generate("--seed", "8", "--trials", "200"), "another seed, other trials")
check(generate("--seed", "7", "--trials", "3").splitlines() == a.splitlines()[:4], "trial k independent of --trials")
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "sub", "trials.csv")
    subprocess.run([tool, "--seed", "7", "--trials", "200", "-o", out], check=True)
    check(open(out).read() == a, "-o writes what stdout shows")

header, trials = rows(a)
col = {k: i for i, k in enumerate(header)}
stretches = []
for n, r in enumerate(trials):
    durations = set()
    t_min = 0.0
    for name, (lo, hi, v) in limits.items():
        q0 = r[col[f"joints.uvms/alpha/{name}.initial.position"]]
        f, to = r[col[f"inputs.q_{name}.from"]], r[col[f"inputs.q_{name}.to"]]
        start, stop = r[col[f"inputs.q_{name}.start"]], r[col[f"inputs.q_{name}.stop"]]
        check(lo <= q0 <= hi and lo <= to <= hi, f"trial {n} {name}: start {q0} and goal {to} within [{lo}, {hi}]")
        check(f == q0, f"trial {n} {name}: the path starts at the start pose")
        check(start == 10.0, f"trial {n} {name}: 10 s of settling")
        T = stop - start
        durations.add(T)
        # A quintic's peak speed is 15/8 |Δq| / T.
        check(15.0 / 8.0 * abs(to - f) / T <= v * (1 + 1e-12), f"trial {n} {name}: peak speed within {v}")
        t_min = max(t_min, 15.0 / 8.0 * abs(to - f) / v)
    check(len(durations) == 1, f"trial {n}: one duration for every joint")
    T = durations.pop()
    stretches.append(T / t_min)
    check(r[col["simulation.duration"]] == 10.0 + T + 10.0, f"trial {n}: 10 s after the motion")
stretches = np.array(stretches)
check(stretches.min() >= 1.0 - 1e-12 and stretches.max() <= 2.0 + 1e-12, f"stretch in [1, 2]: {stretches.min()}, {stretches.max()}")
check(stretches.min() < 1.1 and stretches.max() > 1.9, "the stretch spans 1x-2x over 200 trials")

# A trial through the scenario it is written for: sim takes every key, and the joint channels it
# records move no faster than the limits.
_, one = rows(generate("--seed", "2024", "--trials", "2"))
with tempfile.TemporaryDirectory() as d:
    args = [sim, "-q", scenario, "-o", os.path.join(d, "r.h5")]
    for k, v in zip(header, one[1]):
        args += ["--set", f"{k}={v!r}"]
    subprocess.run(args, check=True)
    with h5py.File(os.path.join(d, "r.h5")) as f:
        t = f["time"][:]
        check(abs(t[-1] - one[1][col["simulation.duration"]]) < 1e-9, "the run lasts the trial's duration")
        for name, (lo, hi, v) in limits.items():
            c = f[f"inputs/q_{name}"][:]
            speed = np.abs(np.diff(c) / np.diff(t)).max()
            check(speed <= v, f"channel q_{name}: {speed} rad/s within {v}")
            check(np.all((c >= lo) & (c <= hi)), f"channel q_{name} within its limits")
            check(abs(c[0] - one[1][col[f"inputs.q_{name}.from"]]) < 1e-12, f"channel q_{name} starts at q0")
            check(abs(c[-1] - one[1][col[f"inputs.q_{name}.to"]]) < 1e-12, f"channel q_{name} ends at q1")

# Bad arguments: exit code 2 and a message.
bad = subprocess.run([tool, "--joint", "nonexistent"], capture_output=True, text=True)
check(bad.returncode == 2 and "nonexistent" in bad.stderr, "an unknown joint is exit code 2")

print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
