#!/usr/bin/python3
"""tools/import_log on rosbag2 bags written by the test (its own CDR encoder, import_log_fixtures):
every value of every topic kind read back exactly, the frame conversions against hand-worked
poses and twists (a vehicle in ENU facing north-east, its NED position and euler angles), the
bag's own message definitions and a custom message's fields, duplicate stamps, malformed bags
(exit 2 with what and where, nothing written), and a round trip: a motion simulated by sim,
written as a ROS bag in ENU/FLU, imported, and compared by `sim compare` with the result it came
from — every series matched by name and unit, to round-off.
Usage: tests/tools/test_import_log_rosbag2.py REPO_ROOT SIM_EXECUTABLE"""
import math
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import import_log_fixtures as fx  # noqa: E402

root, sim = sys.argv[1], sys.argv[2]
T = fx.Checks(root)
check = T.check
work = tempfile.mkdtemp(prefix="import_log_rosbag2_")
d = math.radians
T0 = 1_700_000_000_000_000_000  # receive time of the first message, ns


def near(a, b, tol=1e-12):
    return abs(a - b) <= tol * max(1.0, abs(b))


def rows_near(got, expected, what, tol=1e-12):
    check(len(got) == len(expected), f"{what}: {len(got)} rows, expected {len(expected)}")
    for k, (g, e) in enumerate(zip(got, expected)):
        ok = len(g) == len(e) and all(near(x, y, tol) for x, y in zip(g, e))
        check(ok, f"{what}: row {k} {g} expected {e}")


# --- one bag with every topic kind, no metadata.yaml: its topics table alone ------------------
ENU_POSES = [  # receive offset ns, header (sec, nanosec), ENU position, ROS roll, pitch, yaw (FLU in ENU)
    (0, (1000, 500), (1.0, 2.0, 3.0), (d(20), d(10), d(30))),
    (100_000_000, (1001, 500), (0.0, 0.0, 0.0), (0.0, 0.0, d(45))),          # facing north-east, level
    (300_000_000, (1003, 500), (9.0, 9.0, 9.0), (0.0, 0.0, 0.0)),            # replaced: same time as the next
    (300_000_000, (1003, 500), (-1.0, 0.5, -2.0), (0.0, d(-20), d(90))),     # facing north, nose up 20°
]
# Expected in NED/FRD, worked by hand: p_NED = (y, x, -z); roll kept, pitch negated, yaw = 90° − yaw_ENU.
NED_POSES = [(0.0, (2.0, 1.0, -3.0), (d(20), d(-10), d(60))),
             (0.1, (0.0, 0.0, -0.0), (0.0, 0.0, d(45))),
             (0.3, (0.5, -1.0, 2.0), (0.0, d(20), 0.0))]
s2 = 1 / math.sqrt(2)
WORLD_TWISTS = [  # ENU linear, ENU angular, at the poses' receive times (big-endian messages)
    ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
    ((0.8 * s2, 0.8 * s2, 0.3), (0.2, 0.0, 0.5)),   # moving north-east at 0.8 m/s, rising 0.3; turning left
    ((5.0, 5.0, 5.0), (5.0, 5.0, 5.0)),
    ((0.0, 1.0, 0.0), (0.0, 0.0, 0.0)),              # moving north at 1 m/s, nose up 20°
]
# Body FRD, by hand: facing NE, u = 0.8, v = 0, w = -0.3 (rising); ω_NED = (0, 0.2, -0.5):
# p = ω·forward = 0.2 sin45°, q = ω·right = 0.2 cos45°, r = -0.5. Nose up 20° facing north:
# forward = (cos20°, 0, -sin20°), down axis = (sin20°, 0, cos20°): u = cos20°, w = sin20°.
BODY_TWISTS = [(0, 0, 0, 0, 0, 0), (0.8, 0.0, -0.3, 0.2 * s2, 0.2 * s2, -0.5),
               (math.cos(d(20)), 0.0, math.sin(d(20)), 0.0, 0.0, 0.0)]

messages = []
for (dt, hdr, p, rpy), (v, w) in zip(ENU_POSES, WORLD_TWISTS):
    messages.append(("/mocap/pose", T0 + dt, fx.pose_stamped(hdr, "world", p, fx.q_from_rpy(*rpy))))
    messages.append(("/mocap/twist", T0 + dt, fx.twist_stamped(hdr, "world", v, w, big=True)))
