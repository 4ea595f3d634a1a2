#!/usr/bin/env bash
# A full disk, for real (issue 12): small tmpfs file systems are mounted (as root) and `sim`
# writes into them until they are full, before its first chunk and after some. In every case:
# exit code 5 (never a crash), a message naming the file and "No space left on device", the
# previous result untouched, and what was written before readable by h5py with equal lengths.
# Where a tmpfs cannot be mounted (not root, no permission in a container) it exits 77, which
# ctest reports as skipped, saying why.
#
#   tests/tools/test_full_disk.sh SOURCE_DIR SIM
set -uo pipefail
src=$1
sim=$2
scenario=$src/scenarios/bluerov2_push.yaml
if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: mounting a small tmpfs to fill needs root (this runs as uid $(id -u))"
  exit 77
fi
work=$(mktemp -d)
disk=$work/disk
mkdir -p "$disk"
cleanup() {
  umount "$disk" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# A 1 s run's result, kept outside and copied in as the previous result of each case.
"$sim" -q "$scenario" --duration 1 -o "$work/previous.h5" || { echo "FAIL: the reference run failed"; exit 1; }

# h5py's view: "ok N" when every dataset reads whole and every time series (all but /visuals,
# written once at the start) has N rows, else what went wrong.
verdict() {
  /usr/bin/python3 - "$1" <<'PY'
import sys, h5py
try:
    with h5py.File(sys.argv[1], "r") as f:
        lengths = set()
        def visit(n, o):
            if isinstance(o, h5py.Dataset):
                rows = o[...].shape[0]
                if not n.startswith("visuals/"):
                    lengths.add(rows)
        f.visititems(visit)
        status = f.attrs.get("status", "?")
        print("ok %d, status %s" % (lengths.pop(), status) if len(lengths) == 1 else "unequal lengths %s" % sorted(lengths))
except Exception as e:
    print("unreadable: %s" % e)
PY
}

# run_case NAME SIZE DURATION: a tmpfs of SIZE holding the previous result, sim writing beside it.
run_case() {
  local name=$1 size=$2 duration=$3
  if ! mount -t tmpfs -o "size=$size" tmpfs "$disk" 2>"$work/mount.err"; then
    echo "SKIPPED: cannot mount a tmpfs here: $(cat "$work/mount.err")"
    exit 77
  fi
  cp "$work/previous.h5" "$disk/out.h5"
  "$sim" "$scenario" --duration "$duration" -o "$disk/out.h5" >"$work/$name.log" 2>&1
  local code=$?
  echo "--- $name (tmpfs of $size): exit $code"
  sed 's/^/    /' "$work/$name.log"
  [ "$code" = 5 ] || fail "$name: exit code $code, expected 5"
  grep -q "No space left on device" "$work/$name.log" || fail "$name: the message does not give the system's error"
  grep -q "$disk/out.h5" "$work/$name.log" || fail "$name: the message does not name the file"
  cmp -s "$work/previous.h5" "$disk/out.h5" || fail "$name: the previous result was changed"
  if [ -e "$disk/out.h5.partial" ]; then
    local v
    v=$(verdict "$disk/out.h5.partial")
    echo "    out.h5.partial: $v"
    case $v in "ok "*", status failed: cannot write the result file"*) ;; *) fail "$name: out.h5.partial: $v" ;; esac
    [ "$name" = after_some_chunks ] && [ "$(echo "$v" | sed 's/ok \([0-9]*\).*/\1/')" -le 1024 ] &&
      fail "$name: only $v rows kept, expected the chunks written before the disk filled"
  fi
  [ -e "$disk/out.h5.lock" ] && fail "$name: the lock file was left behind"
  umount "$disk"
}

# Too small for the file's first structure and its reserve: nothing is written.
run_case before_first_chunk 128k 10
[ -e "$work/disk/out.h5.partial" ] && fail "before_first_chunk: a .partial was left"
# Room for some chunks, then full in the middle of a long run.
run_case after_some_chunks 3m 100000

if [ "$failures" -gt 0 ]; then
  echo "test_full_disk: $failures failure(s)"
  exit 1
fi
echo "test_full_disk: all cases passed"
