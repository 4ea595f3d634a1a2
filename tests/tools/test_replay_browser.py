#!/usr/bin/python3
"""Browser test of `sim replay`: the page, opened in headless Chromium, draws a body where the
result file puts it, draws a URDF mesh where the URDF puts it, and reads out depth and attitude.

Usage: test_replay_browser.py SOURCE_DIR SIM_EXE   (exit 77 = skipped: no Chromium)

tests/data/replay/marker_box.yaml glides an orange 0.4 m box north at 1 m/s at 5 m depth. The
page is shot at two times with a fixed camera set by URL (eye, target, vertical field of view).
The expected pixel of the box's centre comes from the file's position and a pinhole projection
written here from the camera's definition (look-at with NED's up, −z), sharing nothing with
the page; the orange pixels' centroid must sit on it, their count must match the box's
projected size, and the two shots must differ where the box moved.

tests/data/replay/mesh_robot.yaml tumbles a URDF robot whose hull is drawn from an STL cube
(meshes/cube.stl, [0, 1]³) scaled and placed by its <visual>. Its eight corners are computed
here from the URDF's numbers and the hull's pose in the file (the body frame is the URDF link
frame turned by D = Rx(π)); the orange pixels must fill the polygon those corners project to
(a convex solid's silhouette). The page's readout (time, depth, roll, pitch, heading) must
show the file's values at the slider's sample, for the first free body and for a followed one.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import re

import h5py
import matplotlib.image
import matplotlib.path
import numpy as np

WIDTH, HEIGHT = 640, 480
EYE = np.array([1.0, 6.0, 4.6])      # NED: 6 m east of the box's track, 0.4 m above it
TARGET = np.array([1.0, 0.0, 4.6])   # looking west: north is to the right, down is down
FOV_DEG = 40.0                       # vertical
EDGE = 0.4                           # m, the box


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def project(point, eye=EYE, target=TARGET):
    """Pixel (x right, y down) of a NED point, for a pinhole camera at `eye` looking at `target`
    with up = −z (NED's up) and the vertical field of view FOV_DEG."""
    up = np.array([0.0, 0.0, -1.0])
    forward = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    true_up = np.cross(right, forward)
    d = point - eye
    depth = d @ forward
    tan_half = math.tan(math.radians(FOV_DEG) / 2)
    ndc_x = (d @ right) / (depth * tan_half * WIDTH / HEIGHT)
    ndc_y = (d @ true_up) / (depth * tan_half)
    return np.array([(ndc_x + 1) / 2 * WIDTH, (1 - ndc_y) / 2 * HEIGHT]), depth


def chromium_args(browser, url, *what):
    args = [browser, "--headless=new", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--disable-gpu-sandbox", "--hide-scrollbars", f"--window-size={WIDTH},{HEIGHT}", *what, url]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return args


def screenshot(browser, page, t, out, eye=EYE, target=TARGET):
    url = ("file://" + page + f"?t={t}&ui=0&camera=fixed&eye={','.join(map(str, eye))}"
           f"&target={','.join(map(str, target))}&fov={FOV_DEG}")
    subprocess.run(chromium_args(browser, url, f"--screenshot={out}"), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    image = matplotlib.image.imread(out)[:, :, :3]
    assert image.shape[:2] == (HEIGHT, WIDTH), f"screenshot is {image.shape[:2]}, not {HEIGHT}x{WIDTH}"
    return (image * 255).astype(float)


def orange(image):
    """The box's pixels: the palette's first colour (245, 130, 49) under any of the page's
    lights has red well above green, and green well above blue; the water-blue background
    and the grid do not."""
    r, g, b = image[:, :, 0], image[:, :, 1], image[:, :, 2]
    return (r > 60) & (r > 1.4 * g) & (g > 1.4 * b)


def rotation(rpy):
    """R = Rz(yaw)·Ry(pitch)·Rx(roll): a URDF origin's rotation."""
    (cr, cp, cy), (sr, sp, sy) = np.cos(rpy), np.sin(rpy)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def quaternion_rotation(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


# mesh_robot.urdf, as written there: each link's <visual> origin and the STL's scale.
HULL_VISUAL = (np.array([0.1, -0.05, 0.02]), np.array([0.3, -0.2, 1.2]), np.array([0.4, 0.2, 0.1]))
HINGE = (np.array([-0.3, 0.0, 0.1]), np.array([0.0, 0.4, 0.0]))
FLAP_VISUAL = (np.array([0.0, 0.05, 0.0]), np.array([0.1, 0.0, 0.0]), np.array([0.1, 0.12, 0.05]))
D = np.diag([1.0, -1.0, -1.0])  # a URDF link frame turned into its body frame: Rx(π)
CUBE = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float)
MESH_EYE = np.array([-1.1, -0.5, 4.0])    # NED: south-west of the robot and 1 m above it
MESH_TARGET = np.array([0.0, 0.0, 5.0])


def mesh_corners(position, quaternion, hinge_q):
    """The hull's and the flap's cube corners in NED, from the URDF's numbers and the hull's pose."""
    R_WH = quaternion_rotation(quaternion)
    xyz, rpy, scale = HULL_VISUAL
    hull = [position + R_WH @ D @ (xyz + rotation(rpy) @ (scale * c)) for c in CUBE]
    (j_xyz, j_rpy), (f_xyz, f_rpy, f_scale) = HINGE, FLAP_VISUAL
    R_q = rotation(np.array([0.0, 0.0, hinge_q]))
    flap = [position + R_WH @ D @ (j_xyz + rotation(j_rpy) @ R_q @ (f_xyz + rotation(f_rpy) @ (f_scale * c))) for c in CUBE]
    return np.array(hull), np.array(flap)


def silhouette(corners):
    """The pixels inside the convex polygon the corners project to (pixel centres)."""
    points = np.array([project(c, MESH_EYE, MESH_TARGET)[0] for c in corners])
    polygon = matplotlib.path.Path(convex_hull(points))
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    inside = polygon.contains_points(np.column_stack([xs.ravel() + 0.5, ys.ravel() + 0.5]))
    return inside.reshape(HEIGHT, WIDTH)


def convex_hull(points):
    """Andrew's monotone chain: the hull's vertices in order."""
    pts = sorted(map(tuple, points))

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) -
                                     (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out
    lower, upper = half(pts), half(reversed(pts))
    return np.array(lower[:-1] + upper[:-1])


def check_mesh(browser, sim, source, work):
    result, page = os.path.join(work, "mesh.h5"), os.path.join(work, "mesh.html")
    subprocess.run([sim, "-q", os.path.join(source, "tests/data/replay/mesh_robot.yaml"), "-o", result], check=True)
    subprocess.run([sim, "replay", "-q", result, "-o", page], check=True)
    with h5py.File(result, "r") as f:
        time = f["time"][:]
        position = f["bodies/robot/hull/position"][:]
        quaternion = f["bodies/robot/hull/quaternion"][:]
        hinge = f["joints/robot/hinge/position"][:]
        euler = {b: f[f"bodies/robot/{b}/euler"][:] for b in ("hull", "flap")}
        depth = {b: f[f"bodies/robot/{b}/position"][:, 2] for b in ("hull", "flap")}
    t = 1.0
    k = int(np.argmin(abs(time - t)))
    hull, flap = mesh_corners(position[k], quaternion[k], hinge[k])
    expected = silhouette(hull)
    assert not (expected & silhouette(flap)).any(), "the flap hides part of the hull from this camera: move MESH_EYE"
    image = screenshot(browser, page, t, os.path.join(work, "mesh.png"), MESH_EYE, MESH_TARGET)
    drawn = orange(image)
    overlap = (drawn & expected).sum() / (drawn | expected).sum()
    ys, xs = np.nonzero(drawn)
    ey, ex = np.nonzero(expected)
    error = np.hypot(xs.mean() - ex.mean(), ys.mean() - ey.mean())
    print(f"mesh at t = {t}: {int(drawn.sum())} orange pixels where the URDF puts {int(expected.sum())}; "
          f"overlap {overlap:.3f}, centroids {error:.1f} px apart")
    assert expected.sum() > 1000, "the hull is too small in this view to judge"
    assert overlap > 0.9, f"the mesh is not drawn where the URDF puts it (overlap {overlap:.3f})"
    assert error < 3.0, f"the mesh's centroid is {error:.1f} px from the URDF's"

    for t, follow in ((0.5, ""), (1.5, ""), (1.5, "robot/flap")):
        k = int(np.argmin(abs(time - t)))
        assert abs(time[k] - t) < 1e-9, f"no sample at t = {t}"
        url = "file://" + page + f"?t={t}" + (f"&follow={follow}" if follow else "")
        dom = subprocess.run(chromium_args(browser, url, "--dump-dom", "--virtual-time-budget=5000"), check=True,
                             capture_output=True, text=True, timeout=120).stdout
        shown = dict(re.findall(r'<span id="readout-(\w+)">([^<]*)</span>', dom))
        body = follow.split("/")[-1] or "hull"  # the first free body unless one is followed
        roll, pitch, yaw = np.degrees(euler[body][k])
        want = {"body": f"robot/{body}", "time": f"{time[k]:.3f}", "depth": depth[body][k],
                "roll": roll, "pitch": pitch, "heading": yaw % 360.0}
        print(f"readout at t = {t}{', following ' + follow if follow else ''}: {shown}; "
              f"the file: depth {want['depth']:.4f} m, roll {roll:.3f}, pitch {pitch:.3f}, heading {yaw % 360:.3f} deg")
        assert shown.get("body") == want["body"] and shown.get("time") == want["time"], f"readout {shown}"
        # Shown to 0.01 m and 0.1°: within half a unit of the last digit (and a hair for rounding).
        assert abs(float(shown["depth"]) - want["depth"]) <= 0.0051, f"depth {shown['depth']} against {want['depth']}"
        for name in ("roll", "pitch", "heading"):
            assert abs(float(shown[name]) - want[name]) <= 0.051, f"{name} {shown[name]} against {want[name]:.3f}"


def main():
    source, sim = sys.argv[1], sys.argv[2]
    browser = chromium()
    if browser is None:
        print("SKIPPED: Chromium is not installed (Debian package chromium; tools/quickstart test installs it)")
        return 77
    work = tempfile.mkdtemp(prefix="replay_browser_")
    try:
        result, page = os.path.join(work, "box.h5"), os.path.join(work, "box.html")
        subprocess.run([sim, "-q", os.path.join(source, "tests/data/replay/marker_box.yaml"), "-o", result], check=True)
        subprocess.run([sim, "replay", "-q", result, "-o", page], check=True)
        with h5py.File(result, "r") as f:
            time = f["time"][:]
            position = f["bodies/marker/position"][:]
        shots = []
        for t in (0.5, 1.5):
            k = int(np.argmin(abs(time - t)))
            assert abs(time[k] - t) < 1e-9, f"no sample at t = {t}"
            image = screenshot(browser, page, t, os.path.join(work, f"shot_{t}.png"))
            mask = orange(image)
            count = int(mask.sum())
            expected, depth = project(position[k])
            # The face toward the camera, a 0.4 m square at depth − 0.2 m, seen nearly head-on:
            # its area in pixels; the sides seen obliquely add a little.
            focal = HEIGHT / 2 / math.tan(math.radians(FOV_DEG) / 2)
            face = (focal * EDGE / (depth - EDGE / 2)) ** 2
            assert 0.9 * face < count < 1.5 * face, f"t = {t}: {count} box pixels, expected about {face:.0f}"
            ys, xs = np.nonzero(mask)
            centroid = np.array([xs.mean() + 0.5, ys.mean() + 0.5])
            error = np.linalg.norm(centroid - expected)
            print(f"t = {t}: box at {position[k]} m, expected pixel {expected.round(1)}, "
                  f"drawn at {centroid.round(1)} ({count} px, about {face:.0f} expected), off by {error:.1f} px")
            assert error < 4.0, f"t = {t}: the box is drawn {error:.1f} px from where the file puts it"
            shots.append((image, mask, centroid))
        (a, mask_a, c_a), (b, mask_b, c_b) = shots
        changed = np.abs(a - b).max(axis=2) > 30
        assert changed.sum() > 0.5 * (mask_a.sum() + mask_b.sum()), "the two frames barely differ"
        assert not (mask_a & mask_b).any(), "the box did not move between the frames"
        print(f"frames differ in {int(changed.sum())} pixels; the box moved {c_b[0] - c_a[0]:.1f} px to the right (north)")
        check_mesh(browser, sim, source, work)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
