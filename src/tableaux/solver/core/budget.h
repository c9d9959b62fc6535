/*
 * What a search may spend and has spent (budget.c): positions, time and memory. Every search counts its
 * positions and checks its time through tx_budget_tick, and the searches that allocate as they go (the layered
 * and the relaxed ones) take their memory through tx_budget_alloc; the depth-first search sizes its table from
 * the same allowance (search.c).
 */
#ifndef TABLEAUX_BUDGET_H
#define TABLEAUX_BUDGET_H

#include <stddef.h>

/* A solve may run the complete search on a second thread (POSIX threads, C11 atomics): solve.c. */
#if !defined(_WIN32) && !defined(TABLEAUX_NO_THREADS)
#define TABLEAUX_THREADS 1
#include <stdatomic.h>
#endif

typedef struct Budget {
    long long nodes, max_nodes; /* positions made; the most it may make (-1: no limit) */
    double deadline;            /* when the time limit runs out (0: none) */
    /* The turn being made (tx_budget_turn): the first pass's turn, or the complete search's beside it. */
    long long cap;        /* it stops past this many positions in all (-1: no cap) */
    double turn_deadline; /* and at this time (0: none): the first pass's share of the time limit */
    int capped, timeout;  /* it stopped at its cap, or at its deadline (or the other thread decided) */
    size_t memory;        /* bytes the search may hold */
    size_t lent;          /* of those, what the first pass's best-first runs hold meanwhile (search.c) */
    size_t held;          /* of those, what tx_budget_alloc has handed out */
    int out_of_budget, out_of_memory;
#ifdef TABLEAUX_THREADS
    atomic_int *stop; /* another thread has the answer: stop (NULL: no other thread) */
#endif
    /* Asked when max_nodes is reached (NULL: never): 1 when it raised max_nodes past the positions made. */
    int (*more)(struct Budget *b, void *ctx);
    void *more_ctx;
} Budget;

double tx_now(void);

/* Set by the Python face (_core.c) in the thread that called it, when that is Python's main thread: called every
 * TX_POLL_S seconds while a budget counts positions, it says whether a signal handler raised (Ctrl-C), and then
 * the budget counts as spent. NULL elsewhere, the search's second thread included. */
extern _Thread_local int (*tx_poll)(void);
#define TX_POLL_S 0.05
void tx_budget_init(Budget *b, long long max_nodes, double time_limit, size_t memory);
int tx_budget_tick(Budget *b);
int tx_budget_count(Budget *b);
void tx_budget_turn(Budget *b, long long size, long long share);

int tx_budget_reserve(Budget *b, size_t bytes);
void *tx_budget_alloc(Budget *b, size_t bytes, int zero);
void tx_budget_free(Budget *b, void *p, size_t bytes);
int tx_budget_resize(Budget *b, void **buf, size_t *cap, size_t ncap, size_t size);
int tx_budget_grow(Budget *b, void **buf, size_t *cap, size_t need, size_t size);

#endif
