/* The depth-first search's transposition table (table.c): exact keys, bounded memory. */
#ifndef TABLEAUX_TABLE_H
#define TABLEAUX_TABLE_H

#include "hashset.h"

#define SLOT_BITS ((1ULL << 58) - 1) /* the hash bits that choose a slot: room for 2^32 slots and more */
typedef struct {
    uint64_t hash; /* 0: empty slot */
    uint32_t off;
    uint8_t len, rank;
    uint8_t size; /* the bit length of the positions its search took once it was done; 0 until then */
} Slot;

typedef struct {
    HashSet set; /* of Slots */
    size_t max_used;
    uint8_t *arena;
    size_t arena_cap, arena_used;
    uint8_t *spare; /* tx_table_gc's copy of what it keeps, held from one collection to the next */
    size_t spare_cap;
    size_t cap;    /* bytes that slots and arena may take together, tx_table_gc's room included */
    size_t clears; /* times the table was full and emptied */
    size_t gcs;    /* times it was full and kept only the positions whose search took longest */
} Table;

#define KEY_MAX 112 /* the longest key (66 bytes, 68 with an obligation) and room for tx_ka_key's 16-byte copies */

int tx_table_init(Table *t, size_t cap);
size_t tx_table_bytes(const Table *t); /* what the slots and the keys take now */
void tx_table_free(Table *t);
void tx_table_clear(Table *t);
int tx_table_full(Table *t);
int tx_table_visit(Table *t, uint64_t hash, const uint8_t *key, int len, int rank);
int tx_table_seen(const Table *t, uint64_t hash, const uint8_t *key, int len, int rank);
void tx_table_done(Table *t, uint64_t hash, const uint8_t *key, int len, long long positions);
int tx_table_gc(Table *t, int shrink);

#endif
