"""The pages of tools/plot.py's report, one function per kind of page.

Each page is a Page(key, title, draw): `draw(fig)` fills a matplotlib figure and returns its
data axes. Series come with the units the file states (the `units` attribute; "m/s, rad/s"
over six columns gives three of each); angles are shown in degrees, `us` as µs, `1` as no
unit. Values within 1e-12 of the largest magnitude in their panel (and below 1e-12 in its
units) are round-off and drawn as exact zeros, never blown up into a fake signal.
"""
import math
import re
from dataclasses import dataclass
from typing import Callable

import h5py
import numpy as np

ROUND_OFF = 1e-12
RAD = re.compile(r"^rad(ians?)?(?=$|[/ ·*^])")


@dataclass
class Page:
    key: str                 # what --only matches: body/rov/position, controller/station, …
    title: str
    draw: Callable           # draw(fig) -> list of data axes


@dataclass
class Series:
    name: str
    values: np.ndarray       # 1-D, display units
    unit: str                # display unit ("" for none)


def text_attr(obj, name, default=""):
    value = obj.attrs.get(name, default)
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.item()
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def display(values, unit, degrees=True):
    """Values and unit as shown: radians as degrees (angles, their rates), `us` as µs, `1` as no unit."""
    unit = unit.strip()
    if degrees and RAD.match(unit):
        return np.degrees(values), RAD.sub("deg", unit)
    if unit == "us":
        return values, "µs"
    return values, "" if unit in ("1", "-") else unit


