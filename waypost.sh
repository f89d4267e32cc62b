#!/usr/bin/env bash
# Runs Waypost: sets up .venv and system packages on first use, then `waypost ARGS`.
# With no arguments it opens the window when a display exists, else runs the offline demo.
source "$(dirname "$0")/scripts/bootstrap.sh"
waypost_system_deps
waypost_venv ""
exec "$WAYPOST_VENV/bin/waypost" "$@"
