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
# scenarios/validation reads RC CSVs made from recordings not shipped: a neutral one stands in
printf 'time,rc1 [us],rc2 [us],rc3 [us],rc4 [us],rc5 [us],rc6 [us]\n0,1500,1500,1500,1500,1500,1500\n' > "$work/rc.csv"
for scenario in "${scenarios[@]}"; do
  out="$work/$(basename "$(dirname "$scenario")")_$(basename "$scenario" .yaml).h5"
  sets=()
  if [[ $scenario == */scenarios/validation/kth_* ]]; then
    for k in 1 2 3 4 5 6; do sets+=(--set "inputs.rc$k.file=$work/rc.csv"); done
  fi
  "$sim" -q "$scenario" --duration 0.1 -o "$out" "${sets[@]}"
  results+=("$out")
done
/usr/bin/python3 "$root/tools/check_schema.py" "${scenarios[@]}" "${parts[@]}" "${results[@]}"
