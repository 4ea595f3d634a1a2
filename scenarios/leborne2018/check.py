#!/usr/bin/python3
"""Checks what README.md says about the reproduction, on the outputs of reproduce.sh and seeds.sh.

Usage: /usr/bin/python3 check.py OUTDIR [SENSITIVITY_OUTDIR]
  OUTDIR               reproduce.sh's output with the shipped constants (and seeds.sh's, in
                       OUTDIR/seeds, if it was run there)
  SENSITIVITY_OUTDIR   reproduce.sh's output with 3x motor dry friction and rotor inertia
Figures the README prints are checked to the digits it prints (half a unit of the last one).
Exits 1 with the failed claims listed.
"""
import glob
import json
import math
import sys

import h5py
import numpy as np
import yaml

failures = []


def claim(ok, text):
    print(("ok      " if ok else "FAILED  ") + text)
    if not ok:
        failures.append(text)


def printed(value, shown):
    """Whether `value` is what the README prints as the string `shown` (rounded as printed)."""
    digits = len(shown.split(".")[1]) if "." in shown else 0
    return abs(value - float(shown)) <= 0.5 * 10 ** -digits + 1e-12


def gains(model_pair):
    with_, without = model_pair
    return [100 * (wo - w) / wo for w, wo in zip(with_["rmse"], without["rmse"])]


def motion(out):
    limits = [(2000, 20000, -90, 32, 28), (600, 6000, 7, 94, 9), (2000, 20000, 110, 244, 25)]  # Table III
    for run in ("excitation", "validation"):
        with h5py.File(f"{out}/{run}.h5", "r") as f:
            claim(f.attrs["status"] == "completed", f"{run}: the run completes")
            t = f["time"][:]
            moving = t >= 5.0
            for j, (v, a, lo, hi, _) in enumerate(limits, 1):
                g = f[f"joints/ariane/arm/joint{j}"]
                q = np.degrees(g["position"][:])
                inc_speed = g["motor_speed"][:] * 48 / (2 * np.pi)
                inc_accel = np.gradient(inc_speed, t)
                error = np.degrees(f[f"controllers/position{j}/error"][:])
                claim(lo <= q.min() and q.max() <= hi, f"{run}: joint {j} stays within Table III's {lo}…{hi}° ({q.min():.1f}…{q.max():.1f}°)")
                claim(np.abs(inc_speed).max() <= 0.8 * v * 1.01,
                      f"{run}: motor {j} within 80 % of {v} inc/s ({np.abs(inc_speed).max():.0f})")
                claim(np.abs(inc_accel[moving]).max() <= 0.8 * a,
                      f"{run}: motor {j} within 80 % of {a} inc/s² once moving ({np.abs(inc_accel[moving]).max():.0f})")
                claim(np.abs(error[moving]).max() < 0.1, f"{run}: joint {j} tracks its path within 0.1° ({np.abs(error[moving]).max():.3f}°)")
                current = g["current"][:][moving]
                if j == 2:
                    claim(0.8 < current.min() and current.max() < 3.0, f"{run}: joint 2 carries the weight, 0.8–3 A ({current.min():.2f}…{current.max():.2f} A)")
                else:
                    claim(np.abs(current).max() < 0.75, f"{run}: joint {j} below 0.75 A ({np.abs(current).max():.2f} A)")


def lever_arms(out):
    """The lever arm dL/dθ = l1 l2 sin θ / L relative to its largest, min(l1, l2) (sin α of the
    shorter arm), over both trajectories: "0.54–1, 0.73–1 and 0.52–1"."""
    lowest = [1.0, 1.0, 1.0]
    highest = [0.0, 0.0, 0.0]
    for run in ("excitation", "validation"):
        with h5py.File(f"{out}/{run}.h5", "r") as f:
            arm = yaml.safe_load(f.attrs["scenario"])["manipulators"][0]
            for j in range(3):
                a = arm["links"][j]["joint"]["actuator"]
                l1, l2 = a["l1"], a["l2"]
                theta = a.get("angle_offset", 0.0) + f[f"joints/ariane/arm/joint{j + 1}/position"][:]
                length = np.sqrt(l1 * l1 + l2 * l2 - 2 * l1 * l2 * np.cos(theta))
                relative = l1 * l2 * np.sin(theta) / length / min(l1, l2)
                lowest[j] = min(lowest[j], relative.min())
                highest[j] = max(highest[j], relative.max())
    shown = ["0.54", "0.73", "0.52"]
    claim(all(printed(lo, s) for lo, s in zip(lowest, shown)) and all(printed(hi, "1.00") for hi in highest),
          f"the lever arms span {', '.join(f'{lo:.3f}–{hi:.3f}' for lo, hi in zip(lowest, highest))} of their largest")


