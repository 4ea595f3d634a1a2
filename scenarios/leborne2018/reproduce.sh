#!/bin/bash
# Paper 003 (Leborne et al. 2018) end to end: simulate the excitation and validation runs,
# turn them into bench logs, identify the arm with and without actuator dynamics, and draw
# Fig. 4's comparison of currents.
#   scenarios/leborne2018/reproduce.sh [OUTDIR]      (default: results/leborne2018)
# SIM names the sim executable (default: build/sim of this checkout); extra arguments after
# OUTDIR go to every sim run and to sim identify (e.g. --set overrides of the arm).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sim=${SIM:-$here/../../build/sim}
out=${1:-results/leborne2018}
shift || true
mkdir -p "$out"
for run in excitation validation; do
  "$sim" -q "$here/$run.yaml" -o "$out/$run.h5" "$@"
done
/usr/bin/python3 "$here/make_measurements.py" "$out/excitation.h5" "$out/excitation.csv" --seed 1
/usr/bin/python3 "$here/make_measurements.py" "$out/validation.h5" "$out/validation.csv" --seed 2
# The motion runs from 5 s to 85 s; joints slower than 0.01 rad/s are left out of the fit
# (dry friction's sign is unknown there; README.md).
"$sim" identify "$here/excitation.yaml" "$out/excitation.csv" --validate "$out/validation.csv" --from 5 --to 85 \
  --min-speed 0.01 --predictions "$out/predictions.csv" --write-part "$out/ariane_arm_identified.yaml" \
  -o "$out/identification.txt" "$@"
"$sim" identify "$here/excitation.yaml" "$out/excitation.csv" --validate "$out/validation.csv" --from 5 --to 85 \
  --min-speed 0.01 --format json -o "$out/identification.json" "$@"
/usr/bin/python3 "$here/plot.py" "$out/predictions.csv" "$out/currents.png"
cat "$out/identification.txt"
