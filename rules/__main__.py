"""python -m rules: see rules.cli."""

import sys

from .cli import main

sys.exit(main())
