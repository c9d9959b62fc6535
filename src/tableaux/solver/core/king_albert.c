/* King Albert (AisleRiot's rules and the classic ones) in the core: king_albert.py and strategy/king_albert.py. */
#include "core.h"


/* The two cards that may go on tableau card t (rank 2 and up): one rank lower, the other colour, in
 * ascending card order, as ACCEPTS lists them. */
static inline void ka_below(int t, int *lo, int *hi) {
    int r = RANK[t] - 2;
    *lo = (RED[t] ? 0 : 1) * 13 + r;
    *hi = (RED[t] ? 3 : 2) * 13 + r;
}

/* home[c]: the foundation showing card c's predecessor, or -1. */
static void ka_to_foundation(const int8_t *home, Move *out, int *n, int src, int c, const int *ef, int nef) {
    if (RANK[c] == 1) {
        for (int j = 0; j < nef; j++)
            if (ef[j] != src) add(out, n, src, 1, ef[j]);
    } else if (c < 52 && home[c] >= 0) {
        add(out, n, src, 1, home[c]);
    }
}

/* Every legal move, in king_albert.py's order. */
int ka_moves(const Pos *p, Move *out) {
    int n = 0, single = p->game == GAME_KA_CLASSIC;
    int et[9], net = 0, ef[4], nef = 0;
    for (int i = KA_T0; i < KA_T1; i++)
        if (!p->n[i]) et[net++] = i;
    int8_t home[52];
    memset(home, -1, sizeof home);
    for (int f = 0; f < 4; f++) {
        if (!p->n[f]) ef[nef++] = f;
        else if (RANK[top(p, f)] < 13) home[top(p, f) + 1] = (int8_t)f;
    }
    /* wanted[c]: the tableau piles whose top accepts card c. */
    uint8_t nw[52], wanted[52][9];
    memset(nw, 0, sizeof nw);
    for (int i = KA_T0; i < KA_T1; i++) {
        if (!p->n[i]) continue;
        int t = top(p, i);
        if (t >= 52 || RANK[t] < 2) continue;
        int lo, hi;
        ka_below(t, &lo, &hi);
        wanted[lo][nw[lo]++] = (uint8_t)i;
        wanted[hi][nw[hi]++] = (uint8_t)i;
    }
    for (int s = 0; s < KA_NPILES; s++) {
        if (s == KA_T0) s = KA_R0; /* foundations, then reserve */
        if (!p->n[s]) continue;
        int c = top(p, s);
        ka_to_foundation(home, out, &n, s, c, ef, nef);
        if (c < 52)
            for (int j = 0; j < nw[c]; j++) add(out, &n, s, 1, wanted[c][j]);
        for (int j = 0; j < net; j++) add(out, &n, s, 1, et[j]);
    }
    for (int s = KA_T0; s < KA_T1; s++) {
        int len = p->n[s];
        if (!len) continue;
        ka_to_foundation(home, out, &n, s, top(p, s), ef, nef);
        int depth = single ? 1 : len;
        for (int k = 1; k <= depth; k++) {
            int c = p->c[s][len - k];
            if (c & DOWN) break;
            for (int j = 0; j < nw[c]; j++) add(out, &n, s, k, wanted[c][j]);
            for (int j = 0; j < net; j++)
                if (et[j] != s) add(out, &n, s, k, et[j]);
        }
    }
    return n;
}

void ka_apply(Pos *p, Move m, Undo *u) {
    u->m = m;
    u->flags = 0;
    u->hash = p->hash;
    u->ph[0] = p->ph[m.src];
    u->ph[1] = p->ph[m.dst];
    int s = m.src, d = m.dst, k = m.cnt, ns = p->n[s] - k;
    for (int j = 0; j < k; j++) push_card(p, d, p->c[s][ns + j]);
    for (int j = 0; j < k; j++) pop_card(p, s);
    if (ns && (p->c[s][ns - 1] & DOWN)) {
        set_card(p, s, ns - 1, p->c[s][ns - 1] & ~DOWN);
        u->flags |= UNDO_FLIP;
    }
    p->hash += pile_term(p, s) + pile_term(p, d);
    p->hash -= mix(u->ph[0] ^ SALT[pile_class(p->game, s)]) + mix(u->ph[1] ^ SALT[pile_class(p->game, d)]);
}

