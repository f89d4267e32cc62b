"""An endpoint's measured speed, and the deadlines Waypost's calls need at that speed.

`waypost doctor` streams one small request (planner/llm.py `measure_speed`): the time to the first
token gives the prompt speed, the tokens after it the generation speed. From them and the sizes of
Waypost's own calls (measured on the eval suite's prompts) follow the planning deadline and per-call
timeout to set, or the plain fact that the endpoint is too slow to plan (docs/architecture.md,
"Slow models").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from planner.metering import estimate_prompt
from planner.model_call import ModelCall

#: Sizes of Waypost's calls in tokens (prompt, reply), medians over the eval suite's 40 tasks
#: (planning) and its pages (a step decision, a grounded summary of five sources).
PLANNING_CALL = (1_050, 200)
DECISION_CALL = (750, 90)
SUMMARY_CALL = (1_300, 180)
#: Room over the estimate: load on a laptop varies more than the estimate errs.
MARGIN = 1.5
#: Past this, planning would hold the person longer than planning by the rules is worth.
LONGEST_PLANNING_DEADLINE_S = 180.0


@dataclass(frozen=True)
class SpeedSample:
    """One streamed request as measured by the client."""

    prompt_tokens: int
    completion_tokens: int
    first_token_s: float
    total_s: float
    estimated: bool = False

    @property
    def prompt_tps(self) -> float:
        return self.prompt_tokens / max(self.first_token_s, 1e-3)

    @property
    def generation_tps(self) -> float:
        after_first = max(self.completion_tokens - 1, 0)
        streaming = self.total_s - self.first_token_s
        if after_first == 0 or streaming <= 0:
            return self.completion_tokens / max(self.total_s, 1e-3)
        return after_first / streaming

    def seconds_for(self, call: tuple[int, int]) -> float:
        prompt, reply = call
        return prompt / max(self.prompt_tps, 1e-3) + reply / max(self.generation_tps, 1e-3)


class StreamTiming:
    """Times the chunks of one streamed reply as they arrive (planner/llm.py `measure_speed`)."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.first: float | None = None
        self.pieces: list[str] = []
        self.usage: Any = None

    def took(self, chunk: Any) -> None:
        self.usage = getattr(chunk, "usage", None) or self.usage
        for choice in getattr(chunk, "choices", None) or []:
            text = getattr(getattr(choice, "delta", None), "content", None)
            if text:
                self.first = self.first if self.first is not None else time.perf_counter()
                self.pieces.append(text)

    def sample(self, call: ModelCall) -> SpeedSample:
        """The measured sample; `call` gets its output, latency and tokens (estimated without usage)."""
        ended = time.perf_counter()
        call.raw_output = "".join(self.pieces)
        call.latency_ms = (ended - self.started) * 1000
        sample = SpeedSample(
            prompt_tokens=getattr(self.usage, "prompt_tokens", None) or estimate_prompt(call.messages),
            completion_tokens=getattr(self.usage, "completion_tokens", None) or len(self.pieces),
            first_token_s=(self.first or ended) - self.started,
            total_s=ended - self.started,
            estimated=self.usage is None,
        )
        call.tokens_in, call.tokens_out = sample.prompt_tokens, sample.completion_tokens
        call.estimated = sample.estimated
        return sample


@dataclass(frozen=True)
class DeadlineAdvice:
    """What the measured speed means for the settings."""

    sample: SpeedSample
    planning_s: float  # one planning call, as estimated
    decision_s: float
    summary_s: float
    planning_deadline_s: float  # to set, when planning can fit
    call_timeout_s: float
    can_plan: bool
    can_decide: bool

    def sentences(self, planning_deadline_s: float, call_timeout_s: float) -> tuple[str, list[str]]:
        """The advice in words, and the settings to change (empty when the current ones fit)."""
        s = self.sample
        speed = (
            f"prompt {s.prompt_tps:.0f} tokens/s, generation {s.generation_tps:.1f} tokens/s "
            f"(one request, {s.prompt_tokens} + {s.completion_tokens} tokens"
            + (", counts estimated" if s.estimated else "")
            + ")"
        )
        fixes: list[str] = []
        if not self.can_plan:
            plan = (
                f"too slow to plan: a plan needs about {self.planning_s:.0f} s; Waypost will plan with "
                "the rules and use the model where it can"
            )
            fixes.append("WAYPOST_PLANNER=rules (plan with the rules at once, without waiting)")
        else:
            plan = f"a plan needs about {self.planning_s:.0f} s"
            if planning_deadline_s < self.planning_deadline_s:
                plan += (
                    f"; the planning deadline of {planning_deadline_s:.0f} s is too short (plans will "
                    "fall back to the rules)"
                )
                fixes.append(f"WAYPOST_PLANNING_DEADLINE_S={self.planning_deadline_s:.0f}")
            else:
                plan += f", within the {planning_deadline_s:.0f} s planning deadline"
        step = f"a step decision about {self.decision_s:.0f} s, a summary about {self.summary_s:.0f} s"
        if not self.can_decide:
            step += " (too slow: the rules will decide the steps)"
        elif call_timeout_s < self.call_timeout_s:
            step += f"; the per-call timeout of {call_timeout_s:.0f} s is too short"
            fixes.append(f"WAYPOST_MODEL_TIMEOUT_S={self.call_timeout_s:.0f}")
        return f"{speed}; {plan}; {step}", fixes


def advise(sample: SpeedSample) -> DeadlineAdvice:
    planning = sample.seconds_for(PLANNING_CALL)
    decision = sample.seconds_for(DECISION_CALL)
    summary = sample.seconds_for(SUMMARY_CALL)
    planning_deadline = _round_up(planning * MARGIN)
    can_plan = planning_deadline <= LONGEST_PLANNING_DEADLINE_S
    longest_call = max(decision, summary, planning if can_plan else 0.0)
    return DeadlineAdvice(
        sample=sample,
        planning_s=planning,
        decision_s=decision,
        summary_s=summary,
        planning_deadline_s=planning_deadline,
        call_timeout_s=_round_up(longest_call * MARGIN),
        can_plan=can_plan,
        can_decide=decision * MARGIN <= LONGEST_PLANNING_DEADLINE_S,
    )


def _round_up(seconds: float, step: float = 5.0) -> float:
    return max(step, math.ceil(seconds / step) * step)
