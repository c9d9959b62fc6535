/* The relaxed verdicts (verdicts.c): the relaxed game asked position by position, so that the complete search drops
 * every position whose relaxed position is lost. */
#ifndef TABLEAUX_VERDICTS_H
#define TABLEAUX_VERDICTS_H

#include "budget.h"
#include "cards.h"

typedef struct RelaxedVerdicts RelaxedVerdicts;
RelaxedVerdicts *tx_verdicts_new(int kept, size_t cap);
void tx_verdicts_free(RelaxedVerdicts *v);
int tx_verdicts_lost(RelaxedVerdicts *v, const Pos *real, Budget *b);
long long tx_verdicts_positions(const RelaxedVerdicts *v);
void tx_verdicts_room(RelaxedVerdicts *v, size_t cap);

#endif
