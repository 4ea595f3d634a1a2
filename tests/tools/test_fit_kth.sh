#!/bin/bash
# scenarios/validation/fit_kth.py on the KTH recordings, when a copy is here: the fit redone
# from them, and the held-out RMSE it measures against scenarios/validation/README.md's table
# (within 0.005); then the --per-thruster variant (each thruster's scale and a yaw moment, not
# shipped) against the README's second table and its sentences on that fit's estimates. The recordings are not shipped (no licence): give their folder in
# UWSIM_KTH_DATA (default /work/kth/dictfiles_plot); without them the test skips (77).
set -euo pipefail
root=$1 sim=$2
data=${UWSIM_KTH_DATA:-/work/kth/dictfiles_plot}
if ! ls "$data"/rosbag2_2025_05_27-*_data_all.npz >/dev/null 2>&1; then
  echo "skipped: no KTH recordings in '$data' (set UWSIM_KTH_DATA to your copy of dictfiles_plot)"
  exit 77
fi
cd "$root"
/usr/bin/python3 scenarios/validation/fit_kth.py "$data" --sim "$sim" --check
exec /usr/bin/python3 scenarios/validation/fit_kth.py "$data" --sim "$sim" --check --per-thruster --skip-import
