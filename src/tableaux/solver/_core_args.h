/*
 * The Python values tableaux.solver._core reads and answers, and the core's records they stand for (_core_args.c).
 * Cards are bytes as in cards.py: suit * 13 + rank - 1, plus DOWN (64) while face down; a position is its piles,
 * bottom to top, indexed as in the games' pile_names, with Eagle Wing's redeal count; a move is (source, count,
 * target). Each read returns 0 (or the record), or -1 (or NULL) with a Python exception saying what was wrong.
 */
#ifndef TABLEAUX_CORE_ARGS_H
#define TABLEAUX_CORE_ARGS_H

#include <Python.h>

#include "core/game.h"

/* The core's number for a game: 0 King Albert, 1 classic, 2 Eagle Wing. */
int tx_py_game(PyObject *obj, int *game);

/* A position of `game` from its piles and redeal count, hashed. */
int tx_py_position(int game, PyObject *piles, long redeals, Pos *p);

/* A position as Python's (piles, redeals): a tuple of tuples of card bytes, and the count. */
PyObject *tx_py_from_position(const Pos *p);

/* A move as Python's (source, count, target). */
PyObject *tx_py_from_move(Move m);

/* A move that is legal in `p` (one the rules generate there). */
int tx_py_move(const Pos *p, PyObject *obj, Move *m);

/* A line of moves as Move records (malloc'd, the caller frees it), each naming piles of the position's game, `*n`
 * of them; whether they are legal is the caller's to check. */
Move *tx_py_line(const Pos *p, PyObject *obj, Py_ssize_t *n);

/* The moves as a Python list of (source, count, target), and `extra` (a count of positions), as a pair. */
PyObject *tx_py_from_line(const Move *moves, int n, long long extra);

#endif
