#!/usr/bin/env bash
# Runs the self-test of tools/plot.py (synthetic result file -> report pages and panels).
# Usage: tests/tools/test_plot.sh [REPO_ROOT]   (default: this script's ../..)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$root"
exec /usr/bin/python3 tools/plot.py --selftest
