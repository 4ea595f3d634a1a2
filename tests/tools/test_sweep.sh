#!/usr/bin/env bash
# tools/sweep: a 2x4 grid on bluerov2_push runs in parallel, summarises, reproduces its files
# byte for byte when rerun into the same directory, and reports a bad-input run.
# Usage: tests/tools/test_sweep.sh REPO_ROOT SIM_EXECUTABLE
set -euo pipefail
root="$1"
sim="$2"
work="$(mktemp -d)"
sig_sims() { pgrep -f -- "$work/sig/run_" || true; }  # sims of the SIGTERM check below
kill_sims() { pgrep -f -- "$work/kill/run_" || true; }  # sims of the killed rerun below
cleanup() {
  local code=$?
  [ -n "${spid:-}" ] && kill -KILL "$spid" 2> /dev/null
  for p in $(sig_sims) $(kill_sims); do kill -KILL "$p" 2> /dev/null; done
  rm -rf "$work"
  exit "$code"
}
trap cleanup EXIT
sweep=("$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 1 -j 2)
fail() { echo "FAIL: $*" >&2; exit 1; }

# Without gravity and with the CG at the origin the push is pure surge, (m + X_u') u' = F - d(u),
# so a heavier vehicle is slower after 1 s. (With weight and buoyancy, mass also sets heave and
# pitch, which couple back into surge: u_end is then not monotonic in mass.)
# shellcheck disable=SC2054  # the commas separate grid values, not array elements
grid=(--set environment.gravity=0 --set 'bodies.rov.center_of_gravity=[0,0,0]'
      --grid simulation.output_rate=25,50 --grid bodies.rov.mass=10,11,12,13
      --metric 'u_end=bodies/rov/velocity[-1,0]' --metric 'depth_max=max(bodies/rov/position[:,2])')
"${sweep[@]}" "${grid[@]}" -o "$work/grid" > "$work/out1.txt" || fail "sweep exited $?"
n=$(find "$work/grid" -name 'run_*.h5' | wc -l)
[ "$n" -eq 8 ] || fail "expected 8 result files, got $n"
[ -s "$work/grid/manifest.csv" ] || fail "no manifest.csv"

# 8 completed rows in run order; for each output_rate, u_end falls strictly as mass rises.
/usr/bin/python3 - "$work/grid/summary.csv" <<'PY' || fail "summary.csv check"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
header = list(rows[0].keys()) if rows else []
assert header == ["run", "simulation.output_rate", "bodies.rov.mass", "status", "exit_code",
                  "error", "wall_time_s", "u_end", "depth_max"], header
assert len(rows) == 8, len(rows)
assert [r["run"] for r in rows] == [f"run_{i:04d}" for i in range(8)]
for r in rows:
    assert r["status"] == "completed" and r["exit_code"] == "0" and r["error"] == "", r
    float(r["wall_time_s"]), float(r["depth_max"])
for rate in ("25", "50"):
    sel = [r for r in rows if r["simulation.output_rate"] == rate]
    assert [r["bodies.rov.mass"] for r in sel] == ["10", "11", "12", "13"], sel
    u = [float(r["u_end"]) for r in sel]
    assert all(a > b > 0 for a, b in zip(u, u[1:])), f"u_end not decreasing with mass at {rate} Hz: {u}"
print("summary ok")
PY

# Rerunning into the same directory reproduces every result file byte for byte.
mkdir "$work/first"
cp "$work/grid"/run_*.h5 "$work/first/"
"${sweep[@]}" "${grid[@]}" -o "$work/grid" > "$work/out2.txt" || fail "second sweep exited $?"
for f in "$work/first"/run_*.h5; do
  cmp "$f" "$work/grid/$(basename "$f")" || fail "$(basename "$f") differs on rerun"
done

# --collect on the local sweep's directory, given the exit records a Slurm task writes ("code
# start end"), reads the same files: exit 0. Result files swapped between runs, or written by
# another command line, are not counted as the manifest's runs: listed with what differs, exit
# 1, their metrics empty.
for i in 0 1 2 3 4 5 6 7; do echo "0 0 1" > "$work/grid/run_000$i.exit"; done
"$root/tools/sweep" --collect "$work/grid" --metric "u_end=bodies/rov/velocity[-1,0]" > /dev/null || fail "--collect of the local sweep exited $?"
mv "$work/grid/run_0000.h5" "$work/swap.h5"
mv "$work/grid/run_0001.h5" "$work/grid/run_0000.h5"
mv "$work/swap.h5" "$work/grid/run_0001.h5"
sed -i '/^run_0005,/s/--duration 1 /--duration 2 /' "$work/grid/manifest.csv"
code=0
"$root/tools/sweep" --collect "$work/grid" --metric "u_end=bodies/rov/velocity[-1,0]" > "$work/collect.txt" 2>&1 || code=$?
[ "$code" -eq 1 ] || { cat "$work/collect.txt" >&2; fail "--collect of swapped files exited $code, not 1"; }
for r in run_0000 run_0001 run_0005; do
  grep -q "$r (not this run's file" "$work/collect.txt" || { cat "$work/collect.txt" >&2; fail "--collect did not list $r"; }
done
grep -q "holds the overrides" "$work/collect.txt" || fail "--collect did not say which overrides differ"
grep -q "was written by" "$work/collect.txt" || fail "--collect did not say the command line differs"
/usr/bin/python3 - "$work/grid/summary.csv" <<'PY' || fail "summary of swapped files"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
wrong = {r["run"] for r in rows if r["status"] == "not this run's file"}
assert wrong == {"run_0000", "run_0001", "run_0005"}, rows
for r in rows:
    assert (r["u_end"] == "") == (r["run"] in wrong), r
    assert ("overrides" in r["error"] or "written by" in r["error"]) == (r["run"] in wrong), r
PY

# A bad-input run: sweep exit 1, that run's status "bad input" with sim's message as its error
# (in the summary and on stderr), the other one completed.
code=0
"${sweep[@]}" --grid bodies.rov.mass=-1,10 -o "$work/bad" > "$work/out3.txt" 2>&1 || code=$?
[ "$code" -eq 1 ] || fail "expected exit 1 with a bad-input run, got $code"
/usr/bin/python3 - "$work/bad/summary.csv" <<'PY' || fail "bad-input summary check"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [(r["run"], r["status"], r["exit_code"]) for r in rows] == \
    [("run_0000", "bad input", "2"), ("run_0001", "completed", "0")], rows
assert "error: " in rows[0]["error"] and "mass" in rows[0]["error"] and "got -1" in rows[0]["error"], rows[0]
assert rows[1]["error"] == "", rows[1]
PY
grep -q "run_0000 (bad input, exit 2): .*error: .*mass.*got -1" "$work/out3.txt" \
  || { cat "$work/out3.txt" >&2; fail "stderr does not give the bad-input run's exit code and error"; }

# Cells quoted as RFC 4180 says: a value holding commas, one holding double quotes (a name sim
# refuses, so that the error cell holds quotes too), lines ending in CRLF.
printf '%s\n' 'bodies.rov.center_of_gravity,name' '"[0,0,0]","a ""b"""' > "$work/quoted.csv"
code=0
"$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 0.1 --list "$work/quoted.csv" \
  -o "$work/quoted" > /dev/null 2>&1 || code=$?
[ "$code" -eq 1 ] || fail "the quoted sweep exited $code, not 1"
/usr/bin/python3 - "$work/quoted/summary.csv" <<'PY' || fail "RFC 4180 quoting of the summary"
import csv, io, sys
raw = open(sys.argv[1], "rb").read().decode()
lines = raw.split("\r\n")
assert lines[-1] == "" and "\n" not in "".join(lines), repr(raw)
assert lines[1].startswith('run_0000,"[0,0,0]","a ""b""",bad input,2,"'), lines[1]
row = list(csv.reader(io.StringIO(raw)))[1]
assert row[1:5] == ["[0,0,0]", 'a "b"', "bad input", "2"] and """got 'a "b"'""" in row[5], row
PY

# A rerun killed (SIGKILL: it writes no summary) leaves neither the summary.csv of the sweep
# before nor its result files, to be read as the rerun's.
# shellcheck disable=SC2054
"$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 0.1 -j 2 \
  --grid bodies.rov.mass=10,11,12 -o "$work/kill" > /dev/null || fail "the first sweep into kill/ exited $?"
[ -s "$work/kill/summary.csv" ] && [ -s "$work/kill/run_0002.h5" ] || fail "no first summary in kill/"
# shellcheck disable=SC2054
"$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 100000 -j 2 \
  --grid bodies.rov.mass=10,11,12 -o "$work/kill" > /dev/null 2>&1 &
kpid=$!
for _ in $(seq 50); do [ -e "$work/kill/run_0000.h5.partial" ] && break; sleep 0.1; done
kill -KILL "$kpid"
wait "$kpid" 2> /dev/null || true
for p in $(kill_sims); do kill -KILL "$p" 2> /dev/null; done
[ ! -e "$work/kill/summary.csv" ] || fail "a killed rerun left the previous summary.csv"
[ ! -e "$work/kill/run_0002.h5" ] || fail "a killed rerun left the previous run_0002.h5"

# Bad sweep arguments: exit 2 before anything runs.
for bad in "--grid bodies.rov.mass=" "--grid bodies.rov.mass=10 --metric x=eval(1)" \
           "--grid bodies.rov.mass=10 --metric x=bodies/rov/velocity[-1,__import__]"; do
  code=0
  # shellcheck disable=SC2086
  "${sweep[@]}" $bad -o "$work/args" > /dev/null 2>&1 || code=$?
  [ "$code" -eq 2 ] || fail "expected exit 2 for '$bad', got $code"
done
[ ! -e "$work/args" ] || fail "a bad-argument sweep wrote its output directory"
# SIGTERM to the sweep process alone: it forwards it to both running sims, which close their
# files as "interrupted"; the summary says so; exit 143; no sim left running. (At most ~12 s.)
# shellcheck disable=SC2054
"$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 100000 -j 2 \
  --grid bodies.rov.mass=10,11 -o "$work/sig" > "$work/sig.txt" 2>&1 &
spid=$!
for _ in $(seq 50); do  # both runs started (a running sim writes <output>.partial): up to 5 s
  [ -e "$work/sig/run_0000.h5.partial" ] && [ -e "$work/sig/run_0001.h5.partial" ] && break
  sleep 0.1
done
if ! [ -e "$work/sig/run_0000.h5.partial" ] || ! [ -e "$work/sig/run_0001.h5.partial" ]; then
  cat "$work/sig.txt" >&2; fail "the two long runs did not start within 5 s"
fi
sleep 0.3  # let the sims get into their time loop
kill -TERM "$spid"
for _ in $(seq 70); do kill -0 "$spid" 2> /dev/null || break; sleep 0.1; done  # up to 7 s
kill -0 "$spid" 2> /dev/null && { cat "$work/sig.txt" >&2; fail "sweep still running 7 s after SIGTERM"; }
code=0
wait "$spid" || code=$?
spid=""
[ "$code" -eq 143 ] || { cat "$work/sig.txt" >&2; fail "expected exit 143 after SIGTERM, got $code"; }
[ -z "$(sig_sims)" ] || fail "sim(s) still running after the sweep exited: $(sig_sims)"
/usr/bin/python3 - "$work/sig/summary.csv" <<'PY' || { cat "$work/sig.txt" >&2; fail "SIGTERM summary check"; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [(r["run"], r["status"]) for r in rows] == \
    [("run_0000", "interrupted"), ("run_0001", "interrupted")], rows
PY
echo "test_sweep: ok"
