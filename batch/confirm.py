"""`--approve ask` in a batch: a person at a terminal answers each gate, one case at a time.

Several cases run at once, so two gates may come up together; the person sees one question at a
time, each naming its case, while the other case waits at its gate (its budget clock stopped, as in
`waypost run`). Without a terminal there is no asker and a gated case pauses (NEEDS_CONFIRMATION).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from executor.gates.confirm import ConfirmAnswer, ConfirmHandler, ConfirmRequest


class CaseConfirm:
    """The asker as one case sees it: its questions wait their turn and carry the case's name."""

    def __init__(self, case: str, asker: OneAtATime) -> None:
        self.case = case
        self._asker = asker

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        return await self._asker.ask(self.case, request)


class OneAtATime:
    """Shares one person's terminal between the cases of a batch."""

    def __init__(self, asker: ConfirmHandler, announce: Callable[[str], None]) -> None:
        self._asker = asker
        self._announce = announce
        self._turn = asyncio.Lock()

    def for_case(self, case: str) -> CaseConfirm:
        return CaseConfirm(case, self)

    async def ask(self, case: str, request: ConfirmRequest) -> ConfirmAnswer:
        async with self._turn:
            self._announce(f"case {case!r} (run {request.run_id}) asks for approval:")
            return await self._asker.confirm(request)