ODOM = [((3.0, 4.0, -5.0), (1.0, 0.0, 0.0, 0.0), (0.5, 0.2, -0.1), (0.01, 0.02, 0.03)),
        ((3.5, 4.5, -5.5), fx.q_from_rpy(0, 0, d(90)), (0.25, 0.0, 0.0), (0.0, 0.0, -0.125))]
for k, (p, q, v, w) in enumerate(ODOM):
    messages.append(("/odom", T0 + 50_000_000 + k * 100_000_000, fx.odometry((1000 + k, 0), "odom", "base_link", p, q, v, w)))
IMU = [(fx.q_from_rpy(d(5), d(-5), d(180)), (0.1, 0.2, 0.3)), ((1.0, 0.0, 0.0, 0.0), (-0.5, 0.25, 0.125))]
for k, (q, w) in enumerate(IMU):
    messages.append(("/imu", T0 + k * 100_000_000, fx.imu((1000 + k, 0), "imu_link", q, w, (0.0, 0.0, 9.8))))
bad_imu = bytearray(fx.imu((1002, 0), "imu_link", (1.0, 0, 0, 0), (0, 0, 0), (0, 0, 0)))
# orientation_covariance[0] = -1, sensor_msgs/Imu's "no orientation": after the encapsulation (4),
# sec, nanosec, frame_id's length and "imu_link\0" (bytes 4-25), padding to 28, the quaternion (28-60).
struct.pack_into("<d", bad_imu, 60, -1.0)
messages.append(("/imu", T0 + 200_000_000, bytes(bad_imu)))
messages.append(("/depth", T0, fx.fluid_pressure((1000, 0), "depth", 101325.0 + 9806.65, 1.0)))
messages.append(("/depth", T0 + 100_000_000, fx.fluid_pressure((1001, 0), "depth", 101325.0 + 2 * 9806.65, 1.0)))
RC = [[1500, 1600, 1400, 1500, 1700, 1500, 1500, 1500] + [65535] * 10,
      [65535, 1650, 0, 1500, 1700, 1500, 1450, 1500] + [65535] * 10]
for k, ch in enumerate(RC):
    messages.append(("/mavros/rc/override", T0 + k * 200_000_000, fx.override_rc_in(ch)))
SERVO = [[1100, 1200, 1300, 1400, 1600, 1700, 1800, 1900, 1000, 2000], [1500] * 8 + [1000, 1000]]
for k, ch in enumerate(SERVO):
    messages.append(("/mavros/rc/out", T0 + k * 100_000_000 + 1, fx.rc_out((1000 + k, 1), "", ch, big=True)))
messages.append(("/mavros/rc/in", T0, fx.rc_in((1000, 0), "", 200, [1500, 1510, 1520, 1530, 1540, 1550])))
THRUST = [[1525.5, 1474.25, 1500.0, 1600.125], [1500.0, 1500.0, 1500.0, 1500.0]]
for k, data in enumerate(THRUST):
    messages.append(("/thrusters", T0 + k * 100_000_000, fx.float64_multi_array([("motors", 4, 4)], 0, data)))
messages.append(("/foo", T0, fx.Cdr().put("d", 1.0).bytes()))
TOPICS = [("/mocap/pose", "geometry_msgs/msg/PoseStamped"), ("/mocap/twist", "geometry_msgs/msg/TwistStamped"),
          ("/odom", "nav_msgs/msg/Odometry"), ("/imu", "sensor_msgs/msg/Imu"), ("/depth", "sensor_msgs/msg/FluidPressure"),
          ("/mavros/rc/override", "mavros_msgs/msg/OverrideRCIn"), ("/mavros/rc/out", "mavros_msgs/msg/RCOut"),
          ("/mavros/rc/in", "mavros_msgs/msg/RCIn"), ("/thrusters", "std_msgs/msg/Float64MultiArray"),
          ("/foo", "foo_msgs/msg/Bar")]
bag = os.path.join(work, "all.db3")
fx.write_bag(bag, TOPICS, messages)
out = os.path.join(work, "m.csv")

