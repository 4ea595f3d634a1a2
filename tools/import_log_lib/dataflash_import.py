"""From a DataFlash log to sim's two CSVs. ArduPilot logs NED and FRD (its AHRS and EKF work in
them), so no axes change by default. Measured rows are at ATT's times: roll, pitch, yaw (deg in
the log) from ATT; p q r from IMU's gyro (rad/s, body FRD); position and velocity from the EKF's
XKF1 (PN PE PD, m; VN VE VD, m/s, turned into the body frame by ATT's attitude), or position
from POS or GPS (latitude, longitude, altitude about the first fix, on a sphere of radius
6378137 m: a tank's or a harbour's extent); depth from BARO's Alt (ArduSub: altitude below the
surface is negative) with --depth BARO. Inputs: RCOU's servo outputs C1… as motor1… [us], or
RCIN's channels as rc1… [us]."""
import math

from .errors import UsageError
from .measured import Row, columns
from .output import Follower, Increasing

EARTH_RADIUS = 6378137.0


def _time(us, origin):
    return (us - origin) / 1e6


def present(log):
    names = {}
    for mt, _, _ in log.records():
        names[mt.name] = names.get(mt.name, 0) + 1
    return names


def measured(log, names, frames, args, out_factory, origin):
    if args.attitude == "none" or args.attitude not in names:
        if args.attitude not in ("none", "ATT"):
            raise UsageError(f"--attitude {args.attitude}: the log has no {args.attitude} messages")
        return None
    position = args.position
    if position == "auto":
        position = "XKF1" if "XKF1" in names else "POS" if "POS" in names else "none"
    elif position != "none" and position not in names:
        raise UsageError(f"--position {position}: the log has no {position} messages")
    have = {"euler"}
    inst = args.instance
    followers, notes = {}, []
    streams = {"ATT": Increasing(log.samples("ATT", ["Roll", "Pitch", "Yaw"]))}
    if position == "XKF1":
        streams["XKF1"] = Increasing(log.samples("XKF1", ["PN", "PE", "PD", "VN", "VE", "VD"], inst))
        have |= {"position", "linear"}
        notes.append(f"position and velocity: XKF1 (EKF core {inst}) PN PE PD, VN VE VD; velocity turned into the body "
                     "frame by ATT's attitude")
    elif position in ("POS", "GPS"):
        streams[position] = Increasing(log.samples(position, ["Lat", "Lng", "Alt"], inst))
        have.add("position")
        notes.append(f"position: {position} Lat Lng Alt about the first fix: north = R dlat, east = R cos(lat0) dlng, "
                     f"down = -dAlt, R = {EARTH_RADIUS} m")
    elif position != "none":
        raise UsageError(f"--position {position}: expected XKF1, POS, GPS, auto or none")
    if args.depth != "none":
        if args.depth not in names:
            raise UsageError(f"--depth {args.depth}: the log has no {args.depth} messages")
        if "position" in have:
            raise UsageError("--depth with a position source: choose --position none to take depth from the barometer")
        streams["depth"] = Increasing(log.samples(args.depth, ["Alt"], inst))
        have.add("down")
        notes.append(f"down = -Alt of {args.depth} (instance {inst}; ArduSub logs depth as negative altitude)")
    if args.rates != "none":
        if args.rates not in names:
            raise UsageError(f"--rates {args.rates}: the log has no {args.rates} messages")
        streams["rates"] = Increasing(log.samples(args.rates, ["GyrX", "GyrY", "GyrZ"], inst))
        have.add("angular")
        notes.append(f"p q r: {args.rates} GyrX GyrY GyrZ (instance {inst}), interpolated at ATT's times (not filtered)")
    for key, s in streams.items():
        if key != "ATT":
            followers[key] = Follower(s)
    comments = [f"measured, from DataFlash {log.path}", "roll, pitch, yaw: ATT (deg in the log)"] + notes + frames.describe() + [
        f"time: s from {time_origin_text(origin, args)} (TimeUS of the log's clock)",
        "rows at ATT's times; the other messages interpolated linearly there"]
    row = Row(frames, have)
    out = out_factory(["time [s]"] + columns(args.body, have), comments)
    fix0 = None
    outside = 0
    for t, (roll, pitch, yaw) in streams["ATT"]:
        at = {k: f.at(t) for k, f in followers.items()}
        if any(v is None for v in at.values()):
            outside += 1
            continue
        euler = (math.radians(roll), math.radians(pitch), math.radians(yaw))
        p_log = lin = ang = down = None
        if position == "XKF1":
            p_log, lin = at["XKF1"][0:3], at["XKF1"][3:6]
        elif position in ("POS", "GPS"):
            lat, lng, alt = at[position]
            if fix0 is None:
                fix0 = (lat, lng, alt)
            p_log = (math.radians(lat - fix0[0]) * EARTH_RADIUS,
                     math.radians(lng - fix0[1]) * EARTH_RADIUS * math.cos(math.radians(fix0[0])), -(alt - fix0[2]))
        if "depth" in at:
            down = -at["depth"][0]
        if "rates" in at:
            ang = at["rates"]
        out.row(_time(t, origin), row.cells(None, p_log, down, lin, True, ang, False, euler_log=euler))
    for key, s in streams.items():
        line = s.describe(key if key in ("ATT", "XKF1", "POS", "GPS") else {"depth": args.depth, "rates": args.rates}[key])
        if line:
            out.note(line)
    if outside:
        out.note(f"{outside} ATT sample(s) outside the other messages' time spans dropped")
    if log.truncated_end:
        out.note(log.truncated_end)
    out.note(f"{out.rows} rows")
    return out


