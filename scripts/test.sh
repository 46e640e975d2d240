#!/usr/bin/env bash
# Set up, then run the test suite (it starts its own PostgreSQL on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/pytest "$@"
