#!/usr/bin/python3
"""Sweep a vehicle's steady surge speed and follow its eigenvalues (sim trim + sim linearize).

For each speed U, `sim linearize SCENARIO --trim --set <speed key>=U` trims the vehicle at
that surge speed (the scenario's trim block says what is free: by default the surge force,
heave speed and pitch) and linearises there. From each linear model this takes
  - the pitch-heave eigenvalue: the least stable of the modes in which w, q and rot_y take
    more than half the part (participation factors),
  - the sway-yaw eigenvalue: likewise for v, r and rot_z,
and writes DIR/sweep.csv (U, trimmed force, pitch, heave speed, their eigenvalues) and
DIR/sweep.png (real parts against U). The speed where the pitch-heave real part crosses
zero is found by bisection between the sweep points that bracket it, to --tolerance.

Usage: scenarios/stability/surge_stability_sweep.py [--sim build/sim] [-o DIR]
         [--scenario FILE] [--body NAME] [--speeds FROM:TO:STEP] [--set KEY=VALUE]...
Example (the neutrally buoyant vehicle, whose onset the closed form gives):
  scenarios/stability/surge_stability_sweep.py --set bodies.bluerov2/rov.volume=0.0115
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def linearize(args, speed, work):
    out = os.path.join(work, "u_%.6f.h5" % speed)
    cmd = [args.sim, "linearize", args.scenario, "--trim", "-q", "-o", out,
           "--set", "bodies.%s.initial.velocity.0=%r" % (args.body, speed)]
    for s in args.set:
        cmd += ["--set", s]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s\nexit %d: %s" % (" ".join(cmd), done.returncode, done.stderr.strip()))
    with open(out[:-3] + ".json") as f:
        return json.load(f)


def mode_of(model, components):
    """The least stable eigenvalue of the modes in which the body's `components` take more
    than half the part."""
    states = model["states"]
    index = [states.index("bodies.%s.%s" % (ARGS.body, c)) for c in components]
    best = None
    for m in model["modes"]:
        re, im = m["eigenvalue"]
        if im < 0 or m["neutral"] or sum(m["participation"][i] for i in index) <= 0.5:
            continue
        if best is None or re > best.real:
            best = complex(re, im)
    return best


def point(args, speed, work):
    model = linearize(args, speed, work)
    op = model["operating_point"]
    ph = mode_of(model, ["w", "q", "rot_y"])
    sy = mode_of(model, ["v", "r", "rot_z"])
    force = next(iter(op["inputs"].values())) if op["inputs"] else float("nan")
    return {"U": speed, "force": force, "pitch_heave": ph, "sway_yaw": sy}


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sim", default=os.path.join(REPO, "build", "sim"))
    p.add_argument("--scenario", default=os.path.join(HERE, "bluerov2_surge_stability.yaml"))
    p.add_argument("--body", default="bluerov2/rov")
    p.add_argument("--speeds", default="0.05:1.0:0.05", help="FROM:TO:STEP in m/s")
    p.add_argument("--set", action="append", default=[], help="a --set passed to every sim run")
    p.add_argument("--tolerance", type=float, default=1e-5, help="m/s, of the crossing speed")
    p.add_argument("-o", "--output", default=os.path.join("results", "surge_stability"))
    ARGS = args = p.parse_args()
    lo, hi, step = (float(v) for v in args.speeds.split(":"))
    speeds = [lo + k * step for k in range(int(round((hi - lo) / step)) + 1)]
    os.makedirs(args.output, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        rows = [point(args, u, work) for u in speeds]
        crossing = None
        for a, b in zip(rows, rows[1:]):
            if a["pitch_heave"].real < 0 <= b["pitch_heave"].real:
                u0, u1 = a["U"], b["U"]
                while u1 - u0 > args.tolerance:
                    mid = 0.5 * (u0 + u1)
                    if point(args, mid, work)["pitch_heave"].real < 0:
                        u0 = mid
                    else:
                        u1 = mid
                crossing = 0.5 * (u0 + u1)
                break
    with open(os.path.join(args.output, "sweep.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["U", "force", "re_pitch_heave", "im_pitch_heave", "re_sway_yaw", "im_sway_yaw"])
        for r in rows:
            w.writerow(["%.6g" % r["U"], "%.9g" % r["force"], "%.9g" % r["pitch_heave"].real,
                        "%.9g" % r["pitch_heave"].imag, "%.9g" % r["sway_yaw"].real, "%.9g" % r["sway_yaw"].imag])
    print("pitch-heave real part crosses zero at U = %s m/s" % ("%.5f" % crossing if crossing else "(not in range)"))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return 0
    fig, ax = plt.subplots(figsize=(7, 4))
    U = [r["U"] for r in rows]
    ax.plot(U, [r["pitch_heave"].real for r in rows], "o-", label="pitch-heave")
    ax.plot(U, [r["sway_yaw"].real for r in rows], "s-", label="sway-yaw")
    ax.axhline(0.0, color="k", lw=0.8)
    if crossing:
        ax.axvline(crossing, color="C0", ls="--", lw=0.8, label="onset %.4f m/s" % crossing)
    ax.set_xlabel("steady surge speed U (m/s)")
    ax.set_ylabel("Re λ (1/s)")
    ax.set_title(os.path.basename(args.scenario) + (" " + " ".join(args.set) if args.set else ""), fontsize=8)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(args.output, "sweep.png"), dpi=120)
    print("wrote %s and %s" % (os.path.join(args.output, "sweep.csv"), os.path.join(args.output, "sweep.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
