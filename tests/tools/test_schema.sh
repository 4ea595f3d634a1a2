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
# Parts (vehicles, arms, a paper's system: their first line names part.schema.json) are
# included by scenarios, not run: checked against their own schema. Everything else is a
# scenario, in scenarios/ or a paper's folder below it.
parts=()
scenarios=()
while IFS= read -r f; do
  if head -n 1 "$f" | grep -q 'part\.schema\.json'; then parts+=("$f"); else scenarios+=("$f"); fi
done < <(find "$root/scenarios" -name '*.yaml' | sort)
results=()
for scenario in "${scenarios[@]}"; do
  out="$work/$(basename "$(dirname "$scenario")")_$(basename "$scenario" .yaml).h5"
  "$sim" -q "$scenario" --duration 0.1 -o "$out"
  results+=("$out")
done
/usr/bin/python3 "$root/tools/check_schema.py" "${scenarios[@]}" "${parts[@]}" "${results[@]}"
