"""StepScheduler: dependency readiness plus the mode guard of all five exec modes.

Linear over a whole run: in-degree counters and a ready heap replace a rescan of every
step on every pick, so a 10,000-step plan costs O(n log n) in total, not O(n^2).

Guards (docs/architecture.md, "The five modes"):
- RESEARCH_ONLY refuses action-family steps; ACTION_ONLY refuses search/read/summarise steps;
  CLARIFY_OR_FALLBACK allows OPEN_URL, EXTRACT_DOM and one WEB_SEARCH.
- HYBRID holds every action step while a research step is unfinished (research that itself
  depends on an action is exempt: it comes after by construction).
- ACTION_THEN_RESEARCH holds every research step while an action step is unfinished (steps an
  action depends on, such as the OPEN_URL before it, are exempt).
A refused step, and every step that needs it, ends SKIPPED with a reason; optional steps that
fail or are refused do not block their dependents.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from executor.models import ExecMode, StepRunV1, StepStatus
from planner.models import Step, StepType

_ACTION_ONLY_REFUSED = frozenset(
    {
        StepType.WEB_SEARCH,
        StepType.READ_PDF,
        StepType.SUMMARIZE,
        StepType.COMPARE_SOURCES,
        StepType.RETRIEVE,
    }
)
_CLARIFY_ALLOWED = frozenset({StepType.OPEN_URL, StepType.EXTRACT_DOM})
#: Evidence-gathering steps that mode A may skip once the ledger holds enough evidence. FETCH_DATA
#: is not one: it structures pages already read (prices, packages) and fetches nothing new.
GATHERING_TYPES = frozenset(
    {
        StepType.WEB_SEARCH,
        StepType.OPEN_URL,
        StepType.EXTRACT_DOM,
        StepType.READ_PDF,
        StepType.RETRIEVE,
    }
)

_WAITING, _READY, _HELD, _RUNNING, _DONE = range(5)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A step the scheduler settled without running it (refused, blocked, or skipped early)."""

    step: Step
    status: StepStatus
    code: str
    message: str

    def as_step_run(self) -> StepRunV1:
        return StepRunV1(
            step_id=self.step.step_id,
            step_type=self.step.type_name,
            status=self.status,
            error=self.message,
            error_code=self.code,
        )


