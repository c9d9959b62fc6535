/* The whole solve (solve.c): the first pass, then the complete search, on one thread or two. */
#ifndef TABLEAUX_SOLVE_H
#define TABLEAUX_SOLVE_H

#include "layered.h"
#include "pass.h"

/* Which runs the solve makes, as the caller chose them (_core.c). */
typedef struct {
    PassPlan pass;      /* the first pass's runs (and `oblige`, which every run keeps to) */
    long long restarts; /* the complete search restarts (solve.c's complete), first with this many positions; 0: not */
    int layered;        /* classic King Albert: the complete search is layered.c's, not a depth-first one */
    LayDisk disk;       /* the files the layered search may write */
    int stream_alone;   /* >= 0: the solve is one streamlined run of these STREAM_* kinds and nothing else */
} Schedule;

/* The first run of the restarted complete search, in positions; each run after it may make twice as many. */
#define RESTART_FROM 250000LL

int tx_solve(Search *s, const Schedule *o, long long max_nodes, double time_limit, int first_pass, int threads);

#endif
