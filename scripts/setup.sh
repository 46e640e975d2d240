#!/usr/bin/env bash
# Create .venv and install ragpipe with everything it needs. Re-running is a no-op
# until pyproject.toml or this script changes.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-$(command -v python3.11 || command -v python3)}
[ -x .venv/bin/python ] || "$python" -m venv .venv
# Headless Chromium for the report-site tests (Playwright drives the system browser).
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing chromium (report-site tests)..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "The report-site tests need chromium: apt-get install chromium fonts-noto-cjk" >&2
  fi
fi
stamp=.venv/.ragpipe-installed
want=$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Installing into .venv (first run takes about two minutes)..."
  # The CPU build of torch first: otherwise sentence-transformers pulls the CUDA build (GBs).
  .venv/bin/pip install --quiet --disable-pip-version-check torch==2.13.0
  .venv/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
  echo "$want" > "$stamp"
fi
