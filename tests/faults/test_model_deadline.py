"""A slow model cannot hold planning: its calls share one deadline (a setting), the call cut at it is
counted, and the run's own time budget starts when execution starts.

The real openai client against the local OpenAI-compatible test server, whose replies are held (a
model that never finishes answering). Without the deadline, planning waited timeout x retries.
"""

from __future__ import annotations

import threading
import time

from executor.run.budget import BudgetEnforcer
from planner.llm_settings import LLMSettings
from planner.service import make_plan
from tests.support.llm_server import Reply, ScriptedLLMServer


async def test_a_slow_model_falls_back_at_the_planning_deadline_and_its_call_is_counted(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    held = threading.Event()  # released by the server fixture at the end
    llm_server.script(*[Reply(content="{}", wait=held) for _ in range(6)])
    settings = llm_settings.model_copy(update={"planning_deadline_s": 1.5})  # per call: 5 s, 2 retries

    started = time.monotonic()
    result = await make_plan("Open http://127.0.0.1:9/ and read the title", planner="auto", llm=settings)
    took = time.monotonic() - started
    held.set()

    assert result.planner_used == "rules"
    assert "LLM_FALLBACK:deadline" in result.plan.reason_codes
    assert 1500 <= result.plan.planning_ms <= took * 1000 + 1
    assert len(llm_server.chat_requests()) == 1  # cut at the deadline: no per-call timeout, no retry
    assert result.plan.planning_deadline_ms == 1500
    usage = result.plan.planning_usage
    assert usage is not None and usage.calls == 1 and usage.estimated_calls == 1
    assert usage.tokens_in > 100  # the server read the prompt: counted from what was sent
    budget = BudgetEnforcer.for_run(result.plan)
    assert budget.elapsed_ms() < result.plan.planning_ms  # planning had its own deadline
    assert budget.tokens == usage.total  # its tokens are the run's
