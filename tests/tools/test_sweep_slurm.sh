#!/usr/bin/env bash
# tools/sweep --slurm, for real: start a private one-node Slurm cluster (munged, slurmctld,
# slurmd from Debian's munge and slurm-wlm, every file under a temp dir, own ports and munge
# socket, so it neither needs nor touches a system instance), submit a 4-run sweep as a job
# array, wait for it, and check the result files, the summary, and that every result file is
# byte-identical to a local sweep's into the same directory.
# Usage: tests/tools/test_sweep_slurm.sh REPO_ROOT SIM_EXECUTABLE
# Exit 77 (ctest SKIP_RETURN_CODE) with "SKIPPED: reason" when not root or Slurm/munge is not
# installed; as root, daemons that fail to start are a failure (their logs are printed).
set -euo pipefail
root="$1"
sim="$2"

skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to start munged, slurmctld and slurmd (running as uid $(id -u))"
for b in munged mungekey slurmctld slurmd sbatch squeue sinfo; do
  command -v "$b" > /dev/null || PATH="$PATH:/usr/sbin:/sbin" command -v "$b" > /dev/null \
    || skip "$b not found (install the Debian packages slurm-wlm and munge)"
done
# What slurmd itself needs from the machine: a cgroup filesystem (slurmd 22.05 initialises
# its cgroup plugin even with proctrack/linuxproc) and a resolvable host name for the node.
# Real machines and containers have both; a bare chroot may not. Say so and skip.
[ -d /sys/fs/cgroup ] && [ -n "$(ls -A /sys/fs/cgroup 2>/dev/null)" ] \
  || skip "no cgroup filesystem at /sys/fs/cgroup, which slurmd needs (a chroot without /sys?)"
getent hosts "$(hostname -s)" > /dev/null \
  || skip "the host name '$(hostname -s)' does not resolve (add it to /etc/hosts), which Slurm needs"
export PATH="$PATH:/usr/sbin:/sbin"

# CI safety: the whole test, cleanup included, stays well inside a ctest TIMEOUT of 300 s.
#  - a watchdog TERMs this script after $limit s; the TERM trap runs the cleanup (scancel, stop the
#    daemons, remove the temp dir); every long step runs in the background under `timeout` and is
#    waited for with `wait`, which a trapped signal interrupts at once;
#  - a SIGKILL (ctest's own timeout) skips all traps: the next run reaps what it left behind
#    (every run's files are under $prefix.*, with the daemons' pid files).
limit=200
prefix=/tmp/uwsim_slurm_test
# The test's own stdout and stderr, for the traps: a trap that runs while a step's output is
# redirected to a file would otherwise write there. (Closed for the daemons, 3>&- 4>&-.)
exec 3>&1 4>&2
stage() { echo "[$(printf '%3d' "$SECONDS") s] $*"; }

