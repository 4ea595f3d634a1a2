#!/usr/bin/python3
"""A result file as one report: a multi-page PDF that answers what a run did.

Usage: tools/plot.py RESULT.h5 [-o REPORT.pdf] [--only PATTERN ...] [--body NAME ...]
                     [--png DIR] [--list]

Pages (each has a key that --only and --list use; fnmatch patterns, e.g. 'controller/*'):
  summary                  the run: scenario, status, samples, the pages that follow (always first)
  body/<b>/position        north, east and depth (drawn downwards) against time, and the track
  body/<b>/attitude        roll, pitch, yaw (degrees)
  body/<b>/velocity        body-frame linear and angular velocity
  joints/<manipulator>     per manipulator (the joint names' prefix): position, velocity, effort,
                           motor current — only the panels some joint has (…/revolute and
                           …/prismatic where a manipulator has both)
  thrusters                command, shaft speed (where a thruster has one), thrust
  inputs                   the input channels, one panel per unit
  controller/<c>           set-point (dashed) against the response (solid: the measured joint
                           or body pose, else set-point − error where the error is defined so),
                           the error and the output
  connectors               wrenches and constraint errors
  sensor/<s>               per sensor (/sensors/<s>/): each quantity it writes, one panel each;
                           a pressure sensor's depth and a pose sensor's position with the truth
                           at the sensor's point (dashed, from its body's pose in the file)
Bodies: the free bodies (vehicles) by default; the links of arms (children of joints in the
stored scenario) only when named with --body. Units come from each dataset's `units`
attribute (radians shown as degrees, `us` as µs); round-off (|x| ≤ 1e-12 of the panel's
largest value) is drawn as zero. The report goes to REPORT.pdf (default <stem>_report.pdf next
to the file); --png DIR also writes each page as DIR/<key with / as _>.png; --list prints
the pages and their panels without writing anything.

tools/plot.py --compare RUN.h5 [RUN.h5 ...] --body NAME -o FIGURE.png [--labels A B ...]
overlays several runs of one body, as paper 000's Figs. 13 and 16 compare trials, on three
pages: its horizontal path (north against east, to scale), horizontal speed ‖(ṅ, ė)‖, heading
ψ (unwrapped, degrees) and yaw rate r (deg/s) in FIGURE.png; roll, pitch and heading (degrees)
in FIGURE_attitude.png; depth (drawn downwards) in FIGURE_depth.png. With -o FIGURE.pdf the
three pages are one PDF. Each run is labelled by --labels, else by its `--set` overrides (root
attribute `overrides`), else by its file name.
Exit codes: 0 ok, 1 nothing to plot, 2 missing file / not a result file / unknown body.
Needs Debian's python3-h5py, python3-numpy, python3-matplotlib and python3-yaml.
"""
import argparse
import contextlib
import fnmatch
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
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from plot_pages import (Page, Run, body_pages, compare_pages, connector_page, controller_page,  # noqa: E402
                        dataset, input_page, joint_pages, leaf_page, sensor_page, text_attr)

try:
    import yaml
except ImportError:  # the stored scenario only refines the pages
    yaml = None


class ResultError(Exception):
    """The input is not a readable result file (exit code 2)."""


def members(f, top, marks):
    """Names (relative to /top) of the groups below /top directly holding a dataset in `marks`."""
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


def stored_scenario(f):
    """The resolved scenario stored in the file, as a dict ({} if absent or unreadable)."""
    if yaml is None:
        return {}
    try:
        scenario = yaml.safe_load(text_attr(f, "scenario"))
    except yaml.YAMLError:
        return {}
    return scenario if isinstance(scenario, dict) else {}


def links(scenario):
    """Bodies that hang from a joint: children of `joints`, and the links `manipulators` expand to."""
    names = {j.get("child") for j in scenario.get("joints") or [] if isinstance(j, dict)}
    prefixes = tuple(m["name"] + "/" for m in scenario.get("manipulators") or [] if isinstance(m, dict) and "name" in m)
    return lambda body: body in names or (bool(prefixes) and body.startswith(prefixes))