class StepScheduler:
    def __init__(
        self,
        steps: list[Step],
        mode: ExecMode,
        finished: Mapping[str, StepRunV1] | None = None,
    ) -> None:
        self.mode = mode
        self.steps = steps
        n = len(steps)
        index = {s.step_id: i for i, s in enumerate(steps)}
        self._index = index
        self._deps = [[index[d] for d in s.depends_on] for s in steps]
        self._dependents: list[list[int]] = [[] for _ in range(n)]
        for i, deps in enumerate(self._deps):
            for d in deps:
                self._dependents[d].append(i)
        self._action = [s.is_action for s in steps]
        self._state = [_WAITING] * n
        self._unmet = [0] * n
        self._ready: list[int] = []
        self._held: list[int] = []
        self._resolved: list[Resolved] = []
        self._unfinished = n
        self._gathering_skipped = False

        self._init_barriers(mode)
        self._restore(finished or {})

    def _init_barriers(self, mode: ExecMode) -> None:
        """Barrier membership, computed once: which steps count towards / wait on a barrier."""
        n = len(self.steps)
        self._barrier_member = [False] * n  # counts towards the barrier while unfinished
        self._barrier_waiter = [False] * n  # waits while the barrier count is above zero
        if mode is ExecMode.HYBRID:
            after_action = self._reachable((i for i in range(n) if self._action[i]), self._dependents)
            for i in range(n):
                self._barrier_member[i] = not self._action[i] and i not in after_action
                self._barrier_waiter[i] = self._action[i]
        elif mode is ExecMode.ACTION_THEN_RESEARCH:
            feeds_action = self._reachable((i for i in range(n) if self._action[i]), self._deps)
            for i in range(n):
                self._barrier_member[i] = self._action[i]
                self._barrier_waiter[i] = not self._action[i] and i not in feeds_action
        self._barrier = sum(self._barrier_member)

    def _restore(self, done: Mapping[str, StepRunV1]) -> None:
        """Steps an earlier leg finished are closed, and what they unblock becomes ready."""
        n, index, steps = len(self.steps), self._index, self.steps
        satisfied = [False] * n
        for step_id, run in done.items():
            pos = index.get(step_id)
            if pos is None or run.status not in (StepStatus.SUCCESS, StepStatus.FAILED, StepStatus.SKIPPED):
                continue
            self._close(pos)
            satisfied[pos] = self._satisfies(pos, run.status, run.error_code)
        refused = self._refusals()
        for i in range(n):
            if self._state[i] == _DONE:
                continue
            self._unmet[i] = sum(1 for d in self._deps[i] if not satisfied[d])
        for i in range(n):
            if self._state[i] != _DONE and i in refused:
                self._settle(i, StepStatus.SKIPPED, "refused_by_mode", refused[i], satisfied=False)
        for i in range(n):
            if self._state[i] == _DONE and not satisfied[i] and steps[i].step_id in done:
                self._block_dependents(i)
        for i in range(n):
            if self._state[i] == _WAITING and self._unmet[i] == 0:
                self._make_eligible(i)

    # --- public API ------------------------------------------------------------------------------

    def next_ready(self) -> Step | None:
        """The next runnable step in plan order, now RUNNING; None when nothing can run now."""
        while self._ready:
            i = heapq.heappop(self._ready)
            if self._state[i] == _READY:
                self._state[i] = _RUNNING
                return self.steps[i]
        return None

    def requeue(self, step: Step) -> None:
        """Puts a picked step back (the run paused at its gate)."""
        i = self._index[step.step_id]
        self._state[i] = _READY
        heapq.heappush(self._ready, i)

    def finish(self, step: Step, status: StepStatus, error_code: str | None = None) -> None:
        i = self._index[step.step_id]
        ok = self._satisfies(i, status, error_code)
        self._close(i)
        if ok:
            self._release_dependents(i)
        else:
            self._block_dependents(i)

    def skip_gathering(self, reason: str) -> None:
        """Mode A early stop: unfinished evidence-gathering steps are skipped as no longer needed."""
        if self._gathering_skipped:
            return
        self._gathering_skipped = True
        for i, step in enumerate(self.steps):
            if self._state[i] in (_WAITING, _READY, _HELD) and step.type in GATHERING_TYPES:
                self._settle(i, StepStatus.SKIPPED, "enough_evidence", reason, satisfied=True)

    def take_resolved(self) -> list[Resolved]:
        out, self._resolved = self._resolved, []
        return out

    @property
    def unfinished(self) -> int:
        return self._unfinished

    # --- internals -------------------------------------------------------------------------------

    @staticmethod
    def _reachable(starts: Iterable[int], edges: list[list[int]]) -> set[int]:
        """Every index reachable from `starts` along `edges`, not counting the starts themselves."""
        seen: set[int] = set()
        stack = [j for s in starts for j in edges[s]]
        while stack:
            j = stack.pop()
            if j not in seen:
                seen.add(j)
                stack.extend(edges[j])
        return seen

    def _refusals(self) -> dict[int, str]:
        refused: dict[int, str] = {}
        mode = self.mode
        searches = 0
        for i, step in enumerate(self.steps):
            if self._state[i] == _DONE:
                if step.type is StepType.WEB_SEARCH:
                    searches += 1
                continue
            if mode is ExecMode.RESEARCH_ONLY and self._action[i]:
                refused[i] = "RESEARCH_ONLY runs no action step"
            elif mode is ExecMode.ACTION_ONLY and step.type in _ACTION_ONLY_REFUSED:
                refused[i] = f"ACTION_ONLY does not run {step.type_name}"
            elif mode is ExecMode.CLARIFY_OR_FALLBACK and step.type not in _CLARIFY_ALLOWED:
                if step.type is StepType.WEB_SEARCH and searches == 0:
                    searches += 1
                else:
                    refused[i] = f"CLARIFY_OR_FALLBACK does not run {step.type_name}"
        return refused

    def _satisfies(self, i: int, status: StepStatus, error_code: str | None) -> bool:
        if status is StepStatus.SUCCESS:
            return True
        if status is StepStatus.SKIPPED and error_code == "enough_evidence":
            return True
        return self.steps[i].optional

    def _close(self, i: int) -> None:
        if self._state[i] in (_HELD,):
            self._held.remove(i)
        if self._state[i] != _DONE:
            self._state[i] = _DONE
            self._unfinished -= 1
            if self._barrier_member[i]:
                self._barrier -= 1
                if self._barrier == 0:
                    self._release_held()

    def _settle(self, i: int, status: StepStatus, code: str, message: str, *, satisfied: bool) -> None:
        self._close(i)
        self._resolved.append(Resolved(self.steps[i], status, code, message))
        if satisfied or self.steps[i].optional:
            self._release_dependents(i)
        else:
            self._block_dependents(i)

    def _release_dependents(self, i: int) -> None:
        for j in self._dependents[i]:
            if self._state[j] == _WAITING:
                self._unmet[j] -= 1
                if self._unmet[j] == 0:
                    self._make_eligible(j)

    def _block_dependents(self, i: int) -> None:
        stack = [i]
        while stack:
            k = stack.pop()
            for j in self._dependents[k]:
                if self._state[j] == _DONE:
                    continue
                why = f"needs {self.steps[k].step_id!r}, which did not succeed"
                self._close(j)
                self._resolved.append(Resolved(self.steps[j], StepStatus.SKIPPED, "dependency_failed", why))
                if self.steps[j].optional:
                    self._release_dependents(j)
                else:
                    stack.append(j)

    def _make_eligible(self, i: int) -> None:
        if self._barrier_waiter[i] and self._barrier > 0:
            self._state[i] = _HELD
            self._held.append(i)
        else:
            self._state[i] = _READY
            heapq.heappush(self._ready, i)

    def _release_held(self) -> None:
        held, self._held = self._held, []
        for i in held:
            if self._state[i] == _HELD:
                self._state[i] = _READY
                heapq.heappush(self._ready, i)
