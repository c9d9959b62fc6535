"""This build's version, kept below every floor so that any module may record it.

The package's face shows it as ``tableaux.__version__`` (and ``tableaux --version``); survey rows record it
(``version``), so that rows made by different builds, whose searches may need different budgets for the same
verdict, can be told apart.
"""

VERSION = "0.1.0"
