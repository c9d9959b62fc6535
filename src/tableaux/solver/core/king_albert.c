/* King Albert (AisleRiot's rules and the classic ones) in the core: king_albert.py and strategy/king_albert.py. */
#include "king_albert.h"


/* Every legal move, in king_albert.py's order: from the foundations, the reserve, then the tableau. */
int tx_ka_moves(const Pos *p, Move *out) {
    int n = 0, single = p->game == GAME_KA_CLASSIC;
    KaTargets t;
    ka_targets(p, &t);
    for (int s = 0; s < KA_NPILES; s++) {
        if (s == KA_T0) s = KA_R0; /* foundations, then reserve */
        if (p->n[s]) n = ka_moves_from(p, &t, s, single, out, n);
    }
    for (int s = KA_T0; s < KA_T1; s++)
        if (p->n[s]) n = ka_moves_from(p, &t, s, single, out, n);
    return n;
}

void tx_ka_apply(Pos *p, Move m, Undo *u) {
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
    p->hash -= mix(u->ph[0] ^ tx_salt[pile_class(p->game, s)]) + mix(u->ph[1] ^ tx_salt[pile_class(p->game, d)]);
}

void tx_ka_undo(Pos *p, const Undo *u) {
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


/* The first pass's rule of thumb: home once both next-lower cards of the other colour are home. */
static int ka_greedy_card(const int h[4], int c) {
    int r = tx_rank[c];
    int low = tx_red[c] ? (h[0] < h[3] ? h[0] : h[3]) : (h[1] < h[2] ? h[1] : h[2]);
    return r <= 2 || r <= low + 1;
}

/* The first safe move among mv[0..n) (KingAlbertStrategy.safe_move: a tableau or reserve card home, when
 * ka_home_is_safe), or with `greedy` one the rule of thumb sends home too (greedy_move), or with greedy ==
 * GREEDY_ALL any card that can go home (a streamlined run's auto-foundations); its index, or -1. */
int tx_ka_safe(const Pos *p, const Move *mv, int n, int greedy) {
    int h[4];
    suit_heights(p, 0, h);
    for (int j = 0; j < n; j++) {
        if (mv[j].dst >= 4 || mv[j].src < KA_T0) continue;
        int c = top(p, mv[j].src);
        if (greedy == GREEDY_ALL || ka_home_is_safe(h, c) || (greedy && ka_greedy_card(h, c))) return j;
    }
    return -1;
}


/* 1 when, once card c lies on tableau pile x, a move that tx_ka_order keeps could put a card on it (ka_covers),
 * asked before the move: search.c drops a classic reserve card put out where nothing could cover it. */
int tx_ka_can_cover(const Pos *p, int c, int x, int restricted) { return ka_covers(p, c, x, restricted, NULL); }

/* The moves among mv[0..n) that ka_keeps keeps, moved to its front in their order; how many. */
static int ka_kept(const Pos *p, const int h[4], Move *mv, int n, int restricted) {
    uint64_t empty[KA_NPILES] = {0};
    int k = 0;
    for (int j = 0; j < n; j++)
        if (ka_keeps(p, h, mv[j], restricted, 0, empty)) mv[k++] = mv[j];
    return k;
}

/* strategy/king_albert.py: KingAlbertStrategy.order: the moves ka_keeps keeps, best first. A restart (restart >
 * 0) shakes the order within each class of moves, more at each restart. */
int tx_ka_order(const Pos *p, Move *mv, int n, int restricted, int restart) {
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
    n = ka_kept(p, h, mv, n, restricted);
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        int s = m.src, k = m.cnt, d = m.dst, len = p->n[s], a, b = 0;
        if (s < KA_T0) {
            a = 7;
        } else if (d < KA_T0) {
            a = 0;
        } else if (!p->n[d]) {
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
            b += (int)(tx_splitmix(&z) % (uint64_t)(2 * restart + 1));
        }
        sc[ns++] = (Scored){a, b, m};
    }
    return tx_ordered(sc, ns, mv);
}

/* 1 when pile a comes before pile b in the plain order's pile order: fewer cards first, then by the cards from
 * the bottom up (rank, then suit), then by pile number. */
static int pile_less(const Pos *p, int a, int b) {
    if (p->n[a] != p->n[b]) return p->n[a] < p->n[b];
    for (int j = 0; j < p->n[a]; j++) {
        int x = p->c[a][j] & 63, y = p->c[b][j] & 63;
        if (x != y) return (x % 13) * 4 + x / 13 < (y % 13) * 4 + y / 13;
    }
    return a < b;
}

