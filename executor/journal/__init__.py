"""The run journal, its subscribers, the event bus and the run's log lines."""
