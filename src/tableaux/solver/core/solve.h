/* The whole solve (solve.c): the first pass, then the complete search, on one thread or two. */
#ifndef TABLEAUX_SOLVE_H
#define TABLEAUX_SOLVE_H

#include "pass.h"

/* Which runs the solve makes, as the caller chose them (_core.c). */
typedef struct {
    PassPlan pass;         /* the first pass's runs */
    CompletePlan complete; /* the complete search */
    int stream_alone;      /* >= 0: the solve is one streamlined run of these STREAM_* kinds and nothing else */
    int after;             /* the complete search comes after the first pass instead of taking turns with it */
} Schedule;

int tx_solve(Search *s, const Schedule *o, long long max_nodes, double time_limit, int first_pass, int threads);

#endif
