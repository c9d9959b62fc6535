/* King Albert relaxed above a rank (solver/relaxed.py is the reference, and has the proofs): a complete search of
 * an easier game whose loss proves the real deal lost.
 *
 * A card is a kind, as relaxed.py's kind(): rank * 8 + suit up to the rank kept apart, rank * 8 + 4 + red above
 * it, and RDOWN more while it lies face down (AisleRiot's rules). A position is the four foundations' heights (by
 * suit), the reserve's kinds and the tableau's piles; its key, exact and canonical, is the heights, the reserve's
 * kinds sorted, and the piles sorted, each ended by a zero (tx_relaxed_key). The search is depth first with every
 * key kept in the solver's table (table.c), so it counts one position per key kept, as the reference does, and a
 * full table or stack ends it with "unknown". The relaxed verdicts (verdicts.c) search the same positions with the
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
    int low = p->kept >= 2 ? 2 : 1, two = -1; /* the ranks that go home at once and never come back */
    for (int s = 0; s < 16; s++) { /* the first Ace that can go, else the first Two (a rank kept apart: its suit) */
        int k = top[s], r = kind_rank(k);
        if (!r || r > low || p->height[k & 7] != r - 1) continue;
        if (r == 1) {
            out[0] = (RMove){(uint8_t)s, (uint8_t)(16 + (k & 7)), 1, 0};
            return 1;
        }
        if (two < 0) two = s;
    }
    if (two >= 0) {
        out[0] = (RMove){(uint8_t)two, (uint8_t)(16 + (top[two] & 7)), 1, 0};
        return 1;
    }
    for (int i = 0; i < 9; i++) { /* what each pile takes: the rank below its top's, of the other colour */
        if (top[i]) takes[(kind_rank(top[i]) - 1) * 2 + !kind_red(top[i])] |= 1u << i;
        else if (empty < 0) empty = i;
    }
    int next[4]; /* the kind each foundation takes next (none past the King, nor a face-down card) */
    for (int f = 0; f < 4; f++) next[f] = kind_of(p, p->height[f] + 1, f);
    for (int s = 0; s < 16; s++)
        for (int f = 0; f < 4; f++)
            if (top[s] == next[f]) out[n++] = (RMove){(uint8_t)s, (uint8_t)(16 + f), 1, 0};
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

