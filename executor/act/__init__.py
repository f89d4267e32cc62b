"""The ACT loop (docs/architecture.md) for ACT, FORM_FILL, CLICK_NAV, DOWNLOAD_FILE and WRITE_ARTIFACT steps.

Wiring: `RunnerRegistry(act_runners(cognition=..., memory=MemoryStore.beside(runs_dir)))`.
"""

from __future__ import annotations

from executor.act.artifact import WriteArtifactRunner
from executor.act.guards import ActStopped, LoopLimits
from executor.act.runner import ActRunner
from executor.store.memory import MemoryStore
from executor.tools.registry import StepRunner
from planner.decisions import Cognition

ACT_STEP_TYPES = ("ACT", "FORM_FILL", "CLICK_NAV", "DOWNLOAD_FILE")


def act_runners(
    *, cognition: Cognition | None = None, memory: MemoryStore | None = None, limits: LoopLimits | None = None
) -> dict[str, StepRunner]:
    """Runners for every action step type, sharing one cognition and one memory."""
    runner = ActRunner(cognition=cognition, memory=memory, limits=limits)
    runners: dict[str, StepRunner] = dict.fromkeys(ACT_STEP_TYPES, runner)
    runners["WRITE_ARTIFACT"] = WriteArtifactRunner()
    return runners


__all__ = ["ACT_STEP_TYPES", "ActRunner", "ActStopped", "LoopLimits", "WriteArtifactRunner", "act_runners"]