/* A streamlined run's plain move order (STREAM_PLAIN): the moves ka_keeps keeps, in an order that knows nothing
 * of plans: cards home, then tableau to tableau, then reserve to tableau, then cards back off the foundations;
 * within each from the biggest pile first (pile_less), then to the biggest first, or with `smallest`
 * (STREAM_SMALL) from the smallest and to the smallest first. Those are the orders of plain depth-first solvers
 * that keep their piles sorted (Solvitaire's is the second: it tries last the moves it lists first, and lists its
 * piles from the biggest). Each wins at once some deals whose wins tx_ka_order buries deep (classic 3694301197:
 * 13,000 positions from the biggest instead of 847,000; 3967456459: 8,678 from the smallest, sending every card
 * home, instead of 1.8 million from the biggest and 367,000 planned) while it misses others that one finds at once. */
int tx_ka_plain_order(const Pos *p, Move *mv, int n, int restricted, int smallest) {
    int h[4], place[KA_NPILES] = {0}; /* a pile's place among the piles of its kind, the last one biggest */
    suit_heights(p, 0, h);
    for (int a = KA_T0; a < KA_NPILES; a++)
        for (int b = a + 1; b < (a < KA_T1 ? KA_T1 : KA_NPILES); b++) place[pile_less(p, a, b) ? b : a]++;
    Scored sc[512];
    n = ka_kept(p, h, mv, n, restricted);
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        int a = m.dst < KA_T0 ? 0 : m.src < KA_T0 ? 3 : m.src >= KA_R0 ? 2 : 1;
        int from = (m.src >= KA_R0 ? 16 : 0) + (m.src >= KA_T0 ? place[m.src] : m.src);
        int to = m.dst >= KA_T0 ? place[m.dst] : m.dst;
        sc[j] = (Scored){a, smallest ? from * 32 + to : -(from * 32 + to), m};
    }
    return tx_ordered(sc, n, mv);
}

/* Sorted tableau piles, foundation heights, reserve cells left: equal for positions that differ only
 * in the order of interchangeable piles. */
int tx_ka_key(const Pos *p, uint8_t *out) {
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


/* A pile's term of tx_ka_hash_suits, from its cards. */
static uint64_t suits_term(const Pos *p, int i) {
    if (i >= KA_R0) return p->n[i] ? mix(tx_zob[0][tx_colour[p->c[i][0]]] ^ tx_salt[6]) : 0; /* a cell */
    uint64_t x = 0;
    for (int j = 0; j < p->n[i]; j++) x ^= tx_zob[j][tx_colour[p->c[i][j]]];
    return mix(x ^ tx_salt[5]);
}

/* A streamlined run's key (search.c's node_key, with STREAM_SUITS): the position with the two suits of each
 * colour told apart nowhere, so that positions differing only in which of two cards of one rank and colour lies
 * where are one node. That is no symmetry of the game (a suit's foundation takes only its own cards), so a
 * run that uses it proves nothing: it only finds wins, whose lines are replayed (pass.c).
 *
 * The key is this 64-bit hash alone, not the bytes it is made from: the heights of each colour's suits as a
 * sorted pair, and a sum over the reserve's cards and over the tableau's piles, so that their order does not
 * count. Two positions that share a hash are one node to the run, which can only hide a position from it: a
 * run that proves nothing loses nothing it could have proved. Exact keys would take three fifths of the
 * run's time to make, sort and compare; the hash makes the same positions in half the time (both streamlined
 * kinds alone on 46 hard King Albert deals: the same positions, 23 CPU seconds against 46). */
uint64_t tx_ka_hash_suits(const Pos *p, SuitsMemo *memo) {
    int h[4], hi[2], lo[2];
    suit_heights(p, 0, h);
    for (int k = 0; k < 2; k++) { /* black (0, 3), then red (1, 2) */
        int a = h[k], b = h[k ^ 3];
        lo[k] = a < b ? a : b;
        hi[k] = a < b ? b : a;
    }
    uint64_t piles = memo->last_sum;
    for (int i = KA_T0; i < KA_NPILES; i++) { /* the tableau's piles and the cells whose hash changed */
        if (memo->last_ok && p->ph[i] == memo->last_ph[i]) continue;
        uint64_t key = p->ph[i] ^ tx_salt[i >= KA_R0 ? 6 : 5];
        size_t at = key & (SUITS_MEMO - 1);
        if (memo->at[at].key != key) {
            memo->at[at].key = key;
            memo->at[at].term = suits_term(p, i);
        }
        piles += memo->at[at].term - memo->last_term[i];
        memo->last_ph[i] = p->ph[i];
        memo->last_term[i] = memo->at[at].term;
    }
    memo->last_ok = 1;
    memo->last_sum = piles;
    return mix((uint64_t)(((lo[0] * 14 + hi[0]) * 14 + lo[1]) * 14 + hi[1]) ^ tx_salt[7]) + piles;
}