void ka_undo(Pos *p, const Undo *u) {
    int s = u->m.src, d = u->m.dst, k = u->m.cnt;
    if (u->flags & UNDO_FLIP) p->c[s][p->n[s] - 1] |= DOWN;
    int nd = p->n[d] - k;
    memcpy(&p->c[s][p->n[s]], &p->c[d][nd], (size_t)k);
    p->n[s] = (uint8_t)(p->n[s] + k);
    p->n[d] = (uint8_t)nd;
    p->ph[s] = u->ph[0];
    p->ph[d] = u->ph[1];
    p->hash = u->hash;
}


/*
 * King Albert's safe foundation move (strategy/king_albert.py, KingAlbertStrategy.safe_move,
 * has the proof): a card of rank r from the tableau or the reserve, when r <= 2,
 * or when both suits of the other colour are home up to r - 2 and the other
 * suit of its colour up to r - 3. With level 0 only Aces, as the Python
 * reference did before the proof was written.
 */
static int ka_safe_card(const int h[4], int c, int level) {
    int r = RANK[c];
    if (r == 1) return 1;
    if (level == 0) return 0;
    if (r == 2) return 1;
    int s = SUIT[c], twin = s ^ 3; /* C<->S and D<->H are the suits of one colour */
    int o1 = RED[c] ? 0 : 1, o2 = RED[c] ? 3 : 2;
    return h[o1] >= r - 2 && h[o2] >= r - 2 && h[twin] >= r - 3;
}

/* The first pass's rule of thumb: home once both next-lower cards of the other colour are home. */
static int ka_greedy_card(const int h[4], int c) {
    int r = RANK[c];
    int low = RED[c] ? (h[0] < h[3] ? h[0] : h[3]) : (h[1] < h[2] ? h[1] : h[2]);
    return r <= 2 || r <= low + 1;
}

int ka_safe(const Pos *p, const Move *mv, int n, int greedy, int level) {
    int h[4];
    suit_heights(p, 0, h);
    for (int j = 0; j < n; j++) {
        if (mv[j].dst >= 4 || mv[j].src < KA_T0) continue;
        int c = top(p, mv[j].src);
        if (ka_safe_card(h, c, level) || (greedy && ka_greedy_card(h, c))) return j;
    }
    return -1;
}


/* 1 when the search takes foundation card c back onto the tableau: never in the first pass's restricted
 * runs, nor when c is home for good (KingAlbertStrategy.order; with level 0, as before that proof, any). */
static int ka_may_take_back(const int h[4], int c, int restricted, int level) {
    return !restricted && !(level && ka_safe_card(h, c, level));
}

/* 1 when, once card c lies on tableau pile x, a move that ka_order keeps could put a card on it: a single
 * card of the next lower rank and the other colour on top of another pile, one on a foundation only where
 * cards may be taken back and it is not home for good. What ka_moves and ka_order would give there, asked
 * before the move (search.c drops a classic reserve card put out where nothing could cover it). */
int ka_can_cover(const Pos *p, int c, int x, int restricted, int level) {
    if (c >= 52 || RANK[c] < 2) return 0;
    int a, b, h[4];
    ka_below(c, &a, &b);
    for (int i = 0; i < KA_NPILES; i++) {
        if (i == x || !p->n[i]) continue;
        int t = top(p, i);
        if (t != a && t != b) continue;
        if (i >= KA_T0) return 1;
        suit_heights(p, 0, h);
        if (ka_may_take_back(h, t, restricted, level)) return 1;
    }
    return 0;
}

/* strategy/king_albert.py: KingAlbertStrategy.order: drop moves that only permute piles or take back a card that is
 * home for good (with level 0, as before that proof, none), best first. A restart of
 * the first pass (restart > 0) shakes the order within each class of moves, more at each restart. */
