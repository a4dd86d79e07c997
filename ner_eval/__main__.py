"""``python -m ner_eval ...`` entry point (see :mod:`ner_eval.cli`)."""
from __future__ import annotations

import sys

from ner_eval.cli import main

if __name__ == "__main__":
    sys.exit(main())
