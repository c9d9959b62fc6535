/*
 * Relaxed verdicts (verdicts.py's RelaxedVerdicts is the reference, and has the proofs): the relaxed game's
 * positions, each known lost or live, for the complete search to drop every real position whose relaxed
 * position is lost. A position asked about and not known yet is searched from, depth first, with Tarjan's
 * strongly connected components: a component finished without reaching a win is lost, every position of it; a
 * win reached, or a live position, makes every position still open (they all reach the line being searched) live.
 * So every position searched is known when the query ends, and no position is searched twice across queries.
 * A query cut short (out of room, or by the budget) leaves its open positions unknown: not dropped, and searched
 * again by a later query once there is room (tx_verdicts_room).
 */
#include "verdicts.h"

#include "hashset.h"
#include "relaxed.h"
#include "table.h" /* KEY_MAX */

typedef struct {
    uint64_t hash; /* 0: empty */
    uint32_t off;  /* its key in the arena: a length byte, then the key */
    uint32_t val;  /* VAL_LOST, VAL_LIVE, VAL_UNKNOWN, or VAL_OPEN + its index while its query searches */
} VSlot;

/* VAL_UNKNOWN: a query cut short (for room, or by the budget) left it open; it is searched again when asked. */
enum { VAL_LOST = 1, VAL_LIVE = 2, VAL_UNKNOWN = 3, VAL_OPEN = 4 };

typedef struct {
    size_t begin, next, end; /* its moves in the move stack */
    uint32_t idx, low;       /* Tarjan's index and low link */
    size_t sbase;            /* the Tarjan stack's height when it was entered: its component is what lies above */
} VFrame;

typedef struct {
    uint64_t hash;
    uint32_t off;
} VOpen;

struct RelaxedVerdicts {
    int kept;
    int full; /* out of room: positions not known yet are not searched (the search keeps them) */
    HashSet set;
    size_t max_used;
    uint8_t *arena;
    size_t arena_cap, arena_used;
    Budget mem; /* its memory alone: what the slots, the keys and the stacks may take together, and hold */
    VFrame *fr;
    size_t fcap;
    RMove *mv;
    size_t mcap;
    VOpen *stack; /* the Tarjan stack: the open positions */
    size_t scap, sn;
    long long positions; /* relaxed positions searched */
};

static uint64_t vslot_home(const void *slot) { return ((const VSlot *)slot)->hash; }
static int vslot_empty(const void *slot) { return !((const VSlot *)slot)->hash; }
static const HashKind VSLOTS = {sizeof(VSlot), vslot_home, vslot_empty};

typedef struct {
    uint64_t hash;
    const uint8_t *key, *arena;
    int len;
} VQuery;

static int vslot_holds(const void *slot, const void *query) {
    const VSlot *s = slot;
    const VQuery *q = query;
    return s->hash == q->hash && q->arena[s->off] == q->len && !memcmp(q->arena + s->off + 1, q->key, (size_t)q->len);
}

static VSlot *vfind(const RelaxedVerdicts *v, uint64_t hash, const uint8_t *key, int len) {
    VQuery q = {hash, key, v->arena, len};
    return hs_find(&v->set, &VSLOTS, hash, vslot_holds, &q);
}

/* Relaxed position p's hash, key and length, and its slot (or the empty one where it would go). The slot is
 * fetched into the cache while the key is made. */
static VSlot *vlook(const RelaxedVerdicts *v, const RPos *p, uint8_t *key, uint64_t *hash, int *len) {
    *hash = tx_relaxed_hash(p);
    __builtin_prefetch(v->set.slots + (*hash & v->set.mask) * sizeof(VSlot));
    *len = tx_relaxed_key(p, key);
    return vfind(v, *hash, key, *len);
}

/* Room for one more position (slots and key); 0, or -1 when the memory is spent. */
static int vroom(RelaxedVerdicts *v) {
    if (v->set.used >= v->max_used) {
        size_t n = (v->set.mask + 1) * 2;
        uint8_t *ns = tx_budget_alloc(&v->mem, n * sizeof(VSlot), 1); /* the old slots and the new, for a while */
        if (!ns) return -1;
        tx_budget_free(&v->mem, hs_move(&v->set, &VSLOTS, ns, n), n / 2 * sizeof(VSlot));
        v->max_used = n / 10 * 7;
    }
    if (v->arena_used + KEY_MAX + 1 <= v->arena_cap) return 0;
    size_t n = v->arena_cap * 2;
    if (n > 0xFFFFFF00u) return -1; /* offsets are 32-bit */
    return tx_budget_resize(&v->mem, (void **)&v->arena, &v->arena_cap, n, 1);
}

RelaxedVerdicts *tx_verdicts_new(int kept, size_t cap) {
    RelaxedVerdicts *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->kept = kept;
    tx_budget_init(&v->mem, -1, 0, cap);
    v->set.slots = tx_budget_alloc(&v->mem, 4096 * sizeof(VSlot), 1);
    v->set.mask = 4095;
    v->max_used = 4096 / 10 * 7;
    v->arena = tx_budget_alloc(&v->mem, 1 << 16, 0);
    v->arena_cap = v->arena ? 1 << 16 : 0;
    if (!v->set.slots || !v->arena) {
        tx_verdicts_free(v);
        return NULL;
    }
    return v;
}

void tx_verdicts_free(RelaxedVerdicts *v) {
    if (!v) return;
    free(v->set.slots);
    free(v->arena);
    free(v->fr);
    free(v->mv);
    free(v->stack);
    free(v);
}

long long tx_verdicts_positions(const RelaxedVerdicts *v) { return v->positions; }

/* More room (never less): positions left unknown for want of room are searched again when asked. */
void tx_verdicts_room(RelaxedVerdicts *v, size_t cap) {
    if (cap <= v->mem.memory) return;
    v->mem.memory = cap;
    v->full = 0;
}

