/*
 * tableaux.solver._core: the solver's search at native speed, as a Python module.
 *
 * The pure-Python search in search.py is the reference; the C files in core/
 * run the same design on compact positions, and tests/solver/test_backends.py proves
 * that both generate the same moves and positions and reach the same verdicts.
 * This file is only the Python face of core/: the functions the tests and
 * tableaux.solver call, over positions read by _core_args.c.
 *
 * Cards are bytes as in cards.py: suit * 13 + rank - 1, plus DOWN (64) while
 * face down. A position is an array of piles (bottom to top) indexed as in
 * the games' pile_names, plus Eagle Wing's redeal count.
 *
 * Design, in the order the search uses it:
 *  - moves are generated in exactly the engine's order (king_albert.py,
 *    eagle_wing.py), and made and unmade in place (no copying);
 *  - every pile carries a Zobrist hash (xor of a random word per depth and
 *    card), updated incrementally; the position's hash adds a mixed value
 *    per pile, so piles of one interchangeable kind hash the same in any
 *    order;
 *  - the transposition table stores the full canonical key (interchangeable
 *    piles sorted) of every position searched, so a position is only ever
 *    skipped when it really was searched: hash collisions cost a compare,
 *    never a verdict;
 *  - the table's memory is fixed when the search starts. When it fills up it
 *    keeps the positions whose searches took longest and puts back the keys
 *    on the current line, like the Python search: repeated work, never a
 *    wrong verdict;
 *  - safe moves (proved in the strategy package) are made at once, moves are ordered
 *    best first, and a first pass over a restricted space (King Albert: no
 *    cards back off the foundations, cards home when they are probably safe)
 *    runs on a share of the budget before the complete search;
 *  - classic King Albert's complete search may be the layered one (layered.py
 *    is its reference), which holds one class of positions at a time;
 *  - a relaxed King Albert game (relaxed.py is its reference), whose loss proves
 *    the deal lost, may be searched first, and the complete search may drop
 *    every position whose relaxed position that game proves lost.
 *
 * Running out of nodes, time or memory gives "unknown", never a verdict.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_core_args.h"
#include "core/relaxed.h"
#include "core/verdicts.h"
#include "core/polish.h"
#include "core/shorten.h"
#include "core/solve.h"

static PyObject *core_moves(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game;
    Pos p;
    Move buf[512];
    if (!PyArg_ParseTuple(args, "OOl", &g, &piles, &redeals) || tx_py_game(g, &game) ||
        tx_py_position(game, piles, redeals, &p))
        return NULL;
    int n = gen_moves(&p, buf);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int j = 0; j < n; j++) PyList_SET_ITEM(out, j, tx_py_from_move(buf[j]));
    return out;
}

static PyObject *core_apply(PyObject *self, PyObject *args) {
    PyObject *g, *piles, *mv;
    long redeals;
    int game;
    Pos p;
    Move m;
    if (!PyArg_ParseTuple(args, "OOlO", &g, &piles, &redeals, &mv) || tx_py_game(g, &game) ||
        tx_py_position(game, piles, redeals, &p) || tx_py_move(&p, mv, &m))
        return NULL;
    Pos before = p;
    Undo u;
    apply_move(&p, m, &u);
    uint64_t incremental = p.hash;
    tx_rehash(&p);
    if (incremental != p.hash) return PyErr_Format(PyExc_AssertionError, "incremental hash disagrees with a fresh one");
    Pos back = p;
    undo_move(&back, &u);
    if (memcmp(back.n, before.n, sizeof back.n) || back.hash != before.hash || back.redeals != before.redeals)
        return PyErr_Format(PyExc_AssertionError, "undo did not restore the position");
    for (int i = 0; i < p.npiles; i++)
        if (memcmp(back.c[i], before.c[i], back.n[i]))
            return PyErr_Format(PyExc_AssertionError, "undo did not restore pile %d", i);
    return tx_py_from_position(&p);
}

static PyObject *core_key(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game;
    Pos p;
    uint8_t key[KEY_MAX];
    if (!PyArg_ParseTuple(args, "OOl", &g, &piles, &redeals) || tx_py_game(g, &game) ||
        tx_py_position(game, piles, redeals, &p))
        return NULL;
    int n = make_key(&p, key);
    return Py_BuildValue("(y#KI)", (const char *)key, (Py_ssize_t)n, (unsigned long long)p.hash, pos_rank(&p));
}

static PyObject *core_layered_key(PyObject *self, PyObject *args) {
    PyObject *start_piles, *piles;
    Pos start, p;
    uint8_t key[16];
    uint64_t mask;
    if (!PyArg_ParseTuple(args, "OO", &start_piles, &piles) ||
        tx_py_position(GAME_KA_CLASSIC, start_piles, 0, &start) || tx_py_position(GAME_KA_CLASSIC, piles, 0, &p))
        return NULL;
    int r = tx_layered_key(&start, &p, key, &mask);
    if (r == -2) return PyErr_Format(PyExc_AssertionError, "the key's mask is not the one the position gave");
    if (r) return PyErr_Format(PyExc_ValueError, "not a position the layered search from that start makes");
    return Py_BuildValue("(y#K)", (const char *)key, (Py_ssize_t)sizeof key, (unsigned long long)mask);
}

static PyObject *core_safe(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game, greedy = 0;
    Pos p;
    Move buf[512];
    if (!PyArg_ParseTuple(args, "OOl|p", &g, &piles, &redeals, &greedy) || tx_py_game(g, &game) ||
        tx_py_position(game, piles, redeals, &p))
        return NULL;
    int n = gen_moves(&p, buf);
    int j = game == GAME_EW ? tx_ew_safe(&p, buf, n) : tx_ka_safe(&p, buf, n, greedy);
    if (j < 0) Py_RETURN_NONE;
    return tx_py_from_move(buf[j]);
}

/* The first pass's streamlined runs (PassPlan.streams): each a sum of STREAM_* bits; None gives the game's own. */
static int read_streams(PyObject *obj, int game, PassPlan *sched) {
    static const int KING_ALBERT[] = {STREAM_HOME | STREAM_SUITS, STREAM_SUITS | STREAM_BACK, 0};
    static const int CLASSIC[] = {STREAM_PLAIN | STREAM_SUITS, STREAM_PLAIN | STREAM_SMALL | STREAM_HOME | STREAM_SUITS,
                                  STREAM_HOME | STREAM_SUITS, STREAM_SUITS | STREAM_BACK, 0};
    sched->nstreams = 0;
    if (!obj || obj == Py_None) {
        const int *kinds = game == GAME_KA_CLASSIC ? CLASSIC : KING_ALBERT;
        for (int i = 0; game != GAME_EW && kinds[i]; i++) sched->streams[sched->nstreams++] = kinds[i];
        return 0;
    }
    PyObject *seq = PySequence_Fast(obj, "streams must be a sequence of streamliner sets (1 to 31)");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int bad = n > 4;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (k == -1 && PyErr_Occurred()) PyErr_Clear();
        bad = k < 1 || k > STREAM_ALL;
        if (!bad) sched->streams[sched->nstreams++] = (int)k;
    }
    Py_DECREF(seq);
    if (bad) {
        PyErr_SetString(PyExc_ValueError,
                        "streams must be at most 4 streamliner sets, each a whole number from 1 to 31");
        return -1;
    }
    if (game == GAME_EW) sched->nstreams = 0; /* Eagle Wing has no first pass */
    return 0;
}

