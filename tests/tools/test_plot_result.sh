#!/usr/bin/env bash
# tools/plot.py on a real result of sim: the vehicle holding its pose under a PD and thrust
# allocation while PIDs move its arm. The report lists a set-point/response page per
# controller, the arm's joints on one page, no shaft-speed panel (the T200 table model has
# no shaft), depth drawn downwards; and it writes one multi-page PDF with a page per entry.
# Usage: test_plot_result.sh REPO_ROOT SIM_EXE
set -euo pipefail
root="$1" sim="$2"
d="$(mktemp -d)"
trap 'rm -rf "$d"' EXIT
"$sim" -q "$root/scenarios/bluerov2_hold_pose_arm.yaml" --duration 1 -o "$d/r.h5"
/usr/bin/python3 "$root/tools/plot.py" "$d/r.h5" --list > "$d/list.txt"
cat "$d/list.txt"
expect() { grep -qxF -- "$1" "$d/list.txt" || { echo "FAILED: no line '$1' in --list" >&2; exit 1; }; }
expect "controller/station: controller station (pose_pd, uvms/bluerov2/rov)"
expect "  set-point, response [m]"
expect "  depth (down) [m]"
expect "joints/uvms/arm: uvms/arm: 4 joints"
expect "controller/joint2: controller joint2 (pid, uvms/arm/joint2)"
if grep -q "shaft speed" "$d/list.txt"; then echo "FAILED: an empty shaft-speed panel" >&2; exit 1; fi
if grep -q "\[1\]" "$d/list.txt"; then echo "FAILED: a unit shown as [1]" >&2; exit 1; fi
/usr/bin/python3 "$root/tools/plot.py" "$d/r.h5" -o "$d/report.pdf" --only 'controller/*' 'body/*' > /dev/null
pages=$(grep -ao "/Type /Page\b" "$d/report.pdf" | wc -l)
expected=$(grep -c '^body/\|^controller/' "$d/list.txt")
[ "$pages" -eq $((expected + 1)) ] || { echo "FAILED: $pages PDF pages, expected $((expected + 1)) (summary + $expected)" >&2; exit 1; }
echo "report: $pages pages"
