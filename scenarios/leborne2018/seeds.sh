#!/bin/bash
# How much the noise draw moves the identification of paper 003 (Leborne et al. 2018): the logs
# of reproduce.sh's two runs drawn again with other seeds of the current noise, identified again.
#   scenarios/leborne2018/seeds.sh OUTDIR      (OUTDIR: reproduce.sh's, default results/leborne2018)
# Writes OUTDIR/seeds/seed_<S>.json (sim identify --format json) for the excitation seeds
# S = 3, 5, …, 15, each validated on seed S + 1 (reproduce.sh's own pair is 1 and 2), and prints
# each pair's improvements. check.py reads them. SIM as for reproduce.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sim=${SIM:-$here/../../build/sim}
out=${1:-results/leborne2018}
mkdir -p "$out/seeds"
for seed in 3 5 7 9 11 13 15; do
  /usr/bin/python3 "$here/make_measurements.py" "$out/excitation.h5" "$out/seeds/excitation.csv" --seed "$seed"
  /usr/bin/python3 "$here/make_measurements.py" "$out/validation.h5" "$out/seeds/validation.csv" --seed $((seed + 1))
  "$sim" identify "$here/excitation.yaml" "$out/seeds/excitation.csv" --validate "$out/seeds/validation.csv" \
    --from 5 --to 85 --min-speed 0.01 --format json -o "$out/seeds/seed_$seed.json" 2> /dev/null
  /usr/bin/python3 -c "
import json, sys
with_, without = json.load(open(sys.argv[1]))['models']
print('seeds $seed/$((seed + 1)): improvements', ', '.join(f'{100 * (b - a) / b:.1f}' for a, b in zip(with_['rmse'], without['rmse'])), '%')
" "$out/seeds/seed_$seed.json"
done
rm -f "$out/seeds/excitation.csv" "$out/seeds/validation.csv"
