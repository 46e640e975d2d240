#!/usr/bin/env bash
# Set up with the test tooling, then run the test suite (it starts its own PostgreSQL on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
# Three workers, one test module each at a time (module fixtures evaluate a project once), in
# the order conftest.py gives (the slow modules first): most slow tests wait on servers,
# daemons and subprocesses (the daemon test spends 3 of its 9 minutes on a core), so a third
# worker fills the 2-core machine's idle time: 26 minutes against 29 with two (2026-11-26).
exec .venv/bin/pytest -n "${RAGPIPE_TEST_WORKERS:-3}" --dist loadfile --no-loadscope-reorder "$@"
