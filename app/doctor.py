"""`waypost doctor`: is this machine ready? Chromium, Qt (app/doctor_qt.py), fonts, the model endpoint,
the runs folder, the stores (app/doctor_stores.py)."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from app.settings import Settings
from browser.discovery import ChromiumNotFound
from browser.driver import PlaywrightDriver
from browser.options import LaunchOptions
from common.secrecy import redact_url_credentials
from planner.llm_probe import probe
from planner.llm_speed import advise

_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", str(Path.home() / ".fonts"))


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


async def check_chromium(settings: Settings) -> Check:
    """Launches the browser Waypost would use and opens a blank page: finding a binary is not enough."""
    options = LaunchOptions(headless=True, executable=settings.browser_path, cdp_url=settings.cdp_url)
    try:
        async with await PlaywrightDriver.launch(options) as driver:
            return Check("chromium", True, f"launched; page at {driver.url}")
    except ChromiumNotFound as exc:
        return Check("chromium", False, str(exc), "apt-get install -y chromium")
    except OSError as exc:
        return Check("chromium", False, f"launch failed: {exc}", "check WAYPOST_BROWSER / WAYPOST_CDP_URL")


def check_fonts() -> Check:
    fonts = [p for d in _FONT_DIRS if Path(d).is_dir() for p in Path(d).rglob("*.[ot]tf")]
    if not fonts:
        return Check(
            "fonts",
            False,
            "no TrueType/OpenType fonts: text renders as boxes",
            "apt-get install -y fonts-dejavu-core",
        )
    return Check("fonts", True, f"{len(fonts)} font files")


async def check_model(settings: Settings) -> Check:
    """One tiny chat request, then the structured-output mode, image input and the endpoint's speed
    (planner.llm_probe), and which deadlines that speed needs (planner.llm_speed)."""
    from app.wiring import llm_settings

    llm = llm_settings(settings)
    if llm is None:
        return Check("model", True, "no model configured: the rule-based planner serves (offline)")
    report = await probe(llm)
    if not report.answers:
        if report.reason == "timeout":
            return Check(
                "model",
                False,
                f"{report.endpoint}: model {llm.model} took the request but gave no answer within the "
                f"{settings.llm_timeout_s:.0f} s call timeout: the server is stalled or too slow",
                "check the server's load and log; a slow local model needs a longer timeout "
                "(WAYPOST_MODEL_TIMEOUT_S), the rules serve meanwhile",
            )
        return Check(
            "model",
            False,
            f"{report.endpoint}: model {llm.model} did not answer a chat request: {report.detail}",
            "check OPENAI_BASE_URL / OPENAI_API_KEY / WAYPOST_MODEL",
        )
    images = "accepts images" if report.images else "text only (no images)"
    structured = f"structured output: {report.structured_output}"
    head = f"{report.endpoint} answers with model {llm.model}; {structured}; {images}"
    if report.speed is None:
        return Check("model", True, f"{head}; its speed could not be measured (no streamed reply)")
    words, fixes = advise(report.speed).sentences(settings.planning_deadline_s, settings.llm_timeout_s)
    return Check("model", not fixes, f"{head}; speed: {words}", "set " + " and ".join(fixes) if fixes else "")


def check_runs_dir(settings: Settings) -> Check:
    path = Path(settings.runs_dir).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".doctor-probe"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return Check("runs_dir", False, f"{path}: {exc}", "set WAYPOST_RUNS_DIR to a writable folder")
    free = shutil.disk_usage(path).free // 2**20
    return Check("runs_dir", True, f"{path} writable, {free} MiB free")


def check_keyring() -> Check:
    """Says plainly when the window's API key cannot be kept between sessions."""
    from app.settings import keyring_available

    if keyring_available():
        return Check("keyring", True, "an OS keyring keeps the API key between sessions")
    return Check(
        "keyring",
        True,
        "no OS keyring backend: an API key typed in the window is used for this session only, not kept",
        "set OPENAI_API_KEY in the environment, or install a keyring backend",
    )


async def run_checks(settings: Settings) -> list[Check]:
    from app.doctor_qt import check_qt  # both import Check from here
    from app.doctor_stores import check_stores

    chromium, model = await asyncio.gather(check_chromium(settings), check_model(settings))
    model = replace(model, detail=redact_url_credentials(model.detail))  # user:password in a base URL
    stores = check_stores(settings.runs_dir)
    return [chromium, check_qt(), check_fonts(), model, check_runs_dir(settings), check_keyring(), *stores]