r = T.ok(bag, "--list")
for name, type_name in TOPICS:
    check(name in r.stdout and type_name.replace("/msg/", "/") in r.stdout, f"--list shows {name} {type_name}")
check("/foo" in r.stdout and "no definition" in r.stdout, "--list says /foo cannot be decoded")

# Two topics could be the pose: the tool asks rather than guesses.
T.refused("/mocap/pose, /odom could each be the pose", bag, "--measured", out, outputs=[out])

# PoseStamped + a world-frame TwistStamped (big-endian), ENU/FLU by REP 103.
for stamp, times in (("receive", [0.0, 0.1, 0.3]), ("header", [0.0, 1.0, 3.0])):
    T.ok(bag, "--measured", out, "--pose", "/mocap/pose", "--twist", "/mocap/twist", "--imu", "none", "--stamp", stamp,
         "--body", "bluerov2/rov")
    comments, header, rows = fx.read_csv(out)
    base = "bodies/bluerov2/rov/"
    check(header == ["time [s]"] + [base + c for c in (
        "position/north [m]", "position/east [m]", "position/down [m]", "euler/roll [rad]", "euler/pitch [rad]",
        "euler/yaw [rad]", "velocity/u [m/s]", "velocity/v [m/s]", "velocity/w [m/s]", "velocity/p [rad/s]",
        "velocity/q [rad/s]", "velocity/r [rad/s]")], f"measured header {header}")
    expected = [[t, *p, *e, *tw] for t, (_, p, e), tw in zip(times, NED_POSES, BODY_TWISTS)]
    rows_near(rows, expected, f"PoseStamped + world TwistStamped ({stamp} stamps)")
    text = "\n".join(comments)
    check("ENU" in text and "FLU" in text and "REP 103" in text, "the header states ENU/FLU and why")
    check("twist frame: world" in text, "the header states the twist's frame and why")
    check("1 sample(s) at the same time as the one before replaced it" in text, "the duplicate stamp is stated")
    check(rows[0][1] == 2.0 and rows[0][2] == 1.0 and rows[0][3] == -3.0, "positions converted exactly")

# --zero-heading: the first yaw (60°) taken out of the world, positions turned with it.
T.ok(bag, "--measured", out, "--pose", "/mocap/pose", "--twist", "none", "--imu", "none", "--zero-heading", "--zero-position")
comments, header, rows = fx.read_csv(out)
c, s = math.cos(d(-60)), math.sin(d(-60))
expected = []
for t, p, e in NED_POSES:
    dn, de, dd = p[0] - 2.0, p[1] - 1.0, p[2] + 3.0
    expected.append([t, c * dn - s * de, s * dn + c * de, dd, e[0], e[1], math.remainder(e[2] - d(60), 2 * math.pi)])
rows_near(rows, expected, "--zero-heading --zero-position")
check(any("heading zeroed" in x for x in comments), "the zeroed heading is stated")

# Odometry: pose in its frame, twist in child_frame_id (body, FLU).
T.ok(bag, "--measured", out, "--pose", "/odom", "--imu", "none")
comments, header, rows = fx.read_csv(out)
rows_near(rows, [[0.0, 4.0, 3.0, 5.0, 0.0, 0.0, d(90), 0.5, -0.2, 0.1, 0.01, -0.02, -0.03],
                 [0.1, 4.5, 3.5, 5.5, 0.0, 0.0, 0.0, 0.25, -0.0, 0.0, 0.0, -0.0, 0.125]], "Odometry (body twist)")
check(any("child_frame_id" in x for x in comments), "Odometry's twist frame stated")

# Imu alone: attitude and rates; the sample with no orientation is dropped and counted.
T.ok(bag, "--measured", out, "--pose", "none", "--twist", "none", "--imu", "/imu")
comments, header, rows = fx.read_csv(out)
check(header[1:4] == ["bodies/rov/euler/roll [rad]", "bodies/rov/euler/pitch [rad]", "bodies/rov/euler/yaw [rad]"],
      f"Imu columns {header}")
rows_near(rows, [[0.0, d(5), d(5), d(-90), 0.1, -0.2, -0.3], [0.1, 0.0, 0.0, d(90), -0.5, -0.25, -0.125]], "Imu")
check(any("1 sample(s) with no valid orientation" in x for x in comments), "the Imu sample without orientation is counted")

