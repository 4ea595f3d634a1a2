#!/usr/bin/python3
"""Checks what README.md says about the reproduction, on the outputs of reproduce.sh.

Usage: /usr/bin/python3 check.py OUTDIR [SENSITIVITY_OUTDIR]
  OUTDIR               reproduce.sh's output with the shipped constants
  SENSITIVITY_OUTDIR   reproduce.sh's output with 3x motor dry friction and rotor inertia
Exits 1 with the failed claims listed.
"""
import json
import sys

import h5py
import numpy as np
import yaml

failures = []


def claim(ok, text):
    print(("ok      " if ok else "FAILED  ") + text)
    if not ok:
        failures.append(text)


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


def identification(out):
    d = json.load(open(f"{out}/identification.json"))
    with_, without = d["models"]
    claim(abs(with_["sigma"] - 0.12) < 0.004, f"with actuators: residual σ is the 0.12 A noise ({with_['sigma']:.4f} A)")
    z = [abs(p["estimate"] - p["scenario"]) / p["std"] for p in with_["parameters"]]
    claim(max(z) < 3.0, f"with actuators: all {len(z)} base parameters within 3σ of the scenario's values (largest {max(z):.2f}σ)")
    claim(len(z) == 30 and len(without["parameters"]) == 21, "30 base parameters with actuators, 21 without")
    zw = [abs(p["estimate"] - p["scenario"]) / p["std"] for p in without["parameters"]]
    claim(max(zw) > 10.0, f"without actuators: the estimates are biased (largest {max(zw):.0f}σ)")
    dry = [p["estimate"] / p["scenario"] for p in without["parameters"] if p["expression"].endswith(".fc")]
    claim(len(dry) == 3 and all(5 < r < 25 for r in dry), f"without actuators: joint dry friction 9–20 times the true value ({', '.join(f'{r:.1f}' for r in dry)})")
    names = [p["expression"] for p in with_["parameters"]]
    claim("ariane/arm/upper_arm.mx + 0.443·ariane/arm/forearm.m + 0.443·ariane/arm/gripper.m" in names,
          "the regrouping MXR2 = MX2 + 0.443·(M3 + M4) appears")
    claim(any(n.startswith("ariane/arm/forearm.my + 0.436·ariane/arm/gripper.m") for n in names),
          "the locked gripper's parameters merge into the forearm's (MYR3 = MY3 + 0.436·M4 + …)")
    claim(all(f"ariane/arm/joint{j}.{k}" in names for j in (1, 2, 3) for k in ("Jm", "fvm", "fcm", "fv", "fc")),
          "each lever joint's motor constants and joint friction are separate base parameters")
    claim(1e7 < with_["condition"] < 1e9 and 30 < with_["scaled_condition"] < 300,
          f"cond(F) {with_['condition']:.2g}, {with_['scaled_condition']:.0f} with unit-norm columns")
    for j in range(3):
        w, wo = with_["rmse"][j], without["rmse"][j]
        claim(0.118 < w < 0.132, f"joint {j + 1}: RMSE with actuator dynamics {w:.4f} A, the noise plus the samples at rest")
        gain = 100 * (wo - w) / wo
        if j == 1:
            claim(abs(gain) < 2.0, f"joint 2: improvement small ({gain:.2f} %)")
        else:
            claim(2.0 < gain < 8.0, f"joint {j + 1}: improvement between 2 and 8 % ({gain:.2f} %)")
        claim(abs(with_["rmse_moving"][j] - 0.12) < 0.005, f"joint {j + 1}: RMSE while moving is the noise ({with_['rmse_moving'][j]:.4f} A)")
    # --write-part: no estimate is 3σ from the truth, so the part keeps the scenario's values.
    part = yaml.safe_load(open(f"{out}/ariane_arm_identified.yaml"))
    original = yaml.safe_load(open(__file__.rsplit("/", 1)[0] + "/ariane_arm.yaml"))
    same = all(np.allclose(np.array(a.get("inertia")), np.array(b.get("inertia"))) and np.isclose(a["mass"], b["mass"])
               for a, b in zip(part["manipulators"][0]["links"], original["manipulators"][0]["links"]))
    claim(same, "--write-part keeps the scenario's masses and inertias (no estimate differs from them by 3σ)")


def sensitivity(out):
    d = json.load(open(f"{out}/identification.json"))
    with_, without = d["models"]
    gains = [100 * (wo - w) / wo for w, wo in zip(with_["rmse"], without["rmse"])]
    claim(gains[0] > 10 and gains[2] > 10 and abs(gains[1]) < 3,
          f"3x motor friction and rotor inertia: improvements {gains[0]:.1f}, {gains[1]:.1f}, {gains[2]:.1f} %")


motion(sys.argv[1])
identification(sys.argv[1])
if len(sys.argv) > 2:
    sensitivity(sys.argv[2])
if failures:
    sys.exit(1)
