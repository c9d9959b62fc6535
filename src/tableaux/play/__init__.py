"""A game in progress: its history, its board as text, and its save files.

:mod:`.game` holds ``Game`` (moves played, undo and redo, restart, positions with face-down cards hidden),
:mod:`.board` draws a position as the terminal and ``str(game)`` show it, and :mod:`.saves` reads a saved
game back by replaying and checking every move. It stands on the rules floor only.
"""
