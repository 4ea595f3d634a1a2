"""From a rosbag2 to sim's two CSVs: which topic plays which part (chosen by type, or by the
options), each topic's samples in order, the measured rows at the pose's (or attitude's) times
with the other topics interpolated there, and the command rows at the command topic's times."""
import math

from . import frames as fr
from .errors import LogError, UsageError
from .measured import Row, columns
from .output import Follower, Increasing

# part: {type: field path of the part's sub-message}
PARTS = {
    "pose": {"geometry_msgs/PoseStamped": "pose", "geometry_msgs/PoseWithCovarianceStamped": "pose.pose",
             "nav_msgs/Odometry": "pose.pose", "geometry_msgs/Pose": ""},
    "twist": {"geometry_msgs/TwistStamped": "twist", "geometry_msgs/TwistWithCovarianceStamped": "twist.twist",
              "nav_msgs/Odometry": "twist.twist", "geometry_msgs/Twist": ""},
    "imu": {"sensor_msgs/Imu": ""},
    "pressure": {"sensor_msgs/FluidPressure": ""},
    "rc": {"mavros_msgs/OverrideRCIn": "", "mavros_msgs/RCIn": ""},
    "motors": {"mavros_msgs/RCOut": "", "std_msgs/Float64MultiArray": "", "std_msgs/Float32MultiArray": ""},
}
GRAVITY = 9.80665


class Source:
    """One part read from TOPIC or TOPIC:FIELD: its samples as (time ns, values, frame_id)."""

    def __init__(self, bag, part, spec, stamp):
        topic, _, field = spec.partition(":")
        if topic not in bag.topics:
            raise UsageError(f"--{part} {spec}: no topic {topic} in the bag (see --list)")
        self.bag, self.part, self.topic, self.stamp = bag, part, topic, stamp
        t = bag.field_type(topic, field) if field else bag.topics[topic]
        if t not in PARTS[part]:
            raise UsageError(f"--{part} {spec}: {t} is not one of {', '.join(sorted(PARTS[part]))}")
        self.type = t
        self.prefix = [p for p in field.split(".") if p]
        self.inner = [p for p in PARTS[part][t].split(".") if p]
        self.label = f"{spec} ({t})"

    def _walk(self, msg, path):
        for name in path:
            msg = msg[name]
        return msg

    def samples(self):
        for t_rx, msg in self.bag.messages(self.topic):
            outer = self._walk(msg, self.prefix)
            header = outer.get("header") if isinstance(outer, dict) else None
            if header is None and isinstance(msg, dict):
                header = msg.get("header")
            t = t_rx
            if self.stamp == "header" and header is not None:
                t = header["stamp"]["sec"] * 1000000000 + header["stamp"]["nanosec"]
            frame = header["frame_id"] if header is not None else ""
            yield t, self.values(self._walk(outer, self.inner), outer), frame

    def values(self, m, outer):
        p = self.part
        if p == "pose":
            a, q = m["position"], m["orientation"]
            return (a["x"], a["y"], a["z"], q["w"], q["x"], q["y"], q["z"])
        if p == "twist":
            a, w = m["linear"], m["angular"]
            return (a["x"], a["y"], a["z"], w["x"], w["y"], w["z"])
        if p == "imu":
            q, w = m["orientation"], m["angular_velocity"]
            # sensor_msgs/Imu: orientation_covariance[0] = -1 says there is no orientation.
            has_q = m["orientation_covariance"][0] != -1.0
            return (q["w"], q["x"], q["y"], q["z"], w["x"], w["y"], w["z"], has_q)
        if p == "pressure":
            return (m["fluid_pressure"],)
        if self.type.endswith("MultiArray"):
            return tuple(float(x) for x in m["data"])
        return tuple(m["channels"])

    def child_frame(self):
        if self.type == "nav_msgs/Odometry":
            return "body"
        return None


MEASURED_PARTS = ("pose", "twist", "imu", "pressure")
INPUT_PARTS = ("rc", "motors")


