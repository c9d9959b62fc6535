/* What a search may spend: positions, time and memory (budget.h). */
#include "budget.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double tx_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A budget of `max_nodes` positions (-1: no limit), `time_limit` seconds from now (0: none) and `memory` bytes,
 * with nothing spent, no turn and no other thread. */
void tx_budget_init(Budget *b, long long max_nodes, double time_limit, size_t memory) {
    memset(b, 0, sizeof *b);
    b->max_nodes = max_nodes;
    b->deadline = time_limit > 0 ? tx_now() + time_limit : 0;
    b->cap = -1;
    b->memory = memory;
}

_Thread_local int (*tx_poll)(void);
static _Thread_local double polled; /* when tx_poll was last called */

static inline int count(Budget *b, int turn) {
    /* Spent is spent: the deadline is read only every 1,024th position, and when a relaxed verdict's query made
     * that one, the query ended but the search that asked it went on, its own reads landing between the query's,
     * until its turn's cap (King Albert 25173 at time_limit=0.5: 3.1 s). */
    if (b->out_of_budget) return 1;
#ifdef TABLEAUX_THREADS
    if (b->stop && atomic_load_explicit(b->stop, memory_order_relaxed)) {
        b->capped = b->timeout = 1; /* the other thread has the answer */
        b->out_of_budget = 1;
        return 1;
    }
#endif
    if (b->max_nodes >= 0 && b->nodes >= b->max_nodes && !(b->more && b->more(b, b->more_ctx))) {
        b->out_of_budget = 1;
        return 1;
    }
    b->nodes++;
    if ((b->nodes & 1023) == 0) {
        double t = tx_now();
        if (tx_poll && t - polled >= TX_POLL_S) {
            polled = t;
            if (tx_poll()) {
                b->out_of_budget = 1;
                return 1;
            }
        }
        if (b->deadline > 0 && t >= b->deadline) {
            b->out_of_budget = 1;
            return 1;
        }
        if (turn && b->turn_deadline > 0 && t >= b->turn_deadline) {
            b->capped = b->timeout = 1;
            return 1;
        }
    }
    if (turn && b->cap >= 0 && b->nodes > b->cap) {
        b->capped = 1;
        return 1;
    }
    return 0;
}

/* Count one position about to be made. 1 when the budget, the turn's share or its time is spent, or another
 * thread has the answer: then out_of_budget says the whole budget is, capped and timeout that the turn is. */
int tx_budget_tick(Budget *b) { return count(b, 1); }

/* As tx_budget_tick, but the turn's cap and time do not stop it: a resumable run makes the safe moves of a
 * position it expands even past the end of its turn, so that it can pause only between the children of one. */
int tx_budget_count(Budget *b) { return count(b, 0); }

/* The next turn may make `size` more positions, and no more than `share` in all (-1: no share). */
void tx_budget_turn(Budget *b, long long size, long long share) {
    b->cap = b->nodes + size;
    if (share >= 0 && b->cap > share) b->cap = share;
    b->capped = 0;
}

/* Set `bytes` of the allowance aside for a part that keeps its own account (a table with its cap); 0, or -1 when
 * the allowance has no such room. The part gives them back with b->held -= bytes. */
int tx_budget_reserve(Budget *b, size_t bytes) {
    if (b->held + bytes > b->memory) return -1;
    b->held += bytes;
    return 0;
}

/* `bytes` of memory, zeroed when `zero`, held against the allowance; NULL when it or the system has no more. */
void *tx_budget_alloc(Budget *b, size_t bytes, int zero) {
    if (b->held + bytes > b->memory) return NULL;
    void *p = zero ? calloc(1, bytes) : malloc(bytes);
    if (p) b->held += bytes;
    return p;
}

void tx_budget_free(Budget *b, void *p, size_t bytes) {
    if (!p) return;
    free(p);
    b->held -= bytes;
}

/* Resize an array of `size`-byte items to exactly `ncap` (never smaller); 0, or -1 when memory runs out. */
int tx_budget_resize(Budget *b, void **buf, size_t *cap, size_t ncap, size_t size) {
    if (ncap <= *cap) return 0;
    if (b->held + (ncap - *cap) * size > b->memory) return -1;
    void *nb = realloc(*buf, ncap * size);
    if (!nb) return -1;
    b->held += (ncap - *cap) * size;
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* Grow an array of `size`-byte items to hold `need`, doubling from 1024; 0, or -1 when memory runs out. */
int tx_budget_grow(Budget *b, void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 1024;
    while (ncap < need) ncap *= 2;
    return tx_budget_resize(b, buf, cap, ncap, size);
}
