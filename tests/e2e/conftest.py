"""CLI tests run `waypost` in-process with its config and data folders inside tmp_path
(the `waypost_home` fixture, tests/support/home_fixtures.py)."""
