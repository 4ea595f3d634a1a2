#!/usr/bin/python3
"""Make PNG plots from a simulator result HDF5 file.

Usage: tools/plot.py RESULT.h5 [-o OUTDIR] [--body NAME ...]

For every body (or only the ones given with --body) it writes
<body>_position.png, <body>_attitude.png and <body>_velocity.png to OUTDIR
(default: <stem>_plots/ next to RESULT.h5) and prints each path it wrote.
If the file has joints it also writes joints.png (position, velocity and effort of
every joint; angles in degrees); when revolute (rad/deg) and prismatic joints are
mixed, the prismatic ones go to joints_prismatic.png. --body does not affect joints.
If the file has thrusters it writes thrusters.png (command, shaft speed where there is
one, and thrust of every thruster); --body does not affect them either.
If the file has connectors it writes connectors.png: the force and moment each applies to
its first body (components x solid, y dashed, z dotted) and its position and attitude
errors (log scale).
A body / joint is any group directly holding a `position` dataset (bodies: or an
`euler` / `velocity` one) at any depth below /bodies or /joints; its name is the path
below that group (e.g. arm1/link2), with '/' written as '_' in PNG file names.
Other groups are ignored; missing datasets are skipped with a warning.

tools/plot.py --compare RUN.h5 [RUN.h5 ...] --body NAME -o FIGURE.png [--labels A B ...]
overlays several runs of one body in one figure, as paper 000's Figs. 13 and 16 compare
trials: its horizontal path (north against east, to scale), horizontal speed ‖(ṅ, ė)‖,
heading ψ (unwrapped, degrees) and yaw rate r (deg/s). Each run is labelled by --labels,
else by its `--set` overrides (root attribute `overrides`), else by its file name.
Exit codes: 0 ok, 1 nothing to plot, 2 missing file / not a result file / unknown body.
Needs Debian's python3-h5py, python3-numpy and python3-matplotlib.
"""
import argparse
import contextlib
import io
import math
import os
import re
import sys
import tempfile

import h5py
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DEFAULT_COLUMNS = {"position": ["north", "east", "down"], "euler": ["roll", "pitch", "yaw"],
                   "velocity": ["u", "v", "w", "p", "q", "r"]}
DEFAULT_UNITS = {"position": "m", "euler": "rad", "velocity": "m/s, rad/s"}


class ResultError(Exception):
    """The input is not a readable result file (exit code 2)."""


