/*
 * tableaux.solver._core: the solver's search at native speed.
 *
 * The pure-Python search in search.py is the reference; this file runs the
 * same design on compact positions, and tests/test_backends.py proves that
 * both generate the same moves and positions and reach the same verdicts.
 *
 * Cards are bytes as in cards.py: suit * 13 + rank - 1, plus DOWN (64) while
 * face down. A position is an array of piles (bottom to top) indexed as in
 * the games' pile_names, plus Eagle Wing's redeal count.
 *
 * Design, in the order the search uses it:
 *  - moves are generated in exactly the engine's order (king_albert.py,
 *    eagle_wing.py), and made and unmade in place (no copying);
 *  - every pile carries a Zobrist hash (xor of a random word per depth and
 *    card), updated incrementally; the position's hash adds a mixed value
 *    per pile, so piles of one interchangeable kind hash the same in any
 *    order;
 *  - the transposition table stores the full canonical key (interchangeable
 *    piles sorted) of every position searched, so a position is only ever
 *    skipped when it really was searched: hash collisions cost a compare,
 *    never a verdict;
 *  - the table's memory is fixed when the search starts. When it fills up it
 *    is emptied and the keys on the current line are put back, exactly like
 *    the Python search: repeated work, never a wrong verdict;
 *  - safe moves (proved in strategy.py) are made at once, moves are ordered
 *    best first, and a first pass over a restricted space (King Albert: no
 *    cards back off the foundations, cards home when they are probably safe)
 *    runs on a share of the budget before the complete search.
 *
 * Running out of nodes, time or memory gives "unknown", never a verdict.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { GAME_KA = 0, GAME_KA_CLASSIC = 1, GAME_EW = 2 };
enum { V_WINNABLE = 0, V_UNWINNABLE = 1, V_UNKNOWN = 2 };

#define DOWN 64
#define MAXPILES 20
#define MAXCARDS 52

/* King Albert's piles. */
#define KA_NPILES 20
#define KA_T0 4
#define KA_T1 13 /* tableau is 4..12 */
#define KA_R0 13 /* reserve is 13..19 */

/* Eagle Wing's piles. */
#define EW_NPILES 15
#define EW_STOCK 0
#define EW_WASTE 1
#define EW_F0 2 /* foundations 2..5 */
#define EW_RESERVE 10
#define EW_LIMIT 3
#define EW_MAX_REDEALS 2
static const int EW_TABLEAU[8] = {6, 7, 8, 9, 11, 12, 13, 14};

typedef struct {
    uint8_t src, cnt, dst;
} Move;

typedef struct {
    int game;
    int npiles;
    uint8_t n[MAXPILES];
    uint8_t c[MAXPILES][MAXCARDS];
    int redeals;
    uint64_t ph[MAXPILES]; /* per-pile Zobrist hash */
    uint64_t hash;         /* sum over piles of mix(class salt ^ ph) */
} Pos;

/* What it takes to unmake a move. */
typedef struct {
    Move m;
    uint8_t flags;    /* UNDO_* */
    uint8_t orig[3];  /* Eagle Wing: the moved cards' bytes before they were turned up */
    uint8_t refill;   /* Eagle Wing: the reserve card's byte before the refill */
    uint8_t dealt;    /* Eagle Wing: the stock card's byte before it was dealt */
    uint64_t hash;
    uint64_t ph[3]; /* src, dst, Eagle Wing's reserve */
} Undo;

#define UNDO_FLIP 1
#define UNDO_REFILL 2

/* ---------------------------------------------------------------- cards */

static uint8_t RANK[128], SUIT[128], RED[128];
static int NEXT_UP[128], NEXT_DOWN[128];
static uint64_t ZOB[MAXCARDS + 1][128];
static uint64_t SALT[8];

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static void init_tables(void) {
    for (int c = 0; c < 128; c++) {
        int f = c & 63;
        RANK[c] = f < 52 ? (uint8_t)(f % 13 + 1) : 0;
        SUIT[c] = f < 52 ? (uint8_t)(f / 13) : 0;
        RED[c] = (SUIT[c] == 1 || SUIT[c] == 2);
        NEXT_UP[c] = c < 52 ? (c / 13) * 13 + (c % 13 + 1) % 13 : -1;
        NEXT_DOWN[c] = c < 52 ? (c / 13) * 13 + (c % 13 + 12) % 13 : -1;
    }
    uint64_t seed = 0x7461626C65617578ULL; /* fixed: hashes are the same in every run */
    for (int d = 0; d <= MAXCARDS; d++)
        for (int c = 0; c < 128; c++) ZOB[d][c] = splitmix(&seed);
    for (int i = 0; i < 8; i++) SALT[i] = splitmix(&seed);
}

