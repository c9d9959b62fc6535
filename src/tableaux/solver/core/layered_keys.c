/* The layered search's keys and moves (layered_keys.h has the design); the moves' rules are king_albert.h's. */
#include "layered_keys.h"

/* What the start position fixes: the cards lying on a card that is no legal parent for them, the reserve's cards,
 * and from them what each card lying on each other one is (LayFix's code). -1 when a card lies face down: not a
 * classic position. */
int tx_lay_fix(LayFix *F, const Pos *p0) {
    memset(F->pred, -1, sizeof F->pred);
    memset(F->cell, -1, sizeof F->cell);
    for (int i = KA_T0; i < KA_T1; i++)
        for (int j = 0; j < p0->n[i]; j++) {
            int c = p0->c[i][j], b = j ? p0->c[i][j - 1] : -1;
            if (c >= 52) return -1;
            if (b >= 0 && !legal_on(b, c)) F->pred[c] = (int8_t)b;
        }
    for (int i = 0; i < 7; i++)
        if (p0->n[KA_R0 + i]) F->resv[i] = p0->c[KA_R0 + i][0], F->cell[F->resv[i]] = (int8_t)i;
    for (int b = 0; b < 52; b++)
        for (int c = 0; c < 52; c++)
            F->code[b][c] = legal_on(b, c) ? (tx_suit[b] < (tx_suit[b] ^ 3) ? 2 : 3) : F->pred[c] == b ? 0 : 9;
    return 0;
}

uint64_t tx_lay_mask(const LayFix *F, const LKey *k) {
    uint64_t m = (k->b >> R_SHIFT & 127) << 52;
    for (int c = 0; c < 52; c++)
        if (get_code(k, c) == 0 && in_tableau(F, k, c)) m |= 1ULL << c;
    return m;
}

/* The key of p and its mask; -1 when p has a card the classic rules could not have put where it is. */
int tx_lay_encode(const LayFix *F, const Pos *p, LKey *k, uint64_t *mask) {
    uint64_t w[2] = {0, 0}, m = 0, b = 0;
    int h[4];
    suit_heights(p, 0, h);
    b = (uint64_t)(h[0] | h[1] << 4 | h[2] << 8 | h[3] << 12) << H_SHIFT;
    for (int i = 0; i < 7; i++)
        if (p->n[KA_R0 + i]) b |= 1ULL << (R_SHIFT + i), m |= 1ULL << (52 + i);
    for (int i = KA_T0; i < KA_T1; i++) {
        int n = p->n[i];
        if (!n) continue;
        int below = p->c[i][0];
        if (below >= 52) return -1;
        w[below >> 5] |= 1ULL << (2 * (below & 31));
        for (int j = 1; j < n; j++) {
            int c = p->c[i][j];
            if (c >= 52) return -1;
            int code = F->code[below][c];
            if (code == 9) return -1;
            if (code == 0) m |= 1ULL << c;
            w[c >> 5] |= (uint64_t)code << (2 * (c & 31));
            below = c;
        }
    }
    k->a = w[0];
    k->b = w[1] | b;
    *mask = m;
    return 0;
}

