"""`python -m benchmarks` lists the benchmark scripts; run one with `python -m benchmarks.NAME`."""

from pathlib import Path

for path in sorted(Path(__file__).parent.glob("*.py")):
    if not path.name.startswith("_"):
        print(f"python -m benchmarks.{path.stem}")