# FluidPressure alone: depth (p − 101325 Pa)/(ρ g).
T.ok(bag, "--measured", out, "--pose", "none", "--twist", "none", "--imu", "none", "--pressure", "/depth")
comments, header, rows = fx.read_csv(out)
check(header == ["time [s]", "bodies/rov/position/down [m]"], f"pressure columns {header}")
rows_near(rows, [[0.0, 1.0], [0.1, 2.0]], "FluidPressure depth")

# Inputs: OverrideRCIn (0 and 65535 hold), RCOut (big-endian), RCIn, Float64MultiArray.
inp = os.path.join(work, "in.csv")
T.refused("choose with --inputs-from", bag, "--inputs", inp, outputs=[inp])
T.ok(bag, "--inputs", inp, "--inputs-from", "rc", "--rc", "/mavros/rc/override")
comments, header, rows = fx.read_csv(inp)
check(header == ["time"] + [f"rc{k} [us]" for k in range(1, 9)], f"rc header {header}")
check(rows == [[0.0, 1500, 1600, 1400, 1500, 1700, 1500, 1500, 1500], [0.2, 1500, 1650, 1400, 1500, 1700, 1500, 1450, 1500]],
      f"OverrideRCIn rows {rows}")
check(any("2 channel value(s) of 0 or 65535 held" in x for x in comments), "held channels counted")
T.ok(bag, "--inputs", inp, "--inputs-from", "motors", "--motors", "/mavros/rc/out", "--channels", "10")
comments, header, rows = fx.read_csv(inp)
check(header == ["time"] + [f"motor{k} [us]" for k in range(1, 11)], f"motor header {header}")
check(rows == [[0.0] + SERVO[0], [0.1] + SERVO[1]], f"RCOut rows {rows}")
check(any("interpolation: hold" in x for x in comments), "the inputs file says how to read it")
T.ok(bag, "--inputs", inp, "--inputs-from", "rc", "--rc", "/mavros/rc/in")
comments, header, rows = fx.read_csv(inp)
check(header == ["time"] + [f"rc{k} [us]" for k in range(1, 7)] and rows == [[0.0, 1500, 1510, 1520, 1530, 1540, 1550]],
      f"RCIn: {header} {rows}")
T.ok(bag, "--inputs", inp, "--inputs-from", "motors", "--motors", "/thrusters")
comments, header, rows = fx.read_csv(inp)
check(rows == [[0.0] + THRUST[0], [0.1] + THRUST[1]] and header[1] == "motor1 [us]", f"Float64MultiArray {header} {rows}")
T.ok(bag, "--message", "/thrusters", "-o", out)
comments, header, rows = fx.read_csv(out)
check(header == ["time [s]", "layout.dim[0].size", "layout.dim[0].stride", "layout.data_offset",
                 "data[0]", "data[1]", "data[2]", "data[3]"] and rows[0] == [0.0, 4, 4, 0] + THRUST[0],
      f"--message dump {header} {rows}")
T.refused("a left-handed frame", bag, "--measured", out, "--pose", "/odom", "--world-axes", "NEU", outputs=[out + ".y"])
T.refused("--world-axes NEX: expected three letters", bag, "--list", "--world-axes", "NEX")
T.refused("no definition of foo_msgs/Bar", bag, "--message", "/foo", "-o", out + ".x", outputs=[out + ".x"])
T.refused("is the log being read", bag, "--message", "/thrusters", "-o", bag)

# --- a bag directory with metadata.yaml and the bag's own message definitions -----------------
bagdir = os.path.join(work, "bag2")
os.makedirs(bagdir)
SYNCED = ("geometry_msgs/PoseStamped pose\ngeometry_msgs/TwistStamped twist\nStampedRcOverride rc_stamped\n"
          "================================================================================\n"
          "MSG: brov_msgs/StampedRcOverride\nstd_msgs/Header header\nmavros_msgs/OverrideRCIn rc\n"
          "================================================================================\n"
          "MSG: mavros_msgs/OverrideRCIn\nuint16 CHAN_RELEASE=0  # constants are not serialised\nuint16[8] channels\n")
OLD_RC = "# mavros 1: eight channels\nuint16[8] channels\n"


