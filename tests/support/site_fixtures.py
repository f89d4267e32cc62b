"""Pytest fixtures for the local fixture website (filled in by the browser work)."""
