"""The bundled demo site's address, recorded with each plan made beside it and served again on resume.

Why: the demo site prefers a fixed port but falls back to a free one when that port is busy, so a
run paused in one session may have been planned against another address than this session's. The
plan keeps the address (planner.models.ContextPack.local_site); before a resume the window asks its
site keeper to serve the site there again, or says plainly why it cannot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from planner.models import ExecutionPlan


class SiteUnavailable(RuntimeError):
    """The recorded address cannot be served again (its port is taken by another program)."""


class SiteKeeper(Protocol):
    """Serves the demo site; the real one is app/demo/sites.py."""

    @property
    def base_url(self) -> str: ...

    def serve(self, address: str) -> None:
        """Makes the site answer at `address` too, for the rest of the session; SiteUnavailable if not."""


def stamp_site(plan: ExecutionPlan, site: str | None) -> ExecutionPlan:
    """The plan with the demo site's address recorded in its context (unchanged without a site)."""
    if site is None:
        return plan
    from planner.models import ContextPack  # loaded with the core that made the plan

    context = (plan.context or ContextPack()).model_copy(update={"local_site": site})
    return plan.model_copy(update={"context": context})


def recorded_site(plan: ExecutionPlan) -> str | None:
    return plan.context.local_site if plan.context is not None else None
