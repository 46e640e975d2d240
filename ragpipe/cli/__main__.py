"""`python -m ragpipe.cli`."""

import sys

from ragpipe.cli import main

sys.exit(main())
