#!/usr/bin/python3
"""tools/import_log on an ArduPilot DataFlash log packed by the test (FMT records, every format
character and its scaling, instances, a duplicate stamp), on malformed logs (truncated, unknown
type, lost sync, a bad FMT: exit 2 naming the byte), and on a file in the KTH BlueROV2 Heavy
dataset's processed layout built by the test from a known motion (never the recordings): the RC
channels turned back into µs, bin centres, the stale velocity row, and the initial heading
recovered from positions and velocities.
Usage: tests/tools/test_import_log_dataflash_kth.py REPO_ROOT"""
import math
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import import_log_fixtures as fx  # noqa: E402

T = fx.Checks(sys.argv[1])
check = T.check
work = tempfile.mkdtemp(prefix="import_log_df_")
d = math.radians


def near(a, b, tol=1e-12):
    return abs(a - b) <= tol * max(1.0, abs(b))


def rows_near(got, expected, what, tol=1e-12):
    check(len(got) == len(expected), f"{what}: {len(got)} rows, expected {len(expected)}")
    for k, (g, e) in enumerate(zip(got, expected)):
        check(len(g) == len(e) and all(near(x, y, tol) for x, y in zip(g, e)), f"{what}: row {k} {g} expected {e}")


def Rzyx(roll, pitch, yaw):
    """Rz(yaw) Ry(pitch) Rx(roll), as products of the elementary rotations."""
    cx, sx, cy, sy, cz, sz = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch), math.cos(yaw), math.sin(yaw)
    return (np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]]) @ np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
            @ np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]]))


# --- a DataFlash log ----------------------------------------------------------------------------
w = fx.DataFlashWriter()
w.fmt(8, "UNIT", "QbZ", "TimeUS,Id,Label")
w.fmt(9, "FMTU", "QBNN", "TimeUS,FmtType,UnitIds,MultIds")
w.fmt(1, "ATT", "QccccCCCC", "TimeUS,DesRoll,Roll,DesPitch,Pitch,DesYaw,Yaw,ErrRP,ErrYaw")
w.fmt(2, "IMU", "QBffffff", "TimeUS,I,GyrX,GyrY,GyrZ,AccX,AccY,AccZ")
w.fmt(3, "XKF1", "QBccCfffffff", "TimeUS,C,Roll,Pitch,Yaw,VN,VE,VD,dPD,PN,PE,PD")
w.fmt(4, "RCIN", "Q" + "H" * 14, "TimeUS," + ",".join(f"C{k}" for k in range(1, 15)))
w.fmt(5, "RCOU", "Q" + "H" * 14, "TimeUS," + ",".join(f"C{k}" for k in range(1, 15)))
w.fmt(6, "POS", "QLLfff", "TimeUS,Lat,Lng,Alt,RelHomeAlt,RelOriginAlt")
w.fmt(7, "BARO", "QBffc", "TimeUS,I,Alt,Press,Temp")
# A format holds at most 16 characters: every one of them over two messages.
w.fmt(10, "TST1", "QbBhHiIfdnNZ", "TimeUS,vb,vB,vh,vH,vi,vI,vf,vd,vn,vN,vZ")
w.fmt(11, "TST2", "QcCeELMqa", "TimeUS,vc,vC,ve,vE,vL,vM,vq,va")
for uid, label in (("s", "s"), ("d", "deg"), ("E", "rad/s"), ("m", "m"), ("-", "")):
    w.msg("UNIT", 1_000_000, ord(uid), label)
w.msg("FMTU", 1_000_000, 1, "s-d-d-d--", "F--------")
w.msg("FMTU", 1_000_000, 10, "s------m----", "F-----------")
w.msg("FMTU", 1_000_000, 11, "sd-------", "F--------")
ATT = [(1_100_000, 2000, -1000, 35000), (1_200_000, 0, 0, 9000), (1_300_000, -500, 1500, 18000)]
IMU = [(1_050_000, (0.0, 0.0, 0.0)), (1_150_000, (0.5, -0.25, 1.0)), (1_250_000, (1.0, 0.5, -1.0)), (1_350_000, (0.0, 0.5, 1.0))]
XKF = [((1.5, -2.25, 3.0), (1.0, 0.0, 0.0)), ((2.0, -2.0, 3.5), (0.0, 1.0, 0.5)), ((2.5, -1.75, 4.0), (0.5, -0.5, 0.25))]
SERVO = [[1100 + 100 * k for k in range(8)] + [1500] * 6, [1900 - 50 * k for k in range(8)] + [1500] * 6,
         [1500] * 14, [1550] * 8 + [1500] * 6]
