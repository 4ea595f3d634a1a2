#!/usr/bin/env bash
# scenarios/stability: its files agree with the JSON Schema (as editors check them), so does a
# scenario written by `sim trim -o` (its modeline rewritten relative to where it is written),
# which starts at the equilibrium; and surge_stability_sweep.py runs, finds the onset between
# its speeds and draws the plot.
# Usage: tests/tools/test_stability.sh REPO_ROOT SIM_EXECUTABLE
set -euo pipefail
root="$1"
sim="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$root/tools/check_schema.py" "$root"/scenarios/stability/*.yaml
mkdir -p "$work/elsewhere/deeper"
"$sim" trim -q "$root/scenarios/stability/bluerov2_arm_rest.yaml" -o "$work/elsewhere/deeper/rested.yaml"
grep -q '^# yaml-language-server: \$schema=.*schemas/scenario.schema.json$' "$work/elsewhere/deeper/rested.yaml"
/usr/bin/python3 "$root/tools/check_schema.py" "$work/elsewhere/deeper/rested.yaml"
# It starts at the equilibrium, manipulator joints included: trimmed again, nothing moves.
"$sim" trim -q "$work/elsewhere/deeper/rested.yaml" --json "$work/again.json"
/usr/bin/python3 -c "import json, sys; j = json.load(open(sys.argv[1])); assert j['converged'] and j['iterations'] == 0, j" "$work/again.json"
/usr/bin/python3 "$root/scenarios/stability/surge_stability_sweep.py" --sim "$sim" --speeds 0.3:0.5:0.1 \
    --tolerance 1e-3 -o "$work/sweep" > "$work/out.txt"
cat "$work/out.txt"
grep -q 'crosses zero at U = 0.39' "$work/out.txt"
test "$(wc -l < "$work/sweep/sweep.csv")" -eq 4
test -s "$work/sweep/sweep.png"
