"""A game in progress: its history, its board as text, and its save files.

:mod:`.game` holds ``Game`` (moves played, undo and redo, restart, positions with face-down cards hidden),
:mod:`.board` draws a position as the terminal and ``str(game)`` show it, and :mod:`.saves` reads a saved
game back by replaying and checking every move. Around the game: :mod:`.reading` turns move text into a legal
move or an error that says why not, :mod:`.position` builds a position's and an observation's JSON,
:mod:`.save_file` holds a save's format mark, its error and its atomic write, and :mod:`.shapes` the
position's ``TypedDict``. It stands on the rules floor only.
"""
