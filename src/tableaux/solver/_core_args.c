/*
 * tableaux.solver._core's arguments and answers: Python's games, positions, moves and lines read into the core's
 * records, and the core's written back as Python values, each read checked and refused with a ValueError that
 * says what was wrong. _core.c, the module's functions, is built on them.
 */
#define PY_SSIZE_T_CLEAN
#include "_core_args.h"

int tx_py_game(PyObject *obj, int *game) {
    long g = PyLong_AsLong(obj);
    if (g == -1 && PyErr_Occurred()) return -1;
    if (g < 0 || g > 2) {
        PyErr_Format(PyExc_ValueError, "game must be 0 (King Albert), 1 (classic) or 2 (Eagle Wing), not %ld", g);
        return -1;
    }
    *game = (int)g;
    return 0;
}

int tx_py_position(int game, PyObject *piles, long redeals, Pos *p) {
    memset(p, 0, sizeof *p);
    p->game = game;
    p->npiles = game == GAME_EW ? EW_NPILES : KA_NPILES;
    p->redeals = (int)redeals;
    if (redeals < 0 || redeals > 255) {
        PyErr_SetString(PyExc_ValueError, "redeals out of range");
        return -1;
    }
    PyObject *seq = PySequence_Fast(piles, "piles must be a sequence of piles");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != p->npiles) {
        PyErr_Format(PyExc_ValueError, "this game has %d piles, not %zd", p->npiles, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    int total = 0;
    for (int i = 0; i < p->npiles; i++) {
        PyObject *pile = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "each pile must be a sequence of cards");
        if (!pile) {
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(pile);
        total += (int)n;
        if (n > MAXCARDS || total > MAXCARDS) {
            PyErr_SetString(PyExc_ValueError, "more than 52 cards");
            Py_DECREF(pile);
            Py_DECREF(seq);
            return -1;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(pile, j));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(pile);
                Py_DECREF(seq);
                return -1;
            }
            if (c < 0 || (c & 63) >= 52 || c >= 128) {
                PyErr_Format(PyExc_ValueError, "not a card: %ld", c);
                Py_DECREF(pile);
                Py_DECREF(seq);
                return -1;
            }
            p->c[i][j] = (uint8_t)c;
        }
        p->n[i] = (uint8_t)n;
        Py_DECREF(pile);
    }
    Py_DECREF(seq);
    if (game == GAME_EW && !p->n[EW_F0]) {
        PyErr_SetString(PyExc_ValueError, "Eagle Wing's first foundation must hold the base card");
        return -1;
    }
    tx_rehash(p);
    return 0;
}

PyObject *tx_py_from_position(const Pos *p) {
    PyObject *piles = PyTuple_New(p->npiles);
    if (!piles) return NULL;
    for (int i = 0; i < p->npiles; i++) {
        PyObject *pile = PyTuple_New(p->n[i]);
        if (!pile) {
            Py_DECREF(piles);
            return NULL;
        }
        for (int j = 0; j < p->n[i]; j++) PyTuple_SET_ITEM(pile, j, PyLong_FromLong(p->c[i][j]));
        PyTuple_SET_ITEM(piles, i, pile);
    }
    return Py_BuildValue("(Ni)", piles, p->redeals);
}

PyObject *tx_py_from_move(Move m) { return Py_BuildValue("(iii)", m.src, m.cnt, m.dst); }

int tx_py_move(const Pos *p, PyObject *obj, Move *m) {
    int s, k, d;
    if (!PyArg_ParseTuple(obj, "iii", &s, &k, &d)) return -1;
    *m = (Move){(uint8_t)s, (uint8_t)k, (uint8_t)d};
    if (s >= 0 && s < p->npiles && d >= 0 && d < p->npiles && k >= 1 && k <= MAXCARDS && is_legal(p, *m)) return 0;
    PyErr_Format(PyExc_ValueError, "(%d, %d, %d) is not a legal move here", s, k, d);
    return -1;
}

Move *tx_py_line(const Pos *p, PyObject *obj, Py_ssize_t *n) {
    PyObject *seq = PySequence_Fast(obj, "the line must be a sequence of moves");
    if (!seq) return NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    Move *line = malloc(((size_t)*n + 1) * sizeof(Move));
    if (!line) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t j = 0; j < *n; j++) {
        int s, k, d;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, j), "iii", &s, &k, &d)) {
            free(line);
            Py_DECREF(seq);
            return NULL;
        }
        if (s < 0 || s >= p->npiles || d < 0 || d >= p->npiles || k < 1 || k > MAXCARDS) {
            free(line);
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "move %zd of the line, (%d, %d, %d), names no pile or count", j + 1, s, k, d);
            return NULL;
        }
        line[j] = (Move){(uint8_t)s, (uint8_t)k, (uint8_t)d};
    }
    Py_DECREF(seq);
    return line;
}

PyObject *tx_py_from_line(const Move *moves, int n, long long extra) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int j = 0; j < n; j++) {
        PyObject *m = tx_py_from_move(moves[j]);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, j, m);
    }
    return Py_BuildValue("(NL)", out, extra);
}