/* Ctrl-C during a long search. The search runs without the GIL, and Python's handler for SIGINT only marks the
 * signal for the interpreter, which would see it when the call returns: a solve with no budget could not be
 * stopped. Called from Python's main thread (the one that runs signal handlers), the search looks in on them every
 * TX_POLL_S seconds (budget.c), holding the GIL a moment: when a handler raises (KeyboardInterrupt, by default),
 * the search ends and the call raises it. A handler that does not raise, or none, changes nothing. */
static _Thread_local PyThreadState *released;

static int poll_signals(void) {
    PyEval_RestoreThread(released);
    int raised = PyErr_CheckSignals() < 0;
    released = PyEval_SaveThread();
    return raised;
}

/* Whether this is Python's main thread: threading's word for it, read once. */
static int in_main_thread(void) {
    static unsigned long main_ident;
    static int known;
    if (!known) {
        PyObject *threading = PyImport_ImportModule("threading");
        PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
        PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
        if (ident) main_ident = PyLong_AsUnsignedLong(ident);
        Py_XDECREF(ident);
        Py_XDECREF(main);
        Py_XDECREF(threading);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        known = 1;
    }
    return PyThread_get_thread_ident() == main_ident;
}

/* Let go of the GIL for a search, looking in on signals when in the main thread. */
static void release(void) {
    tx_poll = in_main_thread() ? poll_signals : NULL;
    released = PyEval_SaveThread();
}

