#!/bin/bash
# scenarios/validation (issue 38, item 5), always run: the fitted part validates, and a
# validation scenario flown from a synthetic RC log (forward stick only, CSV written here, since
# the recordings' CSVs are not shipped) runs through ArduSub's mixer and the fitted Heavy
# surges forward: a mixer or a part whose surge were flipped would go backwards.
set -euo pipefail
root=$1 sim=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$sim" validate "$root/scenarios/validation/bluerov2_heavy_fitted.yaml"
csv=$work/rc.csv
{
  echo "time,rc1 [us],rc2 [us],rc3 [us],rc4 [us],rc5 [us],rc6 [us]"
  echo "0,1500,1500,1500,1500,1500,1500"
  echo "1,1500,1500,1500,1500,1650,1500"
} > "$csv"
sets=()
for k in 1 2 3 4 5 6; do sets+=(--set "inputs.rc$k.file=$csv"); done
"$sim" -q "$root/scenarios/validation/kth_11_46_03_0_6dof.yaml" --duration 8 -o "$work/run.h5" "${sets[@]}"
/usr/bin/python3 - "$work/run.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1])
v = np.asarray(f["bodies/heavy/rov/velocity"])
m1 = np.asarray(f["thrusters/heavy/motor1/command"]); m3 = np.asarray(f["thrusters/heavy/motor3/command"])
print(f"after 8 s: u {v[-1, 0]:.3f} m/s, v {v[-1, 1]:.3f} m/s; motor1 {m1[-1]:.0f} us, motor3 {m3[-1]:.0f} us")
# forward stick 0.375: ArduSub's forward factors -1 (motors 1-2), +1 (3-4): 1350 and 1650 us
assert abs(m1[-1] - 1350) < 1 and abs(m3[-1] - 1650) < 1, "mixer outputs"
assert v[-1, 0] > 0.1, "the fitted Heavy does not surge forward on forward stick"
assert abs(v[-1, 1]) < 0.3 * v[-1, 0], "forward stick makes it sway"
PY
echo "ok"
