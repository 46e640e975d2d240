#!/usr/bin/env bash
# Set up, then materialize the whole asset graph for the bundled sample data (offline).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/ragpipe run "$@"