RCIN = [[1500, 1520, 1480, 1500, 1600, 1400] + [1000] * 8, [1510, 1500, 1500, 1450, 1650, 1500] + [1000] * 8]
LAT, LNG = [593_500_000, 593_500_100, 593_500_300], [180_700_000, 180_700_200, 180_700_100]
TST1 = (1_300_000, -5, 200, -30000, 60000, -2_000_000_000, 4_000_000_000, 0.375, 1e100 / 3, "abcd", "sixteen chars ok",
        "a string of sixty-four characters at most")
TST2 = (1_300_000, -1234, 65000, -123456, 4_000_000_000, -1_234_567_890, 19, -(2 ** 62), list(range(32)))
w.msg("IMU", IMU[0][0], 0, *IMU[0][1], 0.0, 0.0, -9.8)
w.msg("IMU", IMU[0][0], 1, 9.0, 9.0, 9.0, 0.0, 0.0, -9.8)
for k, (t, roll, pitch, yaw) in enumerate(ATT):
    w.msg("ATT", t, 0, roll, 0, pitch, 0, yaw, 0, 0)
    w.msg("XKF1", t, 0, 0, 0, 0, *XKF[k][1], 0.0, *XKF[k][0])
    w.msg("XKF1", t, 1, 0, 0, 0, 9.0, 9.0, 9.0, 0.0, 9.0, 9.0, 9.0)
    w.msg("RCOU", t, *SERVO[k + (1 if k else 0)])
    if k == 1:
        w.msg("RCOU", t, *SERVO[2])  # the same TimeUS: the later one stands
    if k < 2:
        w.msg("RCIN", t, *RCIN[k])
    w.msg("POS", t, LAT[k], LNG[k], 10.0 - 0.5 * k, 0.0, 0.0)
    w.msg("BARO", t, 0, -1.25 - 0.25 * k, 101325.0, 2000)
    w.msg("BARO", t, 1, -99.0, 0.0, 0)
    w.msg("IMU", IMU[k + 1][0], 0, *IMU[k + 1][1], 0.0, 0.0, -9.8)
    w.msg("IMU", IMU[k + 1][0], 1, 9.0, 9.0, 9.0, 0.0, 0.0, -9.8)
w.msg("TST1", *TST1)
w.msg("TST2", *TST2)
data = w.bytes()
log = os.path.join(work, "00000042.BIN")
with open(log, "wb") as f:
    f.write(data)
out = os.path.join(work, "m.csv")

r = T.ok(log, "--list")
for name, count in (("ATT", 3), ("IMU", 8), ("XKF1", 6), ("RCOU", 4), ("RCIN", 2), ("TST1", 1), ("TST2", 1)):
    check(any(line.split()[:2] == [name, str(count)] for line in r.stdout.splitlines()), f"--list: {name} {count} times")
check("Roll [deg]" in r.stdout, "--list shows units from FMTU and UNIT")

T.ok(log, "--measured", out)
comments, header, rows = fx.read_csv(out)
base = "bodies/rov/"
check(header == ["time [s]"] + [base + c for c in (
    "position/north [m]", "position/east [m]", "position/down [m]", "euler/roll [rad]", "euler/pitch [rad]", "euler/yaw [rad]",
    "velocity/u [m/s]", "velocity/v [m/s]", "velocity/w [m/s]", "velocity/p [rad/s]", "velocity/q [rad/s]",
    "velocity/r [rad/s]")], f"DataFlash measured header {header}")
EULER = [(d(20), d(-10), d(-10)), (0.0, 0.0, d(90)), (d(-5), d(15), d(180))]
RATES = [(0.25, -0.125, 0.5), (0.75, 0.125, 0.0), (0.5, 0.5, 0.0)]  # IMU halfway between its samples
expected = []
for k in range(3):
    v_body = Rzyx(*EULER[k]).T @ np.array(XKF[k][1])
    expected.append([0.1 * (k + 1), *XKF[k][0], *EULER[k], *v_body, *RATES[k]])
rows_near(rows, expected, "ATT + XKF1 + IMU")
check(len(rows) > 1 and near(rows[1][7], 1.0) and near(rows[1][8], 0.0) and near(rows[1][9], 0.5),
      "facing east, VE 1, VD 0.5: u 1, w 0.5")
text = "\n".join(comments)
check("NED" in text and "FRD" in text and "ArduPilot" in text, "the header states ArduPilot's frames")
check("first sample (TimeUS 1000000)" in text, "the time origin is stated")

T.ok(log, "--measured", out, "--position", "POS", "--rates", "none")
comments, header, rows = fx.read_csv(out)
R = 6378137.0
pos = [[d((LAT[k] - LAT[0]) * 1e-7) * R, d((LNG[k] - LNG[0]) * 1e-7) * R * math.cos(d(LAT[0] * 1e-7)), 0.5 * k] for k in range(3)]
rows_near(rows, [[0.1 * (k + 1), *pos[k], *EULER[k]] for k in range(3)], "POS about the first fix", tol=1e-9)
T.ok(log, "--measured", out, "--position", "none", "--rates", "none", "--depth", "BARO")
comments, header, rows = fx.read_csv(out)
check(header[1] == base + "position/down [m]", f"depth column {header}")
rows_near(rows, [[0.1 * (k + 1), 1.25 + 0.25 * k, *EULER[k]] for k in range(3)], "BARO depth (instance 0)")

