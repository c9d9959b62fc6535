/* The first pass's best-first run (bestfirst.c), kept between its turns. */
#ifndef TABLEAUX_BESTFIRST_H
#define TABLEAUX_BESTFIRST_H

#include "search.h"

typedef struct Best Best;

Best *tx_bestfirst_start(Search *s, size_t limit, int back);
int tx_bestfirst_run(Search *s, Best *b);
void tx_bestfirst_free(Best *b);

#endif