def summary_page(f, path, t, keys):
    def draw(fig):
        status = text_attr(f, "status", "?")
        lines = [f"scenario: {text_attr(f, 'scenario_name') or '?'}", f"file: {path}",
                 f"status: {status if len(status) < 100 else status[:97] + '...'}",
                 f"samples: {len(t)}, t = {t[0]:g} … {t[-1]:g} s" if len(t) else "samples: 0",
                 f"command: {text_attr(f, 'command_line')}", f"sim {text_attr(f, 'simulator_version')}", "",
                 "pages:"] + [f"  {k}" for k in keys]
        fig.text(0.05, 0.95, "\n".join(lines), va="top", family="monospace", fontsize=9)
        return []
    return Page("summary", "run summary", draw)


def pages_of(f, path, bodies=None):
    """Every page the file supports, in report order."""
    if not isinstance(f.get("time"), h5py.Dataset):
        raise ResultError(f"{path} is not a result file (no /time dataset)")
    t = np.asarray(f["time"][()], dtype=float).ravel()
    scenario = stored_scenario(f)
    available = members(f, "bodies", ("position", "euler", "velocity"))
    unknown = [b for b in bodies or [] if b not in available]
    if unknown:
        raise ResultError(f"unknown body {', '.join(unknown)}; available: {', '.join(available) or 'none'}")
    is_link = links(scenario)
    pages = []
    for body in bodies or [b for b in available if not is_link(b)]:
        pages += body_pages(f, body, t)
    pages += joint_pages(f, members(f, "joints", ("position",)), t)
    if thrusters := members(f, "thrusters", ("thrust",)):
        pages.append(leaf_page(f, "thrusters", thrusters, t, (("command", "command"), ("shaft_speed", "shaft speed"),
                                                               ("thrust", "thrust")), "thrusters", f"thrusters ({len(thrusters)})",
                                degrees=False))  # shaft speeds stay in rad/s
    pages += input_page(f, t)
    specs = {c.get("name"): c for c in scenario.get("controllers") or [] if isinstance(c, dict)}
    for name in members(f, "controllers", ("setpoint", "error", "output")):
        pages.append(controller_page(f, name, t, specs.get(name, {})))
    if connectors := members(f, "connectors", ("wrench",)):
        pages.append(connector_page(f, connectors, t))
    sensor_specs = {s.get("name"): s for s in scenario.get("sensors") or [] if isinstance(s, dict)}
    group = f.get("sensors")
    for name in sorted(group) if isinstance(group, h5py.Group) else []:
        if isinstance(group[name], h5py.Group) and any(dataset(group[name], k) is not None for k in group[name]):
            pages.append(sensor_page(f, name, t, sensor_specs.get(name, {})))
    return t, pages


def selected(pages, only):
    return [p for p in pages if not only or any(fnmatch.fnmatchcase(p.key, pattern) for pattern in only)]


def render(page, title):
    fig = plt.figure(figsize=(11.7, 8.3), layout="constrained")  # A4 landscape
    axes = page.draw(fig)
    fig.suptitle(f"{title} — {page.title}")
    return fig, axes


def report(path, output=None, only=None, bodies=None, png_dir=None, listing=False, out=None):
    """Write the report (or list its pages); return the keys of the pages written."""
    out = out or sys.stdout
    if not os.path.isfile(path):
        raise ResultError(f"no such file: {path}")
    try:
        f = h5py.File(path, "r")
    except OSError as exc:
        raise ResultError(f"cannot open {path} as HDF5: {exc}") from None
    with f:
        t, pages = pages_of(f, path, bodies)
        pages = selected(pages, only)
        if not pages:
            return []
        pages = [summary_page(f, path, t, [p.key for p in pages])] + pages  # always first
        stem = os.path.splitext(os.path.basename(path))[0]
        title = text_attr(f, "scenario_name") or stem
        status = text_attr(f, "status", "completed")
        if status and status != "completed":
            title += f" [{status if len(status) < 40 else status[:37] + '...'}]"
        if listing:
            for page in pages:
                fig, axes = render(page, title)
                panels = [ax.get_ylabel() or ax.get_title() for ax in axes]
                print(f"{page.key}: {page.title}" + "".join(f"\n  {p}" for p in panels), file=out)
                plt.close(fig)
            return [p.key for p in pages]
        output = output or os.path.join(os.path.dirname(os.path.abspath(path)), stem + "_report.pdf")
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
        if png_dir:
            os.makedirs(png_dir, exist_ok=True)
        partial = output + ".partial"
        with PdfPages(partial) as pdf:
            for page in pages:
                fig, _ = render(page, title)
                pdf.savefig(fig)
                if png_dir and page.key != "summary":
                    fig.savefig(os.path.join(png_dir, page.key.replace("/", "_") + ".png"), dpi=100)
                plt.close(fig)
        os.replace(partial, output)  # the report is there whole or not at all
        print(output, file=out)
        return [p.key for p in pages]


