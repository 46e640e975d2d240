#!/usr/bin/env bash
# Set up, then materialize the whole asset graph for the bundled sample data (offline).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Exit 3 means every run went through and a quality gate held a version back: the sample's
# refbot@v2 is such a finding (its leaderboard entry says why), not a failed demo.
status=0
.venv/bin/ragpipe run "$@" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || exit "$status"
