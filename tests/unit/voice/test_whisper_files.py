"""The Whisper model's files: found in the installed packages, joined, and refused when they differ."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from voice.whisper_files import (
    EXPECTED,
    PACKAGES,
    Expected,
    ModelIntegrityError,
    ModelMissing,
    load_model_files,
    missing_packages,
)


def fake_packages(root: Path, prefix: str, model: bytes, config: bytes = b"{}") -> tuple[str, str]:
    """Two small packages laid out as the model wheels are (data/ with the files, model.bin split)."""
    names = (f"{prefix}_part1", f"{prefix}_part2")
    half = len(model) // 2
    for i, (name, part) in enumerate(zip(names, (model[:half], model[half:]), strict=True), start=1):
        data = root / name / "data"
        data.mkdir(parents=True)
        (root / name / "__init__.py").write_text("")
        (data / f"model.bin.part{i}").write_bytes(part)
    first = root / names[0] / "data"
    (first / "config.json").write_bytes(config)
    (first / "tokenizer.json").write_bytes(b"tokens")
    (first / "vocabulary.txt").write_bytes(b"words")
    return names


def recorded(**files: bytes) -> dict[str, Expected]:
    return {
        name.replace("_", "."): Expected(len(b), hashlib.sha256(b).hexdigest()) for name, b in files.items()
    }


@pytest.fixture
def packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_the_installed_model_matches_the_recorded_upstream_files() -> None:
    assert missing_packages() == []
    found = load_model_files()
    assert sorted(found) == sorted(EXPECTED)
    assert len(found["model.bin"]) == 145_217_532


def test_parts_are_joined_in_order_and_checked(packages: Path) -> None:
    names = fake_packages(packages, "joined_ok", b"0123456789")
    expected = recorded(
        config_json=b"{}", tokenizer_json=b"tokens", vocabulary_txt=b"words", model_bin=b"0123456789"
    )
    assert load_model_files(names, expected)["model.bin"] == b"0123456789"


def test_a_changed_byte_fails_closed_naming_the_file(packages: Path) -> None:
    names = fake_packages(packages, "tampered", b"0123456789")
    expected = recorded(
        config_json=b"{}", tokenizer_json=b"tokens", vocabulary_txt=b"words", model_bin=b"0123456788"
    )
    with pytest.raises(ModelIntegrityError, match=r"model\.bin is not the recorded one .* not loading it"):
        load_model_files(names, expected)


def test_a_changed_config_fails_closed(packages: Path) -> None:
    names = fake_packages(packages, "badconfig", b"0123456789", config=b'{"x": 1}')
    expected = recorded(
        config_json=b"{}", tokenizer_json=b"tokens", vocabulary_txt=b"words", model_bin=b"0123456789"
    )
    with pytest.raises(ModelIntegrityError, match=r"config\.json"):
        load_model_files(names, expected)


def test_a_missing_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, PACKAGES[1], None)  # as Python sees an uninstalled package
    assert missing_packages() == [PACKAGES[1]]
    with pytest.raises(ModelMissing, match=PACKAGES[1]):
        load_model_files()
