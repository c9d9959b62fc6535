/* Classic King Albert relaxed above a rank, searched to its end (relaxed.c): a loss proves the deal lost. */
#ifndef TABLEAUX_RELAXED_H
#define TABLEAUX_RELAXED_H

#include "budget.h"
#include "cards.h"

int tx_relaxed_search(const Pos *start, int kept, Budget *b);

#endif
