"""Makes docs/screenshot-gate.png and docs/screenshot-receipts.png from the real window.

Run under Xvfb (fake tools, no browser or network):
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/make_screenshots.py

The core runs example task C on fake tools up to its gate. Fake tools publish no browser actions,
so the page pictures (a pricing page, a signup form) are drawn here from HTML with Qt and handed
to the live view and the recorder exactly as the browser layer's screenshots will be.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtGui import QColor, QImage, QImageWriter, QPainter, QTextDocument
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from executor.checkpoint_store import CheckpointStore  # noqa: E402
from executor.events import ActionPerformed  # noqa: E402
from executor.models import StepRunV1  # noqa: E402
from executor.service import AgentCore  # noqa: E402
from receipts import Capture, JsonlRecorder, RunFolder  # noqa: E402
from tests.support.fake_tools import fake_toolbox  # noqa: E402
from ui.controller import RunController  # noqa: E402
from ui.examples import EXAMPLE_TASKS  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402

DOCS = ROOT / "docs"
SITE = "http://127.0.0.1:8765"
PRICING = """<h1 style="color:#1e3a8a">Datafeed packages</h1>
<p style="color:#475569">Market data for teams of every size. <a href="#">Terms</a></p>
<table border="1" cellpadding="12" cellspacing="0" width="100%" style="border-color:#cbd5e1">
<tr style="background:#eff6ff"><th>Package</th><th>Price / month</th><th>Symbols</th><th>Latency</th></tr>
<tr><td><b>Starter</b></td><td>$49</td><td>500</td><td>15 min</td></tr>
<tr><td><b>Growth</b></td><td>$149</td><td>5,000</td><td>real-time</td></tr>
<tr><td><b>Enterprise</b></td><td>$899</td><td>unlimited</td><td>real-time + SLA</td></tr>
</table><p style="color:#64748b">Prices exclude VAT. <a href="#">Sign up</a></p>"""


def signup(name: str = "", email: str = "", company: str = "") -> str:
    def field(label: str, value: str) -> str:
        shown = value or "&nbsp;"
        return (
            f"<p><b>{label}</b><br><table width='70%' border='1' cellpadding='8' cellspacing='0' "
            f"style='border-color:#94a3b8'><tr><td>{shown}</td></tr></table></p>"
        )

    return (
        "<h1 style='color:#1e3a8a'>Sign up for Growth</h1>"
        + field("Full name", name)
        + field("Email", email)
        + field("Company", company)
        + "<p><span style='background:#1d4ed8;color:white'>&nbsp; Create account &nbsp;</span></p>"
    )


def page_png(html: str, width: int = 1024, height: int = 640) -> bytes:
    """An HTML page drawn by Qt: stands in for a browser screenshot."""
    size = QSize(width, height)
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    doc = QTextDocument()
    doc.setDefaultStyleSheet("body { font-family: 'DejaVu Sans'; font-size: 15px; }")
    doc.setHtml(f"<body>{html}</body>")
    doc.setTextWidth(size.width() - 80)
    painter = QPainter(image)
    painter.fillRect(0, 0, size.width(), 36, QColor("#e2e8f0"))
    painter.drawText(16, 24, SITE)
    painter.translate(40, 56)
    doc.drawContents(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    QImageWriter(buffer, QByteArray(b"PNG")).write(image)
    return bytes(data.data())


async def record_demo_run(runs_dir: Path) -> Path:
    folder = RunFolder.for_run(runs_dir, "run_demo_signup").create()
    recorder = await JsonlRecorder.open(folder)
    blank = page_png(signup())
    steps: list[tuple[dict[str, Any], None, bytes, bytes, str]] = [
        ({"kind": "navigate", "url": f"{SITE}/signup"}, None, page_png(PRICING), blank, f"{SITE}/pricing"),
        (
            {"kind": "fill", "target": {"label": "Full name"}, "value": "Alice Nguyen"},
            None,
            blank,
            page_png(signup("Alice Nguyen")),
            f"{SITE}/signup",
        ),
        (
            {"kind": "fill", "target": {"label": "Email"}, "value": "alice@example.com"},
            None,
            page_png(signup("Alice Nguyen")),
            page_png(signup("Alice Nguyen", "alice@example.com")),
            f"{SITE}/signup",
        ),
        (
            {"kind": "fill", "target": {"label": "Company"}, "value": "Acme"},
            None,
            page_png(signup("Alice Nguyen", "alice@example.com")),
            page_png(signup("Alice Nguyen", "alice@example.com", "Acme")),
            f"{SITE}/signup",
        ),
    ]
    await recorder.record_gate_decision(gate_id="gate_action", decision="ALLOW", step_id="stp_a1")
    for n, (action, _, before, after, before_url) in enumerate(steps):
        target = action.get("target")
        label = target.get("label") if isinstance(target, dict) else None
        await recorder.record_action(
            action=action,
            outcome={"status": "ok"},
            before=Capture(url=before_url, title="Datafeed", dom_hash=f"{n:x}" * 64, screenshot=before),
            after=Capture(
                url=f"{SITE}/signup", title="Sign up", dom_hash=f"{n + 1:x}" * 64, screenshot=after
            ),
            step_id="stp_a1",
            target_resolved={"role": "textbox", "name": label} if label else None,
        )
    await recorder.record_action(
        action={"kind": "click", "target": {"role": "button", "name": "Create account"}},
        outcome={"status": "blocked", "message": "submit stays blocked (no_submit)"},
        step_id="stp_a1",
    )
    await recorder.finish("SUCCESS", reason="form prefilled, not submitted")
    return folder.root


async def main(tmp: Path) -> None:
    tools = fake_toolbox()
    core = AgentCore(
        store=CheckpointStore(tmp / "db.sqlite3"),
        tools=tools,
        runs_dir=tmp / "runs",
        rate_overrides={k: (1e9, 10**6) for k in tools},
    )
    window = MainWindow(RunController(core), {"safe_mode": True, "planner": "rules", "runs_dir": str(tmp)})
    window.show()
    example = EXAMPLE_TASKS[2]
    window.task_panel.use_example(example)
    window.task_panel.url_edit.setText(f"{SITE}/pricing")
    shot = tmp / "pricing.png"
    shot.write_bytes(page_png(PRICING))
    asked: asyncio.Future[object] = asyncio.get_running_loop().create_future()

    def on_gate(request: object) -> None:
        if not asked.done():
            asked.set_result(request)

    def on_step(run: StepRunV1) -> None:
        if run.step_id == "stp_r1":  # what the browser layer will publish after reading the page
            page = ActionPerformed(
                run_id="r",
                step_id="stp_r1",
                seq=1,
                action={"kind": "extract", "url": f"{SITE}/pricing"},
                status="ok",
                url=f"{SITE}/pricing",
                screenshot_path=str(shot),
            )
            window.live_view.on_action_performed(page)

    window.controller.gate_requested.connect(on_gate)
    window.controller.step_finished.connect(on_step)
    window.task_panel.run_button.click()
    await asyncio.wait_for(asked, 20)
    await asyncio.sleep(0.3)  # let the dialog lay out before grabbing (a picture, not a test)
    screen = QApplication.primaryScreen()
    screen.grabWindow(0).save(str(DOCS / "screenshot-gate.png"))
    print("wrote", DOCS / "screenshot-gate.png")
    window.controller.approve()
    await window.controller.wait_idle()
    run_dir = await record_demo_run(tmp / "runs")
    window.tabs.setCurrentWidget(window.receipts_viewer)
    window.splitter.setSizes([380, 900])  # as a person would, to see the screenshots larger
    await window.receipts_viewer.load(run_dir)
    await window.receipts_viewer.verify_chain()
    window.receipts_viewer.table.selectRow(2)
    await asyncio.sleep(0.3)
    screen.grabWindow(0).save(str(DOCS / "screenshot-receipts.png"))
    print("wrote", DOCS / "screenshot-receipts.png")
    window.close()
    await window.aclose()


if __name__ == "__main__":
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with tempfile.TemporaryDirectory() as tmp, loop:
        loop.run_until_complete(main(Path(tmp)))