# Reap leftovers of earlier runs that were killed before their cleanup: daemons still running
# from a $prefix.* directory (checked by /proc/PID/comm) and that directory itself. A directory
# whose test script is still alive (a concurrent run) is left alone.
is_prog() { [ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2> /dev/null)" = "$2" ]; }
reap_pid() {  # pid expected-comm: TERM, up to 5 s, then KILL, up to 2 s more
  local pid="$1" name="$2"
  is_prog "$pid" "$name" || return 0
  kill -TERM "$pid" 2> /dev/null || true
  for _ in $(seq 50); do is_prog "$pid" "$name" || return 0; sleep 0.1; done
  echo "warning: $name (pid $pid) ignored SIGTERM, killing it" >&2
  kill -KILL "$pid" 2> /dev/null || true
  for _ in $(seq 20); do is_prog "$pid" "$name" || return 0; sleep 0.1; done
  echo "warning: $name (pid $pid) still there after SIGKILL" >&2
}
for old in "$prefix".*; do
  [ -d "$old" ] || continue
  owner="$(cat "$old/owner.pid" 2> /dev/null)" || owner=""
  if [ -n "$owner" ] && [ "$owner" != "$$" ] && grep -qs test_sweep_slurm "/proc/$owner/cmdline"; then
    echo "note: $old belongs to a running test (pid $owner), leaving it" >&2
    continue
  fi
  stage "reaping the leftovers of an earlier run in $old"
  ctld="$(cat "$old/slurm/slurmctld.pid" 2> /dev/null)" || ctld=""
  if is_prog "$ctld" slurmctld && [ -f "$old/slurm/slurm.conf" ]; then  # its jobs are all test jobs
    for j in $(SLURM_CONF="$old/slurm/slurm.conf" timeout -k 2 10 squeue -h -o %A 2> /dev/null); do
      SLURM_CONF="$old/slurm/slurm.conf" timeout -k 2 10 scancel "$j" 2> /dev/null || true
    done
  fi
  for p in $(pgrep -f -- "$old/" || true); do  # a sweep, sim or timeout of that run still going
    case "$(cat "/proc/$p/comm" 2> /dev/null)" in timeout|sweep|python3|sim) kill -KILL "$p" 2> /dev/null || true;; esac
  done
  for d in slurm/slurmd:slurmd slurm/slurmctld:slurmctld munge/munged:munged; do
    reap_pid "$(cat "$old/${d%%:*}.pid" 2> /dev/null || true)" "${d##*:}"
  done
  rm -rf "$old"
done

