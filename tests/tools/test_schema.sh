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
# Parts (their modeline names part.schema.json) are included by scenarios, not run: checked
# against their own schema.
mapfile -t parts < <(find "$root/scenarios" -name '*.yaml' -exec grep -l -m1 'part\.schema\.json' {} + | sort)
mapfile -t scenarios < <(find "$root/scenarios" -name '*.yaml' -exec grep -L 'part\.schema\.json' {} + | sort)
results=()
for scenario in "${scenarios[@]}"; do
  out="$work/$(echo "${scenario#"$root"/scenarios/}" | tr / _ | sed 's/\.yaml$//').h5"
  "$sim" -q "$scenario" --duration 0.1 -o "$out"
  results+=("$out")
done
/usr/bin/python3 "$root/tools/check_schema.py" "${scenarios[@]}" "${parts[@]}" "${results[@]}"
