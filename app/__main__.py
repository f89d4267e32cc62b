"""`python -m app` is `waypost`."""

import sys

from app.cli import main

sys.exit(main())
