"""``python -m spia_core``."""

import sys

from spia_core.cli import main

sys.exit(main())
