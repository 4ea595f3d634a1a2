"""The KTH BlueROV2 Heavy dataset's processed files (SAABmarine-MEX/saabmarineMEX_learning,
residual_modelling/data_and_plots/dictfiles_plot*/…_data_all.npz, written by
residual_modelling/inference/res_inf.py from the bags' /synced_pose_control topic):
  timestamps       (N,)   ns, the bag time of each bin's first sample
  positions        (N, 6) x y z minus the first sample's, then scipy's euler 'xyz' (extrinsic x, y, z:
                          R = Rz Ry Rx) minus the first sample's: the heading zeroed by subtraction,
                          the positions not turned with it
  velocities       (N, 6) the motion capture's twist turned into the body frame (R⁻¹ v, R⁻¹ ω)
  scaled_controls  (N−1, 6) (RC − 1500)/400 of RC channels 1–6, channel 3 negated
each row the mean over a bin of about 0.1–0.2 s (a bin closes at the first sample 0.1 s or more
after it opened; its samples are the ones after its opening stamp up to the next's).

Axes, from the data (`--list` prints these checks for any such file), over the six recordings
(a command's correlation over the bins where it is used, the response two bins later):
  - d(z)/dt against throttle (RC 3 above 1500 rises, in ArduSub): −0.81 to −0.89 (−0.29 in
    12_04_31, throttle used in 12 bins; 11_46_03 does not use it): z down;
  - w against throttle: −0.85 to −0.91 (−0.21 in 12_04_31): body z down;
  - u against forward (RC 5): +0.84 to +0.94 (+0.26 in 11_46_03, a roll and pitch run): body x
    forward; v against lateral (RC 6, right above 1500): +0.90 to +0.97: body y starboard;
    r against yaw (RC 4, clockwise seen from above): +0.93 to +0.98 (the four runs using it);
  - r against d(yaw)/dt: correlation +0.69 to +0.96, slope +0.58 to +0.89 (p, q against the
    roll's and pitch's: +0.56 to +0.97): the rates and the angles share their axes;
  - d(position)/dt against Rz(ψ + ψ0) Ry(θ) Rx(φ)·(u, v, w): 0.037–0.085 m/s RMS per axis with
    the z-down world, its vertical part 0.18–0.39 m/s with z flipped (where there is vertical
    motion); ψ0 from −15° to +38°.
So the world is NED up to its heading and the body FRD: no axes change by default. ψ0, the
vehicle's initial heading in the capture's axes, is not in the file: it is estimated by that
fit (2-D Procrustes, closed form) and the positions turned by −ψ0 so that they share the zeroed
yaw's frame (`--kth-yaw-offset RAD` to give it, 0 to keep the capture's axes)."""
import math
import zipfile

from . import frames as fr
from .errors import LogError, UsageError
from .measured import Row, columns

REQUIRED = ("timestamps", "positions", "velocities", "scaled_controls")
CHANNEL_SIGN = (1.0, 1.0, -1.0, 1.0, 1.0, 1.0)


def load(path):
    import numpy as np
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in REQUIRED if k not in z.files]
            if missing:
                raise LogError(f"{path}: not a KTH processed file: no {', '.join(missing)} (it holds {', '.join(z.files)})")
            d = {k: np.asarray(z[k], dtype=np.float64) for k in REQUIRED}
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise LogError(f"{path}: not a readable .npz file ({e})")
    t, p, v, s = (d[k] for k in REQUIRED)
    n = t.shape[0] if t.ndim == 1 else -1
    if n < 2:
        raise LogError(f"{path}: timestamps: expected N >= 2 times, shape {t.shape}")
    for k, a, shapes in (("positions", p, [(n, 6)]), ("velocities", v, [(n, 6)]), ("scaled_controls", s, [(n - 1, 6), (n, 6)])):
        if a.shape not in shapes:
            raise LogError(f"{path}: {k}: shape {a.shape}, expected {' or '.join(str(x) for x in shapes)} with {n} timestamps")
        bad = np.argwhere(~np.isfinite(a))
        if bad.size:
            raise LogError(f"{path}: {k}[{bad[0][0]}, {bad[0][1]}] is not a finite number")
    if not np.all(np.isfinite(t)):
        raise LogError(f"{path}: timestamps[{int(np.argmax(~np.isfinite(t)))}] is not a finite number")
    dt = np.diff(t)
    if np.any(dt <= 0):
        k = int(np.argmax(dt <= 0)) + 1
        raise LogError(f"{path}: timestamps[{k}] = {t[k]:.0f} ns does not follow timestamps[{k - 1}] = {t[k - 1]:.0f} ns")
    return t, p, v, s


