/*
 * The line shortening's cycles and detours (shorten.h), the passes of tableaux/solver/detours.py made on
 * compact positions in place of Python objects: the same steps (moves that name cards, resolved in whatever
 * position they are played from), the same order of trials, the same positions counted, so the same line comes
 * out of the same line and budget (tests/solver/test_lines_core.py). The module docstring of detours.py says
 * what is cut and why nothing can lose the win; its caller replays the line this returns through the engine
 * before it is believed.
 *
 * A line of n moves holds n steps and the n + 1 positions between them with their canonical keys; where each
 * key comes last on the line after the step a pass is at is a small hash set, rebuilt for that part after every
 * cut. A detour's positions are made in place and kept only when the detour is (made again then); a cut moves
 * pointers to positions, not the positions. Lines only get shorter, so nothing grows past the line given.
 */
#include "shorten.h"

#include "budget.h"
#include "hashset.h"
#include "table.h"

enum { DEAL, REDEAL, HOME, ONTO, EMPTY };
enum { MAX_DROPS = 2 }; /* steps a detour's replay may leave out besides the one it cuts (MAX_DROPS in Python) */
static const int WINDOWS[] = {4, -1}; /* the passes' windows, in turn (WINDOWS in Python; -1: none) */

typedef struct {
    uint8_t kind, card, under;
} Step;

typedef struct {
    uint64_t hash; /* the position's hash and rank, mixed: equal keys give equal hashes */
    int len, rank;
    uint8_t key[KEY_MAX];
} Key;

typedef struct {
    uint64_t hash;
    uint32_t at; /* the key's last place on the line, plus one (0: an empty slot) */
} Where;

typedef struct {
    Pos pos;
    Key key;
} Node;

typedef struct {
    int n; /* steps; positions are n + 1 */
    Step *steps;
    Node **at;   /* the position before each step, and after the last (cuts move pointers, not positions) */
    Node **free; /* nodes off the line (a cut takes out more than it puts in: n + 1 nodes are enough) */
    int nfree;
    HashSet where;
    int last[64]; /* each card's last step, when a foundation takes one card a move */
    int one_home;
} Line;

static uint64_t where_hash(const void *slot) { return ((const Where *)slot)->hash; }
static int where_empty(const void *slot) { return !((const Where *)slot)->at; }
static const HashKind WHERE = {sizeof(Where), where_hash, where_empty};

static int same_key(const Key *a, const Key *b) {
    return a->hash == b->hash && a->len == b->len && a->rank == b->rank && !memcmp(a->key, b->key, (size_t)a->len);
}

static uint64_t hash_of(const Pos *p) { return mix(p->hash ^ (uint64_t)pos_rank(p) * 0x9E3779B97F4A7C15ULL); }

static void key_of(const Pos *p, Key *k) {
    k->len = make_key(p, k->key);
    k->rank = pos_rank(p);
    k->hash = hash_of(p);
}

/* The slot of key `k` in the line's set of keys, or the empty slot where it would go. */
static Where *slot_of(const Line *l, const Key *k) {
    for (size_t i = k->hash & l->where.mask;; i = (i + 1) & l->where.mask) {
        Where *slot = hs_slot(&l->where, &WHERE, i);
        if (!slot->at || (slot->hash == k->hash && same_key(&l->at[slot->at - 1]->key, k))) return slot;
    }
}

/* The last place of key `k` on the line, or -1. */
static int place_of(const Line *l, const Key *k) {
    const Where *slot = slot_of(l, k);
    return slot->at ? (int)slot->at - 1 : -1;
}

/* The last place on the line of the key of `p`, or -1; the key is made (into `k`) only when a position of the
 * line has its hash, which equal keys share. */
static int where_is(const Line *l, const Pos *p, Key *k) {
    uint64_t hash = hash_of(p);
    int made = 0;
    for (size_t i = hash & l->where.mask;; i = (i + 1) & l->where.mask) {
        const Where *slot = hs_slot(&l->where, &WHERE, i);
        if (!slot->at) return -1;
        if (slot->hash != hash) continue;
        if (!made) {
            key_of(p, k);
            made = 1;
        }
        if (same_key(&l->at[slot->at - 1]->key, k)) return (int)slot->at - 1;
    }
}

/* Where each key of positions `from` to n comes last on the line, and (one card home a move) each card's last
 * step. A pass at step i asks only for places after i (a cycle back to a position after i, a detour that meets
 * the line after i), and a cut at i changes only the positions after i, so those are all the set holds. */
static void index_line(Line *l, int from) {
    size_t slots = 16;
    while (slots < 2 * (size_t)(l->n + 1 - from)) slots *= 2;
    l->where.mask = slots - 1;
    memset(l->where.slots, 0, slots * sizeof(Where));
    for (int j = from; j <= l->n; j++) {
        Where *slot = slot_of(l, &l->at[j]->key);
        slot->hash = l->at[j]->key.hash;
        slot->at = (uint32_t)j + 1;
    }
    if (l->one_home) {
        for (int c = 0; c < 64; c++) l->last[c] = -1;
        for (int k = 0; k < l->n; k++)
            if (l->steps[k].kind >= HOME) l->last[l->steps[k].card] = k;
    }
}

