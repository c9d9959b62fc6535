/* King Albert relaxed above a rank, searched to its end (relaxed.c): a loss proves the deal lost. */
#ifndef TABLEAUX_RELAXED_H
#define TABLEAUX_RELAXED_H

#include "budget.h"
#include "cards.h"

int tx_relaxed_search(const Pos *start, int kept, Budget *b);

typedef struct RelaxedVerdicts RelaxedVerdicts;
RelaxedVerdicts *tx_verdicts_new(int kept, size_t cap);
void tx_verdicts_free(RelaxedVerdicts *v);
int tx_verdicts_lost(RelaxedVerdicts *v, const Pos *real, Budget *b);
long long tx_verdicts_positions(const RelaxedVerdicts *v);
void tx_verdicts_room(RelaxedVerdicts *v, size_t cap);

#endif