def synced(t, p, q, v, w, ch):
    c = fx.Cdr().header(t, 0, "map")
    c.f64s(*p).f64s(q[1], q[2], q[3], q[0])
    c.header(t, 0, "base_link").f64s(*v).f64s(*w)
    c.header(t, 0, "")
    for x in ch:
        c.put("H", x)
    return c.bytes()


rc8 = [1500, 1500, 1600, 1500, 1550, 1450, 1500, 1500]
bag2_messages = [("/rc", T0, fx.override_rc_in(rc8)),
                 ("/synced", T0, synced(5, (1.0, 0.0, 0.0), (1.0, 0, 0, 0), (0.1, 0.2, 0.3), (0.0, 0.0, 0.5), rc8)),
                 ("/synced", T0 + 200_000_000, synced(5, (2.0, 0.0, 0.0), (1.0, 0, 0, 0), (0.1, 0.2, 0.3), (0.0, 0.0, 0.5), rc8))]
bag2_topics = [("/rc", "mavros_msgs/msg/OverrideRCIn"), ("/synced", "brov_msgs/msg/SyncedPoseControl")]
fx.write_bag(os.path.join(bagdir, "bag2_0.db3"), bag2_topics, bag2_messages,
             definitions={"mavros_msgs/msg/OverrideRCIn": OLD_RC, "brov_msgs/msg/SyncedPoseControl": SYNCED})
META = ("rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: {storage}\n  relative_file_paths:\n"
        "    - bag2_0.db3\n  duration:\n    nanoseconds: 200000000\n  compression_format: \"{compression}\"\n"
        "  compression_mode: \"\"\n")
with open(os.path.join(bagdir, "metadata.yaml"), "w") as f:
    f.write(META.format(storage="sqlite3", compression=""))
T.ok(bagdir, "--inputs", inp, "--rc", "/rc")
comments, header, rows = fx.read_csv(inp)
check(rows == [[0.0] + rc8], f"OverrideRCIn read by the bag's own uint16[8] definition: {rows}")
check(any("metadata.yaml" in x for x in comments) and any("the bag's own" in x for x in comments),
      "the metadata and the bag's definitions are stated")
T.ok(bagdir, "--measured", out, "--pose", "/synced:pose", "--twist", "/synced:twist", "--twist-frame", "body")
comments, header, rows = fx.read_csv(out)
rows_near(rows, [[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, d(90), 0.1, -0.2, -0.3, 0.0, 0.0, -0.5],
                 [0.2, 0.0, 2.0, 0.0, 0.0, 0.0, d(90), 0.1, -0.2, -0.3, 0.0, 0.0, -0.5]], "a custom message's fields")
T.ok(bagdir, "--inputs", inp, "--rc", "/synced:rc_stamped.rc", "--channels", "6")
comments, header, rows = fx.read_csv(inp)
check(rows == [[0.0] + rc8[:6], [0.2] + rc8[:6]], f"RC from a custom message's field: {rows}")
# The same eight-channel message without the bag's definition: the built-in uint16[18] overruns it.
plain = os.path.join(work, "rc8.db3")
fx.write_bag(plain, bag2_topics[:1], bag2_messages[:1])
T.refused("/rc message 1", plain, "--inputs", inp + ".x", outputs=[inp + ".x"])
for storage, compression, expect in (("mcap", "", "storage 'mcap'"), ("sqlite3", "zstd", "compressed bag")):
    with open(os.path.join(bagdir, "metadata.yaml"), "w") as f:
        f.write(META.format(storage=storage, compression=compression))
    T.refused(expect, bagdir, "--inputs", inp + ".x", outputs=[inp + ".x"])

# --- malformed messages and files: exit 2 naming the topic, message and what is wrong ---------
good = fx.pose_stamped((1, 2), "world", (1.0, 2.0, 3.0), (1.0, 0.0, 0.0, 0.0))
long_string = bytearray(good)
struct.pack_into("<I", long_string, 12, 1000)          # frame_id's length field
xcdr2 = b"\x00\x07" + good[2:]
for name, data, expect in (("truncated", good[:-8], "truncated or a bad length"),
                           ("string", bytes(long_string), "string length 1000 exceeds"),
                           ("leftover", good + bytes(8), "8 bytes left over"),
                           ("xcdr2", xcdr2, "encapsulation 0x0007 (XCDR2 plain little-endian) is not read"),
                           ("short", b"\x00\x01", "shorter than the 4-byte CDR encapsulation header")):
    path = os.path.join(work, f"bad_{name}.db3")
    fx.write_bag(path, [("/p", "geometry_msgs/msg/PoseStamped")], [("/p", T0, good), ("/p", T0 + 1, data)])
    r = T.refused(expect, path, "--measured", out + ".x", outputs=[out + ".x"])
    check("/p message 2" in r.stderr and "PoseStamped" in r.stderr, f"{name}: the message is named ({r.stderr.strip()})")