/* The position of a key, its tableau piles in the order of their bottom cards. */
void tx_lay_decode(const LayFix *F, const LKey *k, Pos *p) {
    memset(p->n, 0, sizeof p->n);
    p->game = GAME_KA_CLASSIC;
    p->npiles = KA_NPILES;
    p->redeals = 0;
    int f = 0;
    for (int s = 0; s < 4; s++) {
        int h = key_height(k, s);
        if (!h) continue;
        for (int r = 0; r < h; r++) p->c[f][r] = (uint8_t)(s * 13 + r);
        p->n[f++] = (uint8_t)h;
    }
    for (int i = 0; i < 7; i++)
        if (k->b >> (R_SHIFT + i) & 1) p->c[KA_R0 + i][0] = F->resv[i], p->n[KA_R0 + i] = 1;
    int8_t above[52];
    memset(above, -1, sizeof above);
    int t = KA_T0;
    uint8_t bottoms[9];
    int nb = 0;
    for (int c = 0; c < 52; c++) {
        if (!in_tableau(F, k, c)) continue;
        int code = get_code(k, c);
        if (code == 1) {
            if (nb < 9) bottoms[nb++] = (uint8_t)c;
        } else if (code == 0) {
            above[F->pred[c]] = (int8_t)c;
        } else { /* a legal parent: rank one higher, of the first or second suit of the other colour */
            int ps = tx_red[c] ? (code == 2 ? 0 : 3) : (code == 2 ? 1 : 2);
            above[ps * 13 + tx_rank[c]] = (int8_t)c;
        }
    }
    for (int j = 0; j < nb; j++, t++) {
        int c = bottoms[j], n = 0;
        while (c >= 0 && n < MAXCARDS) p->c[t][n++] = (uint8_t)c, c = above[c];
        p->n[t] = (uint8_t)n;
    }
}

/* ---- moves */

/* Card c, the top of src, moves to dst: the key follows. */
static inline void key_move(const LayFix *F, const Pos *p, LKey *k, uint64_t *m, int src, int dst, int c) {
    if (src < KA_T0) {
        k->b -= 1ULL << (H_SHIFT + 4 * tx_suit[c]);
    } else if (src >= KA_R0) {
        k->b &= ~(1ULL << (R_SHIFT + src - KA_R0));
        *m &= ~(1ULL << (52 + src - KA_R0));
    } else {
        if (get_code(k, c) == 0) *m &= ~(1ULL << c);
        set_code(k, c, 0);
    }
    if (dst < KA_T0) k->b += 1ULL << (H_SHIFT + 4 * tx_suit[c]);
    else set_code(k, c, p->n[dst] ? F->code[top(p, dst)][c] : 1);
}

void tx_lay_play(const LayFix *F, Pos *p, LKey *k, uint64_t *m, Move mv, Undo *u) {
    key_move(F, p, k, m, mv.src, mv.dst, top(p, mv.src));
    tx_ka_apply(p, mv, u);
}

/* The safe moves (KingAlbertStrategy.safe_move: ka_home_is_safe), made until none is left; how many. Their end
 * is the same in any order: a card that may go home stays on top and may still go. */
int tx_lay_closure(const LayFix *F, Pos *p, LKey *k, uint64_t *m, Undo *u, Move *made) {
    int nu = 0;
    for (;;) {
        KaHome f;
        ka_home(p, &f);
        int i = KA_T0, dst = -1;
        for (; i < KA_NPILES; i++) {
            if (!p->n[i]) continue;
            int c = top(p, i);
            if ((dst = ka_home_dst(&f, c)) >= 0 && ka_home_is_safe(f.h, c)) break;
        }
        if (i == KA_NPILES) return nu;
        Move mv = {(uint8_t)i, 1, (uint8_t)dst};
        if (made) made[nu] = mv;
        tx_lay_play(F, p, k, m, mv, &u[nu++]);
    }
}

/* Every move a shortest winning line may need (layered.py's steps): king_albert.c's moves of single cards, less
 * those the search leaves out (ka_keeps: cards home for good taken back, moves that only permute piles, a card to
 * a second empty pile), in the order of the piles they come from. A reserve card put on the tableau is covered by
 * the next move: tx_lay_expand takes those two as one step, the second from ka_covers. */
int tx_lay_moves(const Pos *p, Move *out) {
    KaTargets t;
    ka_targets(p, &t);
    if (t.net > 1) t.net = 1; /* ka_keeps would drop a card's moves to the other empty piles: not made at all */
    uint64_t empty[KA_NPILES] = {0};
    int n = 0;
    for (int s = 0; s < KA_NPILES; s++) {
        if (!p->n[s]) continue;
        int from = n, to = ka_moves_from(p, &t, s, 1, out, n);
        for (int j = from; j < to; j++)
            if (ka_keeps(p, t.f.h, out[j], 0, 1, empty)) out[n++] = out[j];
    }
    return n;
}
