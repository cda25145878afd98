"""``python -m tavla_pi.cli``."""

import sys

from tavla_pi.cli import main

sys.exit(main())
