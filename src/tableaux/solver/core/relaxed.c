/* King Albert relaxed above a rank (solver/relaxed.py is the reference, and has the proofs): a complete search of
 * an easier game whose loss proves the real deal lost.
 *
 * A card is a kind, as relaxed.py's kind(): rank * 8 + suit up to the rank kept apart, rank * 8 + 4 + red above
 * it, and RDOWN more while it lies face down (AisleRiot's rules). A position is the four foundations' heights (by
 * suit), the reserve's kinds and the tableau's piles; its key, exact and canonical, is the heights, the reserve
 * sorted, a separator, and the piles sorted, each ended by a zero. The search is depth first with every key kept
 * in the solver's table (table.c), so it counts one position per key kept, as the reference does, and a full
 * table or stack ends it with "unknown". The relaxed verdicts (verdicts.c) search the same positions with the
 * same moves.
 */
#include "relaxed.h"

#include "table.h"

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
 * a Two, the Twos kept apart). Every move home comes first, so that a query of a live position (verdicts.c) meets a
 * win sooner: on the roots of 1,300 fresh King Albert deals the median search took 450 positions instead of 1,134.
 * Under AisleRiot's rules a pile's face-up cards move from any of them up, a whole pile never to an empty one, the
 * top card first and then each build below it, the shortest first. At most 5 moves a card (two foundations, or two
 * piles whose top takes it and an empty one: a kind below the other colour's next rank is one of two cards):
 * RELAXED_MOVES_MAX. */
int tx_relaxed_moves(const RPos *p, RMove *out) {
    int n = 0, empty = -1, top[20];
    unsigned takes[32] = {0}; /* by kind_rank * 2 + red: the piles whose top takes such a card, a bit each */
    for (int s = 0; s < 20; s++) top[s] = source_card(p, s);
    int low = p->kept >= 2 ? 2 : 1; /* the ranks that go home at once and never come back */
    for (int r = 1; r <= low; r++)
        for (int s = 0; s < 16; s++)
            if (top[s] && kind_rank(top[s]) == r && p->height[top[s] & 7] == r - 1) {
                out[0] = (RMove){(uint8_t)s, (uint8_t)(16 + (top[s] & 7)), 1, 0};
                return 1;
            }
    for (int i = 0; i < 9; i++) { /* what each pile takes: the rank below its top's, of the other colour */
        if (top[i]) takes[(kind_rank(top[i]) - 1) * 2 + !kind_red(top[i])] |= 1u << i;
        else if (empty < 0) empty = i;
    }
    for (int s = 0; s < 16; s++) {
        int k = top[s];
        if (!k) continue;
        int r = kind_rank(k), red = kind_red(k);
        for (int f = 0; f < 4; f++)
            if (p->height[f] == r - 1 && (r <= p->kept ? f == (k & 7) : is_red_suit(f) == red))
                out[n++] = (RMove){(uint8_t)s, (uint8_t)(16 + f), 1, 0};
    }
    for (int s = 0; s < 20; s++) {
        int k = top[s];
        if (!k || (s >= 16 && kind_rank(k) <= low)) continue;
        int r = kind_rank(k), red = kind_red(k);
        for (int c = 1;; c++) { /* the top card, then under AisleRiot's rules each build below it */
            for (unsigned piles = takes[r * 2 + red] & ~(1u << s); piles; piles &= piles - 1)
                out[n++] = (RMove){(uint8_t)s, (uint8_t)__builtin_ctz(piles), (uint8_t)c, 0};
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

/* The top n cards of `from` onto `to`, in their order. */
static void shift(RPos *p, int from, int to, int n) {
    int k[MAXCARDS];
    for (int i = 0; i < n; i++) k[i] = take(p, from);
    for (int i = n; i-- > 0;) put(p, to, k[i]);
}

/* Makes move m, the card below it turned up where one is face down (noted in m->flip). */
void tx_relaxed_make(RPos *p, RMove *m) {
    shift(p, m->src, m->dst, m->n);
    m->flip = m->src < 9 && p->len[m->src] && p->pile[m->src][p->len[m->src] - 1] & RDOWN;
    if (m->flip) turn(p, m->src);
}

/* Takes move m, made, back. */
void tx_relaxed_unmake(RPos *p, const RMove *m) {
    if (m->flip) turn(p, m->src);
    shift(p, m->dst, m->src, m->n);
}

/* The piles' canonical order: by their hashes, and by their cards where two hashes are equal, so that two piles
 * come in one order whatever their places (equal piles give the same key either way). */
static int pile_before(const RPos *p, int a, int b) {
    if (p->ph[a] != p->ph[b]) return p->ph[a] < p->ph[b];
    int la = p->len[a], lb = p->len[b], c = memcmp(p->pile[a], p->pile[b], (size_t)(la < lb ? la : lb));
    return c < 0 || (c == 0 && la < lb);
}

/* The position's hash: it adds up terms of the heights, the cells and the piles, so it does not depend on their
 * order, and it comes before the key, so that a caller can fetch the key's slot while the key is made. */
uint64_t tx_relaxed_hash(const RPos *p) {
    uint64_t h = mix(((uint64_t)p->height[0] << 24 | (uint64_t)p->height[1] << 16 | (uint64_t)p->height[2] << 8 |
                      p->height[3]) ^ tx_salt[1]);
    for (int i = 0; i < 7; i++)
        if (p->res[i]) h += mix(p->res[i] ^ tx_salt[3]);
    for (int i = 0; i < 9; i++) h += mix(p->ph[i] ^ tx_salt[2]);
    h = mix(h);
    return h | !h; /* 0 marks an empty slot in the tables */
}

/* The canonical key; returns its length. Its piles come in pile_before's order. */
int tx_relaxed_key(const RPos *p, uint8_t *key) {
    int n = 0, cells[7], nc = 0;
    for (int f = 0; f < 4; f++) key[n++] = p->height[f];
    for (int i = 0; i < 7; i++)
        if (p->res[i]) {
            int j = nc++;
            for (; j > 0 && cells[j - 1] > p->res[i]; j--) cells[j] = cells[j - 1];
            cells[j] = p->res[i];
        }
    for (int i = 0; i < nc; i++) key[n++] = (uint8_t)cells[i];
    key[n++] = 0xFF;
    /* Each pile's place is the number of piles before it, counted without a branch (a sort's branches were most of
     * the key's time); only two piles with one hash, not both empty (a 64-bit collision), need their cards. */
    int place[9] = {0}, tie = 0, order[9];
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++) {
            place[i] += p->ph[j] < p->ph[i];
            place[j] += p->ph[i] <= p->ph[j];
            tie |= p->ph[i] == p->ph[j] && (p->len[i] | p->len[j]);
        }
    for (int i = 0; i < 9; i++) order[place[i]] = i;
    if (tie)
        for (int i = 1; i < 9; i++) {
            int pile = order[i], j = i;
            for (; j > 0 && pile_before(p, pile, order[j - 1]); j--) order[j] = order[j - 1];
            order[j] = pile;
        }
    for (int i = 0; i < 9; i++) { /* whole words of 16 bytes: the key's buffer has RELAXED_KEY_SLACK bytes to spare */
        const uint8_t *cards = p->pile[order[i]];
        int len = p->len[order[i]];
        for (int o = 0; o < len; o += 16) memcpy(key + n + o, cards + o, 16);
        n += len;
        key[n++] = 0;
    }
    return n;
}

typedef struct {
    size_t begin, next, end; /* this position's moves in the move stack: the next one to try, and the end */
} RFrame;

/* The relaxed position of a real one, in its places (relaxed.py's relaxed_parts). */
void tx_relaxed_from(const Pos *start, int kept, RPos *p) {
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
    tx_relaxed_from(start, kept, &p);
    Table t;
    size_t table_cap = b->memory - b->memory / 4; /* the table's part of the allowance; the stacks have the rest */
    if (tx_budget_reserve(b, table_cap) || tx_table_init(&t, table_cap)) {
        b->out_of_memory = 1;
        return -1;
    }
    size_t fcap = 1024, mcap = 1 << 14, depth = 0, top;
    RFrame *fr = tx_budget_alloc(b, fcap * sizeof *fr, 0);
    RMove *mv = tx_budget_alloc(b, mcap * sizeof *mv, 0);
    uint8_t key[KEY_MAX + RELAXED_KEY_SLACK];
    uint64_t hash = tx_relaxed_hash(&p);
    int result = -1, len = tx_relaxed_key(&p, key);
    if (!fr || !mv || tx_table_full(&t)) goto out_of_memory;
    tx_table_visit(&t, hash, key, len, 0);
    b->nodes = 1;
    top = (size_t)tx_relaxed_moves(&p, mv);
    fr[0] = (RFrame){0, 0, top};
    for (;;) {
        if (tx_relaxed_won(&p)) {
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
            tx_relaxed_unmake(&p, &mv[f->next - 1]);
            continue;
        }
        RMove *m = &mv[f->next++], *last = depth ? &mv[fr[depth - 1].next - 1] : NULL;
        if (last && m->src == last->dst && m->dst == last->src && m->n == last->n && !last->flip)
            continue; /* it undoes the move that made this position: its child is the one before, in the table */
        tx_relaxed_make(&p, m);
        hash = tx_relaxed_hash(&p);
        len = tx_relaxed_key(&p, key);
        if (tx_table_full(&t)) goto out_of_memory;
        if (tx_table_visit(&t, hash, key, len, 0)) {
            tx_relaxed_unmake(&p, m);
            continue;
        }
        if (tx_budget_tick(b)) break;
        if (++depth == fcap && tx_budget_resize(b, (void **)&fr, &fcap, fcap * 2, sizeof *fr)) goto out_of_memory;
        if (top + RELAXED_MOVES_MAX > mcap && tx_budget_resize(b, (void **)&mv, &mcap, mcap * 2, sizeof *mv))
            goto out_of_memory;
        size_t n = (size_t)tx_relaxed_moves(&p, mv + top);
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
