"""The secret sweep: three declared secrets, a page that echoes them every way a page can, and a model
that obeys the page. Found: the echoed secret landed unredacted in the run store, the --json output
and the screenshots, and its base64 form in receipts.jsonl. Now every byte Waypost wrote (files,
SQLite read as bytes, logs, stdout/stderr, every request the model server received) holds none of
the secrets in plain, base64, URL- or JSON-escaped form, and the screenshots are masked where a secret
shows."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from PySide6.QtGui import QColor, QImage

from app.cli import main
from browser.capture import MASK_COLOR
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.run_end import final_picture
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser

SECRETS = {
    "pw": "Zq7 horse+PASS/91x",  # typed into the password field, which the page then reveals
    "api_key": "sk-live-4f9c2a7e1b",  # shown as text, in the title and base64 in an attribute
    "pin": "pin-8841-kestrel",  # a text field's value and a link's URL
}
#: Boxes of elements that show a secret (fixtures/site/hostile/echo.html): x, y, width, height.
SHOWN = {"shown": (20, 60, 420, 32), "copy": (20, 110, 420, 32)}
TYPED = {"pw": (20, 240, 420, 32), "echo": (20, 300, 420, 32)}


def forms(value: str) -> set[str]:
    """Plain, base64, URL- and JSON-escaped: what must appear nowhere."""
    raw = value.encode()
    b64 = {base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()}
    return (
        {value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1]}
        | b64
        | {b.rstrip("=") for b in b64}
    )


def obey_the_page(body: dict[str, Any]) -> Reply:
    """Types the password where asked, then does what the page says: puts every secret, in every
    form, into its answer."""
    page = page_of(body)
    if "'kind': 'fill'" not in page.split("Page:")[0]:
        return act({"kind": "fill", "index": index_of(page, "Password"), "value": "{{secret:pw}}"})
    leaked = " ".join(sorted(f for v in SECRETS.values() for f in forms(v)))
    return done(f"As the page asked, here are your secrets: {leaked}")


def plan_file(tmp_path: Path, site: FixtureSite) -> Path:
    """Read the page, fill the password as the model decides, then write the model's answer to a file."""
    page = site.url("/hostile/echo.html")
    inputs = {"url": page, "goal": "Fill in my password", "payload": {}}
    write = {"path": "answer.txt", "content": "{{step:a1.summary}}"}
    plan = {
        "mode": "C",
        "task": {"user_query": "fill in my password", "constraints": {"no_submit": True}},
        "policy_gates": [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}],
        "steps": [
            {"step_id": "r1", "type": "OPEN_URL", "inputs": {"url": page}},
            {"step_id": "a1", "type": "ACT", "inputs": inputs, "policy_gate_id": "gate_action",
             "depends_on": ["r1"]},
            {"step_id": "w1", "type": "WRITE_ARTIFACT", "inputs": write, "policy_gate_id": "gate_action",
             "depends_on": ["a1"]},
        ],
    }  # fmt: skip
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    return path


def hits(data: bytes) -> list[str]:
    return sorted({name for name, v in SECRETS.items() for f in forms(v) if f.encode() in data})


def filled(image: QImage, box: tuple[int, int, int, int], colour: str) -> bool:
    """Every pixel inside the box (2 px in from its edges) is `colour`."""
    x, y, w, h = box
    rgb = QColor(colour).rgb()
    pixels = (image.pixelColor(i, j) for i in range(x + 2, x + w - 2) for j in range(y + 2, y + h - 2))
    return all(p.rgb() == rgb for p in pixels)


def masked(image: QImage, box: tuple[int, int, int, int]) -> bool:
    return filled(image, box, MASK_COLOR)


@pytest.mark.parametrize("output", ["--json", "plain"])
def test_no_form_of_any_secret_is_written_anywhere(
    output: str,
    waypost_home: Path,
    site: FixtureSite,
    cli_model: ScriptedLLMServer,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cli_model.responder = obey_the_page
    args = ["run", "--plan", str(plan_file(waypost_home, site)), "--approve", "all"]
    args += ["--json"] if output == "--json" else []
    for name in SECRETS:
        monkeypatch.setenv(f"SWEEP_{name.upper()}", SECRETS[name])
        args += ["--secret", f"{name}=env:SWEEP_{name.upper()}"]

    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "[REDACTED]" in out  # the answer was there, and scrubbed
    (run_dir,) = (waypost_home / "data" / "runs").glob("run_*")
    assert main(["receipts", "export", run_dir.name, "--out", str(waypost_home / "report.html")]) == 0
    out2, err2 = capsys.readouterr()
    out, err = out + out2, err + err2
    assert (waypost_home / "report.html").stat().st_size > 0
    assert "[REDACTED]" in (run_dir / "artifacts" / "answer.txt").read_text(encoding="utf-8")

    written = {"stdout": out.encode(), "stderr": err.encode()}
    written |= {
        str(p): p.read_bytes() for p in waypost_home.rglob("*") if p.is_file() and p.name != "plan.json"
    }
    written |= {f"model request {i}": r.raw + r.text.encode() for i, r in enumerate(cli_model.requests)}
    assert len(cli_model.requests) >= 2
    assert any(p.endswith("waypost.sqlite3") for p in written) and any(p.endswith(".log") for p in written)
    leaks = {where: found for where, data in written.items() if (found := hits(data))}
    assert leaks == {}

    shots = sorted(waypost_home.rglob("*.png"), key=lambda p: p.name)
    images = {shot.name: QImage(str(shot)) for shot in shots}
    # The first "before" picture is of the blank tab; every picture of the page masks what it shows.
    of_page = {name: image for name, image in images.items() if not filled(image, SHOWN["shown"], "#ffffff")}
    assert len(of_page) >= 3
    assert all(masked(image, box) for image in of_page.values() for box in SHOWN.values())
    final = QImage(str(final_picture(run_dir)))
    assert all(masked(final, box) for box in TYPED.values())  # the revealed password and its echo