/* take() and put() keep the piles' hashes and the sorted cells; the moves keep the hash's terms (update_term). */
static int take(RPos *p, int s) {
    if (s < 9) {
        int k = p->pile[s][--p->len[s]];
        p->ph[s] ^= tx_zob[p->len[s]][k];
        return k;
    }
    if (s < 16) { /* out of the sorted cells too: the ones before it move up, an empty one first */
        int k = p->res[s - 9], j = 6;
        p->res[s - 9] = 0;
        while (p->cells[j] != k) j--;
        for (; j > 0; j--) p->cells[j] = p->cells[j - 1];
        p->cells[0] = 0;
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
    else if (d < 16) { /* into the sorted cells too, in an empty one's place */
        int j = 0;
        p->res[d - 9] = (uint8_t)k;
        for (; j < 6 && p->cells[j + 1] < k; j++) p->cells[j] = p->cells[j + 1];
        p->cells[j] = (uint8_t)k;
    }
    else p->height[d - 16]++;
}

/* Place s's term of tx_relaxed_hash made again, and the sum with it: a pile's or a cell's (a foundation's is in the
 * heights' term, made with the hash). Only the places a move changes are made again: the whole sum was a sixth of
 * a relaxed search's time. */
static inline void update_term(RPos *p, int s) {
    if (s >= 16) return;
    uint64_t t = s < 9 ? mix(p->ph[s] ^ tx_salt[2]) : p->res[s - 9] ? mix(p->res[s - 9] ^ tx_salt[3]) : 0;
    p->sum += t - p->term[s];
    p->term[s] = t;
}

/* Turns pile i's top card over, up or down. */
static void turn(RPos *p, int i) {
    uint8_t *k = &p->pile[i][p->len[i] - 1];
    p->ph[i] ^= tx_zob[p->len[i] - 1][*k] ^ tx_zob[p->len[i] - 1][*k ^ RDOWN];
    *k ^= RDOWN;
}

/* The top n cards of `from` onto `to`, in their order: a pile's to a pile card by card with both hashes, else one
 * card. */
static void shift(RPos *p, int from, int to, int n) {
    if (from < 9 && to < 9) {
        int lf = p->len[from] - n, lt = p->len[to];
        for (int i = 0; i < n; i++) {
            int k = p->pile[from][lf + i];
            p->ph[from] ^= tx_zob[lf + i][k];
            p->ph[to] ^= tx_zob[lt + i][k];
            p->pile[to][lt + i] = (uint8_t)k;
        }
        p->len[from] = (uint8_t)lf;
        p->len[to] = (uint8_t)(lt + n);
        return;
    }
    put(p, to, take(p, from));
}

/* Makes move m, the card below it turned up where one is face down (noted in m->flip). */
void tx_relaxed_make(RPos *p, RMove *m) {
    shift(p, m->src, m->dst, m->n);
    m->flip = m->src < 9 && p->len[m->src] && p->pile[m->src][p->len[m->src] - 1] & RDOWN;
    if (m->flip) turn(p, m->src);
    update_term(p, m->src);
    update_term(p, m->dst);
}

/* Takes move m, made, back. */
void tx_relaxed_unmake(RPos *p, const RMove *m) {
    if (m->flip) turn(p, m->src);
    shift(p, m->dst, m->src, m->n);
    update_term(p, m->src);
    update_term(p, m->dst);
}

/* The piles' canonical order: by their hashes, and by their cards where two hashes are equal (two empty piles, or a
 * 64-bit collision), so that two piles come in one order whatever their places (equal piles give the same key
 * either way). */
static inline int pile_before(const RPos *p, int a, int b) {
    if (p->ph[a] != p->ph[b]) return p->ph[a] < p->ph[b];
    int la = p->len[a], lb = p->len[b], c = memcmp(p->pile[a], p->pile[b], (size_t)(la < lb ? la : lb));
    return c < 0 || (c == 0 && la < lb);
}

/* The position's hash: it adds up terms of the heights, the cells and the piles, so it does not depend on their
 * order, and it comes before the key, so that a caller can fetch the key's slot while the key is made. The cells'
 * and the piles' terms are kept in p->sum by the moves that change them. */
uint64_t tx_relaxed_hash(const RPos *p) {
    uint64_t h = mix(((uint64_t)p->height[0] << 24 | (uint64_t)p->height[1] << 16 | (uint64_t)p->height[2] << 8 |
                      p->height[3]) ^ tx_salt[1]);
    h = mix(h + p->sum);
    return h | !h; /* 0 marks an empty slot in the tables */
}

/* Two words in order, by conditional moves: no branch to mispredict. */
#define SORT2(a, b)                                      \
    do {                                                 \
        uint64_t lo_ = a < b ? a : b, hi_ = a ^ b ^ lo_; \
        a = lo_;                                         \
        b = hi_;                                         \
    } while (0)

/* Nine words sorted by Floyd's network of 25 compare-exchanges (tests/solver/test_relaxed.py checks by the 0-1
 * principle that these pairs sort), written out so that the words stay in registers. */
static inline void sort9(uint64_t *w) {
    uint64_t a = w[0], b = w[1], c = w[2], d = w[3], e = w[4], f = w[5], g = w[6], h = w[7], i = w[8];
    SORT2(a, b); SORT2(d, e); SORT2(g, h); SORT2(b, c); SORT2(e, f); SORT2(h, i); SORT2(a, b); SORT2(d, e);
    SORT2(g, h); SORT2(a, d); SORT2(d, g); SORT2(a, d); SORT2(b, e); SORT2(e, h); SORT2(b, e); SORT2(c, f);
    SORT2(f, i); SORT2(c, f); SORT2(b, d); SORT2(f, h); SORT2(c, g); SORT2(e, g); SORT2(c, e); SORT2(c, d);
    SORT2(f, g);
    w[0] = a, w[1] = b, w[2] = c, w[3] = d, w[4] = e, w[5] = f, w[6] = g, w[7] = h, w[8] = i;
}

/* The canonical key; returns its length: the heights by suit, the cells' kinds sorted (7 bytes, the empty ones
 * first), and the piles in pile_before's order, each ended by a zero (no kind is 0). The piles are sorted as words
 * of their hash's top 60 bits and their place in the low 4, by a network without branches (ranking the nine
 * piles by 36 comparisons was a third of a relaxed search's instructions, and an insertion sort's mispredicted
 * branches cost more than it saved). Two neighbours with the same top 60 bits are two empty piles (whose hash is
 * 0), or a collision, rare, where pile_before's cards decide. */
int tx_relaxed_key(const RPos *p, uint8_t *key) {
    memcpy(key, p->height, 4);
    memcpy(key + 4, p->cells, 8); /* the eighth byte is overwritten below */
    int n = 11;
    uint64_t w[9];
    for (int i = 0; i < 9; i++) w[i] = (p->ph[i] & ~(uint64_t)15) | (uint64_t)i;
    sort9(w);
    int tie = 0;
    for (int i = 0; i < 8; i++)
        tie |= (w[i] >> 4 == w[i + 1] >> 4) & ((p->len[w[i] & 15] | p->len[w[i + 1] & 15]) != 0);
    if (tie)
        for (int i = 1; i < 9; i++) {
            uint64_t pile = w[i];
            int j = i;
            for (; j > 0 && pile_before(p, (int)(pile & 15), (int)(w[j - 1] & 15)); j--) w[j] = w[j - 1];
            w[j] = pile;
        }
    for (int i = 0; i < 9; i++) { /* whole words of 16 bytes: the key has RELAXED_KEY_SLACK bytes to spare */
        const uint8_t *cards = p->pile[w[i] & 15];
        int len = p->len[w[i] & 15];
        memcpy(key + n, cards, 16);
        for (int o = 16; o < len; o += 16) memcpy(key + n + o, cards + o, 16);
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
    for (int i = 0; i < 7; i++) { /* put() sorts each into the cells */
        int c = start->c[KA_R0 + i][0] & 63;
        if (start->n[KA_R0 + i]) put(p, 9 + i, kind_of(p, tx_rank[c], tx_suit[c]));
    }
    for (int s = 0; s < 16; s++) update_term(p, s);
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
        if (last && tx_relaxed_undoes(m, last))
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