/* Take the GIL back: -1 when a signal handler raised meanwhile (its exception is set). */
static int reacquire(void) {
    PyEval_RestoreThread(released);
    tx_poll = NULL;
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *core_solve(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"game",       "piles",  "redeals",    "max_nodes",    "time_limit", "memory",
                            "first_pass", "oblige", "best_first", "threads",      "chained",    "layered",
                            "disk",       "disk_class", "stream_alone", "streams", "turns", "after", "verdicts",
                            "verdicts_from", NULL};
    PyObject *g, *piles, *streams = NULL;
    long redeals;
    long long max_nodes = -1;
    double time_limit = 0;
    unsigned long long memory = 1ULL << 30, disk = 0;
    int first_pass = 1, oblige = 1, best_first = 1, threads = 1, chained = 1, layered = 0, game, stream_alone = -1;
    int after = 0, verdicts = 0;
    long long disk_class = -1, turns = 0, verdicts_from = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOl|LdKpppippKLiOLpiL", names, &g, &piles, &redeals, &max_nodes, &time_limit,
                                     &memory, &first_pass, &oblige, &best_first, &threads, &chained,
                                     &layered, &disk, &disk_class, &stream_alone, &streams, &turns, &after, &verdicts,
                                     &verdicts_from) ||
        tx_py_game(g, &game))
        return NULL;
    if (threads < 1 || threads > 2) return PyErr_Format(PyExc_ValueError, "threads must be 1 or 2");
    if (memory < (1u << 20)) return PyErr_Format(PyExc_ValueError, "memory must be at least 1 MiB");
    if (stream_alone != -1 && (stream_alone < 1 || stream_alone > STREAM_ALL))
        return PyErr_Format(PyExc_ValueError, "stream_alone must be -1 (none) or a streamliner set from 1 to 31");
    if (stream_alone != -1 && game == GAME_EW)
        return PyErr_Format(PyExc_ValueError, "stream_alone is for King Albert's games, not Eagle Wing");
    if (layered && game != GAME_KA_CLASSIC)
        return PyErr_Format(PyExc_ValueError, "the layered search is for classic King Albert only");
    if (verdicts && (game == GAME_EW || verdicts < 1 || verdicts > 13))
        return PyErr_Format(PyExc_ValueError, "verdicts is a rank from 1 to 13, for King Albert's games only");
    Schedule sched = {.pass = {.oblige = oblige, .best_first = best_first, .chain_runs = chained},
                      .complete = {.oblige = oblige, .layered = layered, .disk = {(size_t)disk, disk_class},
                                   .turns = turns, .verdicts = verdicts, .verdicts_from = verdicts_from},
                      .stream_alone = stream_alone, .after = after};
    if (read_streams(streams, game, &sched.pass)) return NULL;
    Search *s = calloc(1, sizeof *s);
    if (!s) return PyErr_NoMemory();
    if (tx_py_position(game, piles, redeals, &s->pos)) {
        free(s);
        return NULL;
    }
    s->budget.memory = (size_t)memory;
    release();
    int verdict = tx_solve(s, &sched, max_nodes, time_limit, first_pass, threads);
    if (reacquire()) {
        tx_search_free(s);
        return NULL;
    }
    PyObject *line = PyList_New(0);
    if (line && verdict == V_WINNABLE)
        for (int j = 0; j < s->line.nundo; j++) {
            PyObject *m = tx_py_from_move(s->line.undo[j].m);
            if (!m || PyList_Append(line, m)) {
                Py_XDECREF(m);
                Py_CLEAR(line);
                break;
            }
            Py_DECREF(m);
        }
    PyObject *result = NULL;
    if (line)
        result = Py_BuildValue("(iNLin)", verdict, line, s->budget.nodes, s->budget.out_of_memory,
                               (Py_ssize_t)s->table.clears);
    tx_search_free(s);
    return result;
}

