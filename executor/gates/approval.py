"""ApprovalPolicy apart from the run contracts (executor/models.py uses it): the CLI's parser
offers its values, and `waypost --help` must not build the contracts' schemas to list three words
(docs/architecture.md, "Cold start")."""

from __future__ import annotations

from enum import StrEnum


class ApprovalPolicy(StrEnum):
    """How NEED_CONFIRM is answered: ask a person, approve every gate, or deny every gate.

    `all` approves gates but never lifts a gate's blocked_actions (e.g. submit under no_submit).
    """

    ASK = "ask"
    ALL = "all"
    NONE = "none"
