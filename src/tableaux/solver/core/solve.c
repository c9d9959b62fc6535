/* The whole solve: the first pass (pass.c), then the complete search, which is the depth-first search
 * (search.c), restarted or not, or the layered one (layered.c); on one thread, or with the complete search on a
 * second thread from the start. */
#include "solve.h"

#ifdef TABLEAUX_THREADS
#include <pthread.h>
#include <time.h>
#endif

/*
 * The complete search. With restarts (classic King Albert beside the first pass) it runs again and again with a
 * shaken move order and twice the positions each time, like the first pass but over the whole space: a wrong
 * turn near the root can hold a depth-first search for most of its budget. Each run keeps what the runs before
 * it searched to the end, and loses only the positions of the line that was cut off, which the table's
 * collection drops since their searches never ended: a finished position may owe its end to a position on that
 * line, which was being searched then, and the next run searches those again from the start (docs/solver.md
 * has the whole argument). A run that searches its space to the end decides, as the plain search does.
 */
static int complete(Search *s, const Schedule *o) {
    if (o->layered) return tx_layered_run(s, o->disk);
    if (!o->restarts) return tx_search_run(s, (RunSpec){.oblige = o->pass.oblige});
    int r = -1;
    long long size = o->restarts;
    for (int k = 0;; size *= 2, k++) {
        tx_budget_turn(&s->budget, size, -1);
        /* a later run keeps what the collection below left */
        r = tx_search_run(s, (RunSpec){.keep = k > 0, .restart = k, .oblige = o->pass.oblige});
        if (r >= 0 || !s->budget.capped || s->budget.out_of_budget || s->budget.out_of_memory) break;
        if (tx_table_gc(&s->table, 0)) tx_table_clear(&s->table);
    }
    s->budget.cap = -1;
    return r;
}

#ifdef TABLEAUX_THREADS
/* What the first pass and a complete search on a second thread share. */
typedef struct {
    atomic_int stop;      /* one of them has the answer: the other stops */
    atomic_int pass_done; /* the first pass has ended, having made pass_used positions */
    atomic_llong pass_used;
    long long budget;     /* the node budget of the whole solve (-1: none) */
    Search *c;            /* the complete search */
    const Schedule *o;
    int result;           /* its result: 1 won, 0 exhausted, -1 stopped */
} Share;

/* The second thread: the complete search, from the start. */
static void *complete_thread(void *arg) {
    Share *sh = arg;
    sh->result = complete(sh->c, sh->o);
    if (sh->result >= 0) atomic_store(&sh->stop, 1); /* won or proved lost: the pass may stop */
    return NULL;
}

/* The complete search reached the nodes it may have while the pass runs (its budget's `more`): wait for the pass
 * to end and take what it left, as the complete search after it would have. 1 when that leaves more to search. */
static int await_pass(Budget *b, void *ctx) {
    Share *sh = ctx;
    struct timespec ms = {0, 1000000};
    while (!atomic_load(&sh->pass_done) && !atomic_load(&sh->stop)) nanosleep(&ms, NULL);
    if (!atomic_load(&sh->pass_done)) return 0;
    b->max_nodes = sh->budget - atomic_load(&sh->pass_used);
    return b->nodes < b->max_nodes;
}

/* Start the complete search of s's position on a second thread, with five eighths of the memory and, for a node
 * budget, at first the least the pass leaves of it. The search, or NULL when it could not start. */
static Search *start_complete(Search *s, const Schedule *o, Share *sh, pthread_t *thread) {
    Search *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    long long max_nodes = s->budget.max_nodes;
    atomic_init(&sh->stop, 0);
    atomic_init(&sh->pass_done, 0);
    atomic_init(&sh->pass_used, 0);
    sh->budget = max_nodes;
    sh->c = c;
    sh->o = o;
    c->pos = s->pos;
    tx_budget_init(&c->budget, max_nodes >= 0 ? max_nodes - max_nodes / 2 - 1 : -1, 0, s->budget.memory / 8 * 5);
    s->budget.memory -= c->budget.memory;
    c->budget.deadline = s->budget.deadline;
    c->budget.stop = s->budget.stop = &sh->stop;
    c->budget.more = await_pass;
    c->budget.more_ctx = sh;
    if (tx_table_init(&c->table, c->budget.memory - c->budget.memory / 8) ||
        pthread_create(thread, NULL, complete_thread, sh)) {
        s->budget.memory += c->budget.memory;
        s->budget.stop = NULL;
        tx_search_free(c);
        return NULL;
    }
    return c;
}

