/* King Albert relaxed above a rank (solver/relaxed.py is the reference, and has the proofs): a complete search of
 * an easier game whose loss proves the real deal lost.
 *
 * A card is a kind, as relaxed.py's kind(): rank * 8 + suit up to the rank kept apart, rank * 8 + 4 + red above
 * it, and RDOWN more while it lies face down (AisleRiot's rules). A position is the four foundations' heights (by suit), the reserve's kinds and the tableau's piles; its
 * key, exact and canonical, is the heights, the reserve sorted, a separator, and the piles sorted, each ended by
 * a zero. The search is depth first with every key kept in the solver's table (table.c), so it counts one
 * position per key kept, as the reference does, and a full table or stack ends it with "unknown".
 */
#include "relaxed.h"

#include "table.h"

#define RDOWN 0x80 /* a face-down card's kind has this bit more */

typedef struct {
    /* a pile has room past its 52 cards because relaxed_key copies it 16 bytes at a time */
    uint8_t pile[9][MAXCARDS + 12], len[9], res[7], height[4];
    int kept;       /* the rank kept apart */
    int builds;     /* AisleRiot's rules: builds move, and face-down cards turn up */
    uint64_t ph[9]; /* each pile's Zobrist hash (tx_zob by depth and kind), kept by take() and put() */
} RPos;

typedef struct {
    uint8_t src, dst; /* src: pile 0-8, cell 9-15, foundation 16-19; dst: pile 0-8, foundation 16-19 */
    uint8_t n;        /* the cards moved: more than one only from pile to pile (a build) */
    uint8_t flip;     /* set when made: the move turned the card below it up */
} RMove;

static inline int is_red_suit(int suit) { return tx_red[suit * 13]; } /* the suit's Ace's colour */
static inline int kind_rank(int k) { return k >> 3; }
static inline int kind_red(int k) { return (k & 7) >= 4 ? (k & 7) - 4 : is_red_suit(k & 7); }
static inline int kind_of(const RPos *p, int rank, int suit) {
    return rank <= p->kept ? rank * 8 + suit : rank * 8 + 4 + is_red_suit(suit);
}

static int source_card(const RPos *p, int s) {
    if (s < 9) return p->len[s] ? p->pile[s][p->len[s] - 1] : 0;
    if (s < 16) return p->res[s - 9];
    int h = p->height[s - 16];
    return h ? kind_of(p, h, s - 16) : 0;
}

/* relaxed.py's children(), as moves: an Ace home alone when one can go, then (the Twos kept apart) a Two; else every
 * move, less a pile's only card to an empty pile, a card to any empty pile but the first, and an Ace taken back (or
 * a Two, the Twos kept apart). Under AisleRiot's rules a
 * pile's face-up cards move from any of them up, a whole pile never to an empty one; each source's builds come
 * after its moves home, the shortest first. At most 5 moves a card (two foundations, or two piles whose top takes
 * it and an empty one: a kind below the other colour's next rank is one of two cards): MOVES_MAX. */
static int relaxed_moves(const RPos *p, RMove *out) {
    int n = 0, empty = -1, top[20], want_rank[9], want_red[9];
    for (int s = 0; s < 20; s++) top[s] = source_card(p, s);
    int low = p->kept >= 2 ? 2 : 1; /* the ranks that go home at once and never come back */
    for (int r = 1; r <= low; r++)
        for (int s = 0; s < 16; s++)
            if (top[s] && kind_rank(top[s]) == r && p->height[top[s] & 7] == r - 1) {
                out[0] = (RMove){(uint8_t)s, (uint8_t)(16 + (top[s] & 7)), 1, 0};
                return 1;
            }
    for (int i = 0; i < 9; i++) { /* what each pile takes: the rank below its top's, of the other colour */
        want_rank[i] = top[i] ? kind_rank(top[i]) - 1 : -1;
        want_red[i] = top[i] ? !kind_red(top[i]) : -1;
        if (!top[i] && empty < 0) empty = i;
    }
    for (int s = 0; s < 20; s++) {
        int k = top[s];
        if (!k || (s >= 16 && kind_rank(k) <= low)) continue;
        int r = kind_rank(k), red = kind_red(k);
        if (s < 16)
            for (int f = 0; f < 4; f++)
                if (p->height[f] == r - 1 && (r <= p->kept ? f == (k & 7) : is_red_suit(f) == red))
                    out[n++] = (RMove){(uint8_t)s, (uint8_t)(16 + f), 1, 0};
        for (int c = 1;; c++) { /* the top card, then under AisleRiot's rules each build below it */
            for (int i = 0; i < 9; i++)
                if (want_rank[i] == r && want_red[i] == red && i != s)
                    out[n++] = (RMove){(uint8_t)s, (uint8_t)i, (uint8_t)c, 0};
            if (empty >= 0 && !(s < 9 && p->len[s] == c)) out[n++] = (RMove){(uint8_t)s, (uint8_t)empty, (uint8_t)c, 0};
            if (!p->builds || s >= 9 || c == p->len[s] || p->pile[s][p->len[s] - c - 1] & RDOWN) break;
            k = p->pile[s][p->len[s] - c - 1];
            r = kind_rank(k), red = kind_red(k);
        }
    }
    return n;
}

