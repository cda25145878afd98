"""``python -m tavla_pi``: the same as the ``tavla-pi`` command."""

import sys

from tavla_pi.cli import main

sys.exit(main())