junk = os.path.join(work, "junk.db3")
with open(junk, "wb") as f:
    f.write(b"this is not a database" * 100)
T.refused("not an SQLite database", junk, "--list")
empty_db = os.path.join(work, "empty.db3")
sqlite3.connect(empty_db).execute("CREATE TABLE x(a)").connection.commit()
T.refused("no table 'topics': not a rosbag2 database", empty_db, "--list")

# --- round trip: sim's motion as a ROS bag (ENU/FLU), imported, compared with sim compare -------
rt = os.path.join(work, "rt")
os.makedirs(rt)
servo_bag = os.path.join(rt, "servo.db3")
STEPS = [(0.0, [1500, 1500, 1500]), (0.5, [1600, 1550, 1500]), (1.5, [1650, 1450, 1560]), (2.5, [1500, 1500, 1440])]
fx.write_bag(servo_bag, [("/mavros/rc/out", "mavros_msgs/msg/RCOut")],
             [("/mavros/rc/out", T0 + int(round(t * 1e9)), fx.rc_out((int(t), 0), "", ch)) for t, ch in STEPS])
T.ok(servo_bag, "--inputs", os.path.join(rt, "in.csv"), "--channels", "3")
channels = "".join(
    f"  - {{name: pwm{k}, type: csv, file: in.csv, column: \"motor{k} [us]\", interpolation: hold, units: us}}\n"
    f"  - {{name: thrust{k}, type: scale, input: pwm{k}, gain: 0.05, offset: -75.0, units: N}}\n" for k in (1, 2, 3))
with open(os.path.join(rt, "roundtrip.yaml"), "w") as f:
    f.write("name: import_round_trip\nsimulation: {duration: 3.0, step: 0.001, output_rate: 20.0}\ninputs:\n" + channels +
            "bodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.2, 0.25], volume: 0.0114,\n"
            "     center_of_buoyancy: [0.0, 0.0, -0.02], linear_damping: [4.0, 6.0, 6.0, 0.1, 0.1, 0.1]}\n"
            "thrusters:\n"
            "  - {name: t1, body: rov, position: [0.0, 0.1, 0.0], direction: [1.0, 0.0, 0.0], input: thrust1, model: linear, gain: 1.0}\n"
            "  - {name: t2, body: rov, position: [0.0, -0.1, 0.0], direction: [1.0, 0.0, 0.0], input: thrust2, model: linear, gain: 1.0}\n"
            "  - {name: t3, body: rov, position: [0.15, 0.08, 0.0], direction: [0.0, 0.0, 1.0], input: thrust3, model: linear, gain: 1.0}\n")
result = os.path.join(rt, "result.h5")
r = subprocess.run([sim, "-q", os.path.join(rt, "roundtrip.yaml"), "-o", result], capture_output=True, text=True)
check(r.returncode == 0, f"sim runs the scenario reading the imported inputs CSV ({r.stderr.strip()})")
import h5py  # noqa: E402
import numpy as np  # noqa: E402
with h5py.File(result, "r") as h:
    t = h["/time"][:]
    pos, quat, vel = h["/bodies/rov/position"][:], h["/bodies/rov/quaternion"][:], h["/bodies/rov/velocity"][:]
    pwm1 = h["/inputs/pwm1"][:]
expect_pwm = [next(ch[0] for s, ch in reversed(STEPS) if s <= tk + 1e-12) for tk in t]
check(np.array_equal(pwm1, expect_pwm), "the inputs CSV drives sim at the bag's times, held between them")
euler = h5py.File(result, "r")["/bodies/rov/euler"][:]
check(np.ptp(pos[:, 0]) > 0.1 and np.ptp(pos[:, 2]) > 0.01 and np.ptp(vel[:, 5]) > 0.05 and np.ptp(euler[:, 0]) > 0.01
      and np.ptp(euler[:, 1]) > 0.01, f"the motion is not trivial: roll {np.ptp(euler[:, 0])}, pitch {np.ptp(euler[:, 1])}")