def logs(out):
    for run in ("excitation", "validation"):
        t = np.genfromtxt(f"{out}/{run}.csv", delimiter=",", skip_header=2)[:, 0]  # a comment, the names
        claim(np.allclose(np.diff(t), 0.1) and len(t) == 851, f"{run}.csv: the logs at the paper's 10 Hz ({len(t)} samples)")


def moving_samples(out, joint):
    """The validation log's samples where the joint moves at 0.01 rad/s or faster, inside the
    window sim identify keeps (5–85 s less one cutoff period, 2 s, at each end)."""
    with h5py.File(f"{out}/validation.h5", "r") as f:
        t = f["time"][:]
        v = f[f"joints/ariane/arm/joint{joint}/velocity"][:]
    logged = (np.arange(len(t)) % 10 == 0) & (t >= 7.0 - 1e-9) & (t <= 83.0 + 1e-9)
    return int(np.count_nonzero(logged & (np.abs(v) >= 0.01)))


def identification(out):
    d = json.load(open(f"{out}/identification.json"))
    with_, without = d["models"]
    # σ̂ of 2040 residuals of 0.12 A noise has a standard error of 0.12/√(2·2010) = 0.0019 A.
    claim(printed(with_["sigma"], "0.122") and abs(with_["sigma"] - 0.12) < 3 * 0.12 / math.sqrt(2 * 2010),
          f"with actuators: residual σ 0.122 A, the 0.12 A noise within three standard errors ({with_['sigma']:.4f} A)")
    z = [abs(p["estimate"] - p["scenario"]) / p["std"] for p in with_["parameters"]]
    claim(max(z) < 3.0 and printed(max(z), "2.8"), f"with actuators: all {len(z)} base parameters within 3σ of the scenario's values (largest {max(z):.2f}σ)")
    claim(len(z) == 30 and len(without["parameters"]) == 21, "30 base parameters with actuators, 21 without")
    zw = [abs(p["estimate"] - p["scenario"]) / p["std"] for p in without["parameters"]]
    claim(max(zw) > 10.0, f"without actuators: the estimates are biased (largest {max(zw):.0f}σ)")
    dry = [p["estimate"] / p["scenario"] for p in without["parameters"] if p["expression"].endswith(".fc")]
    claim(len(dry) == 3 and all(8.5 <= r < 20.5 for r in dry), f"without actuators: joint dry friction 9 to 20 times the true value ({', '.join(f'{r:.1f}' for r in dry)})")
    names = [p["expression"] for p in with_["parameters"]]
    claim("ariane/arm/upper_arm.mx + 0.443·ariane/arm/forearm.m + 0.443·ariane/arm/gripper.m" in names,
          "the regrouping MXR2 = MX2 + 0.443·(M3 + M4) appears")
    claim(any(n.startswith("ariane/arm/forearm.my + 0.436·ariane/arm/gripper.m") for n in names),
          "the locked gripper's parameters merge into the forearm's (MYR3 = MY3 + 0.436·M4 + …)")
    claim(all(f"ariane/arm/joint{j}.{k}" in names for j in (1, 2, 3) for k in ("Jm", "fvm", "fcm", "fv", "fc")),
          "each lever joint's motor constants and joint friction are separate base parameters")
    claim(abs(with_["condition"] / 8.9e7 - 1) <= 0.05 / 8.9 and printed(with_["scaled_condition"], "94"),
          f"cond(F) {with_['condition']:.2g}, {with_['scaled_condition']:.0f} with unit-norm columns")
    # Table IV, here: the figures as printed.
    table = {"without": ["0.1264", "0.1280", "0.1290"], "with": ["0.1229", "0.1311", "0.1210"],
             "improvement": ["2.8", "-2.5", "6.1"]}
    g = gains((with_, without))
    for j in range(3):
        claim(printed(without["rmse"][j], table["without"][j]) and printed(with_["rmse"][j], table["with"][j])
              and printed(g[j], table["improvement"][j]),
              f"joint {j + 1}: RMSE {without['rmse'][j]:.4f} A without, {with_['rmse'][j]:.4f} A with actuator dynamics, {g[j]:.1f} %")
    claim(all(3 <= round(x) <= 6 for x in (g[0], g[2])), f"joints 1 and 3 improve by 3–6 % ({g[0]:.1f}, {g[2]:.1f} %)")
    # Over the moving samples the "with" RMSE is the noise: within three standard errors of
    # 0.12 A, whose RMSE over n samples has a standard error of 0.12/√(2n).
    for j, shown in enumerate(["0.123", "0.126", "0.119"]):
        n = moving_samples(out, j + 1)
        band = 3 * 0.12 / math.sqrt(2 * n)
        r = with_["rmse_moving"][j]
        claim(printed(r, shown) and abs(r - 0.12) < band and 550 < n < 700 and printed(band, "0.010"),
              f"joint {j + 1}: RMSE while moving {r:.4f} A, within ±{band:.4f} A of the noise ({n} samples)")
    t = np.genfromtxt(f"{out}/predictions.csv", delimiter=",", skip_header=1)[:, 0]
    claim(abs(t[0] - 7.0) < 1e-6 and abs(t[-1] - 83.0) < 1e-6, f"the predictions (the figure) span 7–83 s ({t[0]:g}–{t[-1]:g} s)")
    # --write-part: no estimate is 3σ from the truth, so the part keeps the scenario's values.
    part = yaml.safe_load(open(f"{out}/ariane_arm_identified.yaml"))
    original = yaml.safe_load(open(__file__.rsplit("/", 1)[0] + "/ariane_arm.yaml"))
    same = all(np.allclose(np.array(a.get("inertia")), np.array(b.get("inertia"))) and np.isclose(a["mass"], b["mass"])
               for a, b in zip(part["manipulators"][0]["links"], original["manipulators"][0]["links"]))
    claim(same, "--write-part keeps the scenario's masses and inertias (no estimate differs from them by 3σ)")
    return g


