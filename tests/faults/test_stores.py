"""Broken state files: an unreadable memory store is set aside and reported; commands go on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from executor.store.memory import MEMORY_FILENAME
from executor.store.schema import STORE_FILENAME
from tests.faults.harness import act_plan, home_env, waypost, write_plan

#: Files SQLite cannot read: not a database at all, and a database header over garbage.
GARBAGE = [b"this is not a database" * 100, b"SQLite format 3\x00" + b"\xff" * 4000]


@pytest.mark.parametrize("garbage", GARBAGE)
def test_corrupt_memory_is_set_aside_and_the_command_goes_on(
    garbage: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / MEMORY_FILENAME).write_bytes(garbage)
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WAYPOST_RUNS_DIR", str(runs))
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps({"mode": "A", "plan_status": "READY", "steps": [{"step_id": "s", "type": "COMPUTE"}]})
    )
    code = main(["run", "--plan", str(plan), "--json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["run_id"] and code in {0, 1}
    assert "set aside" in err
    kept = list(runs.glob(f"{MEMORY_FILENAME}.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == garbage  # kept for a person to look at
    assert main(["plan", "Open http://127.0.0.1:9/ and read the title", "--planner", "rules", "--json"]) == 0
    assert "set aside" not in capsys.readouterr().err  # the fresh memory opens cleanly next time


def test_doctor_checks_the_stores_and_says_how_to_recover(tmp_path: Path) -> None:
    from app.doctor_stores import check_stores
    from executor.store.memory import MemoryStore

    MemoryStore.beside(tmp_path)  # a healthy memory
    assert [c.ok for c in check_stores(tmp_path)] == [True, True]
    (tmp_path / "waypost.sqlite3").write_bytes(b"not a database at all" * 50)
    store, memory = check_stores(tmp_path)
    assert not store.ok and "cannot be read" in store.detail and "mv " in store.fix
    assert memory.ok


@pytest.mark.parametrize("garbage", GARBAGE)
def test_corrupt_run_store_is_set_aside_and_reported_with_its_waiting_runs(
    garbage: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corrupt waypost.sqlite3 refused every later run until the person moved it by hand."""
    runs = tmp_path / "runs"
    for var, value in home_env(tmp_path).items():
        if var.startswith("WAYPOST_"):
            monkeypatch.setenv(var, value)
    gated = write_plan(tmp_path, act_plan("http://127.0.0.1:9/", "Click Go"), "gated.json")
    waiting = waypost(tmp_path, "run", "--plan", str(gated), "--json")  # its own process, since ended
    assert waiting.status == "NEEDS_CONFIRMATION", waiting.err  # at its gate, nobody to ask
    paused = waiting.document["run_id"]
    assert not list(runs.glob(f"{STORE_FILENAME}-*"))  # no write-ahead log left to read it from
    (runs / STORE_FILENAME).write_bytes(garbage)

    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps({"mode": "A", "plan_status": "READY", "steps": [{"step_id": "s", "type": "COMPUTE"}]})
    )
    code = main(["run", "--plan", str(plan), "--json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["run_id"] and code in {0, 1}, err
    kept = list(runs.glob(f"{STORE_FILENAME}.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == garbage  # kept for a person to look at
    assert "set aside" in err and str(kept[0]) in err, err
    assert f"{paused} (NEEDS_CONFIRMATION)" in err and "can no longer be resumed" in err, err

    assert main(["resume", paused, "--json"]) == 2  # a sentence, not a traceback
    assert paused in capsys.readouterr().err
    assert main(["plan", "Open http://127.0.0.1:9/ and read the title", "--planner", "rules", "--json"]) == 0
    assert "set aside" not in capsys.readouterr().err  # the fresh store opens cleanly next time

    from app.doctor_stores import check_stores

    store, _ = check_stores(runs)
    assert store.ok and str(kept[0]) in store.detail  # doctor shows where the old one went
