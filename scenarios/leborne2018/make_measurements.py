#!/usr/bin/python3
"""Turns a simulated run of the Ariane arm into the logs a test bench would give:
joint positions known only through the motors' Hall-sensor increments, and noisy currents.

Leborne et al. 2018 record motor positions in increments (Hall sensors, Sec. IV-B) and motor
currents, "noisy" and oscillating (Sec. IV-E). Here:
  - position: the screw travel L(q) − L(q_min) counted in whole increments of the motor,
    c = N·48/p increments per metre (48 per motor turn), and turned back into the joint angle
    through the lever's triangle (eq. 4: L² = l1² + l2² − 2 l1 l2 cos(θ0 + q));
  - current: the simulated current plus white Gaussian noise of 0.12 A, the residual that
    Table IV's model with actuator dynamics leaves (0.117–0.128 A) and that the paper puts
    down to the drives' noisy, oscillating current; seeded, so the logs are reproducible;
  - rate: every sample at 10 Hz, the paper's "The sampling frequency is 10Hz" (Sec. IV-B),
    read as the rate of the drives' logs; the run must be recorded at a whole multiple of it.
The CSV's columns are named as the result file's datasets (time, joints/<joint>/position,
joints/<joint>/current), so sim identify reads it without --column.

Usage: /usr/bin/python3 make_measurements.py RUN.h5 OUT.csv [--seed N] [--current-noise A] [--rate HZ]
"""
import argparse
import math

import h5py
import numpy as np
import yaml

INCREMENTS_PER_TURN = 48


def logged_samples(time, rate):
    """The indices of the run's samples a log at `rate` holds: every n-th, n = run rate / rate."""
    run_rate = (len(time) - 1) / (time[-1] - time[0])
    n = round(run_rate / rate)
    if n < 1 or abs(n * rate - run_rate) > 1e-6 * run_rate:
        raise SystemExit(f"the run is recorded at {run_rate:g} Hz, not a whole multiple of --rate {rate:g} Hz")
    return slice(0, None, n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--current-noise", type=float, default=0.12, help="A, standard deviation")
    parser.add_argument("--rate", type=float, default=10.0, help="Hz, the logs' sample rate (the paper's 10 Hz)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with h5py.File(args.run, "r") as f:
        scenario = yaml.safe_load(f.attrs["scenario"])
        every = logged_samples(f["time"][:], args.rate)
        time = f["time"][:][every]
        columns = {"time": time}
        for arm in scenario["manipulators"]:
            for k, link in enumerate(arm["links"]):
                joint = link["joint"]
                if joint["type"] == "fixed":
                    continue
                name = f"{arm['name']}/{joint.get('name', f'joint{k + 1}')}"
                a = joint["actuator"]
                l1, l2, theta0 = a["l1"], a["l2"], a.get("angle_offset", 0.0)
                per_metre = a["gear_ratio"] * INCREMENTS_PER_TURN / a["pitch"]
                q = f[f"joints/{name}/position"][:][every]
                length = lambda th: np.sqrt(l1 * l1 + l2 * l2 - 2 * l1 * l2 * np.cos(th))
                zero = length(theta0 + joint["limits"]["lower"])
                counts = np.round((length(theta0 + q) - zero) * per_metre)
                L = zero + counts / per_metre
                columns[f"joints/{name}/position"] = np.arccos((l1 * l1 + l2 * l2 - L * L) / (2 * l1 * l2)) - theta0
                current = f[f"joints/{name}/current"][:][every]
                columns[f"joints/{name}/current"] = current + rng.normal(0.0, args.current_noise, current.shape)
    with open(args.out, "w") as out:
        out.write(f"# {args.run} as bench logs: positions from Hall increments, currents + {args.current_noise} A noise (seed {args.seed})\n")
        out.write(",".join(columns) + "\n")
        for row in zip(*columns.values()):
            out.write(",".join(repr(float(v)) for v in row) + "\n")


if __name__ == "__main__":
    main()
