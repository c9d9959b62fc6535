/*
 * The polish (polish.h): shortest.py's greedy best-first search, for King Albert's games, made on compact
 * positions. The same nodes in the same order as its reference: a node is a position after one move and the
 * greedy moves home that follow it; the open nodes wait in a heap ordered by (g + weight * h, -g, h, node), the
 * deepest first among equals and then the oldest; a position is kept only when no node reached it in as few
 * moves; a win shorter than the best line becomes the best line. Positions made are counted as there (each
 * child, and each greedy move home), so the same budget stops it at the same place.
 *
 * A node keeps its position packed (ka_pack: at most 72 bytes), its parent and its moves;
 * the best moves to each position seen are a hash set over the positions' canonical keys.
 */
#include "polish.h"

#include "budget.h"
#include "hashset.h"
#include "table.h"

enum { CHECK_EVERY = 256 }; /* positions between two looks at the clock (_CHECK_EVERY in Python) */

int tx_ka_lower_bound(const Pos *p) {
    int home = 0, extra = 0, single = p->game == GAME_KA_CLASSIC;
    for (int f = 0; f < KA_T0; f++) home += p->n[f];
    for (int i = KA_T0; i < KA_T1; i++) {
        int low[4] = {14, 14, 14, 14}, face_up = 0;
        for (int j = 0; j < p->n[i]; j++) {
            int c = p->c[i][j], s = tx_suit[c], r = tx_rank[c];
            if (low[s] < r) {
                if (single || (c & DOWN)) extra++;
                else face_up = 1;
            } else low[s] = r;
        }
        extra += face_up;
    }
    return 52 - home + extra;
}

typedef struct {
    int f, neg_g, h;
    uint32_t node;
} Open;

typedef struct {
    uint64_t hash;
    uint32_t id; /* the position's number among those seen, plus one (0: an empty slot) */
} Seen;

typedef struct {
    uint8_t *bytes;
    size_t n, cap;
} Arena;

typedef struct {
    Pos root;
    int restricted; /* the first pass's moves and greedy moves home, or every move and the safe moves home */
    /* nodes */
    uint32_t *parent, *moves_at, *packed_at, *seen_at; /* seen_at: the node's position's number among those seen */
    uint16_t *nmoves;
    size_t n, cap;
    Arena packed, keys;
    Move *moves;
    size_t nm, mcap;
    /* the heap of open nodes */
    Open *heap;
    size_t nheap, hcap;
    /* the positions seen: their keys (in `keys`) and the fewest moves found to each */
    HashSet seen;
    uint32_t *key_at;
    uint8_t *key_len;
    int16_t *best_g;
    size_t nseen, seen_cap;
    long long made;
    int failed;
} Polish;

static uint64_t seen_hash(const void *slot) { return ((const Seen *)slot)->hash; }
static int seen_empty(const void *slot) { return !((const Seen *)slot)->id; }
static const HashKind SEEN = {sizeof(Seen), seen_hash, seen_empty};

static int grow(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *b = realloc(*buf, n * size);
    if (!b) return -1;
    *buf = b;
    *cap = n;
    return 0;
}

static long push_bytes(Arena *a, const uint8_t *b, size_t len) {
    if (grow((void **)&a->bytes, &a->cap, a->n + len, 1)) return -1;
    memcpy(a->bytes + a->n, b, len);
    a->n += len;
    return (long)(a->n - len);
}

static int before(const Open *a, const Open *b) {
    if (a->f != b->f) return a->f < b->f;
    if (a->neg_g != b->neg_g) return a->neg_g < b->neg_g;
    if (a->h != b->h) return a->h < b->h;
    return a->node < b->node;
}

