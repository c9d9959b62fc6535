/*
 * King Albert (AisleRiot's rules and the classic ones) in the core: king_albert.py and strategy/king_albert.py.
 * king_albert.c has the moves, safe moves, order and keys of the depth-first search, declared at the end. The
 * rules that both complete searches use are inline here: king_albert.c and layered_keys.c (the layered search's
 * steps and safe moves) take them from here, so each rule has one copy. Inline, since both call them for every
 * position they make.
 *
 *  - the foundations (ka_home): each suit's height, where it lies, which foundations are empty;
 *  - the moves from one pile (ka_moves_from), in king_albert.py's order;
 *  - the safe-home rule (ka_home_is_safe; strategy/king_albert.py: KingAlbertStrategy.safe_move has the proof);
 *  - what the searches leave out (ka_keeps; KingAlbertStrategy.order has the proofs).
 */
#ifndef TABLEAUX_KING_ALBERT_H
#define TABLEAUX_KING_ALBERT_H

#include "cards.h"

/* The foundations: cards home per suit, the foundation holding each suit, and the empty ones in order. */
typedef struct {
    int h[4];
    int8_t of[4];
    uint8_t ef[4], nef;
} KaHome;

static inline void ka_home(const Pos *p, KaHome *f) {
    suit_heights(p, 0, f->h);
    f->nef = 0;
    for (int i = 0; i < 4; i++) {
        if (p->n[i]) f->of[tx_suit[p->c[i][0]]] = (int8_t)i;
        else f->ef[f->nef++] = (uint8_t)i;
    }
}

/* The foundation that card c (a card, not face down) goes home to, the first empty one for an Ace; -1 when
 * its suit is not up to the rank below it. */
static inline int ka_home_dst(const KaHome *f, int c) {
    if (tx_rank[c] != f->h[tx_suit[c]] + 1) return -1;
    return tx_rank[c] == 1 ? f->ef[0] : f->of[tx_suit[c]];
}

/* KingAlbertStrategy.safe_move (ka_home_is_safe in strategy/king_albert.py): card c may go home for good, with
 * the suits home up to h, when its rank r <= 2, or when both suits of the other colour are home up to r - 2
 * and the other suit of its colour up to r - 3. Sent home, it is a safe move; on a foundation, never taken back. */
static inline int ka_home_is_safe(const int h[4], int c) {
    int r = tx_rank[c];
    if (r <= 2) return 1;
    int o1 = tx_red[c] ? 0 : 1, o2 = tx_red[c] ? 3 : 2; /* the other colour's suits */
    return h[o1] >= r - 2 && h[o2] >= r - 2 && h[tx_suit[c] ^ 3] >= r - 3; /* C<->S, D<->H: one colour */
}

/* 1 when the search may take foundation card c back onto the tableau: never in the first pass's restricted
 * runs, nor when c is home for good (KingAlbertStrategy.order). */
static inline int ka_may_take_back(const int h[4], int c, int restricted) {
    return !restricted && !ka_home_is_safe(h, c);
}

/* What a move may go to: the foundations, the empty tableau piles, and for each card the tableau piles whose
 * top accepts it (at most two: the two cards one rank higher of the other colour). */
typedef struct {
    KaHome f;
    uint8_t et[9], net;
    uint8_t nw[52], wanted[52][2];
} KaTargets;

/* The two cards that may go on tableau card t (rank 2 and up): one rank lower, the other colour, in
 * ascending card order, as ACCEPTS lists them. */
static inline void ka_below(int t, int *lo, int *hi) {
    int r = tx_rank[t] - 2;
    *lo = (tx_red[t] ? 0 : 1) * 13 + r;
    *hi = (tx_red[t] ? 3 : 2) * 13 + r;
}

static inline void ka_targets(const Pos *p, KaTargets *t) {
    ka_home(p, &t->f);
    t->net = 0;
    memset(t->nw, 0, sizeof t->nw);
    for (int i = KA_T0; i < KA_T1; i++) {
        if (!p->n[i]) {
            t->et[t->net++] = (uint8_t)i;
            continue;
        }
        int c = top(p, i);
        if (c >= 52 || tx_rank[c] < 2) continue;
        int lo, hi;
        ka_below(c, &lo, &hi);
        t->wanted[lo][t->nw[lo]++] = (uint8_t)i;
        t->wanted[hi][t->nw[hi]++] = (uint8_t)i;
    }
}

/* Card c from pile src to a foundation: an Ace to each empty one, another card where its suit waits for it. */
static inline int ka_to_foundation(const KaHome *f, int src, int c, Move *out, int n) {
    if (tx_rank[c] == 1) {
        for (int j = 0; j < f->nef; j++)
            if (f->ef[j] != src) add(out, &n, src, 1, f->ef[j]);
    } else if (c < 52 && tx_rank[c] == f->h[tx_suit[c]] + 1) {
        add(out, &n, src, 1, f->of[tx_suit[c]]);
    }
    return n;
}

/* The legal moves from pile s (not empty), written from out[n] on, in king_albert.py's order: its top card home,
 * then each build from its top (the top card alone from a foundation or a cell, or under `single` cards) onto
 * the piles that accept it, then onto each empty tableau pile. The new count. */
