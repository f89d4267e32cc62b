"""`python -m app` is `waypost`."""

import sys

try:
    from app.cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules load: nothing started, nothing to resume
    print("waypost: stopped before start; nothing to resume", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
