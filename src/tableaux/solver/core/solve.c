/* The whole solve: the first pass (pass.c) and the complete search (complete.c), on one thread taking turns, or
 * with the complete search on a second thread from the start. */
#include "solve.h"

#ifdef TABLEAUX_THREADS
#include <pthread.h>
#include <time.h>
#endif

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
    sh->result = tx_complete_run(sh->c, &sh->o->complete);
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
        tx_search_take_line(s, c);
    } else if (!found && sh->result == 0) {
        verdict = V_UNWINNABLE;
    }
    tx_search_free(c);
    s->budget.stop = NULL;
    return found ? V_WINNABLE : verdict;
}
#endif

/* The complete search that takes turns with the first pass on this thread: a search of its own, with three eighths
 * of the memory while the pass runs (complete.c), or for classic King Albert half, since its relaxed verdicts take
 * half of its own (on 1,259 fresh classic deals, 45.7 CPU s at 10 s each instead of 49.9, and 4233258551 won in
 * 4.2 s instead of open: docs/notes/solver-experiments.md). King Albert's first pass keeps five eighths: its
 * biggest wins are the pass's, and need its table (25173, won after 220 million positions in 73 s, is open at 150 s
 * and 506 million positions with half). NULL when it could not start. */
static Search *beside_pass(Search *s, Complete *comp, const CompletePlan *plan) {
    Search *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->pos = s->pos;
    int half = tx_complete_has_verdicts(plan, &s->pos) && s->pos.game == GAME_KA_CLASSIC;
    size_t share = half ? s->budget.memory / 2 : s->budget.memory / 8 * 3;
    tx_budget_init(&c->budget, s->budget.max_nodes, 0, share);
    c->budget.deadline = s->budget.deadline;
    if (tx_table_init(&c->table, c->budget.memory - c->budget.memory / 8)) {
        free(c);
        return NULL;
    }
    s->budget.memory -= c->budget.memory;
    tx_complete_start(comp, c, plan);
    return c;
}

/* The pass is over and no decision: the complete search beside it goes on alone, with all the memory and the rest
 * of the budget. Its positions and its line become s's. The verdict. */
static int after_pass(Search *s, Search *c, Complete *comp) {
    tx_table_free(&s->table); /* the pass's table: its room is the complete search's now */
    c->budget.memory += s->budget.memory;
    s->budget.memory = 0;
    tx_search_share_memory(c);
    tx_complete_memory(comp); /* the relaxed verdicts' half of it */
    c->budget.max_nodes = s->budget.max_nodes >= 0 ? s->budget.max_nodes - s->budget.nodes + c->budget.nodes : -1;
    int r = s->budget.out_of_budget || s->budget.out_of_memory ? -1 : tx_complete_turn(comp, -1);
    tx_search_abandon(c); /* the relaxed verdicts end with the search, in tx_solve */
    if (r == 1) tx_search_take_line(s, c);
    return r;
}

/*
 * The whole solve from s->pos, as `o` says: the first pass (King Albert) on its share with the complete search
 * taking turns with it, then the complete search alone. The caller sets s->pos and s->budget.memory (which bounds
 * the tables and the stacks together). Returns V_*, and when winnable the undo stack holds the winning line. Needs
 * no Python: it runs without the GIL. With threads == 2 (King Albert, first pass on) the complete search runs on
 * a second thread from the start instead, with five eighths of the memory: the verdict is the one the pass and
 * the complete search after it give on one thread for a node budget (the complete search waits for the pass
 * before it passes B/2, and then gets B minus what the pass used), and with a time limit both get all of it. The
 * layered search has no turns: it comes after the pass, as the complete search does with o->after.
 */
int tx_solve(Search *s, const Schedule *o, long long max_nodes, double time_limit, int first_pass, int threads) {
    int verdict = V_UNKNOWN, r = -1;
    tx_budget_init(&s->budget, max_nodes, time_limit, s->budget.memory);
    double start = time_limit > 0 ? s->budget.deadline - time_limit : 0; /* when the solve started */
    first_pass = first_pass && s->pos.game != GAME_EW;
#ifdef TABLEAUX_THREADS
    Share sh;
    pthread_t thread;
    Search *c = threads > 1 && first_pass ? start_complete(s, o, &sh, &thread) : NULL;
#else
    Search *c = NULL;
    (void)threads;
#endif
    Complete comp;
    Search *beside = first_pass && !c && !o->complete.layered && !o->after && o->stream_alone < 0
                         ? beside_pass(s, &comp, &o->complete) : NULL;
    /* the table's room while the stacks are small (tx_search_share_memory) */
    if (tx_table_init(&s->table, s->budget.memory - s->budget.memory / 8)) {
        s->budget.out_of_memory = 1;
#ifdef TABLEAUX_THREADS
        if (c) { /* no pass: the other thread stops at once */
            atomic_store(&sh.stop, 1);
            join_complete(s, c, &sh, thread, 0);
        }
#endif
        if (beside) {
            tx_complete_end(&comp);
            tx_search_free(beside);
        }
        return V_UNKNOWN;
    }
    if (o->stream_alone >= 0) {
        Pos from = s->pos;
        s->budget.turn_deadline = s->budget.deadline;
        long long size = max_nodes >= 0 ? max_nodes : LLONG_MAX / 4;
        return tx_streamlined_run(s, &o->pass, &from, o->stream_alone, size, -1, 0) == 1 ? V_WINNABLE : V_UNKNOWN;
    }
    if (first_pass) r = tx_first_pass(s, &o->pass, beside ? &comp : NULL, start, time_limit, c != NULL);
#ifdef TABLEAUX_THREADS
    if (c) return join_complete(s, c, &sh, thread, r == 1);
#endif
    if (beside) {
        if (r < 0) r = after_pass(s, beside, &comp);
        s->budget.nodes += beside->budget.nodes;
        s->budget.out_of_memory |= beside->budget.out_of_memory;
        tx_complete_end(&comp);
        tx_search_free(beside);
    } else if (r < 0 && !s->budget.out_of_budget && !s->budget.out_of_memory) {
        s->budget.cap = -1;
        s->budget.turn_deadline = 0;
        r = tx_complete_run(s, &o->complete);
    }
    if (r == 0) verdict = V_UNWINNABLE;
    return r == 1 ? V_WINNABLE : verdict;
}
