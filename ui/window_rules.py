"""Plain rules the main window applies (no widgets): budget caps from the settings, what a Save changed,
and a default size that fits the screen. Kept apart so they are testable without a window."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize

if TYPE_CHECKING:
    from planner.models import ExecutionPlan


def cap_budget(plan: ExecutionPlan, settings: Mapping[str, Any]) -> ExecutionPlan:
    """The plan with its budget lowered to the settings' caps (never raised)."""
    from planner.models import Budget  # loaded with the core that made the plan

    budget = plan.budget
    caps = {k: settings[k] for k in ("max_time_ms", "max_tool_calls", "max_tokens") if settings.get(k)}
    lowered = {k: min(getattr(budget, k), int(v)) for k, v in caps.items()}
    if all(getattr(budget, k) == v for k, v in lowered.items()):
        return plan
    return plan.model_copy(update={"budget": Budget(**{**budget.model_dump(), **lowered})})


MIN_WIDTH = 800

_SETTING_NAMES = {
    "model": "model", "base_url": "base URL", "api_key": "API key", "planner": "planner",
    "safe_mode": "safe mode", "headless": "headless browser", "search_provider": "search provider",
    "search_url": "search URL", "runs_dir": "runs folder", "max_time_ms": "time cap",
    "max_tool_calls": "tool-call cap", "max_tokens": "token cap", "llm_timeout_s": "model call timeout",
    "planning_deadline_s": "planning deadline",
}  # fmt: skip


def changed_settings(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The names (in people's words) of the settings a Save changed; an entered API key counts."""
    keys = [k for k in after if k != "api_key" and before.get(k) != after.get(k)]
    keys += ["api_key"] if after.get("api_key") else []
    return [_SETTING_NAMES.get(k, k.replace("_", " ")) for k in keys]


def default_size(available: QSize) -> QSize:
    """1280x800 where it fits; else the available screen less a margin (title bar, panels)."""
    width = max(MIN_WIDTH, min(1280, available.width() - 40))
    height = max(560, min(800, available.height() - 60))
    return QSize(width, height)


def saved_words(changed: list[str], busy: bool) -> str:
    """What a Save did, and from when it counts."""
    if not changed:
        return "Settings saved: nothing changed."
    when = "when the current run ends" if busy else "from the next run"
    return f"Settings saved: {', '.join(changed)} changed; in effect {when}."