def text_attr(obj, name, default=""):
    """Return an HDF5 attribute as str (handles bytes and 1-element arrays)."""
    value = obj.attrs.get(name, default)
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.item()
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def load_series(ds, name, n):
    """Return (data (n x cols), column names, per-column units) for dataset `ds`."""
    data = np.asarray(ds[()], dtype=float).reshape(ds.shape[0], -1)[:n]
    ncols = data.shape[1]
    cols = [c.strip() for c in text_attr(ds, "columns").split(",") if c.strip()]
    if len(cols) != ncols:
        cols = (DEFAULT_COLUMNS.get(name, []) + [f"col{i}" for i in range(ncols)])[:ncols]
    units = [u.strip() for u in text_attr(ds, "units", DEFAULT_UNITS.get(name, "")).split(",")]
    # one unit for all columns, one per group of columns (e.g. "m/s, rad/s"), or one per column
    units = [units[i // (ncols // len(units))] if ncols % len(units) == 0 else "" for i in range(ncols)]
    return data, cols, units


def label(name, unit):
    return f"{name} [{unit}]" if unit else name


def run_title(f, stem):
    """Return (scenario name, status note) for figure titles; the note is empty when completed."""
    status = text_attr(f, "status", "completed") or "completed"
    status = status if len(status) <= 60 else status[:57] + "..."
    return text_attr(f, "scenario_name") or stem, "" if status == "completed" else f"\n[status: {status}]"


def plot_position(fig, t, data, cols, units):
    """North/east/down vs time on the left, the north-east track on the right."""
    grid = fig.add_gridspec(3, 2, width_ratios=[1.3, 1])
    axes = [fig.add_subplot(grid[0, 0])]
    axes += [fig.add_subplot(grid[i, 0], sharex=axes[0]) for i in (1, 2)]
    for i, ax in enumerate(axes):
        ax.plot(t, data[:, i])
        ax.set_ylabel(label(cols[i], units[i]))
        ax.tick_params(labelbottom=i == 2)
    track = fig.add_subplot(grid[:, 1])
    track.plot(data[:, 1], data[:, 0])
    track.plot(data[0, 1], data[0, 0], "go", label="start")
    track.plot(data[-1, 1], data[-1, 0], "rs", label="end")
    track.set(aspect="equal", adjustable="datalim", title=f"{cols[0]}–{cols[1]} track",
              xlabel=label(cols[1], units[1]), ylabel=label(cols[0], units[0]))
    track.grid(True, alpha=0.4)
    track.legend(loc="best")
    return axes


def plot_attitude(fig, t, data, cols, units):
    """Roll, pitch, yaw in degrees, one panel each."""
    axes = fig.subplots(3, 1, sharex=True)
    for i, ax in enumerate(axes):
        deg = data[:, i] if units[i].lower().startswith("deg") else np.degrees(data[:, i])
        wraps = np.flatnonzero(np.abs(np.diff(deg)) > 180) + 1  # don't draw lines across ±180° wraps
        ax.plot(np.insert(t, wraps, np.nan), np.insert(deg, wraps, np.nan))
        ax.set_ylabel(label(cols[i], "deg"))
    return axes


def plot_velocity(fig, t, data, cols, units):
    """Linear (u, v, w) and angular (p, q, r) body-frame velocity panels."""
    axes = fig.subplots(2, 1, sharex=True)
    for ax, first, kind in ((axes[0], 0, "linear"), (axes[1], 3, "angular")):
        for i in range(first, first + 3):
            ax.plot(t, data[:, i], label=cols[i])
        ax.set_ylabel(label(f"{kind} velocity", units[first]))
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
    return axes


# dataset name -> (output suffix, minimum columns, plot function, figure size, title text)
PLOTS = {"position": ("position", 3, plot_position, (12, 7.5), "position"),
         "euler": ("attitude", 3, plot_attitude, (10, 7.5), "attitude (ZYX Euler angles)"),
         "velocity": ("velocity", 6, plot_velocity, (10, 7), "body-frame velocity")}


def plot_dataset(ds, name, t, tu, title, outdir, body):
    """Plot one body dataset to a PNG; return its path, or None if unusable."""
    suffix, ncols, func, size, what = PLOTS[name]
    data, cols, units = load_series(ds, name, min(len(t), ds.shape[0]))
    if data.shape[0] == 0 or data.shape[1] < ncols:
        print(f"plot.py: warning: {body}/{name} is empty or has too few columns, skipped", file=sys.stderr)
        return None
    fig = plt.figure(figsize=size, layout="constrained")
    axes = func(fig, t[:len(data)], data, cols, units)
    for ax in axes:
        ax.grid(True, alpha=0.4)
    axes[-1].set_xlabel(label("time", tu))
    fig.suptitle(f"{title[0]} — {body} {what}{title[1]}")
    out = os.path.join(outdir, f"{file_name(body)}_{suffix}.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def find_members(f, top, marks):
    """Names (paths relative to /top) of the groups below /top directly holding a dataset in `marks`."""
    group = f.get(top)
    if not isinstance(group, h5py.Group):
        return []
    found = []

    def visit(name, obj):
        if isinstance(obj, h5py.Group) and any(isinstance(obj.get(m), h5py.Dataset) for m in marks):
            found.append(name)
    group.visititems(visit)
    return sorted(found, key=lambda name: [(int(p), "") if p.isdigit() else (math.inf, p)
                                           for p in re.split(r"(\d+)", name)])  # joint2 before joint10


def file_name(name):
    """A body / joint name as used in an output file name ('/' -> '_')."""
    return name.replace("/", "_")


RAD = re.compile(r"^rad(ians?)?(?=$|[/ ·*^])")


def load_joint_series(joint, name, n, degrees=True):
    """Return (values, display unit) of joints/<joint>/<name> (radians shown as degrees), or None."""
    ds = joint.get(name)
    if not isinstance(ds, h5py.Dataset) or ds.ndim < 1 or ds.shape[0] == 0 or ds.size != ds.shape[0]:
        return None
    data = np.asarray(ds[()], dtype=float).ravel()[:n]
    unit = text_attr(ds, "units").strip()
    if degrees and RAD.match(unit):
        return np.degrees(data), RAD.sub("deg", unit)
    return data, unit


JOINT_PANELS = (("position", "position"), ("velocity", "velocity"), ("effort", "effort"))
THRUSTER_PANELS = (("command", "command"), ("shaft_speed", "shaft speed"), ("thrust", "thrust"))


def plot_joint_group(joints, t, tu, title, outfile, what, panels=JOINT_PANELS, kind="joints"):
    """One figure: position / velocity / effort panels, a line per joint, legend on the right."""
    count = len(joints)
    ncol = 1 if count <= 12 else 2 if count <= 36 else 3
    font = "medium" if count <= 12 else "small" if count <= 24 else "x-small"
    rows = math.ceil(count / ncol)
    longest = max(len(name) for name in joints)
    per_char = {"medium": 0.075, "small": 0.065, "x-small": 0.055}[font]
    legend_w = ncol * (0.55 + per_char * longest)
    fig = plt.figure(figsize=(9 + legend_w, max(7.5, 1.5 + 0.22 * rows)), layout="constrained")
    grid = fig.add_gridspec(3, 2, width_ratios=[9, legend_w])
    axes = [fig.add_subplot(grid[0, 0])]
    axes += [fig.add_subplot(grid[i, 0], sharex=axes[0]) for i in (1, 2)]
    colors = plt.get_cmap("tab10" if count <= 10 else "tab20").colors
    styles = ("-", "--", ":", "-.")
    handles = {}
    for ax, (key, what_label) in zip(axes, panels):
        units = []
        for k, (name, series) in enumerate(joints.items()):
            if series.get(key) is None:
                continue
            data, unit = series[key]
            units += [unit] if unit not in units else []
            line, = ax.plot(t[:len(data)], data, color=colors[k % len(colors)],
                            linestyle=styles[(k // len(colors)) % len(styles)], label=name)
            handles.setdefault(name, line)
        ax.set_ylabel(label(what_label, ", ".join(u for u in units if u)))
        ax.tick_params(labelbottom=ax is axes[-1])
        ax.grid(True, alpha=0.4)
        if not units:
            ax.text(0.5, 0.5, f"no {key} data", transform=ax.transAxes, ha="center", va="center", color="gray")
    axes[-1].set_xlabel(label("time", tu))
    legend_ax = fig.add_subplot(grid[:, 1])
    legend_ax.axis("off")
    legend_ax.legend([handles[n] for n in joints if n in handles], [n for n in joints if n in handles],
                     loc="upper left", bbox_to_anchor=(0.0, 1.0), borderaxespad=0.0, ncol=ncol,
                     fontsize=font, title=f"{kind} ({count})", title_fontsize=font)
    fig.suptitle(f"{title[0]} — {what}{title[1]}")
    fig.savefig(outfile, dpi=110)
    plt.close(fig)
    return outfile


def plot_joints(f, t, tu, title, outdir):
    """Write joints.png (and joints_prismatic.png when revolute and prismatic are mixed); return paths."""
    revolute, prismatic = {}, {}
    for name in find_members(f, "joints", ("position",)):
        joint = f["joints"][name]
        series = {key: load_joint_series(joint, key, len(t)) for key, _ in JOINT_PANELS}
        if series["position"] is None:
            print(f"plot.py: warning: joint {name}: position is empty or not 1-D, skipped", file=sys.stderr)
            continue
        for key in ("velocity", "effort"):
            if series[key] is None:
                print(f"plot.py: warning: joint {name}: {key} missing, empty or not 1-D", file=sys.stderr)
        angular = series["position"][1].startswith("deg")
        (revolute if angular else prismatic)[name] = series
    if revolute and prismatic:
        return [plot_joint_group(revolute, t, tu, title, os.path.join(outdir, "joints.png"), "revolute joints"),
                plot_joint_group(prismatic, t, tu, title, os.path.join(outdir, "joints_prismatic.png"),
                                 "prismatic joints")]
    if revolute or prismatic:
        return [plot_joint_group(revolute or prismatic, t, tu, title, os.path.join(outdir, "joints.png"), "joints")]
    return []


def plot_thrusters(f, t, tu, title, outdir):
    """Write thrusters.png (command, shaft speed, thrust of every thruster); return its path in a list."""
    thrusters = {}
    for name in find_members(f, "thrusters", ("thrust",)):
        group = f["thrusters"][name]
        series = {key: load_joint_series(group, key, len(t), degrees=False) for key, _ in THRUSTER_PANELS}
        if series["thrust"] is None:
            print(f"plot.py: warning: thruster {name}: thrust is empty or not 1-D, skipped", file=sys.stderr)
            continue
        thrusters[name] = series
    if not thrusters:
        return []
    return [plot_joint_group(thrusters, t, tu, title, os.path.join(outdir, "thrusters.png"), "thrusters",
                             THRUSTER_PANELS, "thrusters")]


def plot_connectors(f, t, tu, title, outdir):
    """Write connectors.png (wrench components and errors of every connector); return its path in a list."""
    connectors = {}
    for name in find_members(f, "connectors", ("wrench",)):
        group = f["connectors"][name]
        wrench, violation = group.get("wrench"), group.get("violation")
        if not isinstance(wrench, h5py.Dataset) or wrench.ndim != 2 or wrench.shape[1] != 6:
            print(f"plot.py: warning: connector {name}: wrench is not N×6, skipped", file=sys.stderr)
            continue
        ok_violation = isinstance(violation, h5py.Dataset) and violation.ndim == 2 and violation.shape[1] == 2
        connectors[name] = (np.asarray(wrench[()], dtype=float)[:len(t)],
                            np.asarray(violation[()], dtype=float)[:len(t)] if ok_violation else None)
    if not connectors:
        return []
    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(11, 8.5), layout="constrained")
    colors = plt.get_cmap("tab10").colors
    styles = ("-", "--", ":")
    for k, (name, (wrench, violation)) in enumerate(connectors.items()):
        color = colors[k % len(colors)]
        n = len(wrench)
        for i, axis in enumerate("xyz"):
            axes[0].plot(t[:n], wrench[:, i], color=color, linestyle=styles[i], label=f"{name} F{axis}")
            axes[1].plot(t[:n], wrench[:, 3 + i], color=color, linestyle=styles[i], label=f"{name} M{axis}")
        if violation is not None:
            m = len(violation)
            axes[2].semilogy(t[:m], np.maximum(violation[:, 0], 1e-18), color=color, linestyle="-", label=f"{name} position (m)")
            axes[2].semilogy(t[:m], np.maximum(violation[:, 1], 1e-18), color=color, linestyle="--", label=f"{name} angle (rad)")
    axes[0].set_ylabel(label("force on first body", "N"))
    axes[1].set_ylabel(label("moment at the point", "N m"))
    axes[2].set_ylabel("error (m, rad)")
    axes[2].set_xlabel(label("time", tu))
    for ax in axes:
        ax.grid(True, alpha=0.4)
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.suptitle(f"{title[0]} — connectors{title[1]}")
    out = os.path.join(outdir, "connectors.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return [out]


def plot_file(path, outdir=None, bodies=None):
    """Write the PNGs for `path`; return the list of written paths."""
    if not os.path.isfile(path):
        raise ResultError(f"no such file: {path}")
    try:
        f = h5py.File(path, "r")
    except OSError as exc:
        raise ResultError(f"cannot open {path} as HDF5: {exc}") from None
    with f:
        if not isinstance(f.get("time"), h5py.Dataset):
            raise ResultError(f"{path} is not a result file (no /time dataset)")
        stem = os.path.splitext(os.path.basename(path))[0]
        t = np.asarray(f["time"][()], dtype=float).ravel()
        tu = text_attr(f["time"], "units", "s")
        available = find_members(f, "bodies", tuple(PLOTS))
        unknown = [b for b in bodies or [] if b not in available]
        if unknown:
            raise ResultError(f"unknown body {', '.join(unknown)}; available: {', '.join(available) or 'none'}")
        outdir = outdir or os.path.join(os.path.dirname(os.path.abspath(path)), stem + "_plots")
        os.makedirs(outdir, exist_ok=True)
        title, written = run_title(f, stem), []
        for body in bodies or available:
            for name in PLOTS:
                ds = f["bodies"][body].get(name)
                if not isinstance(ds, h5py.Dataset) or ds.ndim < 1 or ds.shape[0] == 0:
                    print(f"plot.py: warning: {body}/{name} missing or empty, skipped", file=sys.stderr)
                elif out := plot_dataset(ds, name, t, tu, title, outdir, body):
                    written.append(out)
        return (written + plot_joints(f, t, tu, title, outdir) + plot_thrusters(f, t, tu, title, outdir)
                + plot_connectors(f, t, tu, title, outdir))


def rotation_from_quaternions(q):
    """R_WB (n x 3 x 3) from unit quaternions [w, x, y, z] (n x 4), body → NED."""
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], -2)


def compare_runs(paths, body, out, labels=None):
    """Overlay one body's horizontal motion over several runs (see the module docstring)."""
    if labels and len(labels) != len(paths):
        raise ResultError(f"{len(labels)} labels for {len(paths)} runs")
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    (ax_path, ax_speed), (ax_yaw, ax_rate) = axes
    for i, path in enumerate(paths):
        if not os.path.isfile(path):
            raise ResultError(f"no such file: {path}")
        try:
            f = h5py.File(path, "r")
        except OSError as exc:
            raise ResultError(f"cannot open {path} as HDF5: {exc}") from None
        with f:
            group = f.get(f"bodies/{body}")
            if not isinstance(f.get("time"), h5py.Dataset) or not isinstance(group, h5py.Group):
                raise ResultError(f"{path} has no /time or no body '{body}'")
            t = np.asarray(f["time"][()], dtype=float)
            pos = np.asarray(group["position"][()], dtype=float)
            nu = np.asarray(group["velocity"][()], dtype=float)
            R = rotation_from_quaternions(np.asarray(group["quaternion"][()], dtype=float))
            v_W = np.einsum("nij,nj->ni", R, nu[:, :3])
            yaw = np.unwrap(np.asarray(group["euler"][()], dtype=float)[:, 2])
            label = labels[i] if labels else (text_attr(f, "overrides").replace("\n", " ") or
                                              os.path.splitext(os.path.basename(path))[0])
        ax_path.plot(pos[:, 1], pos[:, 0], label=label)
        ax_speed.plot(t, np.hypot(v_W[:, 0], v_W[:, 1]), label=label)
        ax_yaw.plot(t, np.degrees(yaw), label=label)
        ax_rate.plot(t, np.degrees(nu[:, 5]), label=label)
    ax_path.set(xlabel="east [m]", ylabel="north [m]", title="horizontal path")
    ax_path.set_aspect("equal", adjustable="datalim")
    ax_speed.set(xlabel="time [s]", ylabel="[m/s]", title="horizontal speed")
    ax_yaw.set(xlabel="time [s]", ylabel="[deg]", title="heading ψ")
    ax_rate.set(xlabel="time [s]", ylabel="[deg/s]", title="yaw rate r")
    for ax in axes.flat:
        ax.grid(True, alpha=0.4)
    ax_path.legend(fontsize="x-small")
    fig.suptitle(f"{body}: {len(paths)} runs")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return [out]


def write_synthetic(path, n=500):
    """Write a fake result file: a vehicle `auv`, an ROV `rov` with a 2-link arm (bodies arm1/link1,
    arm1/link2, i.e. nested groups), revolute joints arm1/joint1, arm1/joint2 and a prismatic `slider`."""
    t = np.linspace(0.0, 50.0, n)
    with h5py.File(path, "w") as f:
        f.attrs.update(scenario="name: selftest_helix\n", scenario_name="selftest_helix", status="interrupted",
                       command_line="sim selftest.yaml", simulator_version="0.0.0")
        f.create_dataset("time", data=t).attrs.update(units="s", description="simulation time")
        for k, (name, radius) in enumerate((("auv", 10.0), ("rov", 4.0), ("arm1/link1", 4.3), ("arm1/link2", 4.6))):
            w = 0.2 + 0.1 * min(k, 1)
            yaw = np.arctan2(np.sin(w * t + np.pi / 2), np.cos(w * t + np.pi / 2))
            euler = np.column_stack([0.05 * np.sin(t), np.full(n, -0.1), yaw])
            pos = np.column_stack([radius * np.cos(w * t), radius * np.sin(w * t), 0.2 * t])
            vel = np.column_stack([np.full(n, radius * w), 0.1 * np.sin(t), np.full(n, 0.2),
                                   0.05 * np.cos(t), np.zeros(n), np.full(n, w)])
            (cr, cp, cy), (sr, sp, sy) = np.cos(euler.T / 2), np.sin(euler.T / 2)
            quat = np.column_stack([cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                                    cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy])
            for ds_name, data, units, cols in (
                    ("position", pos, "m", "north,east,down"), ("quaternion", quat, "1", "w,x,y,z"),
                    ("euler", euler, "rad", "roll,pitch,yaw"),
                    ("velocity", vel, "m/s,m/s,m/s,rad/s,rad/s,rad/s", "u,v,w,p,q,r"),
                    ("acceleration", np.gradient(vel, t, axis=0), "m/s^2, rad/s^2", "du,dv,dw,dp,dq,dr")):
                ds = f.create_dataset(f"bodies/{name}/{ds_name}", data=data)
                ds.attrs.update(units=units, description=f"{name} {ds_name}", columns=cols)
        for name, q, effort, units in (
                ("arm1/joint1", 0.8 * np.sin(0.3 * t), 2.0 * np.cos(0.3 * t), ("rad", "rad/s", "rad/s^2", "N m")),
                ("arm1/joint2", -0.5 + 0.4 * np.sin(0.5 * t), np.full(n, -1.5), ("rad", "rad/s", "rad/s^2", "N m")),
                ("slider", 0.1 * (1 - np.exp(-t / 10)), 5.0 * np.exp(-t / 10), ("m", "m/s", "m/s^2", "N"))):
            qd = np.gradient(q, t)
            for ds_name, data, unit in zip(("position", "velocity", "acceleration", "effort"),
                                           (q, qd, np.gradient(qd, t), effort), units):
                ds = f.create_dataset(f"joints/{name}/{ds_name}", data=data)
                ds.attrs.update(units=unit, description=f"{name} {ds_name}")
        pwm = 1500 + 300 * (t > 10)
        for name, leaves in (("rov/port", ("command", "shaft_speed", "thrust")), ("rov/starboard", ("command", "thrust"))):
            for leaf, data, unit in zip(("command", "shaft_speed", "thrust"), (pwm, 0.9 * (pwm - 1500), 0.1 * (pwm - 1500)),
                                        ("us", "rad/s", "N")):
                if leaf in leaves:
                    f.create_dataset(f"thrusters/{name}/{leaf}", data=data).attrs.update(units=unit, description=leaf)
        wrench = np.column_stack([np.sin(t), np.cos(t), np.full(n, -3.0), 0.1 * np.sin(t), np.zeros(n), np.full(n, 0.2)])
        f.create_dataset("connectors/bolt/wrench", data=wrench).attrs.update(units="N, N m", description="wrench")
        f.create_dataset("connectors/bolt/violation", data=np.column_stack([np.full(n, 1e-13), np.zeros(n)])).attrs.update(
            units="m, rad", description="violation")


def selftest():
    """Plot a synthetic file and check the outputs and the error paths; return an exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.h5")
        write_synthetic(path)
        written = plot_file(path)
        joints = [os.path.join(tmp, "run_plots", j)
                  for j in ("joints.png", "joints_prismatic.png", "thrusters.png", "connectors.png")]
        expected = [os.path.join(tmp, "run_plots", f"{b}_{s}.png")
                    for b in ("auv", "rov", "arm1_link1", "arm1_link2")
                    for s in ("position", "attitude", "velocity")] + joints
        ok = sorted(written) == sorted(expected) and all(os.path.getsize(p) > 0 for p in expected)
        # --body selects bodies only (joints are always plotted), nested names work
        one = plot_file(path, os.path.join(tmp, "one"), ["arm1/link2"])
        ok = ok and sorted(os.path.basename(p) for p in one) == [
            "arm1_link2_attitude.png", "arm1_link2_position.png", "arm1_link2_velocity.png",
            "connectors.png", "joints.png", "joints_prismatic.png", "thrusters.png"]
        # revolute joints only: everything in joints.png
        with h5py.File(path, "a") as f:
            del f["joints/slider"], f["bodies"]
        ok = ok and [os.path.basename(p) for p in plot_file(path, os.path.join(tmp, "rev"))] == [
            "joints.png", "thrusters.png", "connectors.png"]
        # --compare: one figure of two runs of one body
        other = os.path.join(tmp, "other.h5")
        write_synthetic(other)
        figure = os.path.join(tmp, "cmp", "compare.png")
        ok = ok and compare_runs([other, other], "auv", figure, ["a", "b"]) == [figure] and os.path.getsize(figure) > 0
        h5py.File(os.path.join(tmp, "empty.h5"), "w").close()
        with contextlib.redirect_stderr(io.StringIO()):  # the expected error messages
            for argv in ([os.path.join(tmp, "missing.h5")], [os.path.join(tmp, "empty.h5")], [path, "--body", "x"],
                         ["--compare", other, "--body", "nobody", "-o", figure]):
                ok = ok and main(argv) == 2
    print("selftest " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot a simulator result HDF5 file to PNGs.")
    parser.add_argument("result", nargs="?", help="result .h5 file")
    parser.add_argument("--compare", nargs="+", metavar="RUN", help="overlay one body of these runs in one figure (-o FILE.png)")
    parser.add_argument("--labels", nargs="+", help="--compare: a label per run")
    parser.add_argument("-o", "--outdir", help="output directory (default: <stem>_plots/ next to the file)")
    parser.add_argument("--body", nargs="+", action="extend", metavar="NAME", help="only plot these bodies")
    parser.add_argument("--selftest", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.selftest:
        return selftest()
    if args.compare:
        if not args.body or len(args.body) != 1 or not args.outdir:
            parser.error("--compare needs one --body and -o FIGURE.png")
        try:
            written = compare_runs(args.compare, args.body[0], args.outdir, args.labels)
        except (ResultError, KeyError) as exc:
            print(f"plot.py: error: {exc}", file=sys.stderr)
            return 2
        print(written[0])
        return 0
    if not args.result:
        parser.error("the RESULT file is required")
    try:
        written = plot_file(args.result, args.outdir, args.body)
    except ResultError as exc:
        print(f"plot.py: error: {exc}", file=sys.stderr)
        return 2
    for out in written:
        print(out)
    if not written:
        print("plot.py: nothing to plot (no bodies with position/euler/velocity, no joints)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
