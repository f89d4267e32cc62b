"""`waypost eval`: a bundled suite of goal-only tasks on local pages, to measure how well a model
(or the rule cognition, as a baseline) drives Waypost. See docs/architecture.md, "Evaluation"."""
