#!/usr/bin/env bash
# The schema and the simulator must agree: every shipped scenario, and the resolved scenario
# that sim stores in each result file (with derived shape values), validates against
# schemas/scenario.schema.json as an editor would check it.
# Usage: tests/tools/test_schema.sh REPO_ROOT SIM_EXECUTABLE
set -euo pipefail
root="$1"
sim="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Parts (vehicles, arms) are included by scenarios, not run: checked against their own schema.
mapfile -t parts < <(find "$root/scenarios/vehicles" "$root/scenarios/arms" -name '*.yaml' 2>/dev/null | sort)
mapfile -t scenarios < <(find "$root/scenarios" -maxdepth 1 -name '*.yaml' | sort)
# A paper's folder (scenarios/<paper>/) holds both; the modeline on the first line tells which.
for file in $(find "$root/scenarios" -mindepth 2 -name '*.yaml' -not -path '*/vehicles/*' -not -path '*/arms/*' | sort); do
  if head -1 "$file" | grep -q 'part.schema.json'; then parts+=("$file"); else scenarios+=("$file"); fi
done
results=()
for scenario in "${scenarios[@]}"; do
  out="$work/$(basename "$scenario" .yaml).h5"
  "$sim" -q "$scenario" --duration 0.1 -o "$out"
  results+=("$out")
done
/usr/bin/python3 "$root/tools/check_schema.py" "${scenarios[@]}" "${parts[@]}" "${results[@]}"