static int heap_push(Polish *s, Open x) {
    if (grow((void **)&s->heap, &s->hcap, s->nheap + 1, sizeof *s->heap)) return -1;
    size_t i = s->nheap++;
    while (i && before(&x, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = x;
    return 0;
}

static Open heap_pop(Polish *s) {
    Open top = s->heap[0], x = s->heap[--s->nheap];
    size_t i = 0, n = s->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(&s->heap[c + 1], &s->heap[c])) c++;
        if (!before(&s->heap[c], &x)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n) s->heap[i] = x;
    return top;
}

/* The number of the position `p` among those seen, or -1 when it is new: then `key` holds its key (`*len`
 * bytes) and `*slot` the empty slot where it goes. NULL slot when the set could not grow. */
static long seen_id(Polish *s, const Pos *p, uint8_t *key, int *len, Seen **slot) {
    *len = make_key(p, key);
    if (4 * (s->seen.used + 1) > 3 * (s->seen.mask + 1)) {
        size_t n = 2 * (s->seen.mask + 1);
        uint8_t *t = calloc(n, sizeof(Seen));
        if (!t) {
            *slot = NULL;
            return -1;
        }
        free(hs_move(&s->seen, &SEEN, t, n));
    }
    uint64_t hash = p->hash ? p->hash : 1;
    for (size_t i = hash & s->seen.mask;; i = (i + 1) & s->seen.mask) {
        Seen *x = hs_slot(&s->seen, &SEEN, i);
        *slot = x;
        if (!x->id) {
            x->hash = hash;
            return -1;
        }
        uint32_t id = x->id - 1;
        if (x->hash == hash && s->key_len[id] == *len && !memcmp(s->keys.bytes + s->key_at[id], key, (size_t)*len))
            return id;
    }
}

/* A new position seen, in `slot`, reached in g moves: its number, or -1 when memory ran out. */
static long see(Polish *s, Seen *slot, const uint8_t *key, int len, int g) {
    size_t cap = s->seen_cap;
    if (grow((void **)&s->key_at, &cap, s->nseen + 1, sizeof *s->key_at)) return -1;
    cap = s->seen_cap;
    if (grow((void **)&s->key_len, &cap, s->nseen + 1, sizeof *s->key_len)) return -1;
    cap = s->seen_cap;
    if (grow((void **)&s->best_g, &cap, s->nseen + 1, sizeof *s->best_g)) return -1;
    s->seen_cap = cap;
    long off = push_bytes(&s->keys, key, (size_t)len);
    if (off < 0) return -1;
    s->key_at[s->nseen] = (uint32_t)off;
    s->key_len[s->nseen] = (uint8_t)len;
    s->best_g[s->nseen] = (int16_t)g;
    slot->id = (uint32_t)++s->nseen;
    s->seen.used++;
    return (long)s->nseen - 1;
}

/* The moves home made at once from `p` (greedy ones when the search is restricted, else the safe ones), made in
 * place and appended to `path` (`*k` moves so far). */
static void closure(Polish *s, Pos *p, Move *path, int *k) {
    Move buf[512];
    for (;;) {
        int n = gen_moves(p, buf), j = tx_ka_safe(p, buf, n, s->restricted);
        if (j < 0) return;
        Undo u;
        apply_move(p, buf[j], &u);
        path[(*k)++] = buf[j];
        s->made++;
    }
}

/* A new node: its position, parent, moves and slot in the set seen. -1 when memory ran out. */
static int add_node(Polish *s, const Pos *p, uint32_t parent, const Move *path, int k, uint32_t seen_at) {
    size_t cap = s->cap;
    if (grow((void **)&s->parent, &cap, s->n + 1, sizeof *s->parent)) return -1;
    cap = s->cap;
    if (grow((void **)&s->moves_at, &cap, s->n + 1, sizeof *s->moves_at)) return -1;
    cap = s->cap;
    if (grow((void **)&s->packed_at, &cap, s->n + 1, sizeof *s->packed_at)) return -1;
    cap = s->cap;
    if (grow((void **)&s->seen_at, &cap, s->n + 1, sizeof *s->seen_at)) return -1;
    cap = s->cap;
    if (grow((void **)&s->nmoves, &cap, s->n + 1, sizeof *s->nmoves)) return -1;
    s->cap = cap;
    if (grow((void **)&s->moves, &s->mcap, s->nm + (size_t)k, sizeof *s->moves)) return -1;
    uint8_t r[KA_PACKED];
    long at = push_bytes(&s->packed, r, ka_pack(p, r));
    if (at < 0) return -1;
    if (k) memcpy(s->moves + s->nm, path, (size_t)k * sizeof *path);
    s->parent[s->n] = parent;
    s->moves_at[s->n] = (uint32_t)s->nm;
    s->nmoves[s->n] = (uint16_t)k;
    s->packed_at[s->n] = (uint32_t)at;
    s->seen_at[s->n] = seen_at;
    s->nm += (size_t)k;
    s->n++;
    return 0;
}

/* The moves from the start to node i, then `path` (k moves), into `out`: their number. */
static int line_to(const Polish *s, uint32_t i, const Move *path, int k, Move *out) {
    int n = 0;
    for (uint32_t j = i; j != UINT32_MAX; j = s->parent[j]) n += s->nmoves[j];
    int at = n;
    for (uint32_t j = i; j != UINT32_MAX; j = s->parent[j]) {
        at -= s->nmoves[j];
        if (s->nmoves[j]) memcpy(out + at, s->moves + s->moves_at[j], s->nmoves[j] * sizeof *out);
    }
    memcpy(out + n, path, (size_t)k * sizeof *out);
    return n + k;
}

static void release(Polish *s) {
    free(s->parent);
    free(s->moves_at);
    free(s->packed_at);
    free(s->seen_at);
    free(s->nmoves);
    free(s->packed.bytes);
    free(s->keys.bytes);
    free(s->moves);
    free(s->heap);
    free(s->seen.slots);
    free(s->key_at);
    free(s->key_len);
    free(s->best_g);
}

int tx_polish(const Pos *start, const Move *line, int n, int weight, int restricted, int enough, long long max_nodes,
              long long max_held, double deadline, Move **out, int *nout, long long *made) {
    Polish s = {.root = *start, .restricted = restricted != 0};
    Move *best = malloc(((size_t)n + 1) * sizeof *best), path[MAXCARDS * 4 + 8];
    int upper = n, k = 0, result = -2;
    s.seen.slots = calloc(1024, sizeof(Seen));
    s.seen.mask = 1023;
    if (!best || !s.seen.slots) goto done;
    memcpy(best, line, (size_t)n * sizeof *best);
    Pos root = *start;
    closure(&s, &root, path, &k);
    if (is_won(&root)) {
        if (k < upper) memcpy(best, path, (size_t)k * sizeof *best), upper = k;
        result = 0;
        goto done;
    }
    uint8_t key[KEY_MAX];
    int len;
    Seen *slot;
    seen_id(&s, &root, key, &len, &slot);
    long id = slot ? see(&s, slot, key, len, k) : -1;
    if (id < 0 || add_node(&s, &root, UINT32_MAX, path, k, (uint32_t)id)) goto done;
    int h0 = tx_ka_lower_bound(&root);
    if (heap_push(&s, (Open){k + weight * h0, -k, h0, 0})) goto done;
    long long next_check = CHECK_EVERY;
    while (s.nheap) {
        Open o = heap_pop(&s);
        int g = -o.neg_g;
        if (g + o.h >= upper || s.best_g[s.seen_at[o.node]] < g) continue;
        Pos p;
        p.game = start->game, p.npiles = start->npiles, p.redeals = start->redeals;
        ka_unpack(&p, s.packed.bytes + s.packed_at[o.node]);
        Move mv[512];
        int nm = tx_ka_order(&p, mv, gen_moves(&p, mv), s.restricted, 0);
        for (int j = 0; j < nm; j++) {
            Pos child = p;
            Undo u;
            apply_move(&child, mv[j], &u);
            path[0] = mv[j];
            k = 1;
            closure(&s, &child, path, &k);
            s.made++;
            int g2 = g + k, h2 = tx_ka_lower_bound(&child);
            if (h2 == 0 && is_won(&child)) { /* a won position's bound is 0: the bound never overestimates */
                if (g2 < upper) {
                    Move *longer = realloc(best, ((size_t)g2 + 1) * sizeof *best);
                    if (!longer) goto done;
                    best = longer;
                    upper = line_to(&s, o.node, path, k, best);
                }
                continue;
            }
            if (g2 + h2 >= upper) continue;
            id = seen_id(&s, &child, key, &len, &slot);
            if (!slot) goto done;
            if ((id >= 0 ? s.best_g[id] : upper) <= g2) continue;
            if (id >= 0) s.best_g[id] = (int16_t)g2;
            else if ((id = see(&s, slot, key, len, g2)) < 0) goto done;
            if (add_node(&s, &child, o.node, path, k, (uint32_t)id) ||
                heap_push(&s, (Open){g2 + weight * h2, -g2, h2, (uint32_t)(s.n - 1)}))
                goto done;
        }
        if (upper <= enough || (max_nodes >= 0 && s.made >= max_nodes) || (long long)s.seen.used >= max_held) break;
        if (s.made >= next_check) {
            next_check = s.made + CHECK_EVERY;
            if (deadline > 0 && tx_now() >= deadline) break;
        }
    }
    result = 0;
done:
    if (!result) {
        *out = best;
        *nout = upper;
        *made = s.made;
        best = NULL;
    }
    free(best);
    release(&s);
    return result;
}