def read_run(path, body, label):
    """One run of --compare: the body's series (plot_pages.Run)."""
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
        series = {}
        for name, width in (("position", 3), ("velocity", 6), ("quaternion", 4), ("euler", 3)):
            ds = group.get(name)
            if not isinstance(ds, h5py.Dataset) or ds.ndim != 2 or ds.shape[1] != width:
                raise ResultError(f"{path}: body '{body}' has no {name} dataset of {width} columns")
            series[name] = np.asarray(ds[()], dtype=float)
        label = label or (text_attr(f, "overrides").replace("\n", " ") or os.path.splitext(os.path.basename(path))[0])
        return Run(label, np.asarray(f["time"][()], dtype=float), **series)


def compare_figures(out, count):
    """Where --compare's pages go: a PDF gets all of them; another name (a PNG) the first, and
    the others beside it as <stem>_attitude<ext> and <stem>_depth<ext>."""
    stem, ext = os.path.splitext(out)
    if ext.lower() == ".pdf":
        return [out]
    return [out] + [f"{stem}_{kind}{ext}" for kind in ("attitude", "depth")][:count - 1]


def compare_runs(paths, body, out, labels=None):
    """Overlay one body of several runs (see the module docstring); return the files written."""
    if labels and len(labels) != len(paths):
        raise ResultError(f"{len(labels)} labels for {len(paths)} runs")
    runs = [read_run(path, body, labels[i] if labels else None) for i, path in enumerate(paths)]
    pages = compare_pages(runs, body)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    figures = compare_figures(out, len(pages))
    pdf = PdfPages(out + ".partial") if len(figures) == 1 else None  # whole or not at all
    for k, page in enumerate(pages):
        fig = plt.figure(figsize=(11, 8), layout="constrained")
        page.draw(fig)
        fig.suptitle(page.title)
        if pdf:
            pdf.savefig(fig)
        else:
            fig.savefig(figures[k], dpi=90)
        plt.close(fig)
    if pdf:
        pdf.close()
        os.replace(out + ".partial", out)
    return figures


