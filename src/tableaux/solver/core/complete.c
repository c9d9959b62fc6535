/* The complete search (complete.h): whole, or in turns. */
#include "complete.h"

/* Whether a complete search of `p` as `plan` says has relaxed verdicts (King Albert's depth-first one). */
int tx_complete_has_verdicts(const CompletePlan *plan, const Pos *p) {
    return plan->verdicts && p->game != GAME_EW && !plan->layered;
}

void tx_complete_start(Complete *c, Search *s, const CompletePlan *plan) {
    *c = (Complete){.s = s, .plan = *plan, .result = -1};
    if (tx_complete_has_verdicts(plan, &s->pos)) {
        c->verdicts = tx_verdicts_new(plan->verdicts, s->budget.memory / 2);
        tx_complete_memory(c);
    }
}

/* The relaxed verdicts may hold half of the complete search's memory, taken from the rest: called when it starts
 * and when the first pass ends and hands over its memory. The hardest deals' relaxed games need it (classic
 * 3622411542: 10 s with half of 1 GiB beside the first pass, open at 30 s with a quarter). */
void tx_complete_memory(Complete *c) {
    if (!c->verdicts) return;
    size_t want = (c->s->budget.memory + c->held) / 2;
    if (want <= c->held) return;
    c->s->budget.memory -= want - c->held;
    c->held = want;
    tx_verdicts_room(c->verdicts, want);
    tx_search_share_memory(c->s);
}

/* The relaxed verdicts' memory back to the search. */
void tx_complete_end(Complete *c) {
    if (!c->verdicts) return;
    tx_verdicts_free(c->verdicts);
    c->verdicts = NULL;
    c->s->budget.memory += c->held;
    c->held = 0;
    tx_search_share_memory(c->s);
}

/* RunSpec.prune: the relaxed verdicts, asked once the complete search has made plan.verdicts_from positions (a deal
 * it decides sooner would pay for a relaxed game bigger than its own search). */
static int prune_lost(void *ctx, const Pos *p, Budget *b) {
    Complete *c = ctx;
    return b->nodes >= c->plan.verdicts_from && tx_verdicts_lost(c->verdicts, p, b);
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
    RunSpec how = {.oblige = c->plan.oblige, .resume = 1, .prune = c->verdicts ? prune_lost : NULL, .prune_ctx = c};
    int r = tx_search_run(s, how); /* a paused search goes on */
    return r >= 0 ? (c->result = r) : -1;
}

/* Whether the relaxed verdicts prove `p` lost, asked now, whatever plan.verdicts_from says; the relaxed positions
 * count in the complete search's budget, as its own queries' do. 0 without verdicts, or when live or not known. */
int tx_complete_lost(Complete *c, const Pos *p) { return c->verdicts && tx_verdicts_lost(c->verdicts, p, &c->s->budget); }

/* The whole complete search from s's position: 1 won, 0 lost, -1 stopped (budget, time or memory). */
int tx_complete_run(Search *s, const CompletePlan *plan) {
    if (plan->layered) return tx_layered_run(s, plan->disk);
    Complete c;
    tx_complete_start(&c, s, plan);
    int r;
    do r = tx_complete_turn(&c, plan->turns > 0 ? plan->turns : -1);
    while (r < 0 && s->line.paused);
    tx_complete_end(&c);
    tx_search_abandon(s);
    s->budget.cap = -1;
    return r;
}