inp = os.path.join(work, "in.csv")
T.refused("--inputs-from", log, "--inputs", inp, outputs=[inp])
T.ok(log, "--inputs", inp, "--inputs-from", "motors")
comments, header, rows = fx.read_csv(inp)
check(header == ["time"] + [f"motor{k} [us]" for k in range(1, 9)], f"RCOU header {header}")
check(rows == [[0.1] + SERVO[0][:8], [0.2] + SERVO[2][:8], [0.3] + SERVO[3][:8]], f"RCOU rows {rows}")
check(any("1 sample(s) at the same time as the one before replaced it" in x for x in comments), "duplicate RCOU stated")
T.ok(log, "--inputs", inp, "--inputs-from", "rc", "--channels", "6")
comments, header, rows = fx.read_csv(inp)
check(rows == [[0.1] + RCIN[0][:6], [0.2] + RCIN[1][:6]] and header[6] == "rc6 [us]", f"RCIN {header} {rows}")

T.ok(log, "--message", "TST1", "-o", out)
comments, header, rows = fx.read_csv(out)
check(header == ["time [s]", "vb", "vB", "vh", "vH", "vi", "vI", "vf [m]", "vd"],
      f"TST1 columns (strings left out, units from FMTU): {header}")
check(rows == [[0.3, *TST1[1:9]]], f"TST1 values exactly: {rows}")
T.ok(log, "--message", "TST2", "-o", out)
comments, header, rows = fx.read_csv(out)
check(header == ["time [s]", "vc [deg]", "vC", "ve", "vE", "vL", "vM", "vq"], f"TST2 columns (int16[32] left out): {header}")
for k, v in zip(header[1:], (-12.34, 650.0, -1234.56, 4e7, -123.456789, 19)):
    check(rows and near(rows[0][header.index(k)], v, 1e-15), f"TST2 {k} scaled: {rows[0][header.index(k)] if rows else None} against {v}")
last_cell = open(out).read().splitlines()[-1].split(",")[-1] if rows else ""
check(last_cell == str(-(2 ** 62)), f"int64 written exactly: {last_cell}")

# Malformed logs: exit 2, the byte named, nothing written.
bad = os.path.join(work, "bad.BIN")


def refused_bin(content, expect, *extra):
    with open(bad, "wb") as f:
        f.write(content)
    return T.refused(expect, bad, "--measured", out + ".x", *extra, outputs=[out + ".x"])


last = w.offsets[-1]
refused_bin(data[:-5], f"truncated record at byte {last}: a TST2 record needs")
with open(bad, "wb") as f:
    f.write(data[:-5])
T.ok(bad, "--measured", out, "--allow-truncated-end")
check(any("unfinished record" in x for x in fx.read_csv(out)[0]), "--allow-truncated-end states what it left out")
refused_bin(data + b"\xa3\x95\x63" + bytes(10), f"byte {len(data)}: record of type 99 with no FMT record before it")
first_att = next(o for o in w.offsets if data[o + 2] == 1)
att_len = 3 + 8 + 8 * 2  # header, TimeUS, eight int16
refused_bin(data[:first_att + att_len] + b"\x00" + data[first_att + att_len:],
            f"byte {first_att + att_len}: expected a record header 0xA3 0x95")
w2 = fx.DataFlashWriter()
w2.fmt(13, "BAD", "Qf", "TimeUS,X", length=20)
refused_bin(w2.bytes(), "FMT of BAD says 20 bytes a record, its format 'Qf' packs 12 + 3")
w3 = fx.DataFlashWriter()
w3.fmt(12, "ODD", "Qx", "TimeUS,X", length=20)
refused_bin(w3.bytes(), "unknown format character 'x'")
refused_bin(b"\x00" * 100, "does not start with 0xA3 0x95", "--format", "dataflash")
refused_bin(b"", "empty file", "--format", "dataflash")
T.refused("is the log being read", log, "--inputs", log, "--inputs-from", "rc")

# --- a file in the KTH processed layout, from a known motion -----------------------------------
T0 = 1_700_000_000_000_000_000
OFFSETS = [0]
for k in range(11):
    OFFSETS.append(OFFSETS[-1] + [100_000_000, 200_000_000, 199_999_744, 100_000_256][k % 4])  # multiples of 256 ns
