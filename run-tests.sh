#!/usr/bin/env bash
# Runs every check: ruff, mypy and the whole pytest suite (real Chromium, offscreen Qt), then lists the
# 15 slowest tests.
# `--fast` runs ruff, mypy and only the tests marked neither `browser` nor `slow` (tests/README.md,
# "Tiers"). Sets up .venv and system packages on first use; other arguments go to pytest.
fast=0
if [ "${1:-}" = "--fast" ]; then
  fast=1
  shift
fi
source "$(dirname "$0")/scripts/bootstrap.sh"
waypost_system_deps test
waypost_venv test
cd "$WAYPOST_ROOT"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
"$WAYPOST_VENV/bin/ruff" check .
"$WAYPOST_VENV/bin/ruff" format --check .
"$WAYPOST_VENV/bin/mypy" app ui planner executor browser receipts common voice evals batch benchmarks tests waypost_pytest.py
if [ "$fast" = 1 ]; then
  exec "$WAYPOST_VENV/bin/python" -m pytest -m "not browser and not slow" "$@"
fi
exec "$WAYPOST_VENV/bin/python" -m pytest --durations=25 "$@"