def choose(bag, args, parts):
    """The Source of each of `parts`: as given, else the one topic of a fitting type (two are an
    error that lists them). A pressure topic is read only when named. Servo outputs and RC
    channels both present: --inputs-from says which."""
    def candidates(part):
        return [n for n, t in sorted(bag.topics.items()) if t in PARTS[part] and not t.endswith("MultiArray")]
    given = {p: getattr(args, p) for p in parts}
    if "rc" in parts and args.inputs_from is None and given["rc"] is None and given["motors"] is None:
        if candidates("rc") and candidates("motors"):
            raise UsageError(f"the bag has RC channels ({', '.join(candidates('rc'))}) and servo outputs "
                             f"({', '.join(candidates('motors'))}): choose with --inputs-from rc|motors")
    chosen = {}
    for part in parts:
        spec = given[part]
        if spec == "none" or (spec is None and part == "pressure"):
            continue
        if part in INPUT_PARTS and args.inputs_from is not None and args.inputs_from != part:
            continue
        if spec is None:
            found = candidates(part)
            if part == "twist" and "pose" in chosen and chosen["pose"].type == "nav_msgs/Odometry":
                found = [chosen["pose"].topic + (":" + ".".join(chosen["pose"].prefix) if chosen["pose"].prefix else "")]
            if len(found) > 1:
                raise UsageError(f"topics {', '.join(found)} could each be the {part}: choose one with --{part} TOPIC "
                                 f"(or --{part} none)")
            if not found:
                continue
            spec = found[0]
        chosen[part] = Source(bag, part, spec, args.stamp)
    if "rc" in chosen and "motors" in chosen:
        raise UsageError(f"RC channels ({chosen['rc'].label}) and servo outputs ({chosen['motors'].label}): "
                         "choose with --inputs-from rc|motors")
    return chosen


def first_time(source):
    for t, _, _ in source.samples():
        return t
    return None


def measured(bag, chosen, frames, args, out_factory, origin):
    """Writes the measured CSV; returns its CsvOut (committed by the caller) or None."""
    base_part = next((p for p in ("pose", "imu", "twist", "pressure") if p in chosen), None)
    if base_part is None:
        return None
    have = set()
    if "pose" in chosen:
        have |= {"position", "euler"}
    elif "pressure" in chosen:
        have.add("down")
    imu = chosen.get("imu")
    if "pose" not in chosen and imu is not None:
        have.add("euler")
    twist = chosen.get("twist")
    if twist is not None:
        have |= {"linear", "angular"}
    elif imu is not None:
        have.add("angular")
    twist_world = False
    notes = []
    if twist is not None:
        frame = args.twist_frame or twist.child_frame()
        if frame is None:
            pose_frame = next((fid for _, _, fid in chosen["pose"].samples()), None) if "pose" in chosen else None
            twist_frame_id = next((fid for _, _, fid in twist.samples()), "")
            frame = "world" if pose_frame is not None and twist_frame_id == pose_frame else "body"
            notes.append(f"twist frame: {frame} (its frame_id '{twist_frame_id}' "
                         + ("is" if frame == "world" else "is not") + f" the pose's '{pose_frame}'; --twist-frame to say)")
        else:
            notes.append(f"twist frame: {frame}" + (" (nav_msgs/Odometry: the twist is in child_frame_id)"
                                                     if args.twist_frame is None else " (--twist-frame)"))
        twist_world = frame == "world"
        if twist_world and "euler" not in have:
            raise UsageError("the twist is in the world frame and no pose or IMU orientation turns it into the body frame")
    if "pressure" in have or "down" in have:
        notes.append(f"down = (p - {args.surface_pressure} Pa) / ({args.water_density} kg/m^3 * {GRAVITY} m/s^2) "
                     f"from {chosen['pressure'].label}")
    streams = {p: Increasing(((t, v) for t, v, _ in s.samples())) for p, s in chosen.items() if p not in ("rc", "motors")}
    followers = {p: Follower(streams[p]) for p in streams if p != base_part}
    sources = ", ".join(f"{p}: {s.label}" for p, s in chosen.items() if p not in ("rc", "motors"))
    comments = [f"measured, from rosbag2 {bag.path} ({sources})"] + bag.notes + frames.describe() + notes + [
        f"time: s from {origin_text(origin, args)}; stamps: {stamp_text(args)}",
        f"rows at the {base_part} samples' times; other topics interpolated linearly there"]
    row = Row(frames, have)
    out = out_factory(["time [s]"] + columns(args.body, have), comments)
    skipped = {"outside": 0, "invalid": 0}
    for t, v in streams[base_part]:
        at = {p: f.at(t) for p, f in followers.items()}
        if any(x is None for x in at.values()):
            skipped["outside"] += 1
            continue
        R_log = p_log = lin = ang = down = None
        if base_part == "pose":
            p_log, R_log = v[0:3], fr.rotation_from_quaternion(*v[3:7])
        elif base_part == "imu" or (imu is not None and "pose" not in chosen):
            q = v if base_part == "imu" else at["imu"]
            R_log = fr.rotation_from_quaternion(*q[0:4]) if q[7] else None
        tw = v if base_part == "twist" else at.get("twist")
        if tw is not None:
            lin, ang = tw[0:3], tw[3:6]
        elif imu is not None:
            ang = (v if base_part == "imu" else at["imu"])[4:7]
        pr = v if base_part == "pressure" else at.get("pressure")
        if pr is not None:
            down = (pr[0] - args.surface_pressure) / (args.water_density * GRAVITY)
        if "euler" in have and R_log is None:
            skipped["invalid"] += 1
            continue
        cells = row.cells(R_log, p_log, down, lin, twist_world, ang, twist_world)
        if not all(math.isfinite(c) for c in cells):
            skipped["invalid"] += 1
            continue
        out.row((t - origin) / 1e9, cells)
    for p, s in streams.items():
        line = s.describe(chosen[p].label)
        if line:
            out.note(line)
    if skipped["outside"]:
        out.note(f"{skipped['outside']} {base_part} sample(s) outside the other topics' time spans dropped")
    if skipped["invalid"]:
        out.note(f"{skipped['invalid']} sample(s) with no valid orientation or a value that is not finite dropped")
    out.note(f"{out.rows} rows")
    return out