N = len(OFFSETS)
PSI0 = 0.4
euler = np.array([[0.02 * math.sin(k), 0.03 * math.cos(k), 0.9 + 0.25 * k] for k in range(N)])  # yaw past π at the end
vel = np.array([[0.2 + 0.01 * k, -0.05, 0.02 * math.sin(k), 0.01 * k, -0.02, 0.25] for k in range(N)])
a = np.array([Rzyx(*euler[k]) @ vel[k, :3] for k in range(N)])
Z = np.array([[math.cos(PSI0), -math.sin(PSI0), 0], [math.sin(PSI0), math.cos(PSI0), 0], [0, 0, 1]])
p = [np.array([0.001, -0.002, 0.003])]
for k in range(N - 1):
    p.append(p[-1] + (OFFSETS[k + 1] - OFFSETS[k]) * 1e-9 * (Z @ (0.5 * (a[k] + a[k + 1]))))
stale = vel.copy()
stale[3] = stale[4]  # what res_inf.py's row swap leaves in every file
RC = np.array([[1500, 1500, 1450, 1375, 1600, 1625]] * (N - 1), dtype=float)
RC[5] = [1520, 1480, 1560, 1500, 1700, 1400]
scaled = (RC - 1500.0) / 400.0
scaled[:, 2] *= -1
npz = os.path.join(work, "rosbag2_test_0_6dof_data_all.npz")
np.savez_compressed(npz, timestamps=np.array([float(T0 + o) for o in OFFSETS]), positions=np.hstack([np.array(p), euler]),
                    velocities=stale, accelerations=np.zeros((N, 6)), scaled_controls=scaled)
T.ok(npz, "--inputs", inp, "--measured", out)
comments, header, rows = fx.read_csv(inp)
check(header == ["time"] + [f"rc{k} [us]" for k in range(1, 7)], f"KTH inputs header {header}")
check(rows == [[OFFSETS[k] / 1e9] + list(RC[k]) for k in range(N - 1)], "KTH RC channels back in µs, exactly, at the bins' stamps")
comments, header, rows = fx.read_csv(out)
kept = [k for k in range(N - 1) if k != 3]
check([r[0] for r in rows] == [(OFFSETS[k] + OFFSETS[k + 1]) // 2 / 1e9 for k in kept], "KTH rows at the bins' centres, row 3 left out")
Zt = Z.T
expected = [[(OFFSETS[k] + OFFSETS[k + 1]) // 2 / 1e9, *(Zt @ p[k]), *[math.remainder(x, 2 * math.pi) for x in euler[k]], *vel[k]]
            for k in kept]
rows_near(rows, expected, "KTH measured: positions turned by -psi0, euler wrapped, velocities as they are", tol=1e-10)
check(all(r[7:] == list(vel[k]) for r, k in zip(rows, kept)), "KTH velocities passed through exactly")
text = "\n".join(comments)
check("-psi0 = -0.400000 rad" in text, "the fitted initial heading 0.4 rad is stated")
check("row(s) 3 left out" in text, "the stale row is stated")
T.ok(npz, "--measured", out, "--kth-stamp", "start", "--kth-yaw-offset", "0")
comments, header, rows = fx.read_csv(out)
kept = [k for k in range(N) if k != 3]
check([r[0] for r in rows] == [OFFSETS[k] / 1e9 for k in kept], "--kth-stamp start: the bins' own stamps")
check(all(r[1:4] == list(p[k]) for r, k in zip(rows, kept)), "--kth-yaw-offset 0: the capture's positions as they are")
r = T.ok(npz, "--list")
check("psi0 +22.9 deg" in r.stdout and "velocity rows equal to the next bit for bit (left out): [3]" in r.stdout,
      f"--list: the heading fit and the stale row ({r.stdout.strip()})")
good = dict(timestamps=np.array([float(T0 + o) for o in OFFSETS]), positions=np.hstack([np.array(p), euler]),
            velocities=stale, scaled_controls=scaled)
for what, change, expect in (("missing", {"velocities": None}, "no velocities"),
                             ("shape", {"positions": np.zeros((N, 5))}, "positions: shape (12, 5)"),
                             ("order", {"timestamps": good["timestamps"][::-1].copy()}, "timestamps[1]"),
                             ("nan", {"velocities": np.where(np.arange(6) == 2, np.nan, stale)}, "velocities[0, 2] is not a finite")):
    arrays = {k: v for k, v in {**good, **change}.items() if v is not None}
    path = os.path.join(work, f"bad_{what}.npz")
    np.savez(path, **arrays)
    T.refused(expect, path, "--measured", out + ".x", outputs=[out + ".x"])
text_file = os.path.join(work, "notes.npz")
with open(text_file, "w") as f:
    f.write("not an archive\n")
T.refused("not a rosbag2 (.db3), DataFlash (0xA3 0x95) or .npz file", text_file, "--list")
T.refused("not a readable .npz file", text_file, "--list", "--format", "kth")
shutil.rmtree(work)
T.finish()