def columns(ds, n, default_names=(), degrees=True):
    """A dataset's columns as Series (display units), names from its `columns` attribute."""
    data = np.asarray(ds[()], dtype=float).reshape(ds.shape[0], -1)[:n]
    count = data.shape[1]
    names = [c.strip() for c in text_attr(ds, "columns").split(",") if c.strip()]
    if len(names) != count:
        names = (list(default_names) + [f"column {i}" for i in range(count)])[:count]
    units = [u.strip() for u in text_attr(ds, "units").split(",")]
    units = [units[i // (count // len(units))] if count % len(units) == 0 else "" for i in range(count)]
    return [Series(names[i], *display(data[:, i], units[i], degrees)) for i in range(count)]


def dataset(group, name):
    ds = group.get(name) if isinstance(group, h5py.Group) else None
    return ds if isinstance(ds, h5py.Dataset) and ds.ndim >= 1 and ds.shape[0] > 0 else None


def clean(series_list):
    """Round-off to zero: |x| ≤ 1e-12 · max(1, largest |x| of the panel) is drawn as 0."""
    largest = max([np.nanmax(np.abs(s.values)) for s in series_list if s.values.size] + [0.0])
    threshold = ROUND_OFF * max(1.0, largest)
    for s in series_list:
        s.values = np.where(np.abs(s.values) <= threshold, 0.0, s.values)
    return series_list


def by_unit(series_list):
    """Series grouped by display unit, in order of first appearance."""
    groups = {}
    for s in series_list:
        groups.setdefault(s.unit, []).append(s)
    return groups


def label(what, unit):
    return f"{what} [{unit}]" if unit else what


def finish(ax, legend=True):
    ax.grid(True, alpha=0.4)
    ax.ticklabel_format(axis="y", useOffset=False)  # 5 + 1e-12 is 5, not "1e-12 + 5"
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def line_panels(fig, t, panels, depth_down=()):
    """One axis per (what, [Series]) panel, sharing time; a `down` series is drawn downwards.
    Each entry of a panel may also be (Series, style) for dashed set-points."""
    axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
    for ax, (what, entries) in zip(axes, panels):
        units = []
        for k, entry in enumerate(entries):
            s, style = entry if isinstance(entry, tuple) else (entry, {})
            ax.plot(t[:len(s.values)], s.values, label=s.name, **({"color": f"C{k % 10}"} | style))
            units += [s.unit] if s.unit not in units else []
        ax.set_ylabel(label(what, ", ".join(u for u in units if u)))
        if what in depth_down:
            ax.invert_yaxis()
        finish(ax)
    axes[-1].set_xlabel("time [s]")
    return list(axes)


# ---- bodies ---------------------------------------------------------------------------------

def body_pages(f, name, t):
    group = f["bodies"][name]
    pages = []
    if (ds := dataset(group, "position")) is not None and ds.ndim == 2 and ds.shape[1] == 3:
        def draw_position(fig, ds=ds):
            north, east, down = clean(columns(ds, len(t), ("north", "east", "down")))
            grid = fig.add_gridspec(3, 2, width_ratios=[1.4, 1])
            axes = [fig.add_subplot(grid[0, 0])]
            axes += [fig.add_subplot(grid[i, 0], sharex=axes[0]) for i in (1, 2)]
            for ax, s, what in zip(axes, (north, east, down), ("north", "east", "depth (down)")):
                ax.plot(t[:len(s.values)], s.values)
                ax.set_ylabel(label(what, s.unit))
                ax.tick_params(labelbottom=ax is axes[2])
                finish(ax, legend=False)
            axes[2].invert_yaxis()  # depth grows downwards
            axes[2].set_xlabel("time [s]")
            track = fig.add_subplot(grid[:, 1])
            track.plot(east.values, north.values)
            track.plot(east.values[0], north.values[0], "go", label="start")
            track.plot(east.values[-1], north.values[-1], "rs", label="end")
            track.set(aspect="equal", adjustable="datalim", title="track seen from above",
                      xlabel=label("east", east.unit), ylabel=label("north", north.unit))
            finish(track, legend=False)
            track.legend(fontsize="small")
            return axes + [track]
        pages.append(Page(f"body/{name}/position", f"{name}: position (NED) and track", draw_position))
    if (ds := dataset(group, "euler")) is not None and ds.ndim == 2 and ds.shape[1] == 3:
        def draw_attitude(fig, ds=ds):
            angles = columns(ds, len(t), ("roll", "pitch", "yaw"))
            for s in angles:  # no lines across the ±180° wrap
                wraps = np.flatnonzero(np.abs(np.diff(s.values)) > 180) + 1
                s.values = np.insert(s.values, wraps, np.nan)
                s.time = np.insert(t[:len(s.values) - len(wraps)], wraps, np.nan)
            axes = fig.subplots(3, 1, sharex=True)
            for ax, s in zip(axes, clean(angles)):
                ax.plot(s.time, s.values)
                ax.set_ylabel(label(s.name, s.unit))
                finish(ax, legend=False)
            axes[-1].set_xlabel("time [s]")
            return list(axes)
        pages.append(Page(f"body/{name}/attitude", f"{name}: attitude (ZYX Euler angles)", draw_attitude))
    if (ds := dataset(group, "velocity")) is not None and ds.ndim == 2 and ds.shape[1] == 6:
        def draw_velocity(fig, ds=ds):
            v = columns(ds, len(t), ("u", "v", "w", "p", "q", "r"))
            return line_panels(fig, t, [("linear velocity", clean(v[:3])), ("angular velocity", clean(v[3:]))])
        pages.append(Page(f"body/{name}/velocity", f"{name}: body-frame velocity", draw_velocity))
    return pages


# ---- joints, thrusters, inputs, connectors ----------------------------------------------------

def joint_group(name):
    """Joints are grouped per manipulator: the name up to its last '/' (uvms/arm/joint2 → uvms/arm)."""
    return name.rsplit("/", 1)[0] if "/" in name else ""


def joint_pages(f, names, t):
    groups = {}
    for name in names:
        position = dataset(f["joints"][name], "position")
        if position is None or position.ndim != 1:
            continue
        kind = "revolute" if RAD.match(text_attr(position, "units")) else "prismatic"
        groups.setdefault((joint_group(name), kind), []).append(name)
    kinds = {key[0]: set() for key in groups}
    for prefix, kind in groups:
        kinds[prefix].add(kind)
    pages = []
    for (prefix, kind), members in groups.items():
        def draw(fig, prefix=prefix, members=members):
            panels = []
            for leaf, what in (("position", "position"), ("velocity", "velocity"), ("effort", "effort"),
                               ("current", "motor current")):
                series = []
                for m in members:
                    if (ds := dataset(f["joints"][m], leaf)) is not None and ds.ndim == 1:
                        s = columns(ds, len(t))[0]
                        s.name = m[len(prefix) + 1:] if prefix else m
                        series.append(s)
                if series:  # no empty panels: a leaf no joint has is left out
                    panels.append((what, clean(series)))
            return line_panels(fig, t, panels)
        where = prefix or "joints"
        suffix = f" ({kind})" if len(kinds[prefix]) > 1 else ""
        key = f"joints/{prefix}" if prefix else "joints"
        pages.append(Page(key + (f"/{kind}" if suffix else ""), f"{where}: {len(members)} joints{suffix}", draw))
    return pages


def leaf_page(f, top, names, t, leaves, key, title, degrees=True):
    """One page of panels, one per leaf dataset (e.g. command, shaft speed, thrust) that exists."""
    def draw(fig):
        panels = []
        for leaf, what in leaves:
            series = []
            for name in names:
                if (ds := dataset(f[top][name], leaf)) is not None and ds.ndim == 1:
                    s = columns(ds, len(t), degrees=degrees)[0]
                    s.name = name
                    series.append(s)
            if series:
                panels.append((what, clean(series)))
        return line_panels(fig, t, panels)
    return Page(key, title, draw)


def input_page(f, t):
    group = f.get("inputs")
    names = sorted(k for k in group if dataset(group, k) is not None) if isinstance(group, h5py.Group) else []
    if not names:
        return []

    def draw(fig):
        series = []
        for name in names:
            s = columns(group[name], len(t))[0]
            s.name = name
            series.append(s)
        return line_panels(fig, t, [(f"inputs", clean(members)) for members in by_unit(series).values()])
    return [Page("inputs", f"input channels ({len(names)})", draw)]


def connector_page(f, names, t):
    def draw(fig):
        wrench, error = [], []
        for name in names:
            if (ds := dataset(f["connectors"][name], "wrench")) is not None and ds.ndim == 2 and ds.shape[1] == 6:
                for s in columns(ds, len(t), ("Fx", "Fy", "Fz", "Mx", "My", "Mz")):
                    s.name = f"{name} {s.name}"
                    wrench.append(s)
            if (ds := dataset(f["connectors"][name], "violation")) is not None and ds.ndim == 2 and ds.shape[1] == 2:
                for s in columns(ds, len(t), ("distance", "angle")):
                    s.name = f"{name} {s.name}"
                    error.append(s)
        panels = [(what, clean(members)) for members in by_unit(wrench).values() for what in ["wrench on first body"]]
        axes = line_panels(fig, t, panels + [("error", clean(error))] if error else panels)
        return axes
    return Page("connectors", f"connectors ({len(names)})", draw)


# ---- sensors ----------------------------------------------------------------------------------

def sensor_point_truth(f, spec, t):
    """The true NED position of a sensor's point (n x 3), from its body's recorded position and
    quaternion and the sensor's p_BoS_B attribute; None when the file does not hold them."""
    body = spec.get("body")
    if not isinstance(body, str):
        return None
    position = dataset(f.get("bodies"), f"{body}/position")
    quaternion = dataset(f.get("bodies"), f"{body}/quaternion")
    if position is None or quaternion is None or position.shape[0] < len(t) or quaternion.shape[0] < len(t):
        return None
    r = spec.get("position", [0.0, 0.0, 0.0])
    if not (isinstance(r, list) and len(r) == 3 and all(isinstance(x, (int, float)) for x in r)):
        return None
    R_WB = rotation_from_quaternions(np.asarray(quaternion[()], dtype=float)[:len(t)])
    return np.asarray(position[()], dtype=float)[:len(t)] + R_WB @ np.asarray(r, dtype=float)


# The order src/sensors/quantities.h writes each kind's quantities in (HDF5 lists them by name).
SENSOR_QUANTITIES = {"imu": ("specific_force", "angular_rate"), "pressure": ("pressure", "depth"),
                     "dvl": ("velocity", "altitude", "valid"), "pose": ("position", "quaternion"),
                     "encoder": ("position", "count")}


def sensor_page(f, name, t, spec):
    """A sensor's quantities, one panel each (its columns), against time. For a pressure sensor's
    depth and a pose sensor's position, the truth at the sensor's point (dashed) beside them."""
    group = f["sensors"][name]
    kind = text_attr(next((group[k] for k in group if dataset(group, k) is not None), group), "kind", spec.get("type", "sensor"))

    def draw(fig):
        panels = []
        truth = sensor_point_truth(f, spec, t) if kind in ("pressure", "pose") else None
        order = SENSOR_QUANTITIES.get(kind, ())
        for leaf in sorted(group, key=lambda k: (order.index(k) if k in order else len(order), k)):
            if (ds := dataset(group, leaf)) is None:
                continue
            series = columns(ds, len(t), (leaf,))
            if len(series) == 1:
                series[0].name = leaf
            entries = list(clean(series))
            if truth is not None and (kind, leaf) == ("pressure", "depth"):
                entries.append((Series("true depth", truth[:, 2], "m"), {"linestyle": "--", "color": "k"}))
            if truth is not None and (kind, leaf) == ("pose", "position"):
                entries += [(Series(f"true {axis}", truth[:, i], "m"), {"linestyle": "--", "color": f"C{i}"})
                            for i, axis in enumerate(("north", "east", "down"))]
            panels.append((leaf, entries))
        return line_panels(fig, t, panels)
    return Page(f"sensor/{name}", f"sensor {name} ({kind})", draw)


# ---- controllers ------------------------------------------------------------------------------

def measured(f, spec, t, setpoint):
    """What the controller drives, as recorded: a pid's joint, a pose_pd's body pose (columns
    of the set-point's order); None when the file does not record it directly."""
    kind = spec.get("type")
    if kind == "pid" and isinstance(spec.get("joint"), str):
        leaf = "velocity" if spec.get("mode") == "velocity" else "position"
        ds = dataset(f.get("joints"), f"{spec['joint']}/{leaf}")
        return [columns(ds, len(t))[0]] if ds is not None and ds.ndim == 1 else None
    if kind == "pose_pd" and isinstance(spec.get("body"), str):
        position = dataset(f.get("bodies"), f"{spec['body']}/position")
        euler = dataset(f.get("bodies"), f"{spec['body']}/euler")
        if position is not None and euler is not None and len(setpoint) == 6:
            return columns(position, len(t), ("north", "east", "down")) + columns(euler, len(t), ("roll", "pitch", "yaw"))
    return None


def controller_page(f, name, t, spec):
    group = f["controllers"][name]
    kind = spec.get("type", "controller")

    def draw(fig):
        setpoint = columns(group["setpoint"], len(t)) if dataset(group, "setpoint") is not None else []
        error = columns(group["error"], len(t)) if dataset(group, "error") is not None else []
        output = columns(group["output"], len(t)) if dataset(group, "output") is not None else []
        response, how = measured(f, spec, t, setpoint), "measured"
        same = len(error) == len(setpoint) and all(e.name == s.name and e.unit == s.unit for e, s in zip(error, setpoint))
        if response is None and same and setpoint:
            # e = set-point − response (pid, allocation, inverse kinematics): the response it saw
            response, how = [Series(s.name, s.values - e.values, s.unit) for s, e in zip(setpoint, error)], "set-point − error"
        panels = []
        # Set-point dashed and response solid in one colour per column; depth drawn downwards.
        groups = {}
        for k, s in enumerate(setpoint):
            key = "down" if s.name == "down" else s.unit
            groups.setdefault(key, []).append(k)
        for key, indices in groups.items():
            entries = []
            for n, k in enumerate(indices):
                colour = {"color": f"C{n % 10}"}
                s = setpoint[k]
                prefix = f"{s.name} " if len(setpoint) > 1 else ""
                entries.append((Series(f"{prefix}set-point", s.values, s.unit), colour | {"linestyle": "--"}))
                if response is not None and k < len(response):
                    entries.append((Series(f"{prefix}{how}", response[k].values, response[k].unit), colour))
            clean([e[0] for e in entries])
            panels.append(("depth (down)" if key == "down" else "set-point, response" if response else "set-point", entries))
        panels += [("error", clean(members)) for members in by_unit(error).values()]
        panels += [("output", clean(members)) for members in by_unit(output).values()]
        return line_panels(fig, t, panels, depth_down=("depth (down)",))
    target = spec.get("joint") or spec.get("body") or spec.get("end_effector") or spec.get("input") or ""
    return Page(f"controller/{name}", f"controller {name} ({kind}{', ' + str(target) if target else ''})", draw)


# ---- --compare: one body of several runs ------------------------------------------------------

@dataclass
class Run:
    label: str
    t: np.ndarray
    position: np.ndarray     # n x 3, NED, m
    velocity: np.ndarray     # n x 6, [u v w p q r] body frame
    quaternion: np.ndarray   # n x 4, [w x y z] body → NED
    euler: np.ndarray        # n x 3, roll pitch yaw (ZYX), rad


def rotation_from_quaternions(q):
    """R_WB (n x 3 x 3) from unit quaternions [w, x, y, z] (n x 4), body → NED."""
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], -2)


