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
 */
#ifndef TABLEAUX_LAYERED_H
#define TABLEAUX_LAYERED_H

#include "king_albert.h"

typedef struct {
    uint64_t a, b;
} LKey;

/* A position first met from another class: from is the class it came from (NO_CLASS for the start). In 20
 * bytes, the key as four 32-bit words (seed_key): the seeds are most of what the search holds. */
#define NO_CLASS UINT32_MAX
typedef struct {
    uint32_t k[4];
    uint32_t from;
} Seed;

static inline LKey seed_key(const Seed *s) {
    LKey k;
    memcpy(&k, s->k, sizeof k);
    return k;
}

static inline Seed make_seed(LKey k, uint32_t from) {
    Seed s;
    memcpy(s.k, &k, sizeof k);
    s.from = from;
    return s;
}

typedef struct {
    uint64_t mask;
    size_t begin, end; /* its seeds in the level's array */
    int on_disk;       /* it outgrew the memory and was searched on disk (layered_disk.c) */
} Class;

typedef struct {
    uint32_t level, index; /* where a class lies: L->lev[level].classes[index] */
} ClassId;

typedef struct {
    Seed *seeds; /* NULL once searched and parked on disk (layered_disk.c: lay_disk_park) */
    size_t n, cap;
    Class *classes;
    size_t nclasses, classes_cap;
    void *pending;     /* with a disk: the FILE its seeds go to until the level is searched */
    long long parked;  /* with a disk: the file holding its seeds once searched (-1: none) */
} Level;

#define NLEVELS 60 /* 7 reserve cells and at most 51 dealt cards on another */

typedef struct {
    Search *s;
    int8_t pred[52];     /* the card that c lies on at the start when it is no legal parent for c (-1: none) */
    int8_t cell[52];     /* the reserve cell holding c at the start (-1: none) */
    uint8_t resv[7];
    uint8_t code[52][52]; /* what card c lying on b is: 0 its fixed card, 2 or 3 a legal parent, 9 neither */
    Level lev[NLEVELS];
    size_t used;          /* bytes held, against s->memory */
    /* the class being searched */
    LKey *set;      /* open addressing; a slot's MARK bit: its position has been expanded */
    size_t set_mask, set_n, set_moves; /* set_moves: times it grew, which moves every slot */
    uint64_t mask;
    int level;     /* the bits in its mask */
    uint32_t id;   /* its number, in the order classes are searched */
    ClassId *ids;  /* every class's place, by number */
    size_t nids, ids_cap;
    int won;
    LKey won_key;    /* the won position */
    uint32_t won_in; /* the class it was made in */
    int oom, stopped;
    int broken; /* a move added to a mask: impossible (layered.py proves it), and the search would be unsound */
    struct Disk *disk; /* layered_disk.c's files, once a class outgrows the memory */
    size_t disk_cap;   /* bytes they may take (0: the search keeps to its memory) */
    int on_disk;       /* the class being searched is on disk: its children go to lay_disk_add */
    int scan_only;     /* a trace on disk looks for its target only */
    int spill;         /* the class's table ran out of memory: search it on disk instead */
    LKey pending;      /* a child waiting for its slot, fetched meanwhile (emit, put_pending) */
    int has_pending;
    struct Trace *trace; /* while a winning line is put together: see layered_line.c */
} Layered;


/* While a winning line is put together (trace), a class is searched again and each position notes the one
 * it came from, until the target is met. */
typedef struct {
    LKey k, from; /* k's MARK bit: expanded */
} Traced;

typedef struct Trace {
    Traced *t;
    size_t mask, n, moves; /* moves: times it grew */
    LKey target; /* a position of another class, or the won one */
    int found;
    LKey found_from; /* the position that made it */
} Trace;

/* ---- keys (layered_keys.c) */

static inline int legal_on(int b, int c) { return b < 52 && c < 52 && RANK[b] == RANK[c] + 1 && RED[b] != RED[c]; }

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

static inline int in_tableau(const Layered *L, const LKey *k, int c) {
    if (RANK[c] <= key_height(k, SUIT[c])) return 0;
    return L->cell[c] < 0 || !(k->b >> (R_SHIFT + L->cell[c]) & 1);
}

/* A table slot's mark (a bit no key uses): the position there has been expanded. The classes' tables are
 * scanned for unmarked slots instead of keeping a stack beside them, which could hold most of a class. */
#define MARK (1ULL << 63)

static inline uint64_t key_hash(const LKey *k) { return mix(k->a * 0x9E3779B97F4A7C15ULL ^ mix(k->b)); }

/* The mask: bit 52 + i for reserve cell i still full, bit c for card c still on its fixed card. */
uint64_t lay_mask(const Layered *L, const LKey *k);
int lay_encode(const Layered *L, const Pos *p, LKey *k, uint64_t *mask);
void lay_decode(const Layered *L, const LKey *k, Pos *p);

/* ---- moves (layered_keys.c) */
void lplay(const Layered *L, Pos *p, LKey *k, uint64_t *m, Move mv, Undo *u);
int lay_closure(const Layered *L, Pos *p, LKey *k, uint64_t *m, Undo *u, Move *made);
int lay_moves(const Pos *p, Move *out);

/* ---- memory and the search (layered.c) */
void *lmalloc(Layered *L, size_t bytes, int zero);
void lfree(Layered *L, void *p, size_t bytes);
int lresize(Layered *L, void **buf, size_t *cap, size_t ncap, size_t size);
int lgrow(Layered *L, void **buf, size_t *cap, size_t need, size_t size);
int lay_expand(Layered *L, const LKey *k);

/* ---- classes on disk (layered_disk.c) */
int lay_disk_add(Layered *L, LKey k);
int lay_disk_class(Layered *L, Level *v, Class *c);
int lay_disk_trace(Layered *L, Level *v, Class *c, Trace *T, LKey **path, size_t *np, size_t *cap, uint32_t *origin);
void lay_disk_close(Layered *L);
size_t lay_disk_bytes(const Layered *L);
int lay_disk_seed(Layered *L, Level *v, Seed s);
int lay_disk_unpark(Layered *L, Level *v);
int lay_disk_park(Layered *L, Level *v);
const Seed *lay_class_seeds(Layered *L, Level *v, const Class *c, Seed **held);
void lay_drop_seeds(Layered *L, const Class *c, Seed *held);

/* ---- the winning line (layered_line.c) */
int lay_trace_add(Layered *L, Trace *T, LKey k, LKey from);
int lay_line(Layered *L, const Move *made, int nmade);

#endif
