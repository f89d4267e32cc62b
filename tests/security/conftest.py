"""Attack tests: each reproduces an attack as it was found and checks it now does no harm."""

from __future__ import annotations

# One shared Chromium and the act harness, as the act integration tests use them.
from tests.integration.act.conftest import act_harness as act_harness
from tests.integration.act.conftest import chromium as chromium
