/* Eagle Wing in the core: eagle_wing.py and solver/strategy/eagle_wing.py. */
#include "eagle_wing.h"

const int tx_ew_tableau[8] = {6, 7, 8, 9, 11, 12, 13, 14};

static inline int ew_is_tableau(int i) { return i >= 6 && i <= 14 && i != EW_RESERVE; }

/* What one node's move generation looks up again and again, worked out once. */
typedef struct {
    int base, ef[4], nef, open[8], nopen;
    int takes[8]; /* the card open[j] takes: -1 for any (it is empty) */
    int8_t home[52]; /* the foundation that takes card c next, or -1 */
} EwPlaces;

/* The foundations that take card c: every empty one for the base rank, else the one it goes on next. */
static int ew_homes(const EwPlaces *w, int c, int *targets) {
    int nt = 0;
    if (tx_rank[c] == w->base) {
        for (int j = 0; j < w->nef; j++) targets[nt++] = w->ef[j];
    } else if (c < 52 && w->home[c] >= 0) {
        targets[nt++] = w->home[c];
    }
    return nt;
}

static void ew_single(const EwPlaces *w, Move *out, int *n, int src, int c) {
    int targets[4], nt = ew_homes(w, c, targets);
    for (int j = 0; j < nt; j++) add(out, n, src, 1, targets[j]);
    for (int j = 0; j < w->nopen; j++)
        if (w->open[j] != src && (w->takes[j] < 0 || w->takes[j] == c)) add(out, n, src, 1, w->open[j]);
}

/* Every legal move, in eagle_wing.py's order. */
int tx_ew_moves(const Pos *p, Move *out) {
    int n = 0;
    if (p->n[EW_STOCK]) add(out, &n, EW_STOCK, 1, EW_WASTE);
    else if (p->n[EW_WASTE] && p->redeals < EW_MAX_REDEALS) add(out, &n, EW_WASTE, p->n[EW_WASTE], EW_STOCK);
    EwPlaces w;
    w.base = tx_rank[p->c[EW_F0][0]];
    w.nef = w.nopen = 0;
    memset(w.home, -1, sizeof w.home);
    for (int f = EW_F0; f < EW_F0 + 4; f++) {
        if (!p->n[f]) w.ef[w.nef++] = f;
        else if (tx_next_up[top(p, f)] >= 0) w.home[tx_next_up[top(p, f)]] = (int8_t)f;
    }
    for (int j = 0; j < 8; j++) {
        int t = tx_ew_tableau[j];
        if (p->n[t] >= EW_LIMIT) continue;
        w.takes[w.nopen] = p->n[t] ? tx_next_down[top(p, t)] : -1;
        w.open[w.nopen++] = t;
    }
    if (p->n[EW_WASTE]) ew_single(&w, out, &n, EW_WASTE, top(p, EW_WASTE));
    if (p->n[EW_RESERVE] == 1) ew_single(&w, out, &n, EW_RESERVE, p->c[EW_RESERVE][0]);
    for (int j = 0; j < 8; j++) {
        int s = tx_ew_tableau[j], len = p->n[s];
        if (!len) continue;
        int t = top(p, s);
        ew_single(&w, out, &n, s, t);
        int targets[4], nt = ew_homes(&w, t, targets);
        for (int k = 2; k <= len; k++)
            for (int i = 0; i < nt; i++) add(out, &n, s, k, targets[i]);
    }
    return n;
}

/* The position hash after a move changed piles s and d, and maybe the reserve (a refill). */
static void ew_settle(Pos *p, const Undo *u, int s, int d) {
    int g = p->game;
    p->hash += pile_term(p, s) + pile_term(p, d);
    p->hash -= mix(u->ph[0] ^ tx_salt[pile_class(g, s)]) + mix(u->ph[1] ^ tx_salt[pile_class(g, d)]);
    if (s != EW_RESERVE && d != EW_RESERVE) {
        p->hash += pile_term(p, EW_RESERVE);
        p->hash -= mix(u->ph[2] ^ tx_salt[pile_class(g, EW_RESERVE)]);
    }
}

void tx_ew_apply(Pos *p, Move m, Undo *u) {
    int s = m.src, d = m.dst, k = m.cnt;
    u->m = m;
    u->flags = 0;
    u->hash = p->hash;
    u->ph[0] = p->ph[s];
    u->ph[1] = p->ph[d];
    u->ph[2] = p->ph[EW_RESERVE];
    if (s == EW_STOCK) {
        uint8_t card = pop_card(p, EW_STOCK);
        u->dealt = card;
        push_card(p, EW_WASTE, card & ~DOWN);
    } else if (d == EW_STOCK) {
        while (p->n[EW_WASTE]) push_card(p, EW_STOCK, pop_card(p, EW_WASTE) | DOWN);
        p->redeals++;
    } else {
        int ns = p->n[s] - k;
        int is_f = d >= EW_F0 && d < EW_F0 + 4;
        for (int j = 0; j < k; j++) u->orig[j] = p->c[s][ns + j];
        for (int j = 0; j < k; j++) {
            uint8_t card = is_f ? u->orig[k - 1 - j] : u->orig[j]; /* a run lands in ascending order */
            push_card(p, d, card & ~DOWN);
        }
        for (int j = 0; j < k; j++) pop_card(p, s);
        if (!p->n[s] && ew_is_tableau(s) && p->n[EW_RESERVE]) {
            uint8_t card = pop_card(p, EW_RESERVE);
            u->refill = card;
            push_card(p, s, card & ~DOWN);
            u->flags |= UNDO_REFILL;
        }
    }
    ew_settle(p, u, s, d);
}

