"""Logs written by the test for tools/import_log, by code of its own: CDR laid out field by field
from the XCDR1 rules (OMG DDS-XTypes 1.3 §7.4.1: each primitive aligned to its size counted from
the end of the 4-byte encapsulation header, a string as uint32 length with its NUL, a sequence as
uint32 count), rosbag2's sqlite3 schema, and DataFlash records packed from their FMT."""
import csv
import math
import os
import sqlite3
import struct
import subprocess
import sys


class Checks:
    """Runs tools/import_log and collects failed checks (the script exits 1 if any)."""

    def __init__(self, root):
        self.tool = os.path.join(root, "tools", "import_log")
        self.failures = 0
        self.passed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failures += 1
            print("FAIL:", what)

    def run(self, *args):
        return subprocess.run(["/usr/bin/python3", self.tool, *[str(a) for a in args]], capture_output=True, text=True)

    def ok(self, *args):
        r = self.run(*args)
        self.check(r.returncode == 0, f"import_log {' '.join(map(str, args))} exits 0 (got {r.returncode}: {r.stderr.strip()})")
        return r

    def refused(self, expect, *args, outputs=()):
        """Exit 2, a message holding `expect`, no traceback, and no output file."""
        r = self.run(*args)
        self.check(r.returncode == 2, f"{args}: exit 2 (got {r.returncode}: {r.stderr.strip()})")
        self.check(expect in r.stderr, f"{args}: message names '{expect}' (got: {r.stderr.strip()})")
        self.check("Traceback" not in r.stderr, f"{args}: no traceback")
        for out in outputs:
            self.check(not os.path.exists(out), f"{args}: {out} not written")
            directory = os.path.dirname(out) or "."
            self.check(not any(f.endswith(".partial") for f in os.listdir(directory)), f"{args}: no temporary left")
        return r

    def finish(self):
        print(f"{self.passed} passed, {self.failures} failed")
        sys.exit(1 if self.failures else 0)


def read_csv(path):
    """(comment lines, header cells, rows as lists of floats) of a CSV the tool wrote."""
    comments, rows, header = [], [], None
    if not os.path.exists(path):
        print("FAIL: no file", path)
        return comments, [], rows
    with open(path, newline="") as f:
        for line in f.read().splitlines():
            if line.startswith("#"):
                comments.append(line[1:].strip())
            elif header is None:
                header = next(csv.reader([line]))
            else:
                rows.append([float(x) for x in line.split(",")])
    return comments, header, rows


def column(header, rows, name):
    k = header.index(name)
    return [r[k] for r in rows]


class Cdr:
    """One serialised message: the encapsulation header, then fields appended in order."""

    def __init__(self, big_endian=False):
        self.e = ">" if big_endian else "<"
        self.b = bytearray(b"\x00\x00\x00\x00" if big_endian else b"\x00\x01\x00\x00")

    def _pad(self, n):
        while (len(self.b) - 4) % n:
            self.b.append(0)

    def put(self, code, value):
        size = struct.calcsize(code)
        self._pad(size)
        self.b += struct.pack(self.e + code, value)
        return self

    def string(self, s):
        raw = s.encode() + b"\0"
        self.put("I", len(raw))
        self.b += raw
        return self

    def header(self, sec, nanosec, frame):
        return self.put("i", sec).put("I", nanosec).string(frame)

    def f64s(self, *values):
        for v in values:
            self.put("d", v)
        return self

    def bytes(self):
        return bytes(self.b)


def pose_stamped(t, frame, p, q_wxyz, big=False):
    w, x, y, z = q_wxyz
    return Cdr(big).header(t[0], t[1], frame).f64s(*p).f64s(x, y, z, w).bytes()


def twist_stamped(t, frame, v, w, big=False):
    return Cdr(big).header(t[0], t[1], frame).f64s(*v).f64s(*w).bytes()


def odometry(t, frame, child, p, q_wxyz, v, w):
    c = Cdr().header(t[0], t[1], frame).string(child)
    qw, qx, qy, qz = q_wxyz
    c.f64s(*p).f64s(qx, qy, qz, qw).f64s(*[0.0] * 36)
    c.f64s(*v).f64s(*w).f64s(*[0.0] * 36)
    return c.bytes()


