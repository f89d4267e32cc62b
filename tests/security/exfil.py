"""The value the socket and worker attack tests type, and the forms a page would send it in."""

from __future__ import annotations

import base64

EMAIL = "ada.lovelace.7731@example.org"
FORMS = [EMAIL.encode(), base64.b64encode(EMAIL.encode())]