def inputs(log, names, args, out_factory, origin):
    choice = args.inputs_from
    if choice is None:
        if "RCOU" in names and "RCIN" in names:
            raise UsageError("the log has servo outputs (RCOU) and RC inputs (RCIN): choose with --inputs-from motors|rc")
        choice = "motors" if "RCOU" in names else "rc" if "RCIN" in names else None
    if choice is None:
        return None
    msg = {"motors": "RCOU", "rc": "RCIN"}[choice]
    if msg not in names:
        raise UsageError(f"--inputs-from {choice}: the log has no {msg} messages")
    n = args.channels or 8
    fields = [f"C{k + 1}" for k in range(n)]
    name = "motor" if choice == "motors" else "rc"
    comments = [f"inputs, from DataFlash {log.path} ({msg} C1..C{n})",
                f"{name}k is {msg} Ck" + (" (ArduSub: servo k drives motor k)" if choice == "motors" else
                                          " (ArduSub's default: 1 pitch, 2 roll, 3 throttle, 4 yaw, 5 forward, 6 lateral)"),
                f"time: s from {time_origin_text(origin, args)} (TimeUS of the log's clock)",
                "each row holds until the next: read with `interpolation: hold`"]
    out = out_factory(["time"] + [f"{name}{k + 1} [us]" for k in range(n)], comments)
    stream = Increasing(log.samples(msg, fields))
    for t, v in stream:
        out.row(_time(t, origin), v)
    line = stream.describe(msg)
    if line:
        out.note(line)
    if log.truncated_end:
        out.note(log.truncated_end)
    out.note(f"{out.rows} rows")
    return out


def dump(log, name, args, out_factory, origin):
    types, units = log.types()
    if name not in types:
        raise UsageError(f"--message {name}: the log has no {name} messages (see --list)")
    mt = types[name][0]
    if "TimeUS" not in mt.index:
        raise UsageError(f"--message {name}: it has no TimeUS field to time its rows")
    keep = [c for c, ch in zip(mt.columns, mt.format) if ch not in "nNZa" and c != "TimeUS"]
    u = units.get(name, {})
    out = out_factory(["time [s]"] + [f"{c} [{u[c]}]" if c in u else c for c in keep],
                      [f"{name} of DataFlash {log.path}: every numeric field, scaled by its format character "
                       "(c C e E: 0.01, L: 1e-7); units from the log's FMTU and UNIT records",
                       f"time: s from {time_origin_text(origin, args)}"
                       + (f"; instance {args.instance} only" if ("I" in mt.index or "C" in mt.index) else "")])
    stream = Increasing(log.samples(name, keep, args.instance))
    for t, v in stream:
        out.row(_time(t, origin), v)
    line = stream.describe(name)
    if line:
        out.note(line)
    return out


def list_lines(log):
    types, units = log.types()
    out = [f"DataFlash {log.path}: {len(types)} message types"]
    for name in sorted(types):
        mt, count = types[name]
        u = units.get(name, {})
        cols = ", ".join(f"{c} [{u[c]}]" if c in u else c for c in mt.columns)
        out.append(f"  {name:6s} {count:8d}  {mt.format:16s} {cols}")
    if log.truncated_end:
        out.append("  " + log.truncated_end)
    return out


def time_origin_text(origin, args):
    if args.t0 is not None:
        return f"--t0 {args.t0} s"
    return f"the log's first sample (TimeUS {origin})"
