#!/usr/bin/python3
"""Fig. 4 of Leborne et al. 2018 from sim identify's predictions: per joint, the measured motor
current on the validation trajectory (grey) and the currents predicted without (blue, dashed)
and with (red) the actuator dynamics, with each model's RMSE.

Usage: /usr/bin/python3 plot.py PREDICTIONS.csv OUT.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def main():
    path, out = sys.argv[1], sys.argv[2]
    data = np.genfromtxt(path, delimiter=",", names=True, deletechars="")
    names = data.dtype.names
    joints = [n[: -len("_with_actuators")] for n in names if n.endswith("_with_actuators")]
    fig, axes = plt.subplots(len(joints), 1, sharex=True, figsize=(10, 2.6 * len(joints)))
    for ax, j in zip(np.atleast_1d(axes), joints):
        t, measured = data["time"], data[j]
        with_, without = data[j + "_with_actuators"], data[j + "_without_actuators"]
        rmse = lambda p: np.sqrt(np.mean((p - measured) ** 2))
        ax.plot(t, measured, color="0.6", lw=0.6, label="measured (simulated + 0.12 A noise)")
        ax.plot(t, without, "b--", lw=1.0, label=f"without actuator dynamics, RMSE {rmse(without):.3f} A")
        ax.plot(t, with_, "r-", lw=1.0, label=f"with actuator dynamics, RMSE {rmse(with_):.3f} A")
        ax.set_ylabel(j.split("/")[-2] + " [A]")
        ax.legend(loc="upper right", fontsize=7)
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[-1].set_xlabel("time [s]")
    fig.suptitle("Ariane arm, validation trajectory: motor currents (cf. Leborne et al. 2018 Fig. 4)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