static int vslot_at(const void *slot, const void *open) {
    const VSlot *s = slot;
    const VOpen *o = open;
    return s->hash == o->hash && s->off == o->off;
}

/* An open position's slot, found again by its hash and its key's place in the arena, which is its own (the slots
 * move when they grow; the keys stay). */
static VSlot *vopen_slot(const RelaxedVerdicts *v, VOpen o) {
    return hs_find(&v->set, &VSLOTS, o.hash, vslot_at, &o);
}

/* The open positions from `from` up become `val`, and leave the Tarjan stack. */
static void vsettle(RelaxedVerdicts *v, size_t from, uint32_t val) {
    for (size_t i = from; i < v->sn; i++) vopen_slot(v, v->stack[i])->val = val;
    v->sn = from;
}

/* A position, open with index `idx`, onto the Tarjan stack: into the table when new (`s` is its empty slot), or
 * searched again when unknown (`s` is its slot). -1 out of room. */
static int venter(RelaxedVerdicts *v, VSlot *s, uint64_t hash, const uint8_t *key, int len, uint32_t idx) {
    if (tx_budget_grow(&v->mem, (void **)&v->stack, &v->scap, v->sn + 1, sizeof *v->stack)) return -1;
    if (!s->hash) {
        if (vroom(v)) return -1;
        s = vfind(v, hash, key, len); /* vroom may have moved the slots */
        *s = (VSlot){hash, (uint32_t)v->arena_used, 0};
        v->arena[v->arena_used] = (uint8_t)len;
        memcpy(v->arena + v->arena_used + 1, key, (size_t)len);
        v->arena_used += (size_t)len + 1;
        v->set.used++;
    }
    s->val = VAL_OPEN + idx;
    v->stack[v->sn++] = (VOpen){hash, s->off};
    return 0;
}

/* Whether the relaxed position of real position `real` is lost (1), or live or not known (0). Each position searched
 * to answer is counted first, as the depth-first search counts its own, with tx_budget_count (the turn's cap does
 * not stop a query): a budget that runs out ends the query, its open positions live. */
int tx_verdicts_lost(RelaxedVerdicts *v, const Pos *real, Budget *b) {
    RPos p;
    tx_relaxed_from(real, v->kept, &p);
    uint8_t key[KEY_MAX + RELAXED_KEY_SLACK];
    uint64_t hash;
    int len;
    VSlot *s = vlook(v, &p, key, &hash, &len);
    if (s->hash && s->val != VAL_UNKNOWN) return s->val == VAL_LOST;
    if (v->full || tx_budget_count(b)) return 0;
    uint32_t idx = 0;
    size_t depth = 0, top = 0;
    if (venter(v, s, hash, key, len, idx) || tx_budget_grow(&v->mem, (void **)&v->fr, &v->fcap, 1, sizeof *v->fr))
        goto full;
    v->positions++;
    if (tx_relaxed_won(&p)) goto live;
    if (tx_budget_grow(&v->mem, (void **)&v->mv, &v->mcap, RELAXED_MOVES_MAX, sizeof *v->mv)) goto full;
    top = (size_t)tx_relaxed_moves(&p, v->mv);
    v->fr[0] = (VFrame){0, 0, top, idx, idx, 0};
    for (;;) {
        VFrame *f = &v->fr[depth];
        if (f->next == f->end) {
            if (f->low == f->idx) vsettle(v, f->sbase, VAL_LOST); /* a whole component, none of it reaching a win */
            if (depth == 0) return 1;                              /* the root's component, the last one */
            uint32_t low = f->low;
            top = f->begin;
            f = &v->fr[--depth];
            if (low < f->low) f->low = low;
            tx_relaxed_unmake(&p, &v->mv[f->next - 1]);
            continue;
        }
        RMove *m = &v->mv[f->next++], *last = depth ? &v->mv[v->fr[depth - 1].next - 1] : NULL;
        if (last && tx_relaxed_undoes(m, last)) {
            /* it undoes the move that made this position: its child is the position below, open on the stack,
             * and a link to it is all the child would give (about one child in six) */
            if (v->fr[depth - 1].idx < f->low) f->low = v->fr[depth - 1].idx;
            continue;
        }
        tx_relaxed_make(&p, m);
        s = vlook(v, &p, key, &hash, &len);
        if (s->hash && s->val != VAL_UNKNOWN) {
            if (s->val == VAL_LIVE) goto live; /* the line reaches a live position */
            if (s->val >= VAL_OPEN && s->val - VAL_OPEN < f->low) f->low = s->val - VAL_OPEN;
            tx_relaxed_unmake(&p, m);
            continue;
        }
        if (tx_budget_count(b)) goto cut;
        size_t sbase = v->sn;
        if (venter(v, s, hash, key, len, ++idx)) goto full;
        v->positions++;
        if (tx_relaxed_won(&p)) goto live;
        if (tx_budget_grow(&v->mem, (void **)&v->fr, &v->fcap, depth + 2, sizeof *v->fr) ||
            tx_budget_grow(&v->mem, (void **)&v->mv, &v->mcap, top + RELAXED_MOVES_MAX, sizeof *v->mv))
            goto full;
        size_t n = (size_t)tx_relaxed_moves(&p, v->mv + top);
        v->fr[++depth] = (VFrame){top, top, top + n, idx, idx, sbase};
        top += n;
    }
live: /* every open position reaches the line being searched, and so what it reached */
    vsettle(v, 0, VAL_LIVE);
    return 0;
full:
    v->full = 1;
cut: /* nothing is known of the open positions: a later query searches them again */
    vsettle(v, 0, VAL_UNKNOWN);
    return 0;
}
