#!/usr/bin/env bash
# Paper 003's reproduction (scenarios/leborne2018): runs reproduce.sh with the shipped constants
# (and seeds.sh on its runs: seven more noise draws) and with 3x motor dry friction and rotor
# inertia, and checks every claim of its README with check.py. About 20 s: two 85 s simulations
# per case are what the paper's 80 s trajectories need; each identification takes about 1 s.
# Usage: tests/tools/test_leborne2018.sh REPO_ROOT SIM_EXECUTABLE
set -euo pipefail
root="$1"
export SIM="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
folder="$root/scenarios/leborne2018"
"$folder/reproduce.sh" "$work/shipped" > /dev/null
"$folder/seeds.sh" "$work/shipped" > /dev/null
sets=()
for k in 0 1 2; do
  sets+=(--set "manipulators.ariane/arm.links.$k.joint.actuator.dry_friction=0.018"
         --set "manipulators.ariane/arm.links.$k.joint.actuator.rotor_inertia=6.0e-05")
done
"$folder/reproduce.sh" "$work/sensitivity" "${sets[@]}" > /dev/null
/usr/bin/python3 "$folder/check.py" "$work/shipped" "$work/sensitivity"
