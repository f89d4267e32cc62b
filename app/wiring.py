"""The composition root: the one place where settings become a store, tools, runners and a core."""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from app.settings import Settings, SettingsError
from browser.options import LaunchOptions
from planner.llm_settings import LLMSettings

if TYPE_CHECKING:
    from executor.research.search import SearchProvider
    from executor.run.service import AgentCore
    from executor.store.checkpoint_store import CheckpointStore
    from executor.store.memory import MemoryStore
    from executor.tools.boundary import Tool
    from executor.tools.registry import RunnerRegistry
    from planner.llm import LLMClient

# The run machinery (Playwright, the research readers) is imported inside the functions that build
# it, so `waypost plan` can use llm_settings() without loading it (docs/architecture.md, "Cold start").


def llm_settings(settings: Settings) -> LLMSettings | None:
    if not settings.llm_configured:
        return None
    return LLMSettings(
        base_url=settings.base_url,
        api_key=settings.api_key,
        model=settings.model,
        timeout_s=settings.llm_timeout_s,
        planning_deadline_s=settings.planning_deadline_s,
        images=settings.model_images,
    )


def store_path(runs_dir: Path) -> Path:
    from executor.store.schema import STORE_FILENAME

    return runs_dir / STORE_FILENAME


def search_provider(settings: Settings) -> SearchProvider:
    """The configured search: a results page in the browser (default), SearXNG, or a local folder."""
    from executor.research.defaults import DEFAULT_SEARCH_URL
    from executor.research.search import BrowserSearchProvider, LocalFolderProvider, SearxngProvider

    where = settings.search_url or ""
    if settings.search_provider == "searxng":
        if not where:
            raise SettingsError("search provider searxng needs a search URL (the instance's address)")
        return SearxngProvider(where)
    if settings.search_provider == "local":
        if not where:
            raise SettingsError("search provider local needs a search URL naming a folder")
        return LocalFolderProvider(Path(where).expanduser())
    return BrowserSearchProvider(where or DEFAULT_SEARCH_URL)


def default_tools(settings: Settings, llm: LLMClient | None) -> dict[str, Tool]:
    from executor.research.factory import research_tools

    return research_tools(search=search_provider(settings), llm=llm)


def default_registry(runs_dir: Path, llm: LLMClient | None) -> RunnerRegistry:
    """ACT-family runners: the model decides next actions when one is configured, else the rules."""
    from executor.act import act_runners
    from executor.tools.registry import RunnerRegistry
    from planner.cognition import RuleCognition
    from planner.decisions import Cognition
    from planner.llm_cognition import LLMCognition

    cognition: Cognition = LLMCognition(llm) if llm is not None else RuleCognition()
    return RunnerRegistry(act_runners(cognition=cognition, memory=_memory(runs_dir)))


def build_core(settings: Settings, *, tools: Mapping[str, Tool] | None = None) -> AgentCore:
    """A core for these settings. Tools default to the built-in set for the configured browser."""
    from executor.run.resources import RunResources
    from executor.run.service import AgentCore
    from planner.llm import LLMClient
    from receipts.keys import install_key

    freeze_loaded_code()  # before the core's own state (its store) exists: that must stay collectable
    runs_dir = Path(settings.runs_dir).expanduser()
    runs_dir.mkdir(parents=True, exist_ok=True)
    llm_config = llm_settings(settings)
    llm = LLMClient(llm_config) if llm_config is not None else None  # one client: TLS setup costs ~45 ms
    return AgentCore(
        store=_run_store(runs_dir),
        tools=dict(tools) if tools is not None else default_tools(settings, llm),
        runs_dir=runs_dir,
        registry=default_registry(runs_dir, llm),
        llm=llm_config,
        resources=lambda run_id, run_dir, secrets: RunResources(
            run_id=run_id,
            run_dir=run_dir,
            launch_options=launch_options(settings),
            secrets=secrets,
            signer=install_key(),
            trace=settings.trace,
        ),
        launch_options=launch_options(settings),
        signer=install_key(),
    )


@functools.cache  # once per process
def freeze_loaded_code() -> None:
    """Moves what the process holds now (the modules, classes and schemas a core is built from) out
    of the garbage collector's sight. They live as long as the process, and every full collection
    would walk them again: 15 to 40 µs of each step's cost (docs/architecture.md, "Per-step cost").
    Frozen objects are never collected, even once unreachable: so it runs before the core opens its
    store, whose connection must be closed when the core goes (a store left open at exit leaves its
    write-ahead log behind)."""
    gc.freeze()


def launch_options(settings: Settings) -> LaunchOptions:
    from app.profiles import profile_dir

    profile = str(profile_dir(settings.profile)) if settings.profile else None
    return LaunchOptions(
        headless=settings.headless,
        executable=settings.browser_path,
        cdp_url=settings.cdp_url,
        user_data_dir=profile,
    )


#: Statuses of runs that were waiting to be resumed (a person's answer, a new browser, more budget).
_WAITING = frozenset(
    {"INTERRUPTED", "NEEDS_CONFIRMATION", "NEEDS_CLARIFICATION", "ABORTED_BUDGET", "BLOCKED_POLICY"}
)


def _run_store(runs_dir: Path) -> CheckpointStore:
    """The run store; an unreadable one is set aside (kept), a new one started, and the person told
    where it went and which waiting runs it held (their receipts stay readable)."""
    from executor.store.checkpoint_refs import CheckpointStoreError
    from executor.store.checkpoint_store import CheckpointStore
    from executor.store.set_aside import open_or_set_aside
    from receipts.runs import list_runs

    store, aside = open_or_set_aside(store_path(runs_dir), CheckpointStore, CheckpointStoreError)
    if aside is not None:
        waiting = [f"{r.run_id} ({r.status})" for r in list_runs(runs_dir) if r.status in _WAITING]
        shown = ", ".join(waiting[:10]) + (f" and {len(waiting) - 10} more" if len(waiting) > 10 else "")
        held = f"runs it held can no longer be resumed: {shown}" if waiting else "it held no waiting runs"
        print(
            f"waypost: the run store could not be read; it was set aside as {aside} and a new one "
            f"started; {held}. Every run's receipts stay readable (waypost receipts list)",
            file=sys.stderr,
        )
    return store


def _memory(runs_dir: Path) -> MemoryStore:
    """The memory store; an unreadable one is set aside, and the person is told where it went."""
    from executor.store.memory import MemoryStore

    memory, aside = MemoryStore.beside_or_set_aside(runs_dir)
    if aside is not None:
        print(
            f"waypost: the memory file could not be read; it was set aside as {aside} "
            "and this run goes on with an empty memory",
            file=sys.stderr,
        )
    return memory