static int is_foundation(int game, int i) { return game == GAME_EW ? i >= EW_F0 && i < EW_F0 + 4 : i < KA_T0; }

static int tableau(int game, int j) { return game == GAME_EW ? tx_ew_tableau[j] : KA_T0 + j; }

static int ntableau(int game) { return game == GAME_EW ? 8 : KA_T1 - KA_T0; }

/* What `m` does in `p`, by card: the step that plays it again from any equivalent position. */
static Step step_of(const Pos *p, Move m) {
    Step s = {0, 0, 0};
    if (p->game == GAME_EW && (m.src == EW_STOCK || m.dst == EW_STOCK)) {
        s.kind = m.src == EW_STOCK ? DEAL : REDEAL;
        return s;
    }
    s.card = p->c[m.src][p->n[m.src] - m.cnt] & 63;
    if (is_foundation(p->game, m.dst)) s.kind = HOME;
    else if (p->n[m.dst]) {
        s.kind = ONTO;
        s.under = (uint8_t)(top(p, m.dst) & 63);
    } else s.kind = EMPTY;
    return s;
}

/* The move that plays `s` in `p` (the rules may still refuse it): 1, or 0 when none could. */
static int resolve(const Pos *p, Step s, Move *m) {
    int game = p->game;
    if (s.kind == DEAL || s.kind == REDEAL) {
        if (game != GAME_EW) return 0;
        *m = s.kind == DEAL ? (Move){EW_STOCK, 1, EW_WASTE} : (Move){EW_WASTE, p->n[EW_WASTE], EW_STOCK};
        return 1;
    }
    int src = -1, at = 0;
    for (int i = 0; i < p->npiles && src < 0; i++)
        for (int j = 0; j < p->n[i]; j++)
            if (p->c[i][j] == s.card) {
                src = i, at = j;
                break;
            }
    if (src < 0) return 0; /* face down, or not in play */
    int count = p->n[src] - at;
    if (s.kind == HOME) {
        int suit = tx_suit[top(p, src)], empty = -1, f0 = game == GAME_EW ? EW_F0 : 0;
        for (int f = f0; f < f0 + 4; f++) {
            if (p->n[f] && tx_suit[p->c[f][0]] == suit && f != src) {
                *m = (Move){(uint8_t)src, (uint8_t)count, (uint8_t)f};
                return 1;
            }
            if (!p->n[f] && empty < 0 && f != src) empty = f;
        }
        if (empty < 0) return 0;
        *m = (Move){(uint8_t)src, (uint8_t)count, (uint8_t)empty};
        return 1;
    }
    for (int j = 0; j < ntableau(game); j++) {
        int t = tableau(game, j);
        if (s.kind == ONTO ? p->n[t] && top(p, t) == s.under : t != src && !p->n[t]) {
            *m = (Move){(uint8_t)src, (uint8_t)count, (uint8_t)t};
            return 1;
        }
    }
    return 0;
}

/* Step `s` played in `p` in place when it resolves to a move the rules allow there: 1, else 0 (`p` unchanged). */
static int play(Pos *p, Step s) {
    Move m;
    Undo u;
    if (!resolve(p, s, &m) || !is_legal(p, m)) return 0;
    apply_move(p, m, &u);
    return 1;
}

/* Items [from, to) of `a` (`len` items of `size` bytes) replaced by the `count` items at `b`. */
static void splice(void *a, size_t size, int len, int from, int to, const void *b, int count) {
    uint8_t *x = a;
    memmove(x + (size_t)(from + count) * size, x + (size_t)to * size, (size_t)(len - to) * size);
    if (count) memcpy(x + (size_t)from * size, b, (size_t)count * size);
}

typedef struct {
    long long work, limit; /* positions made; the most it may make (-1: no limit) */
    double deadline;
    Step *steps; /* a detour's new steps */
    Node **fresh; /* the nodes of the positions after them, once it is kept */
} Pass;

static int spent(const Pass *w) {
    return (w->limit >= 0 && w->work >= w->limit) || (w->deadline > 0 && tx_now() >= w->deadline);
}

/* Positions [i + 1, to) and steps [i, step_to) taken off the line (their nodes freed); in their place the
 * `count` positions after the first `count` of `steps` played from position i (made again, not kept while the
 * detour was tried: most detours are not kept) and `add` steps from `steps`. */
static void replace(Line *l, Pass *w, int i, int to, int step_to, const Step *steps, int count, int add) {
    for (int j = i + 1; j < to; j++) l->free[l->nfree++] = l->at[j];
    Pos p = l->at[i]->pos;
    for (int j = 0; j < count; j++) {
        play(&p, steps[j]);
        Node *node = w->fresh[j] = l->free[--l->nfree];
        node->pos = p;
        key_of(&p, &node->key);
    }
    splice(l->at, sizeof(Node *), l->n + 1, i + 1, to, w->fresh, count);
    splice(l->steps, sizeof(Step), l->n, i, step_to, steps, add);
    l->n += add - (step_to - i);
}