def compare_pages(runs, body):
    """The pages of --compare, each run one line in every panel:
      compare/horizontal   path (north against east, to scale), horizontal speed ‖(ṅ, ė)‖,
                           heading ψ (unwrapped) and yaw rate r
      compare/attitude     roll φ, pitch θ and heading ψ (unwrapped), degrees
      compare/depth        depth, drawn downwards"""
    def horizontal(fig):
        axes = fig.subplots(2, 2)
        (ax_path, ax_speed), (ax_yaw, ax_rate) = axes
        for run in runs:
            v_W = np.einsum("nij,nj->ni", rotation_from_quaternions(run.quaternion), run.velocity[:, :3])
            ax_path.plot(run.position[:, 1], run.position[:, 0], label=run.label)
            ax_speed.plot(run.t, np.hypot(v_W[:, 0], v_W[:, 1]), label=run.label)
            ax_yaw.plot(run.t, np.degrees(np.unwrap(run.euler[:, 2])), label=run.label)
            ax_rate.plot(run.t, np.degrees(run.velocity[:, 5]), label=run.label)
        ax_path.set(xlabel="east [m]", ylabel="north [m]", title="horizontal path")
        ax_path.set_aspect("equal", adjustable="datalim")
        ax_speed.set(xlabel="time [s]", ylabel="[m/s]", title="horizontal speed")
        ax_yaw.set(xlabel="time [s]", ylabel="[deg]", title="heading ψ")
        ax_rate.set(xlabel="time [s]", ylabel="[deg/s]", title="yaw rate r")
        for ax in axes.flat:
            ax.grid(True, alpha=0.4)
        ax_path.legend(fontsize="x-small")
        return list(axes.flat)

    def attitude(fig):
        axes = fig.subplots(3, 1, sharex=True)
        for run in runs:
            angles = (run.euler[:, 0], run.euler[:, 1], np.unwrap(run.euler[:, 2]))
            for ax, angle in zip(axes, angles):
                ax.plot(run.t, np.degrees(angle), label=run.label)
        for ax, what in zip(axes, ("roll φ", "pitch θ", "heading ψ")):
            ax.set_ylabel(label(what, "deg"))
            finish(ax, legend=ax is axes[0])
        axes[-1].set_xlabel("time [s]")
        return list(axes)

    def depth(fig):
        ax = fig.subplots(1, 1)
        for run in runs:
            ax.plot(run.t, run.position[:, 2], label=run.label)
        ax.set_ylabel(label("depth (down)", "m"))
        ax.invert_yaxis()  # depth grows downwards
        ax.set_xlabel("time [s]")
        finish(ax)
        return [ax]

    n = len(runs)
    return [Page("compare/horizontal", f"{body}: horizontal motion, {n} runs", horizontal),
            Page("compare/attitude", f"{body}: attitude, {n} runs", attitude),
            Page("compare/depth", f"{body}: depth, {n} runs", depth)]