def write_synthetic(path, n=500):
    """A fake result file: a vehicle `auv`, an ROV `rov` with a 2-link arm `arm1` (links
    arm1/link1, arm1/link2), revolute joints arm1/joint1, arm1/joint2, a prismatic `slider`, two
    thrusters (µs commands; one with a shaft speed), an input channel, a pid `hold` on
    arm1/joint1, a connector and a pressure sensor `depth` on rov (rov has quaternions, yawed
    90°, so the sensor's point 0.5 m forward is 0.5 m east). auv's sway velocity is 1e-18
    round-off."""
    t = np.linspace(0.0, 50.0, n)
    scenario = ("name: selftest_helix\nmanipulators:\n  - {name: arm1, base: rov}\n"
                "controllers:\n  - {name: hold, type: pid, joint: arm1/joint1, rate: 10.0}\n"
                "sensors:\n  - {name: depth, type: pressure, body: rov, position: [0.5, 0.0, 0.1]}\n")
    with h5py.File(path, "w") as f:
        f.attrs.update(scenario=scenario, scenario_name="selftest_helix", status="interrupted",
                       command_line="sim selftest.yaml", simulator_version="0.0.0")
        f.create_dataset("time", data=t).attrs.update(units="s", description="simulation time")
        for k, (name, radius) in enumerate((("auv", 10.0), ("rov", 4.0), ("arm1/link1", 4.3), ("arm1/link2", 4.6))):
            w = 0.2 + 0.1 * min(k, 1)
            yaw = np.arctan2(np.sin(w * t + np.pi / 2), np.cos(w * t + np.pi / 2))
            euler = np.column_stack([0.05 * np.sin(t), np.full(n, -0.1), yaw])
            pos = np.column_stack([radius * np.cos(w * t), radius * np.sin(w * t), 0.2 * t])
            vel = np.column_stack([np.full(n, radius * w), 1e-18 * np.sin(t) if k == 0 else 0.1 * np.sin(t),
                                   np.full(n, 0.2), 0.05 * np.cos(t), np.zeros(n), np.full(n, w)])
            for ds_name, data, units, cols in (
                    ("position", pos, "m", "north,east,down"), ("euler", euler, "rad", "roll,pitch,yaw"),
                    ("velocity", vel, "m/s,m/s,m/s,rad/s,rad/s,rad/s", "u,v,w,p,q,r")):
                ds = f.create_dataset(f"bodies/{name}/{ds_name}", data=data)
                ds.attrs.update(units=units, description=f"{name} {ds_name}", columns=cols)
        for name, q, effort, units in (
                ("arm1/joint1", 0.8 * np.sin(0.3 * t), 2.0 * np.cos(0.3 * t), ("rad", "rad/s", "N m")),
                ("arm1/joint2", -0.5 + 0.4 * np.sin(0.5 * t), np.full(n, -1.5), ("rad", "rad/s", "N m")),
                ("slider", 0.1 * (1 - np.exp(-t / 10)), 5.0 * np.exp(-t / 10), ("m", "m/s", "N"))):
            for ds_name, data, unit in zip(("position", "velocity", "effort"), (q, np.gradient(q, t), effort), units):
                f.create_dataset(f"joints/{name}/{ds_name}", data=data).attrs.update(units=unit, description=ds_name)
        pwm = 1500 + 300 * (t > 10)
        for name, leaves in (("rov/port", ("command", "shaft_speed", "thrust")), ("rov/starboard", ("command", "thrust"))):
            for leaf, data, unit in zip(("command", "shaft_speed", "thrust"), (pwm, 0.9 * (pwm - 1500), 0.1 * (pwm - 1500)),
                                        ("us", "rad/s", "N")):
                if leaf in leaves:
                    f.create_dataset(f"thrusters/{name}/{leaf}", data=data).attrs.update(units=unit, description=leaf)
        f.create_dataset("inputs/surge_pwm", data=pwm).attrs.update(units="us", description="channel")
        q_d = 0.8 * np.sin(0.3 * t + 0.1)
        for leaf, data, unit in (("setpoint", q_d, "rad"), ("error", q_d - 0.8 * np.sin(0.3 * t), "rad"),
                                 ("output", np.cos(t), "N m")):
            f.create_dataset(f"controllers/hold/{leaf}", data=data).attrs.update(units=unit, description=leaf)
        wrench = np.column_stack([np.sin(t), np.cos(t), np.full(n, -3.0), 0.1 * np.sin(t), np.zeros(n), np.full(n, 0.2)])
        f.create_dataset("connectors/bolt/wrench", data=wrench).attrs.update(units="N, N m", description="wrench")
        f.create_dataset("bodies/rov/quaternion", data=np.tile([math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)], (n, 1)))
        depth = 0.2 * t + 0.1 + 0.01 * np.sin(7 * t)
        for leaf, data, unit in (("pressure", 101325 + 10055 * depth, "Pa"), ("depth", depth, "m")):
            f.create_dataset(f"sensors/depth/{leaf}", data=data).attrs.update(units=unit, description=leaf, kind="pressure")
        f.create_dataset("connectors/bolt/violation", data=np.column_stack([np.full(n, 1e-13), np.zeros(n)])).attrs.update(
            units="m, rad", description="violation")


def listing(path, **options):
    """--list's output as {key: [panel labels]}."""
    text = io.StringIO()
    report(path, listing=True, out=text, **options)
    pages = {}
    for line in text.getvalue().splitlines():
        if line.startswith("  "):
            pages[key].append(line.strip())
        else:
            key = line.split(":")[0]
            pages[key] = []
    return pages


def drawn(path, key):
    """The data axes of one page, drawn."""
    with h5py.File(path, "r") as f:
        _, pages = pages_of(f, path)
        page = next(p for p in pages if p.key == key)
        fig = plt.figure()
        return fig, page.draw(fig)


