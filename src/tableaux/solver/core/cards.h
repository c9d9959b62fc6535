/*
 * The solver's C core, bottom layer: cards, piles and positions, their hashing, and the move records every
 * other part uses. The modules above it, each with its own header, in the order they build on each other:
 *
 *   cards         card tables, Zobrist words, positions, moves (this file)
 *   king_albert   King Albert's rules and search strategy (both rule sets); eagle_wing: Eagle Wing's
 *   game          one game or the other (header only)
 *   hashset       the one hash set every table of the searches is made of (header only)
 *   table         the depth-first search's transposition table (exact keys, bounded memory)
 *   budget        what a search may spend: positions, a deadline, memory
 *   shorten       a winning line's cycles and detours cut (detours.py's passes)
 *   polish        the greedy best-first search for a shorter line (shortest.py's polish), King Albert
 *   search        one depth-first run
 *   bestfirst     the first pass's best-first run
 *   relaxed       classic King Albert relaxed above a rank, searched to its end
 *   layered_keys, layered_disk, layered_class, layered_line, layered: classic King Albert's layered search
 *   pass          the first pass: its streamlined, depth-first, chained and best-first turns
 *   solve         the whole solve: the first pass, the complete search, two threads
 *   ../_core_args Python's values read into the core's records and written back
 *   ../_core.c    the Python module's functions
 *
 * A module includes only the headers of modules below it, and calls only into them (tests/solver/test_core_modules.py
 * holds both). Every symbol with external linkage is named tx_*; the build hides them all (only PyInit__core is
 * exported).
 */
#ifndef TABLEAUX_CARDS_H
#define TABLEAUX_CARDS_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { GAME_KA = 0, GAME_KA_CLASSIC = 1, GAME_EW = 2 };
enum { V_WINNABLE = 0, V_UNWINNABLE = 1, V_UNKNOWN = 2 };

#define DOWN 64
#define MAXPILES 20
#define MAXCARDS 52

/* King Albert's piles. */
#define KA_NPILES 20
#define KA_T0 4
#define KA_T1 13 /* tableau is 4..12 */
#define KA_R0 13 /* reserve is 13..19 */

/* Eagle Wing's piles. */
#define EW_NPILES 15
#define EW_STOCK 0
#define EW_WASTE 1
#define EW_F0 2 /* foundations 2..5 */
#define EW_RESERVE 10
#define EW_LIMIT 3
#define EW_MAX_REDEALS 2

typedef struct {
    uint8_t src, cnt, dst;
} Move;

typedef struct {
    int game;
    int npiles;
    uint8_t n[MAXPILES];
    uint8_t c[MAXPILES][MAXCARDS];
    int redeals;
    uint64_t ph[MAXPILES]; /* per-pile Zobrist hash */
    uint64_t hash;         /* sum over piles of mix(class salt ^ ph) */
} Pos;

/* What it takes to unmake a move. */
typedef struct {
    Move m;
    uint8_t flags;    /* UNDO_* */
    uint8_t orig[3];  /* Eagle Wing: the moved cards' bytes before they were turned up */
    uint8_t refill;   /* Eagle Wing: the reserve card's byte before the refill */
    uint8_t dealt;    /* Eagle Wing: the stock card's byte before it was dealt */
    uint64_t hash;
    uint64_t ph[3]; /* src, dst, Eagle Wing's reserve */
} Undo;

#define UNDO_FLIP 1
#define UNDO_REFILL 2

/* Card tables, by card byte (face-down cards included): filled once by tx_init_tables. */
extern uint8_t tx_rank[128], tx_suit[128], tx_red[128];
extern uint8_t tx_colour[128]; /* the card with the two suits of its colour as one (tx_ka_hash_suits) */
extern int tx_next_up[128], tx_next_down[128];
extern uint64_t tx_zob[MAXCARDS + 1][256]; /* Zobrist words: one per depth in a pile and card (or relaxed kind) */
extern uint64_t tx_salt[8];                /* one per kind of pile, and a few for other hashes */


uint64_t tx_splitmix(uint64_t *s);
void tx_init_tables(void);
void tx_rehash(Pos *p);

/* Which interchangeable kind a pile belongs to: piles of one kind share a salt. */
static inline int pile_class(int game, int i) {
    if (game == GAME_EW) {
        if (i == EW_STOCK) return 4;
        if (i == EW_WASTE) return 5;
        if (i >= EW_F0 && i < EW_F0 + 4) return 1;
        if (i == EW_RESERVE) return 3;
        return 2;
    }
    if (i < KA_T0) return 1;
    if (i < KA_R0) return 2;
    return 3;
}

/* Cards home per suit, from the four foundations from pile f0 on, each holding one suit. */
static inline void suit_heights(const Pos *p, int f0, int h[4]) {
    h[0] = h[1] = h[2] = h[3] = 0;
    for (int f = f0; f < f0 + 4; f++)
        if (p->n[f]) h[tx_suit[p->c[f][0]]] = p->n[f];
}

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static inline uint64_t pile_term(const Pos *p, int i) {
    return mix(p->ph[i] ^ tx_salt[pile_class(p->game, i)]);
}

/* Card pushes and pops keep the pile hash; the position hash is settled per move. */
static inline void push_card(Pos *p, int i, uint8_t card) {
    p->ph[i] ^= tx_zob[p->n[i]][card];
    p->c[i][p->n[i]++] = card;
}

static inline uint8_t pop_card(Pos *p, int i) {
    uint8_t card = p->c[i][--p->n[i]];
    p->ph[i] ^= tx_zob[p->n[i]][card];
    return card;
}

static inline void set_card(Pos *p, int i, int d, uint8_t card) {
    p->ph[i] ^= tx_zob[d][p->c[i][d]] ^ tx_zob[d][card];
    p->c[i][d] = card;
}

static inline int top(const Pos *p, int i) { return p->c[i][p->n[i] - 1]; }

/* A King Albert position packed for keeping (the best-first runs, the polish): the pile lengths, then the cards
 * pile by pile, KA_PACKED bytes at most; the bytes written. */
enum { KA_PACKED = KA_NPILES + MAXCARDS };
static inline size_t ka_pack(const Pos *p, uint8_t *r) {
    size_t o = KA_NPILES;
    for (int i = 0; i < KA_NPILES; i++) {
        r[i] = p->n[i];
        memcpy(r + o, p->c[i], p->n[i]);
        o += p->n[i];
    }
    return o;
}

/* The piles of a packed position into `p` (its game set already), hashed afresh. */
static inline void ka_unpack(Pos *p, const uint8_t *r) {
    size_t o = KA_NPILES;
    for (int i = 0; i < KA_NPILES; i++) {
        p->n[i] = r[i];
        memcpy(p->c[i], r + o, r[i]);
        o += r[i];
    }
    tx_rehash(p);
}

static inline void add(Move *out, int *n, int s, int k, int d) {
    out[*n].src = (uint8_t)s;
    out[*n].cnt = (uint8_t)k;
    out[*n].dst = (uint8_t)d;
    (*n)++;
}

typedef struct {
    int a, b;
    Move m;
} Scored;

/* Write the scored moves into mv, best (lowest a, then b) first, ties in generation order; their count. */
int tx_ordered(Scored *s, int n, Move *mv);

#endif