/* The game of a relaxed search: King Albert's two (classic when not given). */
static int relaxed_game(PyObject *g, int *game) {
    if (g && tx_py_game(g, game)) return -1;
    if (*game != GAME_EW) return 0;
    PyErr_Format(PyExc_ValueError, "the relaxed game is King Albert's (game 0 or 1), not Eagle Wing's");
    return -1;
}

static PyObject *core_relaxed(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"piles", "rank_kept", "max_positions", "time_limit", "memory", "game", NULL};
    PyObject *piles, *g = NULL;
    int kept, game = GAME_KA_CLASSIC;
    long long max_positions = -1;
    double time_limit = 0;
    unsigned long long memory = 1ULL << 30;
    Pos p;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|LdKO", names, &piles, &kept, &max_positions, &time_limit, &memory,
                                     &g) ||
        relaxed_game(g, &game) || tx_py_position(game, piles, 0, &p))
        return NULL;
    if (kept < 1 || kept > 13) return PyErr_Format(PyExc_ValueError, "rank_kept must be from 1 to 13, not %d", kept);
    if (memory < (1u << 20)) return PyErr_Format(PyExc_ValueError, "memory must be at least 1 MiB");
    Budget b;
    tx_budget_init(&b, max_positions, time_limit, (size_t)memory);
    release();
    int verdict = tx_relaxed_search(&p, kept, &b);
    if (reacquire()) return NULL;
    return Py_BuildValue("(iLi)", verdict, b.nodes, b.out_of_memory);
}

static PyObject *core_verdicts(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"positions", "rank_kept", "memory", "game", NULL};
    PyObject *positions, *seq, *answers = NULL, *g = NULL;
    int kept, game = GAME_KA_CLASSIC;
    unsigned long long memory = 1ULL << 28;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|KO", names, &positions, &kept, &memory, &g) ||
        relaxed_game(g, &game))
        return NULL;
    if (kept < 1 || kept > 13) return PyErr_Format(PyExc_ValueError, "rank_kept must be from 1 to 13, not %d", kept);
    if (!(seq = PySequence_Fast(positions, "positions must be a sequence of piles"))) return NULL;
    RelaxedVerdicts *v = tx_verdicts_new(kept, (size_t)memory);
    Budget b;
    tx_budget_init(&b, -1, 0, 0);
    if (!v) {
        PyErr_NoMemory();
        goto done;
    }
    if (!(answers = PyList_New(0))) goto done;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        Pos p;
        if (tx_py_position(game, PySequence_Fast_GET_ITEM(seq, i), 0, &p) ||
            PyList_Append(answers, tx_verdicts_lost(v, &p, &b) ? Py_True : Py_False)) {
            Py_CLEAR(answers);
            goto done;
        }
    }
done:
    Py_DECREF(seq);
    PyObject *result = answers ? Py_BuildValue("(NL)", answers, tx_verdicts_positions(v)) : NULL;
    tx_verdicts_free(v);
    return result;
}

static PyObject *core_shorten(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"game", "piles", "redeals", "line", "budget", "time_limit", "windowed", NULL};
    PyObject *g, *piles, *line_obj;
    long redeals;
    long long budget = -1;
    double time_limit = 0;
    int game, windowed = 1;
    Pos start;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOlO|Ldp", names, &g, &piles, &redeals, &line_obj, &budget,
                                     &time_limit, &windowed) ||
        tx_py_game(g, &game) || tx_py_position(game, piles, redeals, &start))
        return NULL;
    Py_ssize_t n;
    Move *line = tx_py_line(&start, line_obj, &n), *out = NULL;
    if (!line) return NULL;
    int nout = 0, r;
    long long work = 0;
    double deadline = time_limit > 0 ? tx_now() + time_limit : 0;
    Py_BEGIN_ALLOW_THREADS;
    r = tx_shorten(&start, line, (int)n, budget, deadline, windowed, &out, &nout, &work);
    Py_END_ALLOW_THREADS;
    free(line);
    if (r == -2) return PyErr_NoMemory();
    if (r == -1) return PyErr_Format(PyExc_ValueError, "the line is not a win from the position");
    PyObject *result = tx_py_from_line(out, nout, work);
    free(out);
    return result;
}

