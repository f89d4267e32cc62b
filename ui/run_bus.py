"""The event bus the window's runs publish on, counting what was published."""

from __future__ import annotations

from executor.journal.events import EventBus, RunEvent


class CountingBus(EventBus):
    """The run's bus, counting what was published so a gate question can wait for earlier events."""

    def __init__(self) -> None:
        super().__init__()
        self.published = 0

    def publish(self, event: RunEvent) -> None:
        self.published += 1
        super().publish(event)