static int take(RPos *p, int s) {
    if (s < 9) {
        int k = p->pile[s][--p->len[s]];
        p->ph[s] ^= tx_zob[p->len[s]][k];
        return k;
    }
    if (s < 16) {
        int k = p->res[s - 9];
        p->res[s - 9] = 0;
        return k;
    }
    int k = source_card(p, s);
    p->height[s - 16]--;
    return k;
}

static void put(RPos *p, int d, int k) {
    if (d < 9) {
        p->ph[d] ^= tx_zob[p->len[d]][k];
        p->pile[d][p->len[d]++] = (uint8_t)k;
    }
    else if (d < 16) p->res[d - 9] = (uint8_t)k;
    else p->height[d - 16]++;
}

/* Turns pile i's top card over, up or down. */
static void turn(RPos *p, int i) {
    uint8_t *k = &p->pile[i][p->len[i] - 1];
    p->ph[i] ^= tx_zob[p->len[i] - 1][*k] ^ tx_zob[p->len[i] - 1][*k ^ RDOWN];
    *k ^= RDOWN;
}

/* Makes move m, the card below it turned up where one is face down (noted in m->flip). */
static void make(RPos *p, RMove *m) {
    int k[MAXCARDS];
    for (int i = 0; i < m->n; i++) k[i] = take(p, m->src);
    for (int i = m->n; i-- > 0;) put(p, m->dst, k[i]);
    m->flip = m->src < 9 && p->len[m->src] && p->pile[m->src][p->len[m->src] - 1] & RDOWN;
    if (m->flip) turn(p, m->src);
}

/* Takes move m, made, back. */
static void unmake(RPos *p, const RMove *m) {
    int k[MAXCARDS];
    if (m->flip) turn(p, m->src);
    for (int i = 0; i < m->n; i++) k[i] = take(p, m->dst);
    for (int i = m->n; i-- > 0;) put(p, m->src, k[i]);
}

/* The piles' canonical order: by their hashes, and by their cards where two hashes are equal, so that two piles
 * come in one order whatever their places (equal piles give the same key either way). */
static int pile_before(const RPos *p, int a, int b) {
    if (p->ph[a] != p->ph[b]) return p->ph[a] < p->ph[b];
    int la = p->len[a], lb = p->len[b], c = memcmp(p->pile[a], p->pile[b], (size_t)(la < lb ? la : lb));
    return c < 0 || (c == 0 && la < lb);
}

/* The canonical key; returns its length. Its hash adds up terms of the heights, the cells and the piles, so it
 * does not depend on their order and needs no pass over the key's bytes. */
