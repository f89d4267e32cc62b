"""Pytest fixtures for the local OpenAI-compatible test server (filled in by the planner work)."""