int ka_order(const Pos *p, Move *mv, int n, int restricted, int restart, int level) {
    int h[4], depth[KA_NPILES];
    suit_heights(p, 0, h);
    uint64_t needed = 0; /* the next card of each suit's foundation (card = suit * 13 + rank - 1) */
    for (int s = 0; s < 4; s++)
        if (h[s] < 13) needed |= 1ULL << (s * 13 + h[s]);
    for (int i = KA_T0; i < KA_T1; i++) {
        depth[i] = -1;
        for (int j = 0; j < p->n[i]; j++) {
            if (needed >> (p->c[i][j] & 63) & 1) {
                depth[i] = p->n[i] - 1 - j;
                break;
            }
        }
    }
    Scored sc[512];
    int ns = 0;
    uint64_t empty_seen[KA_NPILES] = {0}; /* bit k of [s]: k cards from s went to an empty pile already */
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        int s = m.src, k = m.cnt, d = m.dst, len = p->n[s], a, b = 0;
        if (s < KA_T0) {
            if (d < KA_T0 || !ka_may_take_back(h, top(p, s), restricted, level)) continue;
            a = 7;
        } else if (d < KA_T0) {
            a = 0;
        } else if (!p->n[d]) {
            if (s < KA_T1 && k == len) continue;
            if (empty_seen[s] >> (k & 63) & 1) continue;
            empty_seen[s] |= 1ULL << (k & 63);
            if (s >= KA_R0) a = 4;
            else if (p->c[s][len - k - 1] & DOWN) a = 3, b = -len;
            else a = 6, b = k;
        } else if (s >= KA_R0) {
            a = 2;
        } else if (k == len) {
            a = 1;
        } else if (p->c[s][len - k - 1] & DOWN) {
            a = 1, b = -len;
        } else if (depth[s] >= 0 && k <= depth[s]) {
            a = 2, b = depth[s] - k;
        } else {
            a = 5, b = -k;
        }
        if (restart) {
            uint64_t z = p->hash ^ ((uint64_t)restart << 40) ^ ((uint64_t)s << 16) ^ ((uint64_t)k << 8) ^ d;
            b += (int)(splitmix(&z) % (uint64_t)(2 * restart + 1));
        }
        sc[ns++] = (Scored){a, b, m};
    }
    return ordered(sc, ns, mv);
}

/* Sorted tableau piles, foundation heights, reserve cells left: equal for positions that differ only
 * in the order of interchangeable piles. */
int ka_key(const Pos *p, uint8_t *out) {
    int h[4], o = 0;
    suit_heights(p, 0, h);
    for (int s = 0; s < 4; s++) out[o++] = (uint8_t)h[s];
    uint8_t cells = 0;
    for (int i = KA_R0; i < KA_NPILES; i++)
        if (p->n[i]) cells |= (uint8_t)(1u << (i - KA_R0));
    /* A reserve cell never receives a card, so which cells are full pins down their cards. */
    out[o++] = cells;
    /* Every card is in one place, so two piles that are not empty differ in their bottom card: ordered
     * by it, after the empty ones, the piles come out the same whatever their places. */
    uint64_t seen[2] = {0, 0};
    uint8_t pile_of[128];
    for (int x = KA_T0; x < KA_T1; x++) {
        if (!p->n[x]) {
            out[o++] = 0x80; /* an empty pile: its length, with the high bit that no card has */
            continue;
        }
        int b = p->c[x][0];
        seen[b >> 6] |= 1ULL << (b & 63);
        pile_of[b] = (uint8_t)x;
    }
    for (int w = 0; w < 2; w++)
        for (uint64_t m = seen[w]; m; m &= m - 1) {
            int x = pile_of[64 * w + __builtin_ctzll(m)], n = p->n[x];
            out[o++] = (uint8_t)(0x80 | n);
            if (n <= 16) memcpy(out + o, p->c[x], 16); /* a fixed size copies fast; the rest is overwritten */
            else memcpy(out + o, p->c[x], (size_t)n);
            o += n;
        }
    return o;
}

