"""Help for a player: rules of thumb, fair advice that does not peek, and the hint a player asks for.

:mod:`.heuristic` ranks moves from the cards on view; :mod:`.fair` knows only what a player who does not
peek knows (chance to win, the fair hint, where a game was lost); :mod:`.hints` gives the one shape of a
hint, fair or peeking, and says which. It stands on the solver and the floors below.
"""