static PyObject *core_polish(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"game",       "piles",      "redeals", "line", "weight", "max_nodes", "max_held",
                            "time_limit", "restricted", "enough",  "skip", NULL};
    PyObject *g, *piles, *line_obj;
    long redeals;
    long long max_nodes = -1, max_held = 2000000;
    double time_limit = 0;
    int game, weight = 3, restricted = 1, enough = 0, skip = 0;
    Pos start;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOlO|iLLdpii", names, &g, &piles, &redeals, &line_obj, &weight,
                                     &max_nodes, &max_held, &time_limit, &restricted, &enough, &skip) ||
        tx_py_game(g, &game) || tx_py_position(game, piles, redeals, &start))
        return NULL;
    if (game == GAME_EW) return PyErr_Format(PyExc_ValueError, "the core's polish is for King Albert's games");
    if (weight < 1 || weight > 16) return PyErr_Format(PyExc_ValueError, "weight must be from 1 to 16");
    Py_ssize_t n;
    Move *line = tx_py_line(&start, line_obj, &n), *out = NULL;
    if (!line) return NULL;
    if (skip < 0 || skip > n) {
        free(line);
        return PyErr_Format(PyExc_ValueError, "skip must be from 0 to the line's %zd moves", n);
    }
    Pos from = start; /* the position after the moves kept: the polish's start */
    for (int j = 0; j < skip; j++) {
        Undo u;
        if (!is_legal(&from, line[j])) {
            free(line);
            return PyErr_Format(PyExc_ValueError, "move %d of the line is not legal", j + 1);
        }
        apply_move(&from, line[j], &u);
    }
    int nout = 0, r;
    long long made = 0;
    double deadline = time_limit > 0 ? tx_now() + time_limit : 0;
    Py_BEGIN_ALLOW_THREADS;
    r = tx_polish(&from, line + skip, (int)n - skip, weight, restricted, enough, max_nodes, max_held, deadline, &out,
                  &nout, &made);
    Py_END_ALLOW_THREADS;
    if (r) {
        free(line);
        return PyErr_NoMemory();
    }
    Move *whole = malloc(((size_t)skip + (size_t)nout + 1) * sizeof(Move)); /* the moves kept, then the tail */
    if (!whole) {
        free(line);
        free(out);
        return PyErr_NoMemory();
    }
    memcpy(whole, line, (size_t)skip * sizeof(Move));
    memcpy(whole + skip, out, (size_t)nout * sizeof(Move));
    free(line);
    free(out);
    PyObject *result = tx_py_from_line(whole, skip + nout, made);
    free(whole);
    return result;
}

static PyObject *core_lower_bound(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game;
    Pos p;
    if (!PyArg_ParseTuple(args, "OOl", &g, &piles, &redeals) || tx_py_game(g, &game) ||
        tx_py_position(game, piles, redeals, &p))
        return NULL;
    if (game == GAME_EW) return PyErr_Format(PyExc_ValueError, "the core's lower bound is King Albert's");
    return PyLong_FromLong(tx_ka_lower_bound(&p));
}

