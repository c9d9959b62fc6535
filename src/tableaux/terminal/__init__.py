"""Playing in the terminal.

:mod:`.line` is the line mode: the board drawn with ``rich``, moves typed in the notation, one command a
line. :mod:`.advice` answers ``chance``, ``hint``, ``giveup`` and ``lost?``; :mod:`.help` writes the help
text; :mod:`.unfinished` keeps games in progress so that ``tableaux play --resume`` reopens them.
"""
