"""``python -m psan.tool.cli``: same as the ``psan-tool`` command."""
import sys

from psan.tool.cli import main

sys.exit(main())
