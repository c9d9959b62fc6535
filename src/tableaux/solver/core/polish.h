/*
 * The polish at native speed (polish.c): the greedy best-first search of tableaux/solver/shortest.py's `polish`
 * for King Albert's games, its reference, which tests/solver/test_lines_core.py holds it to (the same line from the
 * same line and budget).
 */
#ifndef TABLEAUX_POLISH_H
#define TABLEAUX_POLISH_H

#include "game.h"

/* A line from `start` no longer than `line` (n moves, a win): the search from `start` ordered by g + weight * h
 * (h: the game's lower bound on the moves left), keeping only lines shorter than the best in hand. With
 * `restricted`, over the first pass's restricted moves with its greedy moves home made at once; without, over every
 * move the complete search keeps (cards taken back off the foundations too) with its safe moves made at once. It
 * stops once its best line has at most `enough` moves (0: never), after the position whose moves found it; or after
 * `max_nodes` positions, with `max_held` positions held, or at tx_now() >= deadline (0: never). `*out`
 * (malloc'd, the caller frees it) holds the best line (`*nout` moves), `*made` the positions made: 0, or -2 when
 * memory ran out (nothing is written). */
int tx_polish(const Pos *start, const Move *line, int n, int weight, int restricted, int enough, long long max_nodes,
              long long max_held, double deadline, Move **out, int *nout, long long *made);

/* King Albert's lower bound on the moves a win from `p` needs (strategy/bounds.py's ka_lower_bound). */
int tx_ka_lower_bound(const Pos *p);

#endif
