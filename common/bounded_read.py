"""Reading a file with a ceiling on its size (docs/architecture.md, "Faults (every run ends, says why,
and can be resumed)").

A path a person hands in can be anything: `--plan /dev/zero` read 22.7 GB before the kernel killed
the process. So every file Waypost reads goes through here with a limit for its kind; one byte past
the limit stops the read with a sentence naming the file and the limit. Devices, pipes and files
that grow while they are read are covered alike: nothing is trusted from `stat`.

Text is read as UTF-8, a leading byte order mark dropped (editors on some systems write one).
"""

from __future__ import annotations

from pathlib import Path

MIB = 1024 * 1024

#: Ceilings per kind of file. A 10,000-step plan is about 3 MiB.
PLAN_BYTES = 32 * MIB
SUITE_BYTES = 32 * MIB
SETTINGS_BYTES = 1 * MIB
KEY_BYTES = 64 * 1024
RUN_JSON_BYTES = 64 * MIB
AUDIO_BYTES = 64 * MIB
#: A run folder's receipts.jsonl: a 10,000-step run writes well under 100 MiB.
RECEIPTS_BYTES = 512 * MIB
#: A screenshot, a snapshot, a document of the local search folder, a batch's journal.
FILE_BYTES = 64 * MIB
#: Small notes Waypost writes beside its files (a gate preview's note, a signature envelope).
NOTE_BYTES = 1 * MIB


class FileTooLarge(ValueError):
    """The file holds more than its kind may; the message names the file and the limit."""


def _limit_words(limit: int) -> str:
    return f"{limit / MIB:g} MiB" if limit >= MIB else f"{limit // 1024} KiB"


def read_bytes(path: Path | str, limit: int, *, what: str = "file") -> bytes:
    """The whole file, or FileTooLarge once it passes `limit` bytes. OSError as `open` raises it."""
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(f"{what} {path} is larger than {_limit_words(limit)}, the most a {what} may hold")
    return data


def read_text(path: Path | str, limit: int, *, what: str = "file") -> str:
    """The file as UTF-8 text (a leading byte order mark dropped). UnicodeDecodeError for other bytes."""
    return read_bytes(path, limit, what=what).decode("utf-8-sig")


def read_text_or(error: type[Exception], path: Path | str, limit: int, *, what: str) -> str:
    """As `read_text`, with every way it fails (too large, unreadable, not UTF-8) an `error` whose
    message names the file: the one exception a caller's command turns into a sentence."""
    try:
        return read_text(path, limit, what=what)
    except FileTooLarge as exc:
        raise error(str(exc)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {what} {path}: {exc}") from exc