/* Which interchangeable kind a pile belongs to: piles of one kind share a salt. */
static int pile_class(int game, int i) {
    if (game == GAME_EW) {
        if (i == EW_STOCK) return 4;
        if (i == EW_WASTE) return 5;
        if (i >= EW_F0 && i < EW_F0 + 4) return 1;
        if (i == EW_RESERVE) return 3;
        return 2;
    }
    if (i < KA_T0) return 1;
    if (i < KA_R0) return 2;
    return 3;
}

static inline uint64_t pile_term(const Pos *p, int i) {
    return mix(p->ph[i] ^ SALT[pile_class(p->game, i)]);
}

static void rehash(Pos *p) {
    p->hash = 0;
    for (int i = 0; i < p->npiles; i++) {
        uint64_t h = 0;
        for (int d = 0; d < p->n[i]; d++) h ^= ZOB[d][p->c[i][d]];
        p->ph[i] = h;
        p->hash += pile_term(p, i);
    }
}

/* Card pushes and pops keep the pile hash; the position hash is settled per move. */
static inline void push_card(Pos *p, int i, uint8_t card) {
    p->ph[i] ^= ZOB[p->n[i]][card];
    p->c[i][p->n[i]++] = card;
}

static inline uint8_t pop_card(Pos *p, int i) {
    uint8_t card = p->c[i][--p->n[i]];
    p->ph[i] ^= ZOB[p->n[i]][card];
    return card;
}

static inline void set_card(Pos *p, int i, int d, uint8_t card) {
    p->ph[i] ^= ZOB[d][p->c[i][d]] ^ ZOB[d][card];
    p->c[i][d] = card;
}

static inline int top(const Pos *p, int i) { return p->c[i][p->n[i] - 1]; }

/* ---------------------------------------------------------------- King Albert */

