"""Whether a step or an action may run, and what a person is shown when asked."""
