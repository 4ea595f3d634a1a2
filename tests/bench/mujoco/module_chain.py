#!/usr/bin/python3
"""Write the module-chain benchmark for both engines: N BlueROV2-sized vehicles 0.5 m apart
along x, each bolted rigidly to the next, each pushed by 10 N forward and ±1 N m in yaw.

  module_chain.py N OUTDIR   ->  OUTDIR/modules_N.yaml (sim), OUTDIR/modules_N.xml (MuJoCo)

The sim scenario is modules(n) of tests/bench/bench_trees.cpp written as a file (connectors at
the midpoint between neighbours); the MuJoCo model welds the same free bodies with equality
constraints (README.md in this folder says what differs). Both are written from the one table
below, in sim's NED frame (MuJoCo's gravity along +z), so their numbers are the same numbers.
Standard library only.
"""
import os
import sys

# BlueROV2, Wu 2018 figures (bluerov2() in bench_trees.cpp, scenarios/bluerov2_push.yaml)
MASS = 11.5
INERTIA = (0.16, 0.16, 0.16)
CENTER_OF_GRAVITY = (0.0, 0.0, 0.02)
VOLUME = 0.011702
ADDED_MASS = (5.5, 12.7, 14.57, 0.12, 0.12, 0.12)
LINEAR_DAMPING = (4.03, 6.22, 5.18, 0.07, 0.07, 0.07)
QUADRATIC_DAMPING = (18.18, 21.66, 36.99, 1.55, 1.55, 1.55)
SPACING = 0.5           # m between neighbours' origins, along x
BOLT_POINT = (0.25, 0.0, 0.0)  # connector point in the first vehicle's frame: the midpoint
PUSH = (10.0, 0.0, 0.0)  # N, body frame, at the origin


def yaw_moment(k):
    """N m about body z: alternating, so the chain is twisted but has no net moment."""
    return 1.0 if k % 2 else -1.0


def numbers(values):
    return ", ".join(repr(float(v)) for v in values)


def words(values):
    return " ".join(repr(float(v)) for v in values)


SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas",
                      "scenario.schema.json")


def scenario(n, folder):
    schema = os.path.relpath(os.path.normpath(SCHEMA), os.path.abspath(folder))
    out = [
        f"# yaml-language-server: $schema={schema}",
        f"# Benchmark model written by tests/bench/mujoco/module_chain.py {n}: {n} BlueROV2-sized vehicles",
        "# 0.5 m apart, each bolted to the next by a rigid connector at the midpoint, each pushed",
        "# 10 N forward and +-1 N m in yaw (modules() of tests/bench/bench_trees.cpp). MuJoCo's",
        f"# counterpart is modules_{n}.xml beside it. Edit the generator, not this file.",
        f"name: bench_modules_{n}",
        f"description: Benchmark - {n} BlueROV2-sized modules joined by rigid connectors.",
        "simulation:",
        "  duration: 10.0",
        "  integrator: rk4",
        "  step: 0.001",
        "  output_rate: 50.0",
        "bodies:",
    ]
    for k in range(n):
        out += [
            f"  - name: mod{k}",
            f"    mass: {MASS!r}",
            f"    inertia: [{numbers(INERTIA)}]",
            f"    center_of_gravity: [{numbers(CENTER_OF_GRAVITY)}]",
            f"    volume: {VOLUME!r}",
            f"    added_mass: [{numbers(ADDED_MASS)}]",
            f"    linear_damping: [{numbers(LINEAR_DAMPING)}]",
            f"    quadratic_damping: [{numbers(QUADRATIC_DAMPING)}]",
            f"    initial: {{position: [{numbers((SPACING * k, 0.0, 0.0))}]}}",
        ]
    out.append("forces:")
    for k in range(n):
        out.append(f"  - {{name: mod{k}, body: mod{k}, force: [{numbers(PUSH)}], "
                   f"moment: [{numbers((0.0, 0.0, yaw_moment(k)))}]}}")
    if n > 1:
        out.append("connectors:")
        for k in range(1, n):
            out.append(f"  - {{name: bolt{k}, type: rigid, bodies: [mod{k - 1}, mod{k}], "
                       f"point: [{numbers(BOLT_POINT)}]}}")
    return "\n".join(out) + "\n"


def mjcf(n):
    rows = 6 * (n - 1)
    out = [
        f"<!-- Benchmark model written by tests/bench/mujoco/module_chain.py {n}: MuJoCo's counterpart",
        f"     of modules_{n}.yaml, in sim's NED frame (gravity along +z). Edit the generator. -->",
        f'<mujoco model="bench_modules_{n}">',
        '  <compiler angle="radian" inertiafromgeom="false"/>',
        # Room for every weld row: with MuJoCo's default njmax, 100 welds no longer fit.
        f'  <size njmax="{max(rows, 1) + 100}" nconmax="1"/>',
        '  <option timestep="0.001" integrator="RK4" gravity="0 0 9.81" density="0" viscosity="0">',
        '    <flag contact="disable"/>',
        "  </option>",
        "  <custom>",
        '    <numeric name="water_density" data="1000"/>',
    ]
    for k in range(n):
        out.append(f'    <numeric name="buoyancy:mod{k}" data="{VOLUME!r}  0 0 0"/>')
        out.append(f'    <numeric name="wrench:mod{k}" data="{words(PUSH)}  0 0 {yaw_moment(k)!r}  0 0 0"/>')
    out += ["  </custom>", "  <worldbody>"]
    for k in range(n):
        out += [
            f'    <body name="mod{k}" pos="{words((SPACING * k, 0.0, 0.0))}">',
            f'      <freejoint name="mod{k}"/>',
            f'      <inertial pos="{words(CENTER_OF_GRAVITY)}" mass="{MASS!r}" diaginertia="{words(INERTIA)}"/>',
            '      <geom type="box" size="0.2285 0.169 0.127" mass="0"/>',
            "    </body>",
        ]
    out.append("  </worldbody>")
    if n > 1:
        out.append("  <equality>")
        # No relpose: MuJoCo welds the relative pose the bodies have in the model (as sim's
        # connectors hold the relative pose at the start).
        for k in range(1, n):
            out.append(f'    <weld name="bolt{k}" body1="mod{k - 1}" body2="mod{k}"/>')
        out.append("  </equality>")
    out.append("</mujoco>")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit() or int(argv[1]) < 1:
        sys.stderr.write("usage: module_chain.py N OUTDIR   (N >= 1 modules)\n")
        return 2
    n, folder = int(argv[1]), argv[2]
    os.makedirs(folder, exist_ok=True)
    for suffix, text in ((".yaml", scenario(n, folder)), (".xml", mjcf(n))):
        with open(os.path.join(folder, f"modules_{n}{suffix}"), "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