static int relaxed_key(const RPos *p, uint8_t *key, uint64_t *hash) {
    int n = 0, order[9], cells[7], nc = 0;
    uint64_t h = mix(((uint64_t)p->height[0] << 24 | (uint64_t)p->height[1] << 16 | (uint64_t)p->height[2] << 8 |
                      p->height[3]) ^ tx_salt[1]);
    for (int f = 0; f < 4; f++) key[n++] = p->height[f];
    for (int i = 0; i < 7; i++)
        if (p->res[i]) {
            h += mix(p->res[i] ^ tx_salt[3]);
            int j = nc++;
            for (; j > 0 && cells[j - 1] > p->res[i]; j--) cells[j] = cells[j - 1];
            cells[j] = p->res[i];
        }
    for (int i = 0; i < nc; i++) key[n++] = (uint8_t)cells[i];
    key[n++] = 0xFF;
    for (int i = 0; i < 9; i++) {
        h += mix(p->ph[i] ^ tx_salt[2]);
        int j = i;
        for (; j > 0 && pile_before(p, i, order[j - 1]); j--) order[j] = order[j - 1];
        order[j] = i;
    }
    for (int i = 0; i < 9; i++) { /* whole words of 16 bytes: the key's buffer has KEY_SLACK bytes to spare */
        const uint8_t *cards = p->pile[order[i]];
        int len = p->len[order[i]];
        for (int o = 0; o < len; o += 16) memcpy(key + n + o, cards + o, 16);
        n += len;
        key[n++] = 0;
    }
    *hash = mix(h);
    return n;
}

#define KEY_SLACK 16 /* what relaxed_key's copies of 16 bytes may write past the key's end */
#define MOVES_MAX 320 /* more than a position has: 5 for each of at most 56 cards that can move (relaxed_moves) */

typedef struct {
    size_t begin, next, end; /* this position's moves in the move stack: the next one to try, and the end */
} RFrame;

static int relaxed_won(const RPos *p) { return p->height[0] + p->height[1] + p->height[2] + p->height[3] == 52; }

/* The relaxed position of a real one, in its places (relaxed.py's relaxed_parts). */
static void relaxed_from(const Pos *start, int kept, RPos *p) {
    memset(p, 0, sizeof *p);
    p->kept = kept;
    p->builds = start->game == GAME_KA;
    for (int f = 0; f < 4; f++)
        if (start->n[f]) p->height[tx_suit[start->c[f][0] & 63]] = start->n[f];
    for (int i = 0; i < 9; i++) {
        for (int j = 0; j < start->n[KA_T0 + i]; j++) {
            int c = start->c[KA_T0 + i][j];
            p->pile[i][j] = (uint8_t)(kind_of(p, tx_rank[c], tx_suit[c]) | (c & DOWN ? RDOWN : 0));
            p->ph[i] ^= tx_zob[j][p->pile[i][j]];
        }
        p->len[i] = start->n[KA_T0 + i];
    }
    for (int i = 0; i < 7; i++) {
        int c = start->c[KA_R0 + i][0] & 63;
        p->res[i] = start->n[KA_R0 + i] ? (uint8_t)kind_of(p, tx_rank[c], tx_suit[c]) : 0;
    }
}

/* The relaxed game from `start`, searched to its end within the budget (its positions, deadline and memory): 1
 * lost (the real deal too), 0 won (says nothing), -1 unknown (out of positions, time or memory: the budget's
 * flags say which). Its positions are the keys it kept, counted in b->nodes. */
