"""``python -m psan.tool.models`` runs :func:`psan.tool.models.cli.main`."""
import sys

from psan.tool.models.cli import main

sys.exit(main())