def stale_rows(v):
    """Rows whose six velocities equal the next row's bit for bit: res_inf.py's line
    `agg_velocities[3], agg_velocities[4] = agg_velocities[4], agg_velocities[3]` swaps rows 3 and
    4 (not columns) through numpy views, copying row 4 over row 3 in every file."""
    return [k for k in range(len(v) - 1) if all(v[k][j] == v[k + 1][j] for j in range(6))]


def _usable_pairs(t, p, v, skip):
    import numpy as np
    dt = np.diff(t) * 1e-9
    dp = np.diff(p[:, :3], axis=0) / dt[:, None]
    a = np.array([fr.apply(fr.rotation_from_euler(*p[k, 3:6]), v[k, :3]) for k in range(len(t))])
    am = 0.5 * (a[1:] + a[:-1])
    ok = np.all(np.abs(np.diff(p[:, 3:6], axis=0)) < 0.3, axis=1)  # no wrap or a bin straddling one
    for k in skip:
        ok[max(k - 1, 0):k + 1] = False
    return dp[ok], am[ok]


def yaw_offset(t, p, v, skip):
    """ψ0 minimising Σ|ṗ_xy − Rz(ψ0)·(R v)_xy|² (closed form), and the fit's RMS at ψ0 and at 0."""
    import numpy as np
    dp, am = _usable_pairs(t, p, v, skip)
    if len(dp) < 3:
        return 0.0, float("nan"), float("nan")
    s = np.sum(am[:, 0] * dp[:, 1] - am[:, 1] * dp[:, 0])
    c = np.sum(am[:, 0] * dp[:, 0] + am[:, 1] * dp[:, 1])
    psi0 = math.atan2(s, c)

    def rms(angle):
        cz, sz = math.cos(angle), math.sin(angle)
        ex = dp[:, 0] - (cz * am[:, 0] - sz * am[:, 1])
        ey = dp[:, 1] - (sz * am[:, 0] + cz * am[:, 1])
        ez = dp[:, 2] - am[:, 2]
        return float(np.sqrt(np.mean(ex * ex + ey * ey + ez * ez) / 3.0))
    return psi0, rms(psi0), rms(0.0)


def stamps(t, mode, origin):
    """Row times in s from `origin`: a bin's centre (between its stamp and the next's; the last
    bin, with no next stamp, is left out) or its opening stamp. The stamps are differenced first:
    at 1.7e18 ns a double resolves 256 ns, their differences exactly."""
    rel = [t[k] - origin for k in range(len(t))]
    if mode == "start":
        return [r / 1e9 for r in rel]
    return [(rel[k] + 0.5 * (rel[k + 1] - rel[k])) / 1e9 for k in range(len(t) - 1)]


def measured(path, data, frames, args, out_factory, origin):
    t, p, v, s = data
    skip = stale_rows(v)
    if args.kth_yaw_offset == "auto":
        psi0, fit, fit0 = yaw_offset(t, p, v, skip)
        offset_note = (f"positions turned by -psi0 = {-psi0:.6f} rad: psi0, the heading in the capture's axes at the start, "
                       f"fitted so that d(position)/dt = Rz(psi0) R v (RMS {fit:.4f} m/s per axis; {fit0:.4f} with psi0 = 0)")
    else:
        try:
            psi0 = float(args.kth_yaw_offset)
        except ValueError:
            raise UsageError(f"--kth-yaw-offset {args.kth_yaw_offset}: expected auto or an angle in rad")
        offset_note = f"positions turned by -psi0 = {-psi0!r} rad (--kth-yaw-offset)"
    Z = fr.rz(-psi0)
    times = stamps(t, args.kth_stamp, origin)
    have = {"position", "euler", "linear", "angular"}
    comments = [f"measured, from the KTH BlueROV2 Heavy dataset's processed file {path}",
                "positions: motion capture, minus the first sample's; euler: scipy 'xyz' (R = Rz Ry Rx) minus the "
                "first sample's (yaw zeroed by subtraction), wrapped into (-pi, pi]; velocities: body frame",
                offset_note] + frames.describe() + [
                f"time: s from {'--t0' if args.t0 is not None else 'the first bin'}'s stamp; each row is a bin's mean, at "
                + ("the centre between its stamp and the next's (the last bin left out)" if args.kth_stamp == "centre"
                   else "its stamp (--kth-stamp start)")]
    if skip:
        comments.append(f"row(s) {', '.join(str(k) for k in skip)} left out: their velocities are the next row's bit for bit "
                        "(res_inf.py swaps rows 3 and 4 through numpy views, losing row 3's)")
    row = Row(frames, have)
    out = out_factory(["time [s]"] + columns(args.body, have), comments)
    for k, tk in enumerate(times):
        if k in skip:
            continue
        pos = fr.apply(Z, p[k, :3]) if psi0 != 0.0 else tuple(p[k, :3])
        out.row(tk, row.cells(euler_log=tuple(p[k, 3:6]), p_log=pos,
                                                lin=tuple(v[k, :3]), ang=tuple(v[k, 3:6])))
    out.note(f"{out.rows} rows")
    return out


