"""Playing in the terminal.

:mod:`.sitting` is one sitting at the table, whichever mode shows it: the commands, each returning what to
say (:mod:`.said`). Two modes show it: :mod:`.screen`, the full-screen board (Textual, with a cursor and the
mouse), and :mod:`.line`, the line mode (the board drawn with ``rich``, moves typed in the notation, one
command a line). :mod:`.advice` words chance, hints, giving up and where a game was lost; :mod:`.help` and
:mod:`.rules` write the help and the rules; :mod:`.unfinished` keeps games in progress so that
``tableaux play --resume`` reopens them, and :mod:`.record` writes down finished ones for the statistics.
"""