static inline int ka_moves_from(const Pos *p, const KaTargets *t, int s, int single, Move *out, int n) {
    int len = p->n[s];
    n = ka_to_foundation(&t->f, s, top(p, s), out, n);
    if (s < KA_T0 || s >= KA_R0) { /* a foundation's or a cell's top card */
        int c = top(p, s);
        if (c < 52)
            for (int j = 0; j < t->nw[c]; j++) add(out, &n, s, 1, t->wanted[c][j]);
        for (int j = 0; j < t->net; j++) add(out, &n, s, 1, t->et[j]);
        return n;
    }
    int depth = single ? 1 : len;
    for (int k = 1; k <= depth; k++) {
        int c = p->c[s][len - k];
        if (c & DOWN) break;
        for (int j = 0; j < t->nw[c]; j++) add(out, &n, s, k, t->wanted[c][j]);
        for (int j = 0; j < t->net; j++)
            if (t->et[j] != s) add(out, &n, s, k, t->et[j]);
    }
    return n;
}

/* 1 when the search keeps move m (KingAlbertStrategy.order): it takes back no card home for good (nor any card
 * when `restricted`), moves no Ace between foundations, and does not only permute piles: a tableau pile's only
 * cards onto an empty pile, or the same cards onto a second empty pile (bit k of empty[s]: k cards from pile s
 * went to an empty pile already; the caller zeroes it for each position). A foundation card goes to each empty
 * tableau pile in the depth-first search (as in search.py), to the first only with `foundation_once` (the
 * layered search, as in layered.py): the positions are the same, so either is sound. */
static inline int ka_keeps(const Pos *p, const int h[4], Move m, int restricted, int foundation_once,
                           uint64_t empty[KA_NPILES]) {
    int s = m.src, k = m.cnt, d = m.dst;
    if (s < KA_T0) {
        if (d < KA_T0 || !ka_may_take_back(h, top(p, s), restricted)) return 0;
        if (!foundation_once) return 1;
    }
    if (d < KA_T0 || p->n[d]) return 1;
    if (s >= KA_T0 && s < KA_T1 && k == p->n[s]) return 0;
    if (empty[s] >> (k & 63) & 1) return 0;
    empty[s] |= 1ULL << (k & 63);
    return 1;
}

/* The moves that put a single card on card c, which lies (or is about to lie) on tableau pile x: from each other
 * pile whose top goes on c, a foundation's only where the search may take it back (ka_keeps); in the order of
 * the piles, as ka_moves_from and ka_keeps would give them. Written to out unless out is NULL (then it stops at
 * the first); how many. Classic rules: a reserve card put on the tableau must be covered by the next move
 * (KingAlbertStrategy.obligation), and where no move can, it is not put out at all. */
static inline int ka_covers(const Pos *p, int c, int x, int restricted, Move *out) {
    if (c >= 52 || tx_rank[c] < 2) return 0;
    int a, b, h[4], n = 0;
    ka_below(c, &a, &b);
    for (int i = 0; i < KA_NPILES; i++) {
        if (i == x || !p->n[i]) continue;
        int t = top(p, i);
        if (t != a && t != b) continue;
        if (i < KA_T0) {
            suit_heights(p, 0, h);
            if (!ka_may_take_back(h, t, restricted)) continue;
        }
        if (!out) return 1;
        add(out, &n, i, 1, x);
    }
    return n;
}

/* ---- king_albert.c */
int tx_ka_moves(const Pos *p, Move *out);
void tx_ka_apply(Pos *p, Move m, Undo *u);
void tx_ka_undo(Pos *p, const Undo *u);
#define GREEDY_ALL 2 /* tx_ka_safe's greedy: every card that can go home goes (a streamlined run) */
int tx_ka_safe(const Pos *p, const Move *mv, int n, int greedy);
int tx_ka_order(const Pos *p, Move *mv, int n, int restricted, int restart);
int tx_ka_plain_order(const Pos *p, Move *mv, int n, int restricted, int smallest);
int tx_ka_can_cover(const Pos *p, int c, int x, int restricted);
int tx_ka_key(const Pos *p, uint8_t *out);
/* tx_ka_hash_suits's pile terms, remembered by the pile's own hash (ph, with its kind's salt) in a table of
 * SUITS_MEMO entries, each the last pile seen there: a move changes two piles, and a depth-first search meets
 * the same piles again and again as it backtracks, so most terms are found here instead of made from the cards.
 * Making them all was a sixth of the solve's time; with the memo King Albert 4268099697 takes 0.071 CPU s instead
 * of 0.099, classic 3281913030 0.206 instead of 0.256, and 4,096 or 16,384 entries do no better. A pile hash that
 * two piles share (a 64-bit collision) could only give a wrong hash, which the runs that use it allow for; a
 * zeroed memo is an empty one (only a pile hash equal to its salt would find a term there, 0). */
#define SUITS_MEMO 1024
/* Beside it, the last key's pile hashes, and the terms of its tableau piles and cells and their sum: the next key
 * looks up only the piles whose hash changed (6.4 of the 16 on average, since the search backtracks between two
 * keys; on the 600 fresh King Albert deals of benchmarks/solver.py's seeds 2029 and 2030, 1% fewer instructions in
 * all). A zeroed memo's last terms are all 0, and it looks up every pile: last_ok is 0. */
typedef struct {
    struct {
        uint64_t key, term;
    } at[SUITS_MEMO];
    uint64_t last_ph[KA_NPILES], last_term[KA_NPILES], last_sum;
    int last_ok; /* the last_* hold a key */
} SuitsMemo;

uint64_t tx_ka_hash_suits(const Pos *p, SuitsMemo *memo);

#endif