void tx_ew_undo(Pos *p, const Undo *u) {
    int s = u->m.src, d = u->m.dst, k = u->m.cnt;
    if (s == EW_STOCK) {
        p->n[EW_WASTE]--;
        p->c[EW_STOCK][p->n[EW_STOCK]++] = u->dealt;
    } else if (d == EW_STOCK) {
        int n = p->n[EW_STOCK];
        for (int j = 0; j < n; j++) p->c[EW_WASTE][j] = p->c[EW_STOCK][n - 1 - j] & ~DOWN;
        p->n[EW_WASTE] = (uint8_t)n;
        p->n[EW_STOCK] = 0;
        p->redeals--;
    } else {
        if (u->flags & UNDO_REFILL) {
            p->n[s] = 0;
            p->c[EW_RESERVE][p->n[EW_RESERVE]++] = u->refill;
        }
        p->n[d] = (uint8_t)(p->n[d] - k);
        memcpy(&p->c[s][p->n[s]], u->orig, (size_t)k);
        p->n[s] = (uint8_t)(p->n[s] + k);
    }
    p->ph[s] = u->ph[0];
    p->ph[d] = u->ph[1];
    p->ph[EW_RESERVE] = u->ph[2];
    p->hash = u->hash;
}

/* Eagle Wing's safe move (proof in strategy/eagle_wing.py): a card not of the base rank, alone, to its foundation. */
int tx_ew_safe(const Pos *p, const Move *mv, int n) {
    int base = tx_rank[p->c[EW_F0][0]];
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        if (m.cnt == 1 && m.dst >= EW_F0 && m.dst < EW_F0 + 4 && tx_rank[top(p, m.src)] != base) return j;
    }
    return -1;
}

/* strategy/eagle_wing.py: EagleWingStrategy.order. */
int tx_ew_order(const Pos *p, Move *mv, int n) {
    Scored sc[512];
    int ns = 0;
    uint8_t seen[EW_NPILES][4][2];
    memset(seen, 0, sizeof seen);
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        int s = m.src, k = m.cnt, d = m.dst, a, b = 0;
        if (s == EW_STOCK) {
            a = 5;
        } else if (d == EW_STOCK) {
            a = 6;
        } else {
            int to_f = d >= EW_F0 && d < EW_F0 + 4;
            if (!p->n[d]) {
                if (!to_f && ew_is_tableau(s) && k == p->n[s]) continue;
                if (seen[s][k][to_f]) continue;
                seen[s][k][to_f] = 1;
            }
            if (to_f) a = 0, b = -k;
            else if (ew_is_tableau(s) && k == p->n[s]) a = 1, b = -p->n[EW_RESERVE];
            else if (s == EW_RESERVE) a = 1;
            else if (s == EW_WASTE) a = p->n[d] ? 2 : 4;
            else a = 3;
        }
        sc[ns++] = (Scored){a, b, m};
    }
    return tx_ordered(sc, ns, mv);
}

/* Lengths of stock, waste and reserve, foundation heights, sorted tableau piles. Within one search the
 * stock and waste hold the cards that are nowhere else, in an order no move changes, so their lengths
 * pin them down (strategy/eagle_wing.py: EagleWingStrategy.key has the argument). Redeals are the rank. */
int tx_ew_key(const Pos *p, uint8_t *out) {
    int h[4], o = 0;
    out[o++] = p->n[EW_STOCK];
    out[o++] = p->n[EW_WASTE];
    out[o++] = p->n[EW_RESERVE];
    suit_heights(p, EW_F0, h);
    for (int s = 0; s < 4; s++) out[o++] = (uint8_t)h[s];
    /* A pile of at most 3 cards as one number, its length first: sortable. The bytes past a pile's
     * end are masked off (they are inside its array, and may hold cards it had before). */
    static const uint32_t MASK[4] = {0, 0xFF0000u, 0xFFFF00u, 0xFFFFFFu};
    uint32_t code[8];
    for (int j = 0; j < 8; j++) {
        const uint8_t *c = p->c[tx_ew_tableau[j]];
        int n = p->n[tx_ew_tableau[j]];
        code[j] = (uint32_t)n << 24 | (((uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2]) & MASK[n]);
    }
    /* Sorted by a fixed network of 19 exchanges (Batcher's odd-even merge sort for 8). */
#define CX(i, j)                                   \
    do {                                           \
        uint32_t lo = code[i] < code[j] ? code[i] : code[j]; \
        code[j] ^= code[i] ^ lo;                   \
        code[i] = lo;                              \
    } while (0)
    CX(0, 1); CX(2, 3); CX(4, 5); CX(6, 7);
    CX(0, 2); CX(1, 3); CX(4, 6); CX(5, 7);
    CX(1, 2); CX(5, 6);
    CX(0, 4); CX(1, 5); CX(2, 6); CX(3, 7);
    CX(2, 4); CX(3, 5);
    CX(1, 2); CX(3, 4); CX(5, 6);
#undef CX
    for (int j = 0; j < 8; j++) { /* the length, then its cards: 3 bytes written, the rest overwritten */
        out[o] = (uint8_t)(code[j] >> 24);
        out[o + 1] = (uint8_t)(code[j] >> 16);
        out[o + 2] = (uint8_t)(code[j] >> 8);
        out[o + 3] = (uint8_t)code[j];
        o += 1 + (int)(code[j] >> 24);
    }
    return o;
}