static inline void add(Move *out, int *n, int s, int k, int d) {
    out[*n].src = (uint8_t)s;
    out[*n].cnt = (uint8_t)k;
    out[*n].dst = (uint8_t)d;
    (*n)++;
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
static int ka_moves(const Pos *p, Move *out) {
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
        /* one rank lower, the other colour; in ascending card order, as ACCEPTS lists them */
        int lo = RED[t] ? 0 : 1, hi = RED[t] ? 3 : 2, r = RANK[t] - 2;
        wanted[lo * 13 + r][nw[lo * 13 + r]++] = (uint8_t)i;
        wanted[hi * 13 + r][nw[hi * 13 + r]++] = (uint8_t)i;
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

static void ka_apply(Pos *p, Move m, Undo *u) {
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

static void ka_undo(Pos *p, const Undo *u) {
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

static void suit_heights(const Pos *p, int f0, int h[4]) {
    h[0] = h[1] = h[2] = h[3] = 0;
    for (int f = f0; f < f0 + 4; f++)
        if (p->n[f]) h[SUIT[p->c[f][0]]] = p->n[f];
}

/*
 * King Albert's safe foundation move (strategy.py, KingAlbertStrategy.safe_move,
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

static int ka_safe(const Pos *p, const Move *mv, int n, int greedy, int level) {
    int h[4];
    suit_heights(p, 0, h);
    for (int j = 0; j < n; j++) {
        if (mv[j].dst >= 4 || mv[j].src < KA_T0) continue;
        int c = top(p, mv[j].src);
        if (ka_safe_card(h, c, level) || (greedy && ka_greedy_card(h, c))) return j;
    }
    return -1;
}

typedef struct {
    int a, b;
    Move m;
} Scored;

static void sort_scored(Scored *s, int n) { /* stable insertion sort on (a, b) */
    for (int i = 1; i < n; i++) {
        Scored x = s[i];
        int j = i - 1;
        while (j >= 0 && (s[j].a > x.a || (s[j].a == x.a && s[j].b > x.b))) {
            s[j + 1] = s[j];
            j--;
        }
        s[j + 1] = x;
    }
}

/* strategy.py's KingAlbertStrategy.order: drop moves that only permute piles, best first. A restart of
 * the first pass (restart > 0) shakes the order within each class of moves, more at each restart. */
static int ka_order(const Pos *p, Move *mv, int n, int restricted, int restart) {
    int h[4], depth[KA_NPILES];
    suit_heights(p, 0, h);
    for (int i = KA_T0; i < KA_T1; i++) {
        depth[i] = -1;
        for (int j = 0; j < p->n[i]; j++) {
            int c = p->c[i][j] & 63;
            if (c < 52 && RANK[c] == h[SUIT[c]] + 1) {
                depth[i] = p->n[i] - 1 - j;
                break;
            }
        }
    }
    Scored sc[512];
    int ns = 0;
    uint8_t empty_seen[KA_NPILES][MAXCARDS + 1];
    memset(empty_seen, 0, sizeof empty_seen);
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        int s = m.src, k = m.cnt, d = m.dst, len = p->n[s], a, b = 0;
        if (s < KA_T0) {
            if (restricted || d < KA_T0) continue;
            a = 7;
        } else if (d < KA_T0) {
            a = 0;
        } else if (!p->n[d]) {
            if (s < KA_T1 && k == len) continue;
            if (empty_seen[s][k]) continue;
            empty_seen[s][k] = 1;
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
        sc[ns].a = a;
        sc[ns].b = b;
        sc[ns].m = m;
        ns++;
    }
    sort_scored(sc, ns);
    for (int j = 0; j < ns; j++) mv[j] = sc[j].m;
    return ns;
}

/* Sorted tableau piles, foundation heights, reserve cells left: equal for positions that differ only
 * in the order of interchangeable piles. */
static int ka_key(const Pos *p, uint8_t *out) {
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

/* ---------------------------------------------------------------- Eagle Wing */

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
static int ew_moves(const Pos *p, Move *out) {
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

static void ew_apply(Pos *p, Move m, Undo *u) {
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

static void ew_undo(Pos *p, const Undo *u) {
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
static int ew_safe(const Pos *p, const Move *mv, int n) {
    int base = RANK[p->c[EW_F0][0]];
    for (int j = 0; j < n; j++) {
        Move m = mv[j];
        if (m.cnt == 1 && m.dst >= EW_F0 && m.dst < EW_F0 + 4 && RANK[top(p, m.src)] != base) return j;
    }
    return -1;
}

/* strategy.py's EagleWingStrategy.order. */
static int ew_order(const Pos *p, Move *mv, int n) {
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
        sc[ns].a = a;
        sc[ns].b = b;
        sc[ns].m = m;
        ns++;
    }
    sort_scored(sc, ns);
    for (int j = 0; j < ns; j++) mv[j] = sc[j].m;
    return ns;
}

/* Lengths of stock, waste and reserve, foundation heights, sorted tableau piles. Within one search the
 * stock and waste hold the cards that are nowhere else, in an order no move changes, so their lengths
 * pin them down (strategy.py's EagleWingStrategy.key has the argument). Redeals are the rank. */
static int ew_key(const Pos *p, uint8_t *out) {
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

/* ---------------------------------------------------------------- per game */

static inline int gen_moves(const Pos *p, Move *out) { return p->game == GAME_EW ? ew_moves(p, out) : ka_moves(p, out); }

static inline void apply_move(Pos *p, Move m, Undo *u) {
    if (p->game == GAME_EW) ew_apply(p, m, u);
    else ka_apply(p, m, u);
}

static inline void undo_move(Pos *p, const Undo *u) {
    if (p->game == GAME_EW) ew_undo(p, u);
    else ka_undo(p, u);
}

static inline int make_key(const Pos *p, uint8_t *out) { return p->game == GAME_EW ? ew_key(p, out) : ka_key(p, out); }

static inline int pos_rank(const Pos *p) { return p->game == GAME_EW ? p->redeals : 0; }

static inline int is_won(const Pos *p) {
    int f0 = p->game == GAME_EW ? EW_F0 : 0, s = 0;
    for (int f = f0; f < f0 + 4; f++) s += p->n[f];
    return s == 52;
}

/* ---------------------------------------------------------------- transposition table */

typedef struct {
    uint64_t hash; /* 0: empty slot */
    uint32_t off;
    uint8_t len, rank;
} Slot;

typedef struct {
    Slot *slots;
    size_t mask, used, max_used;
    uint8_t *arena;
    size_t arena_cap, arena_used;
    size_t cap;    /* bytes that slots and arena may take together */
    size_t clears; /* times the table was full and emptied */
} Table;

#define KEY_MAX 112 /* the longest key (66 bytes) and room for ka_key's 16-byte copies */

/* The table starts small and doubles up to its cap, so a quick search costs little memory and no
 * time spent clearing memory it never used. */
static int table_init(Table *t, size_t cap) {
    memset(t, 0, sizeof *t);
    t->cap = cap;
    size_t nslots = 4096;
    t->slots = calloc(nslots, sizeof(Slot));
    t->arena_cap = 1 << 16;
    t->arena = malloc(t->arena_cap);
    if (!t->slots || !t->arena || cap < nslots * sizeof(Slot) + t->arena_cap) {
        free(t->slots);
        free(t->arena);
        t->slots = NULL;
        t->arena = NULL;
        return -1;
    }
    t->mask = nslots - 1;
    t->max_used = nslots / 10 * 7;
    return 0;
}

static void table_free(Table *t) {
    free(t->slots);
    free(t->arena);
    t->slots = NULL;
    t->arena = NULL;
}

static void table_clear(Table *t) {
    memset(t->slots, 0, (t->mask + 1) * sizeof(Slot));
    t->used = 0;
    t->arena_used = 0;
}

static inline size_t slot_index(const Table *t, uint64_t hash) { return (size_t)(hash ^ (hash >> 29)) & t->mask; }

/* Double the slots (0), or -1 when that would pass the cap or memory runs out. */
static int table_grow_slots(Table *t) {
    size_t n = (t->mask + 1) * 2;
    if (n * sizeof(Slot) + t->arena_cap > t->cap) return -1;
    Slot *ns = calloc(n, sizeof(Slot));
    if (!ns) return -1;
    Slot *old = t->slots;
    size_t oldn = t->mask + 1;
    t->slots = ns;
    t->mask = n - 1;
    t->max_used = n / 10 * 7;
    for (size_t i = 0; i < oldn; i++) {
        if (!old[i].hash) continue;
        size_t j = slot_index(t, old[i].hash);
        while (ns[j].hash) j = (j + 1) & t->mask;
        ns[j] = old[i];
    }
    free(old);
    return 0;
}

static int table_grow_arena(Table *t) {
    size_t n = t->arena_cap * 2;
    if (n > 0xFFFFFF00u) return -1; /* offsets are 32-bit */
    if ((t->mask + 1) * sizeof(Slot) + n > t->cap) return -1;
    uint8_t *na = realloc(t->arena, n);
    if (!na) return -1;
    t->arena = na;
    t->arena_cap = n;
    return 0;
}

/* Room for one more key: grow if the cap allows, else report full (1). */
static int table_full(Table *t) {
    if (t->used >= t->max_used && table_grow_slots(t)) return 1;
    if (t->arena_used + KEY_MAX > t->arena_cap && table_grow_arena(t)) return 1;
    return 0;
}

/* 1: a position with this key and a rank at least as good was searched (skip it);
 * 0: new, or better than before (now recorded). The caller makes room first. */
static int table_visit(Table *t, uint64_t hash, const uint8_t *key, int len, int rank) {
    if (!hash) hash = 1;
    size_t i = slot_index(t, hash);
    for (;;) {
        Slot *s = &t->slots[i];
        if (!s->hash) {
            s->hash = hash;
            s->off = (uint32_t)t->arena_used;
            s->len = (uint8_t)len;
            s->rank = (uint8_t)rank;
            memcpy(t->arena + t->arena_used, key, (size_t)len);
            t->arena_used += (size_t)len;
            t->used++;
            return 0;
        }
        if (s->hash == hash && s->len == len && !memcmp(t->arena + s->off, key, (size_t)len)) {
            if (s->rank <= rank) return 1;
            s->rank = (uint8_t)rank;
            return 0;
        }
        i = (i + 1) & t->mask;
    }
}

/* ---------------------------------------------------------------- search */

typedef struct {
    int mstart, mcount, midx; /* this frame's ordered moves in the move stack */
    int ubase;                /* undo stack height before the move that led here */
    int kstart, klen, rank;   /* this frame's key in the key stack (for refilling a cleared table); */
    uint64_t hash;            /* klen < 0 until the frame is expanded */
} Frame;

typedef struct {
    Pos pos;
    Table table;
    int level;   /* safe-move proof level, see ka_safe_card */
    int restart; /* which run of the first pass: 0 keeps the plain move order */
    int greedy;  /* the first pass's run sends cards home by the rule of thumb too */
    long long nodes, max_nodes, pass_cap;
    double deadline, pass_deadline;
    int out_of_budget, out_of_memory, pass_capped, pass_timeout;
    Frame *frames;
    int nframes, frames_cap;
    Move *moves;
    int nmoves, moves_cap;
    Undo *undo;
    int nundo, undo_cap;
    uint8_t *keys;
    int nkeys, keys_cap;
    size_t stack_limit; /* bytes the stacks may take together */
} Search;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t stack_bytes(const Search *s) {
    return (size_t)s->frames_cap * sizeof(Frame) + (size_t)s->moves_cap * sizeof(Move) +
           (size_t)s->undo_cap * sizeof(Undo) + (size_t)s->keys_cap;
}

/* Grow one stack so that it holds `need` items; 0 on success, -1 when memory (or its limit) runs out. */
static int grow(Search *s, void **buf, int *cap, int need, size_t item) {
    if (need <= *cap) return 0;
    int ncap = *cap ? *cap : 256;
    while (ncap < need) ncap *= 2;
    if (stack_bytes(s) + (size_t)(ncap - *cap) * item > s->stack_limit) return -1;
    void *nb = realloc(*buf, (size_t)ncap * item);
    if (!nb) return -1;
    *buf = nb;
    *cap = ncap;
    return 0;
}

#define GROW(s, field, cap, need) grow((s), (void **)&(s)->field, &(s)->cap, (need), sizeof(*(s)->field))

/* Count one position about to be made. 1 when the budget (or the pass's share) is spent. */
static int tick(Search *s) {
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) {
        s->out_of_budget = 1;
        return 1;
    }
    s->nodes++;
    if ((s->nodes & 1023) == 0) {
        double t = now();
        if (s->deadline > 0 && t >= s->deadline) {
            s->out_of_budget = 1;
            return 1;
        }
        if (s->pass_deadline > 0 && t >= s->pass_deadline) {
            s->pass_capped = s->pass_timeout = 1;
            return 1;
        }
    }
    if (s->pass_cap >= 0 && s->nodes > s->pass_cap) {
        s->pass_capped = 1;
        return 1;
    }
    return 0;
}

/* Empty a full table and put back the keys on the current line, so the search never loops. */
static void make_room(Search *s) {
    if (!table_full(&s->table)) return;
    table_clear(&s->table);
    s->table.clears++;
    for (int f = 0; f < s->nframes; f++) {
        const Frame *fr = &s->frames[f];
        if (fr->klen >= 0) table_visit(&s->table, fr->hash, s->keys + fr->kstart, fr->klen, fr->rank);
    }
}

/*
 * Depth-first search from the current position. 1 when won (the undo stack then holds the line),
 * 0 when the space is exhausted, -1 when stopped (budget, the pass's share, or memory).
 */
static int run(Search *s, int restricted) {
    Pos *p = &s->pos;
    uint8_t key[KEY_MAX];
    Move buf[512];
    s->nframes = s->nmoves = s->nkeys = 0;
    s->pass_capped = 0;
    int depth0 = s->nundo;
    table_clear(&s->table);

    int klen = make_key(p, key);
    table_visit(&s->table, p->hash, key, klen, pos_rank(p));
    int expand = 1; /* the top frame still needs its moves */
    if (GROW(s, frames, frames_cap, 1)) goto oom;
    s->frames[0].ubase = depth0;
    s->frames[0].klen = -1;
    s->nframes = 1;

    while (s->nframes) {
        Frame *fr = &s->frames[s->nframes - 1];
        if (expand) {
            expand = 0;
            int n = gen_moves(p, buf), closed = 0;
            for (;;) {
                int j = p->game == GAME_EW ? ew_safe(p, buf, n) : ka_safe(p, buf, n, restricted && s->greedy, s->level);
                if (j < 0) break;
                if (tick(s)) goto stopped;
                if (GROW(s, undo, undo_cap, s->nundo + 1)) goto oom;
                apply_move(p, buf[j], &s->undo[s->nundo++]);
                klen = make_key(p, key);
                make_room(s);
                if (table_visit(&s->table, p->hash, key, klen, pos_rank(p))) {
                    closed = 1;
                    break;
                }
                n = gen_moves(p, buf);
            }
            if (closed) { /* its closure under safe moves was searched already */
                while (s->nundo > fr->ubase) undo_move(p, &s->undo[--s->nundo]);
                s->nframes--;
                continue;
            }
            if (is_won(p)) return 1;
            n = p->game == GAME_EW ? ew_order(p, buf, n) : ka_order(p, buf, n, restricted, s->restart);
            klen = make_key(p, key);
            if (GROW(s, moves, moves_cap, s->nmoves + n) || GROW(s, keys, keys_cap, s->nkeys + klen)) goto oom;
            fr = &s->frames[s->nframes - 1];
            memcpy(s->moves + s->nmoves, buf, (size_t)n * sizeof(Move));
            memcpy(s->keys + s->nkeys, key, (size_t)klen);
            fr->mstart = s->nmoves;
            fr->mcount = n;
            fr->midx = 0;
            fr->kstart = s->nkeys;
            fr->klen = klen;
            fr->rank = pos_rank(p);
            fr->hash = p->hash;
            s->nmoves += n;
            s->nkeys += klen;
        }
        if (fr->midx == fr->mcount) {
            while (s->nundo > fr->ubase) undo_move(p, &s->undo[--s->nundo]);
            s->nmoves = fr->mstart;
            s->nkeys = fr->kstart;
            s->nframes--;
            continue;
        }
        Move m = s->moves[fr->mstart + fr->midx++];
        if (tick(s)) goto stopped;
        if (GROW(s, undo, undo_cap, s->nundo + 1)) goto oom;
        int ubase = s->nundo;
        apply_move(p, m, &s->undo[s->nundo++]);
        klen = make_key(p, key);
        make_room(s);
        if (table_visit(&s->table, p->hash, key, klen, pos_rank(p))) {
            undo_move(p, &s->undo[--s->nundo]);
            continue;
        }
        if (GROW(s, frames, frames_cap, s->nframes + 1)) goto oom;
        s->frames[s->nframes].ubase = ubase;
        s->frames[s->nframes].klen = -1;
        s->nframes++;
        expand = 1;
    }
    return 0;
oom:
    s->out_of_memory = 1;
stopped:
    while (s->nundo > depth0) undo_move(p, &s->undo[--s->nundo]);
    return -1;
}

/* ---------------------------------------------------------------- Python glue */

static int read_game(PyObject *obj, int *game) {
    long g = PyLong_AsLong(obj);
    if (g == -1 && PyErr_Occurred()) return -1;
    if (g < 0 || g > 2) {
        PyErr_Format(PyExc_ValueError, "game must be 0 (King Albert), 1 (classic) or 2 (Eagle Wing), not %ld", g);
        return -1;
    }
    *game = (int)g;
    return 0;
}

static int read_pos(int game, PyObject *piles, long redeals, Pos *p) {
    memset(p, 0, sizeof *p);
    p->game = game;
    p->npiles = game == GAME_EW ? EW_NPILES : KA_NPILES;
    p->redeals = (int)redeals;
    if (redeals < 0 || redeals > 255) {
        PyErr_SetString(PyExc_ValueError, "redeals out of range");
        return -1;
    }
    PyObject *seq = PySequence_Fast(piles, "piles must be a sequence of piles");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != p->npiles) {
        PyErr_Format(PyExc_ValueError, "this game has %d piles, not %zd", p->npiles, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    int total = 0;
    for (int i = 0; i < p->npiles; i++) {
        PyObject *pile = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "each pile must be a sequence of cards");
        if (!pile) {
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(pile);
        total += (int)n;
        if (n > MAXCARDS || total > MAXCARDS) {
            PyErr_SetString(PyExc_ValueError, "more than 52 cards");
            Py_DECREF(pile);
            Py_DECREF(seq);
            return -1;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(pile, j));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(pile);
                Py_DECREF(seq);
                return -1;
            }
            if (c < 0 || (c & 63) >= 52 || c >= 128) {
                PyErr_Format(PyExc_ValueError, "not a card: %ld", c);
                Py_DECREF(pile);
                Py_DECREF(seq);
                return -1;
            }
            p->c[i][j] = (uint8_t)c;
        }
        p->n[i] = (uint8_t)n;
        Py_DECREF(pile);
    }
    Py_DECREF(seq);
    if (game == GAME_EW && !p->n[EW_F0]) {
        PyErr_SetString(PyExc_ValueError, "Eagle Wing's first foundation must hold the base card");
        return -1;
    }
    rehash(p);
    return 0;
}

static PyObject *pos_to_python(const Pos *p) {
    PyObject *piles = PyTuple_New(p->npiles);
    if (!piles) return NULL;
    for (int i = 0; i < p->npiles; i++) {
        PyObject *pile = PyTuple_New(p->n[i]);
        if (!pile) {
            Py_DECREF(piles);
            return NULL;
        }
        for (int j = 0; j < p->n[i]; j++) PyTuple_SET_ITEM(pile, j, PyLong_FromLong(p->c[i][j]));
        PyTuple_SET_ITEM(piles, i, pile);
    }
    return Py_BuildValue("(Ni)", piles, p->redeals);
}

static PyObject *move_to_python(Move m) { return Py_BuildValue("(iii)", m.src, m.cnt, m.dst); }

static PyObject *core_moves(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game;
    Pos p;
    Move buf[512];
    if (!PyArg_ParseTuple(args, "OOl", &g, &piles, &redeals) || read_game(g, &game) || read_pos(game, piles, redeals, &p))
        return NULL;
    int n = gen_moves(&p, buf);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int j = 0; j < n; j++) PyList_SET_ITEM(out, j, move_to_python(buf[j]));
    return out;
}

static int read_move(const Pos *p, PyObject *obj, Move *m) {
    int s, k, d;
    if (!PyArg_ParseTuple(obj, "iii", &s, &k, &d)) return -1;
    Move buf[512];
    int n = gen_moves(p, buf);
    for (int j = 0; j < n; j++)
        if (buf[j].src == s && buf[j].cnt == k && buf[j].dst == d) {
            *m = buf[j];
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "(%d, %d, %d) is not a legal move here", s, k, d);
    return -1;
}

static PyObject *core_apply(PyObject *self, PyObject *args) {
    PyObject *g, *piles, *mv;
    long redeals;
    int game;
    Pos p;
    Move m;
    if (!PyArg_ParseTuple(args, "OOlO", &g, &piles, &redeals, &mv) || read_game(g, &game) ||
        read_pos(game, piles, redeals, &p) || read_move(&p, mv, &m))
        return NULL;
    Pos before = p;
    Undo u;
    apply_move(&p, m, &u);
    uint64_t incremental = p.hash;
    rehash(&p);
    if (incremental != p.hash) return PyErr_Format(PyExc_AssertionError, "incremental hash disagrees with a fresh one");
    Pos back = p;
    undo_move(&back, &u);
    if (memcmp(back.n, before.n, sizeof back.n) || back.hash != before.hash || back.redeals != before.redeals)
        return PyErr_Format(PyExc_AssertionError, "undo did not restore the position");
    for (int i = 0; i < p.npiles; i++)
        if (memcmp(back.c[i], before.c[i], back.n[i]))
            return PyErr_Format(PyExc_AssertionError, "undo did not restore pile %d", i);
    return pos_to_python(&p);
}

static PyObject *core_key(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game;
    Pos p;
    uint8_t key[KEY_MAX];
    if (!PyArg_ParseTuple(args, "OOl", &g, &piles, &redeals) || read_game(g, &game) || read_pos(game, piles, redeals, &p))
        return NULL;
    int n = make_key(&p, key);
    return Py_BuildValue("(y#KI)", (const char *)key, (Py_ssize_t)n, (unsigned long long)p.hash, pos_rank(&p));
}

static PyObject *core_safe(PyObject *self, PyObject *args) {
    PyObject *g, *piles;
    long redeals;
    int game, level = 1, restricted = 0;
    Pos p;
    Move buf[512];
    if (!PyArg_ParseTuple(args, "OOl|ii", &g, &piles, &redeals, &level, &restricted) || read_game(g, &game) ||
        read_pos(game, piles, redeals, &p))
        return NULL;
    int n = gen_moves(&p, buf);
    int j = game == GAME_EW ? ew_safe(&p, buf, n) : ka_safe(&p, buf, n, restricted, level);
    if (j < 0) Py_RETURN_NONE;
    return move_to_python(buf[j]);
}

static PyObject *core_solve(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"game", "piles", "redeals", "max_nodes", "time_limit", "memory", "first_pass", "level", NULL};
    PyObject *g, *piles;
    long redeals;
    long long max_nodes = -1;
    double time_limit = 0;
    unsigned long long memory = 1ULL << 30;
    int first_pass = 1, level = 1, game;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOl|LdKpi", names, &g, &piles, &redeals, &max_nodes, &time_limit,
                                     &memory, &first_pass, &level) ||
        read_game(g, &game))
        return NULL;
    if (memory < (1u << 20)) return PyErr_Format(PyExc_ValueError, "memory must be at least 1 MiB");
    Search *s = calloc(1, sizeof *s);
    if (!s) return PyErr_NoMemory();
    if (read_pos(game, piles, redeals, &s->pos)) {
        free(s);
        return NULL;
    }
    int verdict = V_UNKNOWN, found = 0;
    size_t table_bytes = (size_t)(memory / 8 * 7);
    s->stack_limit = (size_t)memory - table_bytes;
    s->level = level;
    s->max_nodes = max_nodes;
    Py_BEGIN_ALLOW_THREADS;
    double start = now();
    s->deadline = time_limit > 0 ? start + time_limit : 0;
    if (table_init(&s->table, table_bytes)) {
        s->out_of_memory = 1;
    } else {
        int r = -1;
        if (first_pass && game != GAME_EW) {
            /* The first pass gets half of what is given: half the nodes and half the time. With a
             * node budget B it stops at B/2, so a bigger budget gives it more, never less, and the
             * complete search after it gets B minus what the pass used, which also only grows.
             * Within its share it runs again and again with a shaken move order and twice the
             * nodes each time: a depth-first search that took a wrong turn early can spend
             * millions of positions below it, and a fresh start is the cure. The runs' sizes do
             * not depend on the budget (only the last is cut short), so the first k runs are the
             * same whatever the budget. With no node budget the share is 64 million. */
            long long share = max_nodes >= 0 ? max_nodes / 2 : (time_limit > 0 ? -1 : 64000000LL);
            s->pass_deadline = time_limit > 0 ? start + time_limit / 2 : 0;
            for (int restart = 0; !found; restart++) {
                long long size = 20000LL << (restart < 30 ? restart : 30);
                s->pass_cap = s->nodes + size;
                if (share >= 0 && s->pass_cap > share) s->pass_cap = share;
                s->restart = restart;
                /* Every other run leaves out the rule of thumb for sending cards home: some wins
                 * keep a card on the tableau that the rule would have sent home. */
                s->greedy = restart % 2 == 0;
                r = run(s, 1);
                if (r == 1) found = 1;
                /* exhausted: no order finds a win there; out of budget, time or share: stop */
                if ((r == 0 && !s->greedy) || s->out_of_budget || s->out_of_memory || s->pass_timeout) break;
                if (share >= 0 && s->nodes >= share) break;
            }
            s->restart = 0;
        }
        if (!found && !s->out_of_budget && !s->out_of_memory) {
            s->pass_cap = -1;
            s->pass_deadline = 0;
            r = run(s, 0);
            if (r == 1) found = 1;
            else if (r == 0) verdict = V_UNWINNABLE;
        }
        if (found) verdict = V_WINNABLE;
    }
    Py_END_ALLOW_THREADS;
    PyObject *line = PyList_New(0);
    if (line && found)
        for (int j = 0; j < s->nundo; j++) {
            PyObject *m = move_to_python(s->undo[j].m);
            if (!m || PyList_Append(line, m)) {
                Py_XDECREF(m);
                Py_CLEAR(line);
                break;
            }
            Py_DECREF(m);
        }
    PyObject *result = NULL;
    if (line)
        result = Py_BuildValue("(iNLin)", verdict, line, s->nodes, s->out_of_memory, (Py_ssize_t)s->table.clears);
    table_free(&s->table);
    free(s->frames);
    free(s->moves);
    free(s->undo);
    free(s->keys);
    free(s);
    return result;
}

static PyMethodDef core_methods[] = {
    {"moves", core_moves, METH_VARARGS, "moves(game, piles, redeals) -> every legal move, in the engine's order"},
    {"apply", core_apply, METH_VARARGS,
     "apply(game, piles, redeals, move) -> (piles, redeals) after the move; checks hash and undo on the way"},
    {"key", core_key, METH_VARARGS, "key(game, piles, redeals) -> (canonical key, hash, rank)"},
    {"safe_move", core_safe, METH_VARARGS, "safe_move(game, piles, redeals, level=1, restricted=0) -> move or None"},
    {"solve", (PyCFunction)(void (*)(void))core_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(game, piles, redeals, max_nodes=-1, time_limit=0, memory=2**30, first_pass=True, level=1)\n"
     "-> (verdict 0 winnable / 1 unwinnable / 2 unknown, winning line, nodes, ran out of memory,\n"
     "    times the table was full and emptied)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's search in C; tableaux.solver is the interface.", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    return PyModule_Create(&core_module);
}
