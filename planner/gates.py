"""Policy gates and their blocked actions: what an ACT step may never do without a person's yes.

The base list blocks every irreversible action the task did not ask for; `no_submit` keeps
"submit" blocked on every gate except the login gate (signing in needs its form sent).
"""

from __future__ import annotations

from planner._text import Text
from planner.models import GateKind, PolicyGate, TaskSpecV1
from planner.task_signals import read_flags

#: Actions the browser layer refuses unless a gate allows them (order kept stable for goldens).
IRREVERSIBLE_ACTIONS: tuple[str, ...] = ("submit", "purchase", "delete")

#: The browser action each final-step gate kind stands for.
ACTION_OF_KIND: dict[GateKind, tuple[str, ...]] = {
    GateKind.SUBMIT: ("submit",),
    GateKind.SEND: ("submit",),
    GateKind.PAYMENT: ("submit", "purchase"),
    GateKind.PURCHASE: ("submit", "purchase"),
    GateKind.DELETE: ("submit", "delete"),
    GateKind.LOGIN: ("submit",),
}

_REASONS: dict[tuple[GateKind, str], str] = {
    (GateKind.ACTION, "en"): "About to act on the page ({what}). Confirm first; {blocked} {stay} blocked.",
    (GateKind.ACTION, "vi"): "Sắp thao tác trên trang ({what}). Xác nhận trước; {blocked} vẫn bị chặn.",
    (GateKind.LOGIN, "en"): "About to sign in ({what}) with your stored credentials. Confirm first.",
    (GateKind.LOGIN, "vi"): "Sắp đăng nhập ({what}) bằng thông tin bạn đã cung cấp. Xác nhận trước.",
    (GateKind.SUBMIT, "en"): "About to submit ({what}). This sends data to the site. Confirm first.",
    (GateKind.SUBMIT, "vi"): "Sắp gửi form ({what}); dữ liệu sẽ được gửi đi. Xác nhận trước.",
    (GateKind.SEND, "en"): "About to send ({what}). Confirm first.",
    (GateKind.SEND, "vi"): "Sắp gửi ({what}). Xác nhận trước.",
    (GateKind.PAYMENT, "en"): "About to pay ({what}). Money will move. Confirm first.",
    (GateKind.PAYMENT, "vi"): "Sắp thanh toán ({what}). Xác nhận trước.",
    (GateKind.PURCHASE, "en"): "About to purchase ({what}). Confirm first.",
    (GateKind.PURCHASE, "vi"): "Sắp mua ({what}). Xác nhận trước.",
    (GateKind.DELETE, "en"): "About to delete ({what}). This cannot be undone. Confirm first.",
    (GateKind.DELETE, "vi"): "Sắp xoá ({what}); không thể hoàn tác. Xác nhận trước.",
    (GateKind.DOWNLOAD, "en"): "About to download a file ({what}) into the run folder. Confirm first.",
    (GateKind.DOWNLOAD, "vi"): "Sắp tải tệp ({what}) vào thư mục của lượt chạy. Xác nhận trước.",
}


def blocked_for(kind: GateKind, spec: TaskSpecV1) -> list[str]:
    """What stays blocked under a gate of `kind`: base list minus what that kind exists to allow."""
    allowed = set(ACTION_OF_KIND.get(kind, ()))
    blocked = [a for a in IRREVERSIBLE_ACTIONS if a not in allowed]
    if spec.constraints.no_submit and kind is not GateKind.LOGIN and "submit" not in blocked:
        blocked.insert(0, "submit")
    return blocked


def no_submit(task: TaskSpecV1 | None) -> bool:
    """ "Don't submit" holds when the task's constraints say so or its own words do: a plan that
    sets `no_submit: false` over a task saying "don't submit" cannot switch it off."""
    if task is None:
        return False
    return task.constraints.no_submit or read_flags(Text(task.user_query)).no_submit


def task_floor(task: TaskSpecV1 | None) -> list[str]:
    """What stays blocked on every gate of a run whatever the plan's gates say: a delete or a purchase
    the task's words never asked for, and "submit" under no_submit. Computed from the task, never read
    from a gate, so a plan (a file, a model's draft) can add blocked actions but never remove these."""
    flags = read_flags(Text(task.user_query)) if task is not None else None
    blocked = ["submit"] if no_submit(task) else []
    if flags is None or not flags.payment:
        blocked.append("purchase")
    if flags is None or not flags.delete:
        blocked.append("delete")
    return blocked


def make_gate(kind: GateKind, spec: TaskSpecV1, what: str, gate_id: str | None = None) -> PolicyGate:
    lang = "vi" if spec.constraints.language == "vi" else "en"
    blocked = blocked_for(kind, spec)
    template = _REASONS.get((kind, lang), _REASONS[(GateKind.ACTION, lang)])
    stay = "stay" if len(blocked) > 1 else "stays"
    reason = template.format(what=what, blocked=", ".join(blocked) or "nothing", stay=stay)
    return PolicyGate(
        gate_id=gate_id or f"gate_{kind.value}",
        kind=kind,
        requires_user_confirm=True,
        reason=reason,
        blocked_actions=blocked,
    )
