/* Classic King Albert's layered search, as the solve calls it (layered.c; layered_keys.h has the design). */
#ifndef TABLEAUX_LAYERED_H
#define TABLEAUX_LAYERED_H

#include "search.h"

/* The files the layered search may write for classes too big for its memory (layered_disk.c). */
typedef struct {
    size_t bytes;       /* how many bytes (0: no files) */
    long long spill_at; /* a class whose table passes this many positions goes on disk (-1: only when the memory is
                           full; 0: every class, which tests use) */
} LayDisk;

int tx_layered_run(Search *s, LayDisk disk);
int tx_layered_key(const Pos *start, const Pos *p, uint8_t out[16], uint64_t *mask);

#endif