def check_compare_pages(path, check):
    """--compare's attitude and depth pages draw each run's roll, pitch, heading and depth."""
    with h5py.File(path, "r") as f:
        euler = np.degrees(f["bodies/auv/euler"][()])
        down = f["bodies/auv/position"][()][:, 2]
    runs = [read_run(path, "auv", name) for name in ("a", "b")]
    pages = {p.key: p for p in compare_pages(runs, "auv")}
    check(list(pages) == ["compare/horizontal", "compare/attitude", "compare/depth"], f"compare pages: {list(pages)}")
    fig = plt.figure()
    axes = pages["compare/attitude"].draw(fig)
    check([ax.get_ylabel() for ax in axes] == ["roll φ [deg]", "pitch θ [deg]", "heading ψ [deg]"],
          f"attitude panels: {[ax.get_ylabel() for ax in axes]}")
    for ax, expected in zip(axes, (euler[:, 0], euler[:, 1], np.degrees(np.unwrap(np.radians(euler[:, 2]))))):
        lines = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
        check(set(lines) == {"a", "b"} and all(np.allclose(y, expected) for y in lines.values()),
              f"{ax.get_ylabel()}: each run's angle")
    check(np.ptp(axes[2].get_lines()[0].get_ydata()) > 360, "heading is unwrapped (the helix turns more than once)")
    plt.close(fig)
    fig = plt.figure()
    (ax,) = pages["compare/depth"].draw(fig)
    check(ax.yaxis_inverted() and ax.get_ylabel() == "depth (down) [m]", "depth is drawn downwards")
    check(all(np.allclose(line.get_ydata(), down) for line in ax.get_lines()) and len(ax.get_lines()) == 2, "each run's depth")
    plt.close(fig)


