/*
 * The complete search (complete.c): the one whose verdict is a proof. The depth-first search with its own table,
 * or classic King Albert's layered search; run to its end in one go, or (the depth-first one) in
 * turns between the first pass's, each going on exactly where the one before stopped.
 */
#ifndef TABLEAUX_COMPLETE_H
#define TABLEAUX_COMPLETE_H

#include "layered.h"
#include "verdicts.h"

/* How the complete search searches, as the caller chose it (_core.c). */
typedef struct {
    int oblige;         /* classic King Albert: a reserve card put on the tableau is covered at once */
    int layered;        /* classic King Albert: it is the layered search (which has no turns) */
    LayDisk disk;       /* the files the layered search may write */
    long long turns;    /* alone, it is still made in turns of this many positions (tests: that changes nothing); 0:
                           in one go */
    int verdicts;       /* King Albert: the rank kept apart by the relaxed verdicts (verdicts.c) that drop
                           the positions they prove lost; 0: none */
    long long verdicts_from; /* the verdicts are asked once the search has made this many positions */
} CompletePlan;

/* A complete search made in turns. */
typedef struct {
    Search *s;          /* its own position, table and line; its budget counts its own positions */
    CompletePlan plan;
    int result;         /* 1 won, 0 exhausted (lost), -1 undecided */
    RelaxedVerdicts *verdicts; /* with plan.verdicts: the relaxed game's lost positions, in `held` bytes taken from
                                  the search's memory */
    size_t held;
} Complete;

int tx_complete_run(Search *s, const CompletePlan *plan);
int tx_complete_has_verdicts(const CompletePlan *plan, const Pos *p);
void tx_complete_start(Complete *c, Search *s, const CompletePlan *plan);
int tx_complete_turn(Complete *c, long long size);
int tx_complete_lost(Complete *c, const Pos *p);
void tx_complete_memory(Complete *c);
void tx_complete_end(Complete *c);

#endif