/* The first pass has ended, with a win when `found`: stop the complete search, or wait for it, and take its
 * positions, and its verdict or its line. The verdict. */
static int join_complete(Search *s, Search *c, Share *sh, pthread_t thread, int found) {
    int verdict = V_UNKNOWN;
    atomic_store(&sh->pass_used, s->budget.nodes);
    atomic_store(&sh->pass_done, 1);
    if (found) atomic_store(&sh->stop, 1);
    pthread_join(thread, NULL);
    s->budget.nodes += c->budget.nodes;
    s->budget.out_of_memory |= c->budget.out_of_memory;
    if (!found && sh->result == 1) { /* the complete search's line is the answer */
        found = 1;
        Stacks mine = s->line;
        s->line.undo = c->line.undo, s->line.nundo = c->line.nundo, s->line.undo_cap = c->line.undo_cap;
        c->line.undo = mine.undo, c->line.nundo = mine.nundo, c->line.undo_cap = mine.undo_cap;
    } else if (!found && sh->result == 0) {
        verdict = V_UNWINNABLE;
    }
    tx_search_free(c);
    s->budget.stop = NULL;
    return found ? V_WINNABLE : verdict;
}
#endif

/*
 * The whole solve from s->pos, as `o` says: the first pass (King Albert) on its share, then the complete search.
 * The caller sets s->pos and s->budget.memory (which bounds the tables and the stacks together). Returns V_*, and when winnable the undo stack holds the winning line. Needs no Python: it runs
 * without the GIL. With threads == 2 (King Albert, first pass on) the complete search runs on a second thread
 * from the start, with five eighths of the memory: the verdict is the one a single thread gives for a
 * node budget (the complete search waits for the pass before it passes B/2, and then gets B minus what
 * the pass used), and with a time limit both searches get all of it.
 */
int tx_solve(Search *s, const Schedule *o, long long max_nodes, double time_limit, int first_pass, int threads) {
    int verdict = V_UNKNOWN, found = 0;
    tx_budget_init(&s->budget, max_nodes, time_limit, s->budget.memory);
    double start = time_limit > 0 ? s->budget.deadline - time_limit : 0; /* when the solve started */
    first_pass = first_pass && s->pos.game != GAME_EW;
#ifdef TABLEAUX_THREADS
    Share sh;
    pthread_t thread;
    Search *c = threads > 1 && first_pass ? start_complete(s, o, &sh, &thread) : NULL;
#else
    (void)threads;
#endif
    /* the table's room while the stacks are small (tx_search_share_memory) */
    if (tx_table_init(&s->table, s->budget.memory - s->budget.memory / 8)) {
        s->budget.out_of_memory = 1;
#ifdef TABLEAUX_THREADS
        if (c) { /* no pass: the other thread stops at once */
            atomic_store(&sh.stop, 1);
            join_complete(s, c, &sh, thread, 0);
        }
#endif
        return V_UNKNOWN;
    }
    if (o->stream_alone >= 0) {
        Pos from = s->pos;
        s->budget.turn_deadline = s->budget.deadline;
        long long size = max_nodes >= 0 ? max_nodes : LLONG_MAX / 4;
        found = tx_streamlined_run(s, &o->pass, &from, o->stream_alone, size, -1) == 1;
        return found ? V_WINNABLE : V_UNKNOWN;
    }
    if (first_pass) found = tx_first_pass(s, &o->pass, start, time_limit, c != NULL);
#ifdef TABLEAUX_THREADS
    if (c) return join_complete(s, c, &sh, thread, found);
#endif
    if (!found && !s->budget.out_of_budget && !s->budget.out_of_memory) {
        s->budget.cap = -1;
        s->budget.turn_deadline = 0;
        int r = complete(s, o);
        if (r == 1) found = 1;
        else if (r == 0) verdict = V_UNWINNABLE;
    }
    return found ? V_WINNABLE : verdict;
}

