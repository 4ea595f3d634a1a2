#!/usr/bin/python3
"""Derives the values Leborne et al. 2018 do not print, for scenarios/leborne2018/.

Run it to see where the numbers in ariane_arm.yaml, excitation.yaml and validation.yaml come
from (they are pasted there, rounded as printed here):

  1. lever angle offsets: the lever is perpendicular to the screw (sin α largest, eq. 4) at the
     middle of each joint's range of Table III, which keeps the smallest lever arm over the
     range as large as it can be;
  2. gear ratios: Table III maps each joint's range onto a range of motor increments; with the
     lever geometry of Table II that gives the motor increments per metre of screw travel,
     c = Δinc / ΔL, and with 48 Hall increments per motor turn (an 8-pole-pair motor) and a
     2 mm screw pitch, the gearbox ratio N = c·p / 48;
  3. the joint speeds Table III's motor speed limits allow at the ends of the range, to compare
     with the table's own joint-space equivalents (28, 9, 25 °/s);
  4. Fourier excitation trajectories (Swevers et al. 1997, 5 harmonics, 80 s period as in the
     paper) starting and ending at rest at mid-range (q, q̇, q̈ continuous at the window
     edges), scaled to stay within 85 % of the joint ranges and 80 % of Table III's motor speed
     and acceleration limits (in increments, through the lever: inc/s = c·L'(θ)·q̇,
     inc/s² = c·(L'(θ)·q̈ + L''(θ)·q̇²)); of 200 seeded draws (harmonic k weighted by 1/k²),
     the one covering the largest share of every joint's range while no two joint velocities
     correlate by more than 0.3 is kept.
     The paper minimised the condition number of the observation matrix instead; sim identify
     reports the one these give.

Usage: /usr/bin/python3 design.py
"""
import numpy as np

L1 = np.array([0.323, 0.073, 0.489])    # m, Table II
L2 = np.array([0.058, 0.537, 0.054])
Q_RANGE = np.radians([[-90.0, 32.0], [7.0, 94.0], [110.0, 244.0]])  # Table III
INC_RANGE = np.array([20850.0, 6810.0, 26750.0])                      # Table III, increments
INC_SPEED = np.array([2000.0, 600.0, 2000.0])                         # inc/s
INC_ACCEL = np.array([20000.0, 6000.0, 20000.0])                      # inc/s²
Q_SPEED_TABLE = np.array([28.0, 9.0, 25.0])                           # °/s, Table III
INC_PER_TURN = 48.0
PITCH = 0.002
PERIOD, HARMONICS = 80.0, 5


def length(j, theta):     # eq. 4's triangle: L² = l1² + l2² − 2 l1 l2 cos θ
    return np.sqrt(L1[j] ** 2 + L2[j] ** 2 - 2 * L1[j] * L2[j] * np.cos(theta))


def lever_arm(j, theta):  # dL/dθ = l2 sin α
    return L1[j] * L2[j] * np.sin(theta) / length(j, theta)


def lever_arm_rate(j, theta):  # d²L/dθ² = (l1 l2 cos θ − L'²)/L
    return (L1[j] * L2[j] * np.cos(theta) - lever_arm(j, theta) ** 2) / length(j, theta)