def seeds(out, shipped):
    files = sorted(glob.glob(f"{out}/seeds/seed_*.json"))
    claim(len(files) == 7, f"seeds.sh: seven more seed pairs ({len(files)})")
    every = [shipped] + [gains(json.load(open(f))["models"]) for f in files]
    spans = [(min(g[j] for g in every), max(g[j] for g in every)) for j in range(3)]
    shown = [("2.5", "5.8"), ("-2.5", "2.8"), ("-0.7", "6.1")]
    claim(all(printed(lo, a) and printed(hi, b) for (lo, hi), (a, b) in zip(spans, shown)),
          "over eight seed pairs the improvements span " + ", ".join(f"{lo:.1f} to {hi:.1f} %" for lo, hi in spans))
    claim(all(g[0] > 0 for g in every) and sum(g[2] <= 0 for g in every) == 1,
          "joint 1 gains in every draw, joint 3 in all but one")
    claim(spans[1][0] < 0 < spans[1][1], "joint 2's gain is lost in the noise: some draws gain, some lose")


def sensitivity(out):
    d = json.load(open(f"{out}/identification.json"))
    g = gains(d["models"])
    claim(all(printed(x, s) for x, s in zip(g, ["18.8", "0.2", "18.4"])),
          f"3x motor friction and rotor inertia: improvements {g[0]:.1f}, {g[1]:.1f}, {g[2]:.1f} %")


motion(sys.argv[1])
lever_arms(sys.argv[1])
logs(sys.argv[1])
shipped = identification(sys.argv[1])
seeds(sys.argv[1], shipped)
if len(sys.argv) > 2:
    sensitivity(sys.argv[2])
if failures:
    sys.exit(1)