def rc_of(scaled, channel):
    """µs of RC channel `channel` (0-based) from res_inf.py's (RC − 1500)/400, channel 3 negated."""
    return 1500.0 + 400.0 * (CHANNEL_SIGN[channel] * scaled)


def inputs(path, data, args, out_factory, origin):
    t, _, _, s = data
    n = 6 if args.channels is None else args.channels
    if not 1 <= n <= 6:
        raise UsageError(f"--channels {n}: the KTH files hold RC channels 1 to 6")
    comments = [f"inputs, from the KTH BlueROV2 Heavy dataset's processed file {path}",
                "rck [us] = 1500 + 400 * scaled_controls[:, k-1], channel 3 negated back: the pilot's RC override "
                "(ArduSub's default: 1 pitch, 2 roll, 3 throttle, 4 yaw, 5 forward, 6 lateral), MANUAL mode",
                "each row is the mean over a bin, from its stamp to the next's: read with `interpolation: hold`",
                f"time: s from {'--t0' if args.t0 is not None else 'the first bin'}'s stamp"]
    out = out_factory(["time"] + [f"rc{k + 1} [us]" for k in range(n)], comments)
    for k in range(s.shape[0]):
        out.row((t[k] - origin) / 1e9, [rc_of(s[k, c], c) for c in range(n)])
    out.note(f"{out.rows} rows")
    return out


def evidence(path, data):
    """The sign checks that fix the axes (module docstring), for one file."""
    import numpy as np
    t, p, v, s = data
    n = s.shape[0]
    c = np.column_stack([rc_of(s[:, k], k) - 1500.0 for k in range(6)])
    tt = (t - t[0]) * 1e-9
    dz = np.gradient(p[:, 2], tt)[:n]
    lag = 2  # bins: the response follows the command

    def corr(a, b):
        a, b = a[lag:], b[:len(b) - lag]
        m = np.abs(b) > 1.0
        if m.sum() < 5 or np.std(a[m]) == 0 or np.std(b[m]) == 0:
            return "  n/a (channel not used)"
        return f"{np.corrcoef(a[m], b[m])[0, 1]:+.2f} over {int(m.sum())} bins"
    lines = [f"KTH processed file {path}: {len(t)} bins over {tt[-1]:.1f} s, "
             f"bin {np.median(np.diff(tt)):.3f} s (median), {n} command rows",
             f"  dz/dt vs throttle (RC3-1500, >0 rises): {corr(dz, c[:, 2])}   (negative: z down)",
             f"  w vs throttle:                          {corr(v[:n, 2], c[:, 2])}   (negative: body z down)",
             f"  u vs forward (RC5):                     {corr(v[:n, 0], c[:, 4])}   (positive: body x forward)",
             f"  v vs lateral (RC6, >0 right):           {corr(v[:n, 1], c[:, 5])}   (positive: body y starboard)",
             f"  r vs yaw (RC4, >0 clockwise from above): {corr(v[:n, 5], c[:, 3])}   (positive: z down)"]
    skip = stale_rows(v)
    for k, name, rate in ((5, "yaw", "r"), (3, "roll", "p"), (4, "pitch", "q")):
        d = np.diff(p[:, k]) / np.diff(tt)
        mid = 0.5 * (v[1:, k] + v[:-1, k])
        ok = np.abs(np.diff(p[:, k])) < 0.3
        slope = np.polyfit(d[ok], mid[ok], 1)[0]
        lines.append(f"  {rate} vs d({name})/dt: correlation {np.corrcoef(d[ok], mid[ok])[0, 1]:+.2f}, slope {slope:+.2f} "
                     f"(positive: the rates and the euler angles share their axes)")
    psi0, fit, fit0 = yaw_offset(t, p, v, skip)
    dp, am = _usable_pairs(t, p, v, skip)
    mirror = float(np.sqrt(np.mean((dp[:, 2] + am[:, 2]) ** 2))) if len(dp) else float("nan")
    lines.append(f"  d(position)/dt = Rz(psi0) R(euler) (u,v,w): psi0 {math.degrees(psi0):+.1f} deg, RMS {fit:.3f} m/s "
                 f"per axis (vertical with z flipped: {mirror:.3f} m/s)")
    if skip:
        lines.append(f"  velocity rows equal to the next bit for bit (left out): {skip}")
    return lines