def imu(t, frame, q_wxyz, w, a):
    qw, qx, qy, qz = q_wxyz
    c = Cdr().header(t[0], t[1], frame).f64s(qx, qy, qz, qw).f64s(*[0.0] * 9)
    return c.f64s(*w).f64s(*[0.0] * 9).f64s(*a).f64s(*[0.0] * 9).bytes()


def fluid_pressure(t, frame, pa, variance):
    return Cdr().header(t[0], t[1], frame).f64s(pa, variance).bytes()


def override_rc_in(channels):
    c = Cdr()
    for v in channels:
        c.put("H", v)
    return c.bytes()


def rc_out(t, frame, channels, big=False):
    c = Cdr(big).header(t[0], t[1], frame).put("I", len(channels))
    for v in channels:
        c.put("H", v)
    return c.bytes()


def rc_in(t, frame, rssi, channels):
    c = Cdr().header(t[0], t[1], frame).put("B", rssi).put("I", len(channels))
    for v in channels:
        c.put("H", v)
    return c.bytes()


def float64_multi_array(dims, offset, data):
    c = Cdr().put("I", len(dims))
    for label, size, stride in dims:
        c.string(label).put("I", size).put("I", stride)
    c.put("I", offset).put("I", len(data))
    return c.f64s(*data).bytes()


def write_bag(path, topics, messages, definitions=None, schema=True):
    """A rosbag2 sqlite3 file: topics [(name, type)], messages [(topic, ns, data)]."""
    if os.path.exists(path):
        os.unlink(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, "
               "serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL)")
    db.execute("CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, "
               "timestamp INTEGER NOT NULL, data BLOB NOT NULL)")
    db.execute("CREATE INDEX timestamp_idx ON messages (timestamp ASC)")
    if schema:
        db.execute("CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL)")
        db.execute("INSERT INTO schema VALUES (3, 'humble')")
    ids = {}
    for k, (name, type_name) in enumerate(topics, 1):
        ids[name] = k
        db.execute("INSERT INTO topics VALUES (?, ?, ?, 'cdr', '')", (k, name, type_name))
    for topic, ns, data in messages:
        db.execute("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)", (ids[topic], ns, data))
    if definitions is not None:
        db.execute("CREATE TABLE message_definitions(id INTEGER PRIMARY KEY, topic_type TEXT NOT NULL, "
                   "encoding TEXT NOT NULL, encoded_message_definition TEXT NOT NULL, type_description_hash TEXT NOT NULL)")
        for type_name, text in definitions.items():
            db.execute("INSERT INTO message_definitions(topic_type, encoding, encoded_message_definition, "
                       "type_description_hash) VALUES (?, 'ros2msg', ?, '')", (type_name, text))
    db.commit()
    db.close()


# --- DataFlash -----------------------------------------------------------------------------
SIZES = {"b": "b", "B": "B", "h": "h", "H": "H", "i": "i", "I": "I", "q": "q", "Q": "Q", "f": "f", "d": "d",
         "M": "B", "n": "4s", "N": "16s", "Z": "64s", "a": "32h", "c": "h", "C": "H", "e": "i", "E": "I", "L": "i"}


class DataFlashWriter:
    """Records packed by hand: 0xA3 0x95, type, then little-endian fields."""

    def __init__(self):
        self.b = bytearray()
        self.types = {}
        self.offsets = []  # byte offset of each record written, in order
        self.fmt(128, "FMT", "BBnNZ", "Type,Length,Name,Format,Columns")

    def fmt(self, type_id, name, fmt, columns, length=None):
        self.offsets.append(len(self.b))
        size = 3 + struct.calcsize("<" + "".join(SIZES[c] for c in fmt)) if length is None else length
        self.types[name] = (type_id, fmt)
        self.b += b"\xa3\x95\x80" + struct.pack("<BB4s16s64s", type_id, size,
                                                 name.encode(), fmt.encode(), columns.encode())

    def msg(self, name, *values):
        type_id, fmt = self.types[name]
        self.offsets.append(len(self.b))
        packed = []
        for c, v in zip(fmt, values):
            if c == "a":
                packed.extend(v)
            else:
                packed.append(v.encode() if isinstance(v, str) else v)
        self.b += b"\xa3\x95" + bytes([type_id]) + struct.pack("<" + "".join(SIZES[c] for c in fmt), *packed)

    def bytes(self):
        return bytes(self.b)


def q_from_rpy(roll, pitch, yaw):
    """Quaternion [w x y z] of Rz(yaw) Ry(pitch) Rx(roll), by the half-angle products."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy)
