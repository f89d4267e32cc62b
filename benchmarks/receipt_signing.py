"""Signed receipts cost figures: what signing adds to a run's end, and what a full check costs.

Records a run of N actions (two ~48 KB screenshots each) with and without a signer and prints the
median time of finish() for each (signing hashes every file of the folder once more), then the
median time of the chain check alone (`verify`) and of the full verdict (`check_run`: chain,
signature and every file), over several repeats; last, the signed-files check alone, hashing every
file again versus reusing the digests the chain check computed (what check_run does).
Run: .venv/bin/python -m benchmarks.receipt_signing [--actions 300] [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.receipts_verify import noisy_png
from receipts.attest import OWN_LABEL, TrustedKey, check_run
from receipts.interface import Capture
from receipts.keys import InstallKey
from receipts.recorder import JsonlRecorder
from receipts.signing import manifest
from receipts.verify import verify


def _capture(state: int, shot: bytes) -> Capture:
    return Capture(f"http://127.0.0.1/{state}", "Page", hashlib.sha256(b"%d" % state).hexdigest(), shot)


async def finish_ms(run_dir: Path, actions: int, signer: InstallKey | None) -> float:
    """Records the run, then times finish() alone."""
    shots = [noisy_png(i) for i in range(8)]
    rec = await JsonlRecorder.open(run_dir, fsync=False, signer=signer)
    for i in range(actions):
        await rec.record_action(
            action={"kind": "click", "target": {"role": "button", "name": f"Next {i}"}},
            outcome={"status": "ok"}, before=_capture(i * 2, shots[i % 8]),
            after=_capture(i * 2 + 1, shots[(i + 3) % 8]), step_id="s1",
        )  # fmt: skip
    start = time.perf_counter()
    await rec.finish("SUCCESS")
    return (time.perf_counter() - start) * 1000


def _median_ms(call: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def main(actions: int, repeats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        key = InstallKey(root / "keys" / "receipts-ed25519.pem")
        trusted = [TrustedKey(key.load().public, OWN_LABEL)]
        plain = [await finish_ms(root / f"plain{i}", actions, None) for i in range(repeats)]
        signed = [await finish_ms(root / f"signed{i}", actions, key) for i in range(repeats)]
        files = sum(1 for p in (root / "signed0").rglob("*") if p.is_file())
        print(f"{actions} actions, {files} files in the run folder, medians of {repeats}")
        print(f"finish() unsigned: {statistics.median(plain):7.1f} ms")
        print(f"finish() signed:   {statistics.median(signed):7.1f} ms")
        run = root / "signed0"
        chain = _median_ms(lambda: verify(run), repeats)
        full = _median_ms(lambda: check_run(run, trusted), repeats)
        assert check_run(run, trusted).ok
        print(f"verify (chain and vouched files): {chain:7.1f} ms")
        print(f"check_run (chain, signature, every file): {full:7.1f} ms  ratio {full / chain:.2f}")
        digests = verify(run).digests  # what check_run's chain check already hashed
        again = _median_ms(lambda: manifest(run), repeats)
        reused = _median_ms(lambda: manifest(run, known=digests), repeats)
        print(f"signed-files check, hashing every file: {again:7.1f} ms; reusing the chain's digests: "
              f"{reused:7.1f} ms")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.actions, args.repeats))
