/* The layered search's keys and moves (layered.h has the design). */
#include "layered.h"

uint64_t lay_mask(const Layered *L, const LKey *k) {
    uint64_t m = (k->b >> R_SHIFT & 127) << 52;
    for (int c = 0; c < 52; c++)
        if (get_code(k, c) == 0 && in_tableau(L, k, c)) m |= 1ULL << c;
    return m;
}

/* The key of p and its mask; -1 when p has a card the classic rules could not have put where it is. */
int lay_encode(const Layered *L, const Pos *p, LKey *k, uint64_t *mask) {
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
            int code = L->code[below][c];
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
void lay_decode(const Layered *L, const LKey *k, Pos *p) {
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
        if (k->b >> (R_SHIFT + i) & 1) p->c[KA_R0 + i][0] = L->resv[i], p->n[KA_R0 + i] = 1;
    int8_t above[52];
    memset(above, -1, sizeof above);
    int t = KA_T0;
    uint8_t bottoms[9];
    int nb = 0;
    for (int c = 0; c < 52; c++) {
        if (!in_tableau(L, k, c)) continue;
        int code = get_code(k, c);
        if (code == 1) {
            if (nb < 9) bottoms[nb++] = (uint8_t)c;
        } else if (code == 0) {
            above[L->pred[c]] = (int8_t)c;
        } else { /* a legal parent: rank one higher, of the first or second suit of the other colour */
            int ps = RED[c] ? (code == 2 ? 0 : 3) : (code == 2 ? 1 : 2);
            above[ps * 13 + RANK[c]] = (int8_t)c;
        }
    }
    for (int j = 0; j < nb; j++, t++) {
        int c = bottoms[j], n = 0;
        while (c >= 0 && n < MAXCARDS) p->c[t][n++] = (uint8_t)c, c = above[c];
        p->n[t] = (uint8_t)n;
    }
}

/* ---- moves */

/* ka_safe_card's rule (strategy/king_albert.py: ka_home_is_safe has the proof). */
int lay_home_for_good(const int h[4], int c) {
    int r = RANK[c];
    if (r <= 2) return 1;
    int o1 = RED[c] ? 0 : 1, o2 = RED[c] ? 3 : 2;
    return h[o1] >= r - 2 && h[o2] >= r - 2 && h[SUIT[c] ^ 3] >= r - 3;
}

static void heights(const Pos *p, int h[4], int fof[4], int *ef) {
    *ef = -1;
    for (int s = 0; s < 4; s++) h[s] = 0, fof[s] = -1;
    for (int f = 0; f < 4; f++) {
        if (p->n[f]) {
            int s = SUIT[p->c[f][0]];
            h[s] = p->n[f];
            fof[s] = f;
        } else if (*ef < 0) {
            *ef = f;
        }
    }
}

/* Card c, the top of src, moves to dst: the key follows. */
static inline void key_move(const Layered *L, const Pos *p, LKey *k, uint64_t *m, int src, int dst, int c) {
    if (src < KA_T0) {
        k->b -= 1ULL << (H_SHIFT + 4 * SUIT[c]);
    } else if (src >= KA_R0) {
        k->b &= ~(1ULL << (R_SHIFT + src - KA_R0));
        *m &= ~(1ULL << (52 + src - KA_R0));
    } else {
        if (get_code(k, c) == 0) *m &= ~(1ULL << c);
        set_code(k, c, 0);
    }
    if (dst < KA_T0) k->b += 1ULL << (H_SHIFT + 4 * SUIT[c]);
    else set_code(k, c, p->n[dst] ? L->code[top(p, dst)][c] : 1);
}

void lplay(const Layered *L, Pos *p, LKey *k, uint64_t *m, Move mv, Undo *u) {
    key_move(L, p, k, m, mv.src, mv.dst, top(p, mv.src));
    ka_apply(p, mv, u);
}

/* The safe moves (KingAlbertStrategy.safe_move), made until none is left; how many. Their end is the same
 * in any order: a card that may go home stays on top and may still go. */
int lay_closure(const Layered *L, Pos *p, LKey *k, uint64_t *m, Undo *u, Move *made) {
    int nu = 0, h[4], fof[4], ef;
    for (;;) {
        heights(p, h, fof, &ef);
        int i = KA_T0;
        for (; i < KA_NPILES; i++) {
            if (!p->n[i]) continue;
            int c = top(p, i);
            if (RANK[c] == h[SUIT[c]] + 1 && lay_home_for_good(h, c)) break;
        }
        if (i == KA_NPILES) return nu;
        int c = top(p, i);
        Move mv = {(uint8_t)i, 1, (uint8_t)(RANK[c] == 1 ? ef : fof[SUIT[c]])};
        if (made) made[nu] = mv;
        lplay(L, p, k, m, mv, &u[nu++]);
    }
}

/* Every move a shortest winning line may need (layered.py's moves): single cards; none that takes back a card
 * home for good, or only permutes piles (a pile's only card to an empty pile, a card to a second empty
 * pile). A reserve card put on the tableau is covered by the next move (cover): onto that pile only. */
int lmoves(const Pos *p, Move *out, int onto_only) {
    int n = 0, h[4], fof[4], ef, et = -1;
    heights(p, h, fof, &ef);
    int8_t onto[52][2];
    memset(onto, -1, sizeof onto);
    for (int i = KA_T0; i < KA_T1; i++) {
        if (!p->n[i]) {
            if (et < 0) et = i;
            continue;
        }
        int t = top(p, i);
        if (RANK[t] < 2) continue;
        int lo = (RED[t] ? 0 : 1) * 13 + RANK[t] - 2, hi = (RED[t] ? 3 : 2) * 13 + RANK[t] - 2;
        onto[lo][onto[lo][0] >= 0] = (int8_t)i;
        onto[hi][onto[hi][0] >= 0] = (int8_t)i;
    }
    for (int s = 0; s < KA_NPILES; s++) {
        if (!p->n[s]) continue;
        int c = top(p, s);
        if (s < KA_T0) {
            if (lay_home_for_good(h, c)) continue;
        } else if (onto_only < 0 && RANK[c] == h[SUIT[c]] + 1) {
            add(out, &n, s, 1, RANK[c] == 1 ? ef : fof[SUIT[c]]);
        }
        for (int j = 0; j < 2; j++) {
            int d = onto[c][j];
            if (d >= 0 && d != s && (onto_only < 0 || d == onto_only)) add(out, &n, s, 1, d);
        }
        if (onto_only < 0 && et >= 0 && !(s >= KA_T0 && s < KA_T1 && p->n[s] == 1)) add(out, &n, s, 1, et);
    }
    return n;
}

