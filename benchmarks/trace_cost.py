"""What `--trace` costs a run: the median wall time of the same `waypost run` with and without a
Playwright trace, and the size of the trace.zip it leaves (a form page on the local fixture site).

Run: .venv/bin/python -m benchmarks.trace_cost [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from app.cli import main
from tests.support.site import FixtureSite


def one_run(task: str, runs: Path, trace: bool) -> tuple[float, int]:
    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out):
        main(["run", task, "--approve", "all", "--json", *(["--trace"] if trace else [])])
    seconds = time.perf_counter() - started
    zip_file = runs / json.loads(out.getvalue())["run_id"] / "trace.zip"
    return seconds, zip_file.stat().st_size if zip_file.exists() else 0


def main_(repeats: int) -> None:
    home = Path(tempfile.mkdtemp(prefix="waypost-trace-bench-"))
    os.environ["WAYPOST_DATA_DIR"] = str(home / "data")
    os.environ["WAYPOST_CONFIG_DIR"] = str(home / "config")
    runs = home / "data" / "runs"
    with FixtureSite() as site:
        task = f"Fill the contact form at {site.url('/form.html')} with name Ada Lovelace, don't submit"
        figures = {trace: [one_run(task, runs, trace) for _ in range(repeats)] for trace in (False, True)}
    plain = statistics.median(s for s, _ in figures[False])
    traced = statistics.median(s for s, _ in figures[True])
    size = statistics.median(b for _, b in figures[True])
    print(f"run without trace: median {plain:.2f} s over {repeats}")
    print(f"run with trace:    median {traced:.2f} s over {repeats} (ratio {traced / plain:.2f})")
    print(f"trace.zip:         median {size / 1024:.0f} KB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    main_(parser.parse_args().repeats)