static PyMethodDef core_methods[] = {
    {"relaxed", (PyCFunction)(void (*)(void))core_relaxed, METH_VARARGS | METH_KEYWORDS,
     "relaxed(piles, rank_kept, max_positions=-1, time_limit=0, memory=2**30, game=1) -> (verdict, positions,\n"
     "out_of_memory): King Albert (game 0, or 1 classic) relaxed above rank_kept (relaxed.py), searched to its end:\n"
     "verdict 1 lost (the deal is lost), 0 won (says nothing), -1 unknown"},
    {"verdicts", (PyCFunction)(void (*)(void))core_verdicts, METH_VARARGS | METH_KEYWORDS,
     "verdicts(positions, rank_kept, memory=2**28, game=1) -> (answers, positions searched): for each King Albert\n"
     "position (game 0, or 1 classic) in turn, whether the game relaxed above rank_kept proves it lost, asked of one\n"
     "RelaxedVerdicts (verdicts.c), as the complete search asks them"},
    {"moves", core_moves, METH_VARARGS, "moves(game, piles, redeals) -> every legal move, in the engine's order"},
    {"apply", core_apply, METH_VARARGS,
     "apply(game, piles, redeals, move) -> (piles, redeals) after the move; checks hash and undo on the way"},
    {"key", core_key, METH_VARARGS, "key(game, piles, redeals) -> (canonical key, hash, rank)"},
    {"safe_move", core_safe, METH_VARARGS,
     "safe_move(game, piles, redeals, greedy=False) -> the first safe move, or None; greedy: King Albert's first\n"
     "pass, which also sends cards home by its rule of thumb"},
    {"shorten", (PyCFunction)(void (*)(void))core_shorten, METH_VARARGS | METH_KEYWORDS,
     "shorten(game, piles, redeals, line, budget=-1, time_limit=0, windowed=True) -> (line, positions made): the\n"
     "winning line's cycles and detours cut (detours.py's passes), within budget positions (-1: no limit) and\n"
     "time_limit seconds (0: none); windowed: the passes with a window come first (detours.py's WINDOWS);\n"
     "ValueError when the line is not a legal win from the position"},
    {"polish", (PyCFunction)(void (*)(void))core_polish, METH_VARARGS | METH_KEYWORDS,
     "polish(game, piles, redeals, line, weight=3, max_nodes=-1, max_held=2000000, time_limit=0, restricted=True,\n"
     "enough=0, skip=0) -> (line, positions made): shortest.py's polish for King Albert's games, a line no longer\n"
     "than the winning line given; it stops at a line of at most enough moves (0: never); skip: the line's first\n"
     "moves are kept and the polish starts after them (enough counts the moves after them)"},
    {"lower_bound", core_lower_bound, METH_VARARGS,
     "lower_bound(game, piles, redeals) -> King Albert's lower bound on the moves left (bounds.py)"},
    {"layered_key", core_layered_key, METH_VARARGS,
     "layered_key(start_piles, piles) -> (16-byte key, mask): classic King Albert's layered search from start_piles,\n"
     "its key for piles and the class (mask) it files them under"},
    {"solve", (PyCFunction)(void (*)(void))core_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(game, piles, redeals, max_nodes=-1, time_limit=0, memory=2**30, first_pass=True, oblige=True,\n"
     "      best_first=True, threads=1, chained=True, layered=False,\n"
     "      disk=0, disk_class=-1, stream_alone=-1, streams=None, turns=0, after=False, verdicts=0, verdicts_from=0)\n"
     "-> (verdict 0 winnable / 1 unwinnable / 2 unknown, winning line, nodes, ran out of memory,\n"
     "    times the table was full and emptied)\n"
     "layered (classic King Albert): the complete search is the layered one; disk: bytes of files it may write\n"
     "for classes too big for the memory; disk_class: a class whose table passes this many positions goes on\n"
     "disk (-1: only when the memory is full; 0: every class)\n"
     "streams (King Albert): the first pass's streamlined runs, in turn, each a sum of 1 (every card that can go\n"
     "home goes at once), 2 (keys that do not tell a colour's suits apart), 4 (cards may be taken back) and 8 (the\n"
     "plain move order instead of the planned one); None:\n"
     "the game's own, (): none. stream_alone: one streamlined run of that set and nothing else, which can only win\n"
     "(a line replayed before it counts) or say unknown\n"
     "turns: the complete search, alone, is made in turns of this many positions, each going on where the last\n"
     "stopped, as beside the first pass (tests: that changes nothing); 0: in one go\n"
     "after: the complete search comes after the first pass instead of taking turns with it from the start\n"
     "verdicts (King Albert's games): the complete search drops each position the game relaxed above this rank\n"
     "proves lost (relaxed.py's RelaxedVerdicts), once it has made verdicts_from positions; 0: none"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's search in C; tableaux.solver is the interface.", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    tx_init_tables();
    return PyModule_Create(&core_module);
}