int tx_relaxed_search(const Pos *start, int kept, Budget *b) {
    RPos p;
    relaxed_from(start, kept, &p);
    Table t;
    size_t table_cap = b->memory - b->memory / 4; /* the table's part of the allowance; the stacks have the rest */
    if (tx_budget_reserve(b, table_cap) || tx_table_init(&t, table_cap)) {
        b->out_of_memory = 1;
        return -1;
    }
    size_t fcap = 1024, mcap = 1 << 14, depth = 0, top;
    RFrame *fr = tx_budget_alloc(b, fcap * sizeof *fr, 0);
    RMove *mv = tx_budget_alloc(b, mcap * sizeof *mv, 0);
    uint8_t key[KEY_MAX + KEY_SLACK];
    uint64_t hash;
    int result = -1, len = relaxed_key(&p, key, &hash);
    if (!fr || !mv || tx_table_full(&t)) goto out_of_memory;
    tx_table_visit(&t, hash, key, len, 0);
    b->nodes = 1;
    top = (size_t)relaxed_moves(&p, mv);
    fr[0] = (RFrame){0, 0, top};
    for (;;) {
        if (relaxed_won(&p)) {
            result = 0;
            break;
        }
        RFrame *f = &fr[depth];
        if (f->next == f->end) {
            if (depth == 0) {
                result = 1;
                break;
            }
            top = f->begin;
            f = &fr[--depth];
            unmake(&p, &mv[f->next - 1]);
            continue;
        }
        RMove *m = &mv[f->next++], *last = depth ? &mv[fr[depth - 1].next - 1] : NULL;
        if (last && m->src == last->dst && m->dst == last->src && m->n == last->n && !last->flip)
            continue; /* it undoes the move that made this position: its child is the one before, in the table */
        make(&p, m);
        len = relaxed_key(&p, key, &hash);
        if (tx_table_full(&t)) goto out_of_memory;
        if (tx_table_visit(&t, hash, key, len, 0)) {
            unmake(&p, m);
            continue;
        }
        if (tx_budget_tick(b)) break;
        if (++depth == fcap && tx_budget_resize(b, (void **)&fr, &fcap, fcap * 2, sizeof *fr)) goto out_of_memory;
        if (top + MOVES_MAX > mcap && tx_budget_resize(b, (void **)&mv, &mcap, mcap * 2, sizeof *mv)) goto out_of_memory;
        size_t n = (size_t)relaxed_moves(&p, mv + top);
        fr[depth] = (RFrame){top, top, top + n};
        top += n;
    }
    goto done;
out_of_memory:
    b->out_of_memory = 1;
    result = -1;
done:
    tx_budget_free(b, fr, fcap * sizeof *fr);
    tx_budget_free(b, mv, mcap * sizeof *mv);
    tx_table_free(&t);
    b->held -= table_cap;
    return result;
}

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

/* An open position's slot, found again by its hash and key (the slots move when they grow). */
static VSlot *vopen_slot(const RelaxedVerdicts *v, VOpen o) {
    return vfind(v, o.hash, v->arena + o.off + 1, v->arena[o.off]);
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
    relaxed_from(real, v->kept, &p);
    uint8_t key[KEY_MAX + KEY_SLACK];
    uint64_t hash;
    int len = relaxed_key(&p, key, &hash);
    VSlot *s = vfind(v, hash |= !hash, key, len); /* hash 0 marks an empty slot */
    if (s->hash && s->val != VAL_UNKNOWN) return s->val == VAL_LOST;
    if (v->full || tx_budget_count(b)) return 0;
    uint32_t idx = 0;
    size_t depth = 0, top = 0;
    if (venter(v, s, hash, key, len, idx) || tx_budget_grow(&v->mem, (void **)&v->fr, &v->fcap, 1, sizeof *v->fr))
        goto full;
    v->positions++;
    if (relaxed_won(&p)) goto live;
    if (tx_budget_grow(&v->mem, (void **)&v->mv, &v->mcap, MOVES_MAX, sizeof *v->mv)) goto full;
    top = (size_t)relaxed_moves(&p, v->mv);
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
            unmake(&p, &v->mv[f->next - 1]);
            continue;
        }
        RMove *m = &v->mv[f->next++];
        make(&p, m);
        len = relaxed_key(&p, key, &hash);
        s = vfind(v, hash |= !hash, key, len);
        if (s->hash && s->val != VAL_UNKNOWN) {
            if (s->val == VAL_LIVE) goto live; /* the line reaches a live position */
            if (s->val >= VAL_OPEN && s->val - VAL_OPEN < f->low) f->low = s->val - VAL_OPEN;
            unmake(&p, m);
            continue;
        }
        if (tx_budget_count(b)) goto cut;
        size_t sbase = v->sn;
        if (venter(v, s, hash, key, len, ++idx)) goto full;
        v->positions++;
        if (relaxed_won(&p)) goto live;
        if (tx_budget_grow(&v->mem, (void **)&v->fr, &v->fcap, depth + 2, sizeof *v->fr) ||
            tx_budget_grow(&v->mem, (void **)&v->mv, &v->mcap, top + MOVES_MAX, sizeof *v->mv))
            goto full;
        size_t n = (size_t)relaxed_moves(&p, v->mv + top);
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
