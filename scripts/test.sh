#!/usr/bin/env bash
# Set up with the test tooling, then run the test suite (it starts its own PostgreSQL on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
# Two workers, one test module each at a time (module fixtures evaluate a project once), in
# the order conftest.py gives (the slow modules first): most slow tests wait on servers,
# daemons and subprocesses, so two share the 2-core machine well.
exec .venv/bin/pytest -n "${RAGPIPE_TEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder "$@"
