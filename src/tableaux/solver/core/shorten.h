/*
 * The line shortening's cycles and detours at native speed (shorten.c): the same passes as
 * tableaux/solver/detours.py, its reference, which tests/solver/test_lines_core.py holds it to (the same line
 * from the same line and budget).
 */
#ifndef TABLEAUX_SHORTEN_H
#define TABLEAUX_SHORTEN_H

#include "game.h"

/* Shorten the winning `line` (n moves) from `start`, making at most `budget` positions (-1: no limit) and
 * stopping at tx_now() >= deadline (0: never); `windowed`: the passes with a window of 4 come first (WINDOWS in
 * detours.py), else only the passes without a window run. On success `*out` (malloc'd, the caller frees it) holds the
 * shortened line as moves from `start` (`*nout` of them, never more than n) and `*work` the positions made:
 * 0. -1 when the line is not a legal win from `start` (nothing is written), -2 when memory ran out. */
int tx_shorten(const Pos *start, const Move *line, int n, long long budget, double deadline, int windowed, Move **out,
               int *nout, long long *work);

#endif
