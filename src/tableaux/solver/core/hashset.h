/*
 * The one hash set of the core (header only): open addressing with linear probing over a power-of-two array of
 * fixed-size slots, an all-empty slot marking the end of a probe. Every table of the searches is one: the
 * depth-first search's transposition table (table.c), the best-first run's positions seen (bestfirst.c), the
 * layered search's class table, trace and class map (layered_class.c, layered.c).
 *
 * What a slot holds is the user's (a HashKind says how big it is, how an empty one looks and the hash a filled
 * one is placed by), and so are the memory and when to grow: the user hands hs_move a new zeroed array. The
 * functions are inline, so each use compiles to code for its own slots, as if written for them alone.
 */
#ifndef TABLEAUX_HASHSET_H
#define TABLEAUX_HASHSET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    size_t width;                       /* bytes a slot */
    uint64_t (*hash)(const void *slot); /* a filled slot's hash: its probe starts at hash & mask */
    int (*empty)(const void *slot);     /* 1 for an empty slot; a zeroed one must be */
} HashKind;

typedef struct {
    uint8_t *slots;
    size_t mask; /* the slots less one: a power of two less one */
    size_t used; /* filled slots */
} HashSet;

static inline void *hs_slot(const HashSet *s, const HashKind *k, size_t i) { return s->slots + i * k->width; }

/* The slot that holds the key (as `same` recognises it), or the empty slot where it would go, probing from `hash`
 * (the hash its slot would be placed by). */
static inline void *hs_find(const HashSet *s, const HashKind *k, uint64_t hash,
                            int (*same)(const void *slot, const void *key), const void *key) {
    for (size_t i = hash & s->mask;; i = (i + 1) & s->mask) {
        void *slot = hs_slot(s, k, i);
        if (k->empty(slot) || same(slot, key)) return slot;
    }
}

/* A copy of filled slot `from`, whose key the set does not hold, in the first empty slot of its probe; where. */
static inline void *hs_place(HashSet *s, const HashKind *k, const void *from) {
    size_t i = k->hash(from) & s->mask;
    while (!k->empty(hs_slot(s, k, i))) i = (i + 1) & s->mask;
    return memcpy(hs_slot(s, k, i), from, k->width);
}

/* Every filled slot moved into `slots` (n of them, zeroed, n a power of two), which the set keeps from now on;
 * the old array, for the caller to free. */
static inline uint8_t *hs_move(HashSet *s, const HashKind *k, uint8_t *slots, size_t n) {
    HashSet old = *s;
    s->slots = slots;
    s->mask = n - 1;
    for (size_t i = 0; i <= old.mask; i++)
        if (!k->empty(hs_slot(&old, k, i))) hs_place(s, k, hs_slot(&old, k, i));
    return old.slots;
}

#endif
