"""Persistent browser profiles the person chooses by name (`--profile NAME`, the `profile` setting).

A run normally gets a fresh browser profile. With a profile, Chromium keeps that profile's cookies
and storage between runs (sign in to a site once, by hand or in a run), in
`<data dir>/profiles/NAME`, owner-only (0700), never inside a run folder: receipts travel, profiles
do not. Every gate and guard is the same as for a fresh profile (docs/architecture.md, "Profiles").
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from common.paths import data_dir

PROFILE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class ProfileError(ValueError):
    """A profile name that is not a plain name; exit 2 with the sentence."""


def profile_dir(name: str) -> Path:
    """The profile's folder, created owner-only (and tightened if an older one was not)."""
    if not PROFILE_NAME.match(name):
        raise ProfileError(f"profile {name!r}: use lower-case letters, digits, '_' or '-' (up to 40)")
    path = data_dir() / "profiles" / name
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path.parent, 0o700)
    os.chmod(path, 0o700)
    return path
