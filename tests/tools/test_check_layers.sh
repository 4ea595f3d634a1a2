#!/usr/bin/env bash
# tools/check_layers on a copy of src/ and DEVELOPING.md: the copy as it is passes; with an
# include that points up (spatial → app) added at a known line it fails with exit 1 and names
# that file and line, and only that one; with a folder the order leaves out it fails with exit 2.
#   tests/tools/test_check_layers.sh REPO
set -euo pipefail
repo="$1"
check="$repo/tools/check_layers"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/src" "$work/src"
cp "$repo/DEVELOPING.md" "$work/DEVELOPING.md"

fail() { echo "FAIL: $*"; exit 1; }

run() {  # run the checker on the copy; sets rc and out
  set +e
  out="$(/usr/bin/python3 "$check" --root "$work" 2>&1)"
  rc=$?
  set -e
}

run
[ "$rc" -eq 0 ] || fail "the unchanged copy should pass, got exit $rc: $out"

header="$work/src/spatial/spatial.h"
cp "$header" "$work/spatial.h.orig"
line=$(( $(wc -l < "$header") + 1 ))
echo '#include "app/exit_codes.h"' >> "$header"
run
echo "$out"
[ "$rc" -eq 1 ] || fail "an upward include should give exit 1, got $rc"
expected="src/spatial/spatial.h:$line: error: '#include \"app/exit_codes.h\"' points up: spatial is below app"
grep -qxF "$expected" <<<"$out" || fail "expected the line: $expected"
[ "$(grep -c ': error: ' <<<"$out")" -eq 1 ] || fail "expected exactly one upward include reported"

# Includes within a layer and downwards are fine: dynamics → spatial, spatial → spatial.
cp "$work/spatial.h.orig" "$header"
echo '#include "spatial/rotation.h"' >> "$work/src/dynamics/model.h"
run
[ "$rc" -eq 0 ] || fail "a downward include should pass, got exit $rc: $out"

mkdir "$work/src/newlayer"
echo '#pragma once' > "$work/src/newlayer/thing.h"
run
echo "$out"
[ "$rc" -eq 2 ] || fail "a folder without a place in the order should give exit 2, got $rc"
grep -q "without a place in the order: newlayer" <<<"$out" || fail "expected the unplaced folder to be named"
echo "check_layers: passes the tree, names an upward include by file and line, refuses an unplaced folder"
