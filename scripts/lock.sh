#!/usr/bin/env bash
# Refreshes requirements/lock.txt (what ./waypost.sh installs) and requirements/lock-test.txt (what
# ./run-tests.sh and CI install): every package pinned, with the sha256 of each of its files.
# Resolved for CPython 3.11 on Linux x86_64 (glibc 2.36, as CI and the developers' machines), with the
# build backend the editable install needs (change --python-version with WAYPOST_LOCKED_PYTHON in
# scripts/bootstrap.sh; a test checks they agree). Pass --upgrade to move every pin to the newest release
# pyproject.toml allows (or --upgrade-package NAME for one). Run it after changing a dependency in
# pyproject.toml, then commit both files. Needs uv (pip install uv) or set UV to its path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
uv="${UV:-uv}"
cd "$root"
compile() {
  # $1: output file; further arguments go to uv pip compile.
  local out="$1"; shift
  "$uv" pip compile pyproject.toml requirements/build.in \
    --python-version 3.11 \
    --python-platform x86_64-manylinux_2_36 \
    --generate-hashes \
    --no-emit-package waypost \
    --custom-compile-command "scripts/lock.sh" \
    --output-file "$out" \
    "$@"
}
compile requirements/lock.txt "$@"
compile requirements/lock-test.txt --extra test "$@"
