"""The rules of the games, and nothing above them: cards, deal numbers, the engine and each game.

From the ground up: :mod:`.cards` (cards as small ints and their notation), :mod:`.deal` (AisleRiot's deal
numbers), :mod:`.engine` (the immutable ``State``, ``Move`` and its notation, the ``Rules`` interface),
:mod:`.king_albert` and :mod:`.eagle_wing` (one module a game, read like their rules pages) and
:mod:`.registry` (every game by name, the one place per-game knowledge lives). Nothing here imports from
another floor but :mod:`tableaux.i18n`, so the rules can be read, tested and reused alone.
"""
