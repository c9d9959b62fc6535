/* Eagle Wing in the core: eagle_wing.py and strategy.py. */
#include "core.h"

static inline int ew_is_tableau(int i) { return i >= 6 && i <= 14 && i != EW_RESERVE; }

static int ew_home_of(const Pos *p, int c) {
    for (int f = EW_F0; f < EW_F0 + 4; f++)
        if (p->n[f] && NEXT_UP[top(p, f)] == c) return f;
    return -1;
}

static void ew_single(const Pos *p, Move *out, int *n, int src, int c, int base, const int *ef, int nef,
                      const int *open, int nopen) {
    if (RANK[c] == base) {
        for (int j = 0; j < nef; j++) add(out, n, src, 1, ef[j]);
    } else {
        int f = ew_home_of(p, c);
        if (f >= 0) add(out, n, src, 1, f);
    }
    for (int j = 0; j < nopen; j++) {
        int t = open[j];
        if (t != src && (!p->n[t] || NEXT_DOWN[top(p, t)] == c)) add(out, n, src, 1, t);
    }
}

/* Every legal move, in eagle_wing.py's order. */
int ew_moves(const Pos *p, Move *out) {
    int n = 0;
    if (p->n[EW_STOCK]) add(out, &n, EW_STOCK, 1, EW_WASTE);
    else if (p->n[EW_WASTE] && p->redeals < EW_MAX_REDEALS) add(out, &n, EW_WASTE, p->n[EW_WASTE], EW_STOCK);
    int base = RANK[p->c[EW_F0][0]];
    int ef[4], nef = 0, open[8], nopen = 0;
    for (int f = EW_F0; f < EW_F0 + 4; f++)
        if (!p->n[f]) ef[nef++] = f;
    for (int j = 0; j < 8; j++)
        if (p->n[EW_TABLEAU[j]] < EW_LIMIT) open[nopen++] = EW_TABLEAU[j];
    if (p->n[EW_WASTE]) ew_single(p, out, &n, EW_WASTE, top(p, EW_WASTE), base, ef, nef, open, nopen);
    if (p->n[EW_RESERVE] == 1) ew_single(p, out, &n, EW_RESERVE, p->c[EW_RESERVE][0], base, ef, nef, open, nopen);
    for (int j = 0; j < 8; j++) {
        int s = EW_TABLEAU[j], len = p->n[s];
        if (!len) continue;
        int t = top(p, s);
        ew_single(p, out, &n, s, t, base, ef, nef, open, nopen);
        int targets[4], nt = 0;
        if (RANK[t] == base) {
            for (int i = 0; i < nef; i++) targets[nt++] = ef[i];
        } else {
            int f = ew_home_of(p, t);
            if (f >= 0) targets[nt++] = f;
        }
        for (int k = 2; k <= len; k++)
            for (int i = 0; i < nt; i++) add(out, &n, s, k, targets[i]);
    }
    return n;
}

/* The position hash after a move changed piles s and d, and maybe the reserve (a refill). */
static void ew_settle(Pos *p, const Undo *u, int s, int d) {
    int g = p->game;
    p->hash += pile_term(p, s) + pile_term(p, d);
    p->hash -= mix(u->ph[0] ^ SALT[pile_class(g, s)]) + mix(u->ph[1] ^ SALT[pile_class(g, d)]);
    if (s != EW_RESERVE && d != EW_RESERVE) {
        p->hash += pile_term(p, EW_RESERVE);
        p->hash -= mix(u->ph[2] ^ SALT[pile_class(g, EW_RESERVE)]);
    }
}

void ew_apply(Pos *p, Move m, Undo *u) {
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

void ew_undo(Pos *p, const Undo *u) {
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

/* Eagle Wing's safe move (proof in strategy.py): a card not of the base rank, alone, to its foundation. */
int ew_safe(const Pos *p, const Move *mv, int n) {
    int base = RANK[p->c[EW_F0][0]];
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        if (m.cnt == 1 && m.dst >= EW_F0 && m.dst < EW_F0 + 4 && RANK[top(p, m.src)] != base) return j;
    }
    return -1;
}

/* strategy.py's EagleWingStrategy.order. */
int ew_order(const Pos *p, Move *mv, int n) {
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
    return ordered(sc, ns, mv);
}

/* Lengths of stock, waste and reserve, foundation heights, sorted tableau piles. Within one search the
 * stock and waste hold the cards that are nowhere else, in an order no move changes, so their lengths
 * pin them down (strategy.py's EagleWingStrategy.key has the argument). Redeals are the rank. */
int ew_key(const Pos *p, uint8_t *out) {
    int h[4], o = 0;
    out[o++] = p->n[EW_STOCK];
    out[o++] = p->n[EW_WASTE];
    out[o++] = p->n[EW_RESERVE];
    suit_heights(p, EW_F0, h);
    for (int s = 0; s < 4; s++) out[o++] = (uint8_t)h[s];
    uint32_t code[8];
    for (int j = 0; j < 8; j++) { /* a pile of at most 3 cards as one number: sortable */
        int i = EW_TABLEAU[j];
        uint32_t v = p->n[i];
        for (int q = 0; q < 3; q++) v = (v << 8) | (q < p->n[i] ? p->c[i][q] : 0);
        code[j] = v;
    }
    for (int i = 1; i < 8; i++) {
        uint32_t x = code[i];
        int j = i - 1;
        while (j >= 0 && code[j] > x) {
            code[j + 1] = code[j];
            j--;
        }
        code[j + 1] = x;
    }
    for (int j = 0; j < 8; j++) {
        out[o++] = (uint8_t)(code[j] >> 24);
        for (int q = 0; q < (int)(code[j] >> 24); q++) out[o++] = (uint8_t)(code[j] >> (16 - 8 * q));
    }
    return o;
}

