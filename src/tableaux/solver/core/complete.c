/* The complete search (complete.h): whole, or in turns. */
#include "complete.h"

void tx_complete_start(Complete *c, Search *s, const CompletePlan *plan) {
    *c = (Complete){.s = s, .plan = *plan, .result = -1};
}

/*
 * Go on with the complete search for `size` more of its positions (-1: until its budget says stop): 1 when it
 * won (its undo stack holds the line), 0 when it searched its whole space (the deal is lost), -1 when undecided
 * (the turn is over, or its budget or memory: the budget's flags say which). It is one depth-first search in the
 * plain move order, paused between turns (docs/notes/solver-experiments.md has why it is not restarted).
 */
int tx_complete_turn(Complete *c, long long size) {
    Search *s = c->s;
    Budget *b = &s->budget;
    if (c->result >= 0) return c->result;
    b->cap = size >= 0 ? b->nodes + size : -1;
    int r = tx_search_run(s, (RunSpec){.oblige = c->plan.oblige, .resume = 1}); /* a paused search goes on */
    return r >= 0 ? (c->result = r) : -1;
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
