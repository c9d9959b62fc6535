/* The complete search (complete.h): whole, or in turns. */
#include "complete.h"

void tx_complete_start(Complete *c, Search *s, const CompletePlan *plan) {
    *c = (Complete){.s = s, .plan = *plan, .size = plan->restarts, .run_end = -1, .result = -1};
}

/*
 * Go on with the complete search for `size` more of its positions (-1: until its budget says stop): 1 when it
 * won (its undo stack holds the line), 0 when it searched its whole space (the deal is lost), -1 when undecided
 * (the turn is over, or its budget or memory: the budget's flags say which).
 *
 * With restarts (classic King Albert) it runs again and again with a shaken move order and twice the positions
 * each time: a wrong turn near the root can hold a depth-first search for most of its budget. Each run starts
 * from an empty table, so each is a whole depth-first search of its own, and one that searches its space to the
 * end decides, as the plain search does. (Keeping the positions earlier runs had finished is not sound: a
 * position finished while one of its successors was on the line being searched, and so not searched again from
 * it, can be kept as lost when its only wins go through that successor. Classic deal 4545 with runs from 16
 * positions was called lost that way: tests/solver/test_backends.py.) A turn may end inside a run (the run
 * pauses) or at its end (the next run starts with the next turn).
 */
int tx_complete_turn(Complete *c, long long size) {
    Search *s = c->s;
    Budget *b = &s->budget;
    if (c->result >= 0) return c->result;
    long long turn_end = size >= 0 ? b->nodes + size : -1;
    for (;;) {
        if (c->plan.restarts && c->run_end >= 0 && b->nodes >= c->run_end) { /* that run is over: the next one */
            c->k++;
            c->size *= 2;
            c->run_end = -1;
            tx_search_abandon(s); /* the paused run is over; the next one starts from an empty table */
        }
        if (c->plan.restarts && c->run_end < 0) c->run_end = b->nodes + c->size;
        long long cap = turn_end;
        if (c->plan.restarts && (cap < 0 || c->run_end < cap)) cap = c->run_end;
        b->cap = cap;
        /* a new run starts from an empty table; a paused one goes on */
        int r = tx_search_run(s, (RunSpec){.restart = c->k, .oblige = c->plan.oblige,
                                          .resume = 1});
        if (r >= 0) return c->result = r;
        if (!s->line.paused) return -1; /* its budget, time or memory is spent */
        if (!(c->plan.restarts && b->nodes >= c->run_end) || (turn_end >= 0 && b->nodes >= turn_end)) return -1;
    }
}

/* The whole complete search from s's position: 1 won, 0 lost, -1 stopped (budget, time or memory). */
int tx_complete_run(Search *s, const CompletePlan *plan) {
    if (plan->layered) return tx_layered_run(s, plan->disk);
    Complete c;
    tx_complete_start(&c, s, plan);
    int r;
    do r = tx_complete_turn(&c, plan->turns > 0 ? plan->turns : -1);
    while (r < 0 && s->line.paused);
    tx_search_abandon(s);
    s->budget.cap = -1;
    return r;
}
