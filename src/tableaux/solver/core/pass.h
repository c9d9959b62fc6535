/* The first pass (pass.c): runs over restricted spaces that only look for wins, on a share of the budget. */
#ifndef TABLEAUX_PASS_H
#define TABLEAUX_PASS_H

#include "complete.h"

/* Which runs the first pass makes, as the caller chose them (_core.c). */
typedef struct {
    int oblige;     /* classic King Albert: a reserve card put on the tableau is covered at once (every run) */
    int best_first; /* the pass takes turns with a best-first run (bestfirst.c) */
    int chain_runs; /* classic King Albert: the pass makes chained runs too */
    int streams[4], nstreams; /* its streamlined runs' kinds (STREAM_*), in turn */
} PassPlan;

int tx_first_pass(Search *s, const PassPlan *plan, Complete *complete, double start, double time_limit,
                  int beside);
int tx_streamlined_run(Search *s, const PassPlan *plan, const Pos *start, int kinds, long long size,
                       long long share, int resume);

#endif
