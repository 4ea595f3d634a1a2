#!/usr/bin/python3
"""Figures like Sverdrup-Thygeson et al. 2018 Figs. 8 and 9 from the results of this folder's scenarios.

Usage: plot_figures.py METHOD1.h5 METHOD2.h5 WORK.h5 [-o OUTDIR]

  fig8_transport.png  one column per method (transport_method1.yaml, transport_method2.yaml):
                      (a, b) the east (Y) position of the front point and of the base against
                      north (X), with the path segments dashed, (c, d) the end effector's surge and sway speed,
                      (e, f) the joint angles, (g, h) the thrusts
  fig9_work_mode.png  work_mode.yaml: (a) end-effector position and (b) attitude (roll, pitch, yaw)
                      with their setpoints dashed, (c, d) the base's linear and angular velocity
                      with the references of eq. 42 dashed, (e) the joint angles, (f) the thrusts

The end effector is the point [0.37, 0, 0] of usm/link4 with that link's axes (usm.yaml).
Needs Debian's python3-h5py, python3-numpy, python3-matplotlib and python3-yaml. Exit code 2 for a file that
is not a result of the expected scenario.
"""
import argparse
import os
import sys

import h5py
import numpy as np
import yaml
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POINT = np.array([0.37, 0.0, 0.0])
YAW_JOINTS = ["yaw1", "yaw2", "yaw3", "yaw4"]
JOINTS = ["yaw1", "pitch1", "yaw2", "pitch2", "yaw3", "pitch3", "yaw4", "pitch4"]
THRUSTERS = ["tail_port", "tail_starboard", "tail_sway", "tail_heave", "middle_heave", "head_sway", "head_heave"]


def rotation(q):
    """Rotation matrices (N x 3 x 3) of quaternions [w, x, y, z] (N x 4), body to NED."""
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=-1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=-1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=-1)], axis=1)


def load(path, controller):
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        sys.exit(f"error: {path}: {e}")
    if "controllers/" + controller not in f or "bodies/usm/link4" not in f:
        sys.exit(f"error: {path}: not a result of a scenario in this folder (no controller '{controller}')")
    return f


def end_effector(f):
    """NED position and body-frame [u, v] of the end effector."""
    R = rotation(f["bodies/usm/link4/quaternion"][:])
    p = f["bodies/usm/link4/position"][:] + R @ POINT
    nu = f["bodies/usm/link4/velocity"][:]
    v = nu[:, :3] + np.cross(nu[:, 3:], POINT)
    return p, v


def thrusts(ax, f, t):
    for name in THRUSTERS:
        ax.plot(t, f[f"thrusters/usm/{name}/thrust"][:], label=name)
    ax.set_ylabel("thrust [N]")
    ax.legend(fontsize=6, ncol=2)


def joints(ax, f, t, names):
    for name in names:
        ax.plot(t, np.degrees(f[f"joints/usm/{name}/position"][:]), label=name)
    ax.set_ylabel("joint angle [deg]")
    ax.legend(fontsize=6, ncol=2)


def path_segments(f):
    """The line_of_sight's path from the resolved scenario the result file stores."""
    text = f.attrs["scenario"]
    scenario = yaml.safe_load(text.decode() if isinstance(text, bytes) else str(text))
    for c in scenario.get("controllers", []):
        if c.get("type") == "line_of_sight":
            return [(s["from"], s["to"]) for s in c["path"]]
    return []


def transport(results, out):
    fig, axes = plt.subplots(4, 2, figsize=(12, 13))
    for col, (title, f) in enumerate(results):
        t = f["time"][:]
        p, v = end_effector(f)
        base = f["bodies/usm/link0/position"][:]
        ax = axes[0, col]
        for a, b in path_segments(f):
            ax.plot([a[0], b[0]], [a[1], b[1]], "b--", lw=1)
        ax.plot(p[:, 0], p[:, 1], "r", label="front (end effector)")
        ax.plot(base[:, 0], base[:, 1], "k", lw=0.8, label="back (base)")
        ax.set_xlabel("north (X) [m]")
        ax.set_ylabel("east (Y) [m]")
        ax.legend(fontsize=7)
        ax.set_title(f"({'ab'[col]}) {title}: path (dashed) and tracks")
        ax = axes[1, col]
        ax.plot(t, v[:, 0], label="u (surge)")
        ax.plot(t, v[:, 1], "r", label="v (sway)")
        ax.set_ylabel("end-effector velocity [m/s]")
        ax.legend(fontsize=7)
        ax.set_title(f"({'cd'[col]}) {title}: end-effector velocity")
        joints(axes[2, col], f, t, YAW_JOINTS)
        axes[2, col].set_title(f"({'ef'[col]}) {title}: joint angles (pitch joints held at 0)")
        thrusts(axes[3, col], f, t)
        axes[3, col].set_title(f"({'gh'[col]}) {title}: thruster forces")
        axes[3, col].set_xlabel("time [s]")
    fig.suptitle("USM transport mode (Sverdrup-Thygeson et al. 2018, Fig. 8): scenarios/sverdrup-thygeson2018")
    fig.tight_layout()
    path = os.path.join(out, "fig8_transport.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def work_mode(f, out):
    t = f["time"][:]
    p, _ = end_effector(f)
    euler = f["bodies/usm/link4/euler"][:]
    setpoint = f["controllers/kinematics/setpoint"][:]
    reference = f["controllers/kinematics/output"][:, :6]
    nu = f["bodies/usm/link0/velocity"][:]
    fig, axes = plt.subplots(3, 2, figsize=(12, 11))
    panels = [(axes[0, 0], p, setpoint[:, :3], ["north", "east", "down"], "m", "(a) end-effector position"),
              (axes[0, 1], euler, setpoint[:, 3:], ["roll", "pitch", "yaw"], "rad", "(b) end-effector attitude"),
              (axes[1, 0], nu[:, :3], reference[:, :3], ["u", "v", "w"], "m/s", "(c) base linear velocity"),
              (axes[1, 1], nu[:, 3:], reference[:, 3:], ["p", "q", "r"], "rad/s", "(d) base angular velocity")]
    for ax, value, wanted, names, unit, title in panels:
        for k, name in enumerate(names):
            line, = ax.plot(t, value[:, k], label=name)
            ax.plot(t, wanted[:, k], "--", color=line.get_color(), lw=1)
        ax.set_ylabel(f"[{unit}]")
        ax.legend(fontsize=7)
        ax.set_title(title + " (dashed: setpoint or reference)")
    joints(axes[2, 0], f, t, JOINTS)
    axes[2, 0].set_title("(e) joint angles")
    thrusts(axes[2, 1], f, t)
    axes[2, 1].set_title("(f) thruster forces")
    for ax in axes[2]:
        ax.set_xlabel("time [s]")
    fig.suptitle("USM work mode (Sverdrup-Thygeson et al. 2018, Fig. 9): scenarios/sverdrup-thygeson2018/work_mode.yaml")
    fig.tight_layout()
    path = os.path.join(out, "fig9_work_mode.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("method1")
    parser.add_argument("method2")
    parser.add_argument("work")
    parser.add_argument("-o", "--outdir", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    m1, m2, work = load(args.method1, "guidance"), load(args.method2, "guidance"), load(args.work, "kinematics")
    print(transport([("Method 1", m1), ("Method 2", m2)], args.outdir))
    print(work_mode(work, args.outdir))


if __name__ == "__main__":
    main()