def quat_to_matrix(q):
    w, x, y, z = q
    return np.array([[w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]])


def matrix_to_quat(m):
    """Shepperd's method on the largest diagonal term."""
    tr = np.trace(m)
    if tr > 0:
        s = 2.0 * math.sqrt(1.0 + tr)
        return (0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s)
    k = int(np.argmax(np.diag(m)))
    i, j, l = k, (k + 1) % 3, (k + 2) % 3
    s = 2.0 * math.sqrt(1.0 + m[i, i] - m[j, j] - m[l, l])
    q = [0.0] * 4
    q[0] = (m[l, j] - m[j, l]) / s
    q[1 + i], q[1 + j], q[1 + l] = 0.25 * s, (m[j, i] + m[i, j]) / s, (m[l, i] + m[i, l]) / s
    return tuple(q)


NED_FROM_ENU = np.array([[0, 1, 0], [1, 0, 0], [0, 0, -1]])
FRD_FROM_FLU = np.diag([1, -1, -1])
odom = []
for k, tk in enumerate(t):
    R_enu_flu = NED_FROM_ENU.T @ quat_to_matrix(quat[k]) @ FRD_FROM_FLU
    p_enu = (pos[k, 1], pos[k, 0], -pos[k, 2])
    v_flu, w_flu = (vel[k, 0], -vel[k, 1], -vel[k, 2]), (vel[k, 3], -vel[k, 4], -vel[k, 5])
    odom.append(("/odom", T0 + int(round(tk * 1e9)),
                 fx.odometry((int(tk), 0), "map", "base_link", p_enu, matrix_to_quat(R_enu_flu), v_flu, w_flu)))
motion_bag = os.path.join(rt, "motion.db3")
fx.write_bag(motion_bag, [("/odom", "nav_msgs/msg/Odometry")], odom)
measured_csv = os.path.join(rt, "measured.csv")
T.ok(motion_bag, "--measured", measured_csv)
r = subprocess.run([sim, "compare", result, measured_csv, "--format", "csv"], capture_output=True, text=True)
check(r.returncode == 0, f"sim compare reads the measured CSV ({r.stderr.strip()})")
lines = [x.split(",") for x in r.stdout.strip().splitlines()]
head = lines[0]
series = {x[head.index("series")]: x for x in lines[1:]}
names = [f"bodies/rov/{g}/{c}" for g, cs in (("position", "north east down"), ("euler", "roll pitch yaw"),
                                             ("velocity", "u v w p q r")) for c in cs.split()]
check(sorted(series) == sorted(names), f"sim compare pairs all 12 series by name: {sorted(series)}")
for name in names:
    if name in series:
        rmse = float(series[name][head.index("rmse")])
        check(rmse < 1e-9, f"{name}: RMSE {rmse} between sim's result and its round trip through a ROS bag")
check("skipped" not in r.stderr, f"no column skipped ({r.stderr.strip()})")
# Every column carries its unit, so sim compare warns of none; --from/--to and --series narrow it.
check("give no unit" not in r.stderr and "warning" not in r.stderr, f"no unit warning on the imported CSV ({r.stderr.strip()})")
r = subprocess.run([sim, "compare", result, measured_csv, "--from", "1", "--to", "2", "--series", "bodies/rov/velocity/*",
                    "--format", "csv"], capture_output=True, text=True)
check(r.returncode == 0 and r.stderr == "", f"sim compare --from 1 --to 2 --series on the imported CSV ({r.stderr.strip()})")
lines = [x.split(",") for x in r.stdout.strip().splitlines()]
window = {x[head.index("series")]: x for x in lines[1:]}
check(sorted(window) == sorted(n for n in names if "/velocity/" in n), f"--series keeps the 6 velocities: {sorted(window)}")
within = int(np.sum((t >= 1.0) & (t <= 2.0)))
check(all(int(x[head.index("samples")]) == within for x in window.values()), f"each compares the {within} samples in [1, 2] s")
shutil.rmtree(work)
T.finish()
