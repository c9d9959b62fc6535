"""``python -m tableaux.catalogue build|summary``: regenerate or count the shipped catalogues."""

import sys

from .build import main

sys.exit(main())