def main():
    theta0 = np.pi / 2 - Q_RANGE.mean(axis=1)
    inc_per_m, ratio, speed_limit = [], [], []
    for j in range(3):
        lo, hi = Q_RANGE[j] + theta0[j]
        c = INC_RANGE[j] / (length(j, hi) - length(j, lo))
        inc_per_m.append(c)
        ratio.append(c * PITCH / INC_PER_TURN)
        th = np.linspace(lo, hi, 2001)
        speed_limit.append(INC_SPEED[j] / (c * lever_arm(j, th).min()))  # rad/s at the range ends
        print(f"joint {j + 1}: angle_offset {theta0[j]:.6f} rad ({np.degrees(theta0[j]):.1f}°), lever angle "
              f"{np.degrees(lo):.1f}…{np.degrees(hi):.1f}°, {c:.1f} inc/m, gear_ratio {ratio[-1]:.6f}, "
              f"joint speed at the motor limit {np.degrees(speed_limit[-1]):.1f}°/s at the range ends "
              f"({np.degrees(INC_SPEED[j] / (c * lever_arm(j, th).max())):.1f}°/s mid-range; Table III: {Q_SPEED_TABLE[j]:.0f}°/s)")
    speed_limit = np.array(speed_limit)

    w = 2 * np.pi / PERIOD
    k = np.arange(1, HARMONICS + 1)
    t = np.linspace(0.0, PERIOD, 4001)
    # Rest at the window edges: Σ b_k = 0, Σ k a_k = 0, Σ k² b_k = 0 (q, q̇, q̈ of the sum).
    constraints = np.zeros((3, 2 * HARMONICS))
    constraints[0, HARMONICS:] = 1.0
    constraints[1, :HARMONICS] = k
    constraints[2, HARMONICS:] = k ** 2
    projector = np.eye(2 * HARMONICS) - np.linalg.pinv(constraints) @ constraints

    def draw(rng):
        coefficients, velocities = [], []
        for j in range(3):
            x = projector @ (rng.normal(size=2 * HARMONICS) / np.concatenate([k, k]) ** 2)
            a, b = x[:HARMONICS], x[HARMONICS:]
            S, C = np.sin(np.outer(t, k) * w), np.cos(np.outer(t, k) * w)
            q, qd, qdd = S @ a + C @ b, C @ (a * k * w) - S @ (b * k * w), -(S @ (a * (k * w) ** 2) + C @ (b * (k * w) ** 2))
            half = 0.85 * 0.5 * (Q_RANGE[j, 1] - Q_RANGE[j, 0])

            def within(scale):
                theta = theta0[j] + Q_RANGE[j].mean() + scale * q
                speed = inc_per_m[j] * lever_arm(j, theta) * scale * qd
                accel = inc_per_m[j] * (lever_arm(j, theta) * scale * qdd + lever_arm_rate(j, theta) * (scale * qd) ** 2)
                return np.abs(speed).max() <= 0.8 * INC_SPEED[j] and np.abs(accel).max() <= 0.8 * INC_ACCEL[j]

            scale = half / np.abs(q).max()
            if not within(scale):  # bisect for the largest scale within the motor limits
                lo, hi = 0.0, scale
                for _ in range(60):
                    mid = 0.5 * (lo + hi)
                    lo, hi = (mid, hi) if within(mid) else (lo, mid)
                scale = lo
            coefficients.append((scale * a, scale * b))
            velocities.append(qd)
        c = np.corrcoef(np.array(velocities))
        coverage = min((np.ptp(np.sin(np.outer(t, k) * w) @ a + np.cos(np.outer(t, k) * w) @ b)) / (Q_RANGE[j, 1] - Q_RANGE[j, 0])
                       for j, (a, b) in enumerate(coefficients))
        return coefficients, np.abs(c[np.triu_indices(3, 1)]).max(), coverage

    chosen = {}
    for name, seeds in (("excitation", range(0, 200)), ("validation", range(1000, 1200))):
        draws = [draw(np.random.default_rng(s)) + (s,) for s in seeds]
        best = max((d for d in draws if d[1] < 0.3), key=lambda d: d[2])
        chosen[name] = best
        print(f"\n{name}: seed {best[3]}, largest correlation between joint velocities {best[1]:.3f}, "
              f"smallest share of a joint's range covered {best[2]:.2f}")
        for j, (a, b) in enumerate(best[0]):
            q0 = Q_RANGE[j].mean()
            q = q0 + np.sin(np.outer(t, k) * w) @ a + np.cos(np.outer(t, k) * w) @ b
            print(f"  # joint {j + 1}: {np.degrees(q.min()):.1f}…{np.degrees(q.max()):.1f}° of Table III's "
                  f"{np.degrees(Q_RANGE[j, 0]):.0f}…{np.degrees(Q_RANGE[j, 1]):.0f}°")
            rows = ", ".join(f"[{ak:.6f}, {bk:.6f}]" for ak, bk in zip(a, b))
            print(f"  - {{name: q{j + 1}_path, type: fourier, units: rad, frequency: {1 / PERIOD}, offset: {q0:.6f}, "
                  f"start: 5.0, stop: {5.0 + PERIOD}, harmonics: [{rows}]}}")


if __name__ == "__main__":
    main()
