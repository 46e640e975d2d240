#!/usr/bin/env bash
# Create .venv and install ragpipe with everything it needs. Re-running is a no-op
# until pyproject.toml or this script changes.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-$(command -v python3.11 || command -v python3)}
[ -x .venv/bin/python ] || "$python" -m venv .venv
stamp=.venv/.ragpipe-installed
want=$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Installing into .venv (first run takes about two minutes)..."
  # The CPU build of torch first: otherwise sentence-transformers pulls the CUDA build (GBs).
  .venv/bin/pip install --quiet --disable-pip-version-check torch==2.13.0
  .venv/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
  echo "$want" > "$stamp"
fi