def selftest():
    """Report on a synthetic file and check pages, panels and the error paths; return an exit code."""
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.h5")
        write_synthetic(path)
        pages = listing(path)
        check(list(pages) == ["summary", "body/auv/position", "body/auv/attitude", "body/auv/velocity",
                              "body/rov/position", "body/rov/attitude", "body/rov/velocity", "joints/arm1", "joints",
                              "thrusters", "inputs", "controller/hold", "connectors", "sensor/depth"], f"pages: {list(pages)}")
        check(pages.get("sensor/depth") == ["pressure [Pa]", "depth [m]"], f"sensor: {pages.get('sensor/depth')}")
        fig, axes = drawn(path, "sensor/depth")
        lines = {line.get_label(): line.get_ydata() for line in axes[1].get_lines()}
        with h5py.File(path, "r") as f:
            z = f["bodies/rov/position"][()][:, 2] + 0.1  # the point 0.1 m below the origin of a level body
        check(np.allclose(lines.get("true depth", []), z) and "depth" in lines, f"true depth beside the reading: {list(lines)}")
        plt.close(fig)
        check(pages.get("joints/arm1") == ["position [deg]", "velocity [deg/s]", "effort [N m]"], "arm joints' panels, no empty current panel")
        check(pages.get("thrusters") == ["command [µs]", "shaft speed [rad/s]", "thrust [N]"], f"thrusters: {pages.get('thrusters')}")
        check(pages.get("controller/hold") == ["set-point, response [deg]", "error [deg]", "output [N m]"],
              f"controller: {pages.get('controller/hold')}")
        check(pages.get("body/auv/position", [None] * 3)[2] == "depth (down) [m]", "depth panel")
        fig, axes = drawn(path, "body/auv/position")
        check(axes[2].yaxis_inverted() and not axes[0].yaxis_inverted(), "depth is drawn downwards")
        plt.close(fig)
        fig, axes = drawn(path, "body/auv/velocity")
        sway = next(line for line in axes[0].get_lines() if line.get_label() == "v")
        check(not np.any(sway.get_ydata()), "1e-18 round-off drawn as zero")
        plt.close(fig)
        fig, axes = drawn(path, "controller/hold")
        lines = {line.get_label(): line.get_ydata() for line in axes[0].get_lines()}
        with h5py.File(path, "r") as f:
            q = np.degrees(f["joints/arm1/joint1/position"][()])
        check(np.allclose(lines.get("measured", []), q), f"response is the joint's position: {list(lines)}")
        plt.close(fig)
        check(listing(path, bodies=["arm1/link2"]).keys() >= {"body/arm1/link2/position"}, "--body shows a link")
        check(list(listing(path, only=["controller/*"])) == ["summary", "controller/hold"], "--only")
        pdf = os.path.join(tmp, "report.pdf")
        with contextlib.redirect_stdout(io.StringIO()):
            written = report(path, pdf, png_dir=os.path.join(tmp, "png"))
        with open(pdf, "rb") as stream:
            count = len(re.findall(rb"/Type\s*/Page\b", stream.read()))
        check(count == len(written) == len(pages), f"{count} PDF pages for {len(written)} written, {len(pages)} listed")
        check(os.path.getsize(os.path.join(tmp, "png", "controller_hold.png")) > 0, "--png")
        other = os.path.join(tmp, "other.h5")
        write_synthetic(other)
        with h5py.File(other, "a") as f:  # --compare needs quaternions
            for name in ("auv",):
                f.create_dataset(f"bodies/{name}/quaternion", data=np.tile([1.0, 0, 0, 0], (500, 1)))
        figure = os.path.join(tmp, "cmp", "compare.png")
        figures = [figure] + [os.path.join(tmp, "cmp", f"compare_{k}.png") for k in ("attitude", "depth")]
        check(compare_runs([other, other], "auv", figure, ["a", "b"]) == figures and
              all(os.path.getsize(p) > 0 for p in figures), "--compare writes the path, attitude and depth figures")
        booklet = os.path.join(tmp, "cmp", "compare.pdf")
        check(compare_runs([other, other], "auv", booklet) == [booklet], "--compare -o X.pdf: one file")
        with open(booklet, "rb") as stream:
            check(len(re.findall(rb"/Type\s*/Page\b", stream.read())) == 3, "--compare's PDF has three pages")
        check_compare_pages(other, check)
        h5py.File(os.path.join(tmp, "empty.h5"), "w").close()
        with contextlib.redirect_stderr(io.StringIO()):  # the expected error messages
            for argv in ([os.path.join(tmp, "missing.h5")], [os.path.join(tmp, "empty.h5")], [path, "--body", "x"],
                         ["--compare", other, "--body", "nobody", "-o", figure]):
                check(main(argv) == 2, f"exit 2 for {argv}")
    for failure in failures:
        print("selftest: FAILED: " + failure)
    print("selftest " + ("passed" if not failures else "FAILED"))
    return 0 if not failures else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description="A result file as one multi-page PDF report (see the module docstring).")
    parser.add_argument("result", nargs="?", help="result .h5 file")
    parser.add_argument("-o", "--output", help="report (default <stem>_report.pdf next to the file); --compare: the figure")
    parser.add_argument("--only", nargs="+", action="extend", metavar="PATTERN", help="only the pages whose key matches (fnmatch)")
    parser.add_argument("--body", nargs="+", action="extend", metavar="NAME", help="these bodies instead of the free ones")
    parser.add_argument("--png", metavar="DIR", help="also write each page as DIR/<key>.png")
    parser.add_argument("--list", action="store_true", help="print the pages and their panels; write nothing")
    parser.add_argument("--compare", nargs="+", metavar="RUN", help="overlay one body of these runs in one figure (-o FILE.png)")
    parser.add_argument("--labels", nargs="+", help="--compare: a label per run")
    parser.add_argument("--selftest", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.selftest:
        return selftest()
    try:
        if args.compare:
            if not args.body or len(args.body) != 1 or not args.output:
                parser.error("--compare needs one --body and -o FIGURE.png")
            for figure in compare_runs(args.compare, args.body[0], args.output, args.labels):
                print(figure)
            return 0
        if not args.result:
            parser.error("the RESULT file is required")
        written = report(args.result, args.output, args.only, args.body, args.png, args.list)
    except (ResultError, KeyError) as exc:
        print(f"plot.py: error: {exc}", file=sys.stderr)
        return 2
    if not written:
        print("plot.py: nothing to plot" + (" (no page matches --only)" if args.only else ""), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