tmp="$(mktemp -d "$prefix.XXXXXX")"
chmod 755 "$tmp"  # the munge user must reach its directory below
echo "$$" > "$tmp/owner.pid"
show_logs() {
  for f in "$tmp"/munge/munged.log "$tmp"/slurm/slurmctld.log "$tmp"/slurm/slurmd.log; do
    [ -f "$f" ] && { echo "----- $f (last 40 lines)" >&2; tail -n 40 "$f" >&2; }
  done
  return 0
}
fail() { echo "FAIL: $*" >&2; show_logs; exit 1; }
stop_daemon() {  # pid file, name
  [ -s "$1" ] || return 0
  reap_pid "$(cat "$1" 2> /dev/null || true)" "$2"
}
bg=""  # the bounded step running in the background, if any
bounded() {  # SECONDS CMD...: CMD under `timeout`, in the background, waited for (so a TERM is handled at once)
  local secs="$1" rc=0
  shift
  timeout -k 5 "$secs" "$@" &
  bg=$!
  wait "$bg" || rc=$?
  bg=""
  return "$rc"
}
submitted_jobs() {  # every job id printed by a --submit of this test (the bad-input one included)
  cat "$tmp"/*.jobout 2> /dev/null | grep -E '^[0-9]+$' || true
}
cleanup() {
  local code=$? j
  set +e
  exec 1>&3 2>&4
  trap '' INT TERM
  [ -n "${watchdog:-}" ] && kill "$watchdog" 2> /dev/null
  if [ -n "$bg" ]; then  # a step cut short by the watchdog or a signal
    stage "stopping the running step (pid $bg)"
    kill -TERM "$bg" 2> /dev/null
    for _ in $(seq 100); do kill -0 "$bg" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$bg" 2> /dev/null
  fi
  stage "cancelling the test's jobs, stopping the daemons"
  j="$(submitted_jobs | tr '\n' ' ')"
  if [ -n "${j// /}" ] && [ -n "${SLURM_CONF:-}" ]; then
    # shellcheck disable=SC2086
    timeout -k 2 10 scancel $j 2> /dev/null
    for _ in $(seq 50); do  # up to 5 s for the tasks to end before slurmd goes
      # shellcheck disable=SC2086
      [ -z "$(timeout -k 1 3 squeue -h -j "${j// /,}" -o %A 2> /dev/null)" ] && break
      sleep 0.1
    done
  fi
  stop_daemon "$tmp/slurm/slurmd.pid" slurmd
  stop_daemon "$tmp/slurm/slurmctld.pid" slurmctld
  stop_daemon "$tmp/munge/munged.pid" munged
  rm -rf "$tmp"
  stage "cleaned up, exit $code"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exec 1>&3 2>&4; echo "FAIL: interrupted or over the ${limit} s limit (SIGTERM) at ${SECONDS} s" >&2; show_logs; exit 143' TERM
( # watchdog: TERM the test after $limit s (KILL 60 s later); ends by itself when the test is gone
  for _ in $(seq "$limit"); do
    sleep 1
    read -r _ _ _ ppid _ < "/proc/$BASHPID/stat" && [ "$ppid" = "$$" ] || exit 0
  done
  kill -TERM "$$" 2> /dev/null
  sleep 60
  kill -KILL "$$" 2> /dev/null
) < /dev/null > /dev/null 2>&1 3>&- 4>&- &
watchdog=$!

id munge > /dev/null 2>&1 || fail "the munge package is installed but there is no munge user"
host="$(hostname -s)"
free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])'
}
ctld_port="$(free_port)"
slurmd_port="$(free_port)"
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port="$(free_port)"; done

stage "munge: private key and munged on $tmp/munge/munge.socket"
mkdir -p "$tmp/munge" "$tmp/slurm/state" "$tmp/slurm/spool"
chown munge: "$tmp/munge"
chmod 755 "$tmp/munge"  # munged: the socket's directory must be searchable by all; the key stays 0600
timeout -k 2 20 runuser -u munge -- mungekey --create --keyfile="$tmp/munge/munge.key" || fail "mungekey could not create a key"
timeout -k 2 20 runuser -u munge -- munged --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" 3>&- 4>&- || fail "munged did not start"
for _ in $(seq 50); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge/munge.socket" ] || fail "munged made no socket"
if command -v munge > /dev/null && command -v unmunge > /dev/null; then
  timeout 10 munge -n -S "$tmp/munge/munge.socket" | timeout 10 unmunge -S "$tmp/munge/munge.socket" > /dev/null \
    || fail "munge credential round trip through $tmp/munge/munge.socket"
fi

stage "slurm: one node $host ($(nproc) CPUs), slurmctld port $ctld_port, slurmd port $slurmd_port"
export SLURM_CONF="$tmp/slurm/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=sweeptest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
StateSaveLocation=$tmp/slurm/state
SlurmdSpoolDir=$tmp/slurm/spool
SlurmctldPidFile=$tmp/slurm/slurmctld.pid
SlurmdPidFile=$tmp/slurm/slurmd.pid
SlurmctldLogFile=$tmp/slurm/slurmctld.log
SlurmdLogFile=$tmp/slurm/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=sweeptest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
bounded 30 slurmctld -f "$SLURM_CONF" -i 3>&- 4>&- || fail "slurmctld did not start"
bounded 30 slurmd -f "$SLURM_CONF" -N "$host" 3>&- 4>&- || fail "slurmd did not start"
state=""
until_s=$((SECONDS + 30))
while [ "$SECONDS" -lt "$until_s" ]; do
  state="$(timeout -k 1 5 sinfo -h -N -n "$host" -o '%t' 2> /dev/null | head -n 1)" || true
  [ "$state" = "idle" ] && break
  sleep 0.5
done
[ "$state" = "idle" ] || fail "node $host not idle after 30 s (sinfo state: '${state:-none}')"
stage "sinfo: $host idle"

dir="$tmp/sweep"
# shellcheck disable=SC2054  # the commas separate grid values, not array elements
sweep=("$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 1 -o "$dir"
       --grid bodies.rov.mass=10,11,12,13 --metric 'u_end=bodies/rov/velocity[-1,0]')

stage "local sweep of the same grid into $dir"
bounded 40 "${sweep[@]}" > "$tmp/local.txt" 2>&1 || { cat "$tmp/local.txt" >&2; fail "local sweep exited non-zero"; }
mkdir "$tmp/local"
cp "$dir"/run_*.h5 "$dir/summary.csv" "$tmp/local/"
rm -f "$dir"/run_*.h5 "$dir/summary.csv"

stage "slurm sweep: --slurm --submit --wait"
code=0
# stdout (the job id) goes to slurm.jobout, read by the cleanup's scancel whatever happens here
bounded 75 "${sweep[@]}" --slurm --slurm-option=--time=00:05:00 --submit --wait --wait-timeout 60 \
  > "$tmp/slurm.jobout" 2> "$tmp/slurm.err" || code=$?
cat "$tmp/slurm.jobout" "$tmp/slurm.err"
job="$(grep -E '^[0-9]+$' "$tmp/slurm.jobout" | head -n 1)" || true
[ "$code" -eq 0 ] || { cat "$dir"/run_*.slurm.log >&2 2> /dev/null || true; fail "slurm sweep exited $code"; }
[ -n "$job" ] || fail "no job id printed"
stage "checking the files"
[ -x "$dir/sweep.sbatch" ] || fail "no sweep.sbatch"
grep -q '^#SBATCH --array=0-3$' "$dir/sweep.sbatch" || fail "sweep.sbatch has no --array=0-3 line"
n=$(find "$dir" -name 'run_*.h5' | wc -l)
[ "$n" -eq 4 ] || fail "expected 4 result files, got $n"
for i in 0 1 2 3; do  # each run went through Slurm: its task output and exit record exist
  [ -s "$dir/run_000$i.slurm.log" ] || fail "no Slurm task output run_000$i.slurm.log"
  [ -s "$dir/run_000$i.exit" ] || fail "no exit record run_000$i.exit"
done
/usr/bin/python3 - "$dir/summary.csv" "$tmp/local/summary.csv" <<'PY' || fail "summary.csv check"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
local = list(csv.DictReader(open(sys.argv[2], newline="")))
header = list(rows[0].keys()) if rows else []
assert header == ["run", "bodies.rov.mass", "status", "exit_code", "error", "wall_time_s", "u_end"], header
assert header == list(local[0].keys()), (header, list(local[0].keys()))
assert [r["run"] for r in rows] == [f"run_{i:04d}" for i in range(4)], rows
for r, l in zip(rows, local):
    assert r["status"] == "completed" and r["exit_code"] == "0", r
    assert float(r["wall_time_s"]) >= 0, r
    for k in ("run", "bodies.rov.mass", "status", "exit_code", "error", "u_end"):
        assert r[k] == l[k], (k, r, l)
print("summary ok: 4 completed rows, same values as the local sweep")
PY
for f in "$tmp/local"/run_*.h5; do
  cmp "$f" "$dir/$(basename "$f")" || fail "$(basename "$f") from Slurm differs from the local run's"
done
stage "result files byte-identical to the local sweep's"

stage "slurm sweep with a bad-input run: exit 1, that run 'bad input'"
code=0
bounded 60 "$root/tools/sweep" "$root/scenarios/bluerov2_push.yaml" --sim "$sim" --duration 1 -o "$tmp/bad" \
  --grid bodies.rov.mass=-1,10 --slurm --submit --wait --wait-timeout 45 > "$tmp/bad.jobout" 2>&1 || code=$?
[ "$code" -eq 1 ] || { cat "$tmp/bad.jobout" >&2; fail "expected exit 1 with a bad-input run, got $code"; }
/usr/bin/python3 - "$tmp/bad/summary.csv" <<'PY' || fail "bad-input summary check"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [(r["run"], r["status"], r["exit_code"]) for r in rows] == \
    [("run_0000", "bad input", "2"), ("run_0001", "completed", "0")], rows
PY

# --collect alone rewrites the same summary from the manifest, exit records and result files.
cp "$dir/summary.csv" "$tmp/summary_wait.csv"
stage "--collect"
bounded 30 "$root/tools/sweep" --collect "$dir" > /dev/null || fail "--collect exited $?"
cmp "$tmp/summary_wait.csv" "$dir/summary.csv" || fail "--collect wrote a different summary"
stage "test_sweep_slurm: ok"