def origin_text(origin, args):
    if args.t0 is not None:
        return f"--t0 {args.t0} s of the log's clock"
    return f"the first sample written ({origin} ns of the log's clock)"


def stamp_text(args):
    return ("header.stamp where the message has a header, else the bag's receive time" if args.stamp == "header"
            else "the bag's receive time of each message")


def inputs(bag, chosen, args, out_factory, origin):
    """Writes the inputs CSV: motor1..N [us] from servo outputs, or rc1..N [us] from RC channels."""
    part = "motors" if "motors" in chosen and args.inputs_from != "rc" else "rc" if "rc" in chosen else None
    if part is None:
        return None
    src = chosen[part]
    first = next((v for _, v, _ in src.samples()), None)
    if first is None:
        return None
    n = args.channels or min(8, len(first))
    name = "motor" if part == "motors" else "rc"
    unit = args.motor_unit if src.type.endswith("MultiArray") else "us"
    override = src.type == "mavros_msgs/OverrideRCIn"
    comments = [f"inputs, from rosbag2 {bag.path} ({src.label})"] + bag.notes + [
                f"{name}k is {'servo output' if part == 'motors' else 'RC channel'} k"
                + (" (ArduSub: servo k drives motor k)" if part == "motors" else
                   " (ArduSub's default: 1 pitch, 2 roll, 3 throttle, 4 yaw, 5 forward, 6 lateral)"),
                f"time: s from {origin_text(origin, args)}; stamps: {stamp_text(args)}",
                "each row holds until the next: read with `interpolation: hold`"]
    if override:
        comments.append("OverrideRCIn: 0 (release) and 65535 (no change) hold the channel's previous value, 1500 before any")
    out = out_factory(["time"] + [f"{name}{k + 1} [{unit}]" for k in range(n)], comments)
    held = [1500] * n
    kept = 0
    stream = Increasing(((t, v) for t, v, _ in src.samples()))
    for k, (t, v) in enumerate(stream):
        if len(v) < n:
            raise LogError(f"{bag.path}: {src.label} message {k + 1} has {len(v)} channels, fewer than the {n} "
                           f"columns: choose --channels {len(v)}")
        values = list(v[:n])
        if override:
            for c in range(n):
                if values[c] in (0, 65535):
                    values[c] = held[c]
                    kept += 1
            held = values
        out.row((t - origin) / 1e9, values)
    line = stream.describe(src.label)
    if line:
        out.note(line)
    if kept:
        out.note(f"{kept} channel value(s) of 0 or 65535 held at the previous value")
    out.note(f"{out.rows} rows")
    return out


def flatten(prefix, value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}.{k}" if prefix else k, v, out)
    elif isinstance(value, tuple):
        for k, v in enumerate(value):
            flatten(f"{prefix}[{k}]", v, out)
    elif isinstance(value, bool):
        out.append((prefix, int(value)))
    elif isinstance(value, (int, float)):
        out.append((prefix, value))


def dump(bag, topic, args, out_factory, origin):
    """Every numeric field of a topic's messages, one column each (`a.b[3]`), at its receive times."""
    if topic not in bag.topics:
        raise UsageError(f"--message {topic}: no topic {topic} in the bag (see --list)")
    out = None
    names = None
    stream = Increasing(((t, m) for t, m in bag.messages(topic)))
    for k, (t, msg) in enumerate(stream):
        cells = []
        flatten("", msg, cells)
        if names is None:
            names = [c for c, _ in cells]
            out = out_factory(["time [s]"] + names, [f"topic {topic} ({bag.topics[topic]}) of rosbag2 {bag.path}",
                                                     f"time: s from {origin_text(origin, args)}; the bag's receive time",
                                                     "ROS units (REP 103: SI, m, rad, m/s, rad/s)"])
        elif [c for c, _ in cells] != names:
            raise LogError(f"{bag.path}: {topic} message {k + 1} has other fields than the first "
                           f"({len(cells)} numbers against {len(names)}): a variable-length field cannot be one column each")
        out.row((t - origin) / 1e9, [float(v) for _, v in cells])
    if out is not None:
        line = stream.describe(topic)
        if line:
            out.note(line)
    return out
