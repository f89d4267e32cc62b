"""The routing corpus and the held-out set: task phrasings (English, Vietnamese with and without
diacritics; imperative and question forms; with and without URLs) and the mode each should get.

Both live in tests/data/*.jsonl (one {"task", "mode", "url"?} object a line). `CORPUS` is what the
rules are tuned on; `HELDOUT` is never tuned on and measures how well the rules generalise. Shared
by tests/unit/planner/test_routing.py, benchmarks/routing.py and benchmarks/planner_latency.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).resolve().parents[2] / "data"


class Case(NamedTuple):
    task: str
    mode: str
    url: str | None = None


def load(name: str) -> list[Case]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [Case(r["task"], r["mode"], r.get("url")) for r in rows]


CORPUS: list[Case] = load("routing_corpus.jsonl")
HELDOUT: list[Case] = load("routing_heldout.jsonl")
#: The table every test and benchmark walks: the whole corpus.
CASES: list[Case] = CORPUS
