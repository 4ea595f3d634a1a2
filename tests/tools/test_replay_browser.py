#!/usr/bin/python3
"""Browser test of `sim replay`: the page, opened in headless Chromium, draws a body where the
result file puts it, and the picture changes with time.

Usage: test_replay_browser.py SOURCE_DIR SIM_EXE   (exit 77 = skipped: no Chromium)

tests/data/replay/marker_box.yaml glides an orange 0.4 m box north at 1 m/s at 5 m depth. The
page is shot at two times with a fixed camera set by URL (eye, target, vertical field of view).
The expected pixel of the box's centre comes from the file's position and a pinhole projection
written here from the camera's definition (look-at with NED's up, −z), sharing nothing with
the page; the orange pixels' centroid must sit on it, their count must match the box's
projected size, and the two shots must differ where the box moved.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import matplotlib.image
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


def project(point):
    """Pixel (x right, y down) of a NED point, for a pinhole camera at EYE looking at TARGET
    with up = −z (NED's up) and the vertical field of view FOV_DEG."""
    up = np.array([0.0, 0.0, -1.0])
    forward = (TARGET - EYE) / np.linalg.norm(TARGET - EYE)
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    true_up = np.cross(right, forward)
    d = point - EYE
    depth = d @ forward
    tan_half = math.tan(math.radians(FOV_DEG) / 2)
    ndc_x = (d @ right) / (depth * tan_half * WIDTH / HEIGHT)
    ndc_y = (d @ true_up) / (depth * tan_half)
    return np.array([(ndc_x + 1) / 2 * WIDTH, (1 - ndc_y) / 2 * HEIGHT]), depth


def screenshot(browser, page, t, out):
    url = ("file://" + page + f"?t={t}&ui=0&camera=fixed&eye={','.join(map(str, EYE))}"
           f"&target={','.join(map(str, TARGET))}&fov={FOV_DEG}")
    args = [browser, "--headless=new", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--disable-gpu-sandbox", "--hide-scrollbars", f"--window-size={WIDTH},{HEIGHT}",
            f"--screenshot={out}", url]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    image = matplotlib.image.imread(out)[:, :, :3]
    assert image.shape[:2] == (HEIGHT, WIDTH), f"screenshot is {image.shape[:2]}, not {HEIGHT}x{WIDTH}"
    return (image * 255).astype(float)


def orange(image):
    """The box's pixels: the palette's first colour (245, 130, 49) under any of the page's
    lights has red well above green, and green well above blue; the water-blue background
    and the grid do not."""
    r, g, b = image[:, :, 0], image[:, :, 1], image[:, :, 2]
    return (r > 60) & (r > 1.4 * g) & (g > 1.4 * b)


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
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
