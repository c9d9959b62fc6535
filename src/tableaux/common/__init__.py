"""Ground-floor helpers that several floors share and that know nothing of solitaire.

:mod:`.intervals` gives Wilson intervals and percentiles (surveys and the chance to win report them) and
:mod:`.watchdog` makes worker processes end when their parent is gone (survey workers, the web's solver
pool and server workers). :mod:`.version` is the build's version, which survey rows record.
"""
