#!/usr/bin/env bash
# Runs every check: ruff, mypy and the whole pytest suite (real Chromium, offscreen Qt).
# Sets up .venv and system packages on first use; extra arguments go to pytest.
source "$(dirname "$0")/scripts/bootstrap.sh"
waypost_system_deps test
waypost_venv test
cd "$WAYPOST_ROOT"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
"$WAYPOST_VENV/bin/ruff" check .
"$WAYPOST_VENV/bin/ruff" format --check .
"$WAYPOST_VENV/bin/mypy" app ui planner executor browser receipts common voice evals batch benchmarks tests
exec "$WAYPOST_VENV/bin/python" -m pytest "$@"
