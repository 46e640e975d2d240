#!/usr/bin/env bash
# Set up with the test tooling, then run the test suite (it starts its own PostgreSQL on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
exec .venv/bin/pytest "$@"
