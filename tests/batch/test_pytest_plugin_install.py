"""The `waypost` fixture from a regular (non-editable) install of the built wheel, in a QA project that
has its own top-level `app` package: neither shadows the other (waypost_pytest.py says why)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NOT_SHIPPED = shutil.ignore_patterns(
    ".git", ".venv", "tests", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "runs"
)

QA_SUITE = """
from app.models import SHOP


def test_reads_the_home_page(waypost):
    outcome = waypost.run("Open {home} and tell me the page title")
    assert outcome.status == "SUCCESS", outcome.reason
    assert "Fixture site" in outcome.answer and SHOP == "the QA project's own app"
    assert (outcome.receipts / "receipts.jsonl").is_file() and outcome.report.is_file()
"""


def _run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding the wheel built from this checkout, installed as a regular package with no
    network: the dependencies come from this interpreter's site-packages through a .pth line (which,
    unlike a site folder, runs none of that folder's .pth files, so no editable finder comes along)."""
    work = tmp_path_factory.mktemp("wheel-install")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SHIPPED)
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", work, source)
    (wheel,) = work.glob("waypost-*.whl")
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip()
    Path(purelib, "waypost-deps.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel)
    return python


@pytest.mark.parametrize(
    "pytest_command",
    [["-m", "pytest"], ["-P", "-m", "pytest"]],
    ids=["python-m-pytest", "pytest-script"],  # -P: no working folder on sys.path, as the script runs
)
def test_a_qa_project_with_its_own_app_package_uses_the_fixture(
    installed: Path, pytest_command: list[str], waypost_home: Path, site: FixtureSite
) -> None:
    qa = waypost_home / "qa"
    (qa / "app").mkdir(parents=True)
    (qa / "app" / "__init__.py").write_text('"""The QA project\'s own app."""\n', encoding="utf-8")
    (qa / "app" / "models.py").write_text('SHOP = "the QA project\'s own app"\n', encoding="utf-8")
    (qa / "conftest.py").write_text("", encoding="utf-8")  # puts qa/ on sys.path, as a QA project's does
    (qa / "tests").mkdir()
    suite = QA_SUITE.format(home=site.url("/index.html"))
    (qa / "tests" / "test_flows.py").write_text(suite, encoding="utf-8")
    done = _run(installed, *pytest_command, "-q", "-p", "no:cacheprovider", "tests", cwd=qa)
    assert "1 passed" in done.stdout
