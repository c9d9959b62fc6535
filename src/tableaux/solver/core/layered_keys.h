/*
 * Classic King Albert's layered search (solver/layered.py is the reference, and has the proofs): every
 * position, one class of positions at a time, where a class is what can never come back.
 *
 * Two things in the classic rules never come back: a reserve card put out (a cell never takes a card), and a
 * card lying on a card that is no legal parent for it, as dealt (nothing can ever be put there again). A
 * position's mask says which of those are still there; a move keeps the mask or takes bits from it. So the
 * positions of one mask (a class) can only reach their own class and classes with fewer bits, and the
 * search takes the classes in order of fewer and fewer bits: each needs its own positions in memory only,
 * and positions first met in a lower class wait there as seeds. A depth-first search with one table for
 * the whole space needs that table to hold every position; here the largest class is enough, a small
 * part of the space.
 *
 * A position is 16 bytes, exactly and canonically (tableau piles in any order give the same key): two bits
 * per card say what it lies on (its dealt card, the first or second card it may legally lie on, or nothing:
 * a pile's bottom card), the foundations' heights and the reserve cells left say where the rest are.
 *
 * Its modules, from the bottom: layered_keys.c (keys, steps and safe moves: this header), layered_disk.c
 * (sorted files of keys and seeds, for classes too big for the memory), layered_class.c (one class searched,
 * in memory or on disk), layered_line.c (a winning line put together), layered.c (the levels, and the search
 * as the solve calls it).
 */
#ifndef TABLEAUX_LAYERED_KEYS_H
#define TABLEAUX_LAYERED_KEYS_H

#include "hashset.h"
#include "king_albert.h"

typedef struct {
    uint64_t a, b;
} LKey;

/* What the start position fixes for the whole search (tx_lay_fix). */
typedef struct {
    int8_t pred[52];      /* the card that c lies on at the start when it is no legal parent for c (-1: none) */
    int8_t cell[52];      /* the reserve cell holding c at the start (-1: none) */
    uint8_t resv[7];
    uint8_t code[52][52]; /* what card c lying on b is: 0 its fixed card, 2 or 3 a legal parent, 9 neither */
} LayFix;

static inline int legal_on(int b, int c) {
    return b < 52 && c < 52 && tx_rank[b] == tx_rank[c] + 1 && tx_red[b] != tx_red[c];
}

static inline int get_code(const LKey *k, int c) {
    return c < 32 ? (int)(k->a >> (2 * c) & 3) : (int)(k->b >> (2 * (c - 32)) & 3);
}

static inline void set_code(LKey *k, int c, int code) {
    if (c < 32) k->a = (k->a & ~(3ULL << (2 * c))) | (uint64_t)code << (2 * c);
    else k->b = (k->b & ~(3ULL << (2 * (c - 32)))) | (uint64_t)code << (2 * (c - 32));
}

#define H_SHIFT 40 /* the foundations' heights, 4 bits a suit, from bit 40 of b; the cells left from bit 56 */
#define R_SHIFT 56

static inline int key_height(const LKey *k, int suit) { return (int)(k->b >> (H_SHIFT + 4 * suit) & 15); }

static inline int in_tableau(const LayFix *F, const LKey *k, int c) {
    if (tx_rank[c] <= key_height(k, tx_suit[c])) return 0;
    return F->cell[c] < 0 || !(k->b >> (R_SHIFT + F->cell[c]) & 1);
}

/* A table slot's mark (a bit no key uses): the position there has been expanded. The classes' tables are
 * scanned for unmarked slots instead of keeping a stack beside them, which could hold most of a class. */
#define MARK (1ULL << 63)

static inline uint64_t key_hash(const LKey *k) { return mix(k->a * 0x9E3779B97F4A7C15ULL ^ mix(k->b)); }

static inline int same_key(LKey x, LKey y) { return x.a == y.a && x.b == y.b; }

/* Tables of positions (hashset.h) whose slots start with a key that may carry its MARK: the class's table, and
 * a trace's. An all-zero key marks an empty slot: no key is zero, since every position has a pile's bottom card
 * (code 1) or a card home (height). */
static inline uint64_t lkey_home(const void *slot) {
    LKey k;
    memcpy(&k, slot, sizeof k);
    k.b &= ~MARK;
    return key_hash(&k);
}

static inline int lkey_empty(const void *slot) {
    const LKey *k = slot;
    return !(k->a | k->b);
}

static inline int lkey_holds(const void *slot, const void *key) {
    const LKey *e = slot, *k = key;
    return e->a == k->a && (e->b & ~MARK) == k->b;
}

/* The slot holding k (without its mark) in a table of `width`-byte slots, or the empty one where it would go. */
static inline void *lkey_find(const HashSet *s, size_t width, LKey k) {
    const HashKind kind = {width, lkey_home, lkey_empty};
    return hs_find(s, &kind, key_hash(&k), lkey_holds, &k);
}

/* Every slot into `slots` (n of them, zeroed); the old array, for the caller to free. */
static inline uint8_t *lkey_move(HashSet *s, size_t width, uint8_t *slots, size_t n) {
    const HashKind kind = {width, lkey_home, lkey_empty};
    return hs_move(s, &kind, slots, n);
}

int tx_lay_fix(LayFix *F, const Pos *start);
/* The mask: bit 52 + i for reserve cell i still full, bit c for card c still on its fixed card. */
uint64_t tx_lay_mask(const LayFix *F, const LKey *k);
int tx_lay_encode(const LayFix *F, const Pos *p, LKey *k, uint64_t *mask);
void tx_lay_decode(const LayFix *F, const LKey *k, Pos *p);
void tx_lay_play(const LayFix *F, Pos *p, LKey *k, uint64_t *m, Move mv, Undo *u);
int tx_lay_closure(const LayFix *F, Pos *p, LKey *k, uint64_t *m, Undo *u, Move *made);
int tx_lay_moves(const Pos *p, Move *out);

#endif