/* One pass along the line, cutting cycles and detours in place, a detour given up after `window` steps that do
 * not meet the line (-1: only when the steps stop resolving): 1 when anything was cut. */
static int one_pass(Line *l, Pass *w, int window) {
    int changed = 0, i = 0;
    index_line(l, 0);
    while (i < l->n) {
        if (spent(w)) break;
        int j = place_of(l, &l->at[i]->key);
        if (j > i) { /* a cycle: the position before step i comes again before step j */
            for (int x = i; x < j; x++) l->free[l->nfree++] = l->at[x];
            splice(l->at, sizeof(Node *), l->n + 1, i, j, NULL, 0);
            splice(l->steps, sizeof(Step), l->n, i, j, NULL, 0);
            l->n -= j - i;
            index_line(l, i + 1);
            changed = 1;
            continue;
        }
        Step step = l->steps[i];
        if (l->one_home && step.kind == HOME && l->last[step.card] == i) { /* nothing else takes it home */
            i++;
            continue;
        }
        int n = l->n, made = 0, drops = 0, cut = 0, k = i + 1, ended = 1;
        Pos state = l->at[i]->pos;
        Key at_key;
        while (k < n) {
            if (made == window) {
                ended = 0;
                break;
            }
            int ok = play(&state, l->steps[k]);
            w->work++;
            if (!ok) {
                if (++drops > MAX_DROPS) {
                    ended = 0;
                    break;
                }
                k++;
                continue;
            }
            w->steps[made++] = l->steps[k++];
            int at = where_is(l, &state, &at_key);
            if (at >= k) { /* back on the old line, further on: the steps between are replaced */
                replace(l, w, i, at, at, w->steps, made - 1, made);
                cut = 1;
                ended = 0;
                break;
            }
        }
        if (ended && is_won(&state)) { /* the detour wins on its own: it is the rest of the line */
            replace(l, w, i, n + 1, n, w->steps, made, made);
            cut = 1;
        }
        if (cut) {
            changed = 1;
            index_line(l, i + 1);
            continue; /* the step now at i gets its turn */
        }
        i++;
    }
    return changed;
}

int tx_shorten(const Pos *start, const Move *line, int n, long long budget, double deadline, int windowed, Move **out,
               int *nout, long long *work) {
    Line l = {.n = n, .one_home = start->game != GAME_EW};
    Pass w = {.limit = budget, .deadline = deadline};
    size_t slots = 16, size = (size_t)n + 1;
    while (slots < 2 * size) slots *= 2; /* the most index_line takes */
    Node *nodes = malloc(size * sizeof *nodes);
    l.steps = malloc(size * sizeof(Step));
    l.at = malloc(size * sizeof(Node *));
    l.free = malloc(size * sizeof(Node *));
    l.where.slots = malloc(slots * sizeof(Where));
    w.steps = malloc(size * sizeof(Step));
    w.fresh = malloc(size * sizeof(Node *));
    Move *moves = malloc(size * sizeof(Move));
    int result = -2;
    if (!nodes || !l.steps || !l.at || !l.free || !l.where.slots || !w.steps || !w.fresh || !moves) goto done;
    result = -1;
    for (int j = 0; j <= n; j++) l.at[j] = &nodes[j];
    l.at[0]->pos = *start;
    key_of(start, &l.at[0]->key);
    for (int j = 0; j < n; j++) {
        Undo u;
        if (!is_legal(&l.at[j]->pos, line[j])) goto done;
        l.steps[j] = step_of(&l.at[j]->pos, line[j]);
        l.at[j + 1]->pos = l.at[j]->pos;
        apply_move(&l.at[j + 1]->pos, line[j], &u);
        key_of(&l.at[j + 1]->pos, &l.at[j + 1]->key);
    }
    if (!is_won(&l.at[n]->pos)) goto done;
    result = 0;
    for (size_t x = windowed ? 0 : 1; x < sizeof WINDOWS / sizeof *WINDOWS; x++)
        while (!spent(&w) && one_pass(&l, &w, WINDOWS[x])) {
        }
    /* The steps as moves from the start, each one the rules allow; the line given when they do not win. */
    Pos p = *start;
    int k = 0;
    for (; k < l.n; k++) {
        Undo u;
        if (!resolve(&p, l.steps[k], &moves[k]) || !is_legal(&p, moves[k])) break;
        apply_move(&p, moves[k], &u);
    }
    if (k < l.n || !is_won(&p) || l.n >= n) {
        memcpy(moves, line, (size_t)n * sizeof(Move));
        k = n;
    }
    *out = moves;
    *nout = k;
    *work = w.work;
    moves = NULL;
done:
    free(nodes);
    free(l.steps);
    free(l.at);
    free(l.free);
    free(l.where.slots);
    free(w.steps);
    free(w.fresh);
    free(moves);
    return result;
}
