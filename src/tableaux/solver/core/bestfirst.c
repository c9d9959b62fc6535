/*
 * The first pass's best-first run (King Albert). A depth-first search follows its move order to the
 * bottom before it tries anything else, so one poor choice near the root can cost millions of
 * positions; a greedy best-first search always goes on from the most promising position seen so far,
 * and finds most wins that defeat the depth-first runs within a few hundred thousand positions. It
 * only looks for wins, so it needs no proof: what it cannot find, the complete search decides. Like
 * the depth-first runs it takes nothing back off the foundations, except in classic King Albert's second
 * run (`back`), whose space is the whole game's.
 *
 * Every node it has made is kept, so its memory is bounded on its own: it holds what pass.c lends it,
 * three quarters for its nodes and a quarter for its set of positions seen (8 to 16 bytes a position),
 * and stops for good when either is full. A node is its parent, its move and its score (22 bytes with
 * its place in the open list and in recs); only every CHECKPOINT-th generation keeps its whole
 * position (72 bytes), and the others are made again from their nearest such ancestor when they are
 * expanded: at most three moves more per expansion, for more than twice the nodes in the same memory.
 * King Albert deal 25173 is won by this run after 5.8 million nodes, which with whole positions took
 * more than the 384 MiB that the default 1,024 MiB lends it.
 */
#include "bestfirst.h"

#include "hashset.h"

/* The run's nodes, kept between its turns. */
struct Best {
    Pos root;
    HashSet seen;     /* the hashes of the positions it has made (HASHES) */
    uint8_t *recs;    /* the kept positions: the pile lengths, then the cards pile by pile */
    uint32_t *rec;    /* each node's kept position in recs, UINT32_MAX for one made again from its parent's */
    uint32_t *parent; /* the node it was made from (UINT32_MAX: the root) */
    uint8_t *settles; /* 1 when safe moves were made from it, once it has been expanded */
    Move *move;       /* the move that made it, after its parent's safe moves */
    int16_t *score;   /* its score (score below) */
    uint64_t *heap;   /* open nodes: score << 32 | node, least first (ties: the older node) */
    size_t n, cap, nheap, limit; /* limit: the bytes it may hold, nodes and seen together */
    size_t nrecs, recs_cap;
    int full;  /* its memory ran out: it stops for good */
    int back;  /* cards may be taken back off the foundations (classic King Albert's second run) */
};

enum { REC = KA_PACKED }; /* a kept position (ka_pack) */
enum { CHECKPOINT = 4 };              /* a node keeps its position when its depth is a multiple of this */
#define PER_NODE (sizeof(uint32_t) * 2 + 1 + sizeof(Move) + sizeof(int16_t) + sizeof(uint64_t))

/* Lower is more promising: cards still to go home count most; then cards lying above a lower card of
 * their suit (each must move before that card can go home) and, twice, cards above the next card a
 * foundation needs; an empty pile counts in favour. Reserve cards played count heavily against: a card
 * in its cell can go anywhere at any time, so a line that keeps it there keeps more wins open. The
 * weights were tried on deals that the depth-first runs could not win in 5 million positions: keeping
 * reserve cards won 38 of 50 King Albert deals (fresh ones, not those the weights were tuned on) in a
 * million positions each, against 22 without that term. */
static int score(const Pos *p) {
    int h[4], out = 0, empty = 0, played = 0, dig = 0;
    suit_heights(p, 0, h);
    for (int i = KA_T0; i < KA_T1; i++) {
        int n = p->n[i], low[4] = {14, 14, 14, 14};
        if (!n) empty++;
        for (int j = 0; j < n; j++) {
            int c = p->c[i][j] & 63, s = tx_suit[c], r = tx_rank[c];
            if (low[s] < r) out++;
            else low[s] = r;
            if (r == h[s] + 1) dig += n - 1 - j;
        }
    }
    for (int i = KA_R0; i < KA_NPILES; i++) played += p->n[i] == 0;
    return 5 * (52 - h[0] - h[1] - h[2] - h[3]) + out + 2 * dig + 12 * played - 3 * empty + 64;
}

/* The set of positions seen holds their hashes, 0 for an empty slot. */
static uint64_t hash_itself(const void *slot) { return *(const uint64_t *)slot; }
static int no_hash(const void *slot) { return !*(const uint64_t *)slot; }
static int same_hash(const void *slot, const void *x) { return *(const uint64_t *)slot == *(const uint64_t *)x; }
static const HashKind HASHES = {sizeof(uint64_t), hash_itself, no_hash};

/* The positions made so far, by their hash alone (which ignores the order of interchangeable piles): a
 * collision could only hide a position from this run, which proves nothing, and it takes 8 bytes a
 * position instead of a whole key. 0 when x was there already, 1 when added, -1 when full. */
static int mark(Best *b, uint64_t x) {
    if (!x) x = 1;
    if (4 * (b->seen.used + 1) > 3 * (b->seen.mask + 1)) { /* keep it at most three quarters full */
        size_t n = 2 * (b->seen.mask + 1);
        if (n * sizeof(uint64_t) > b->limit / 4) return -1;
        uint8_t *t = calloc(n, sizeof(uint64_t));
        if (!t) return -1;
        free(hs_move(&b->seen, &HASHES, t, n));
    }
    uint64_t *slot = hs_find(&b->seen, &HASHES, x, same_hash, &x);
    if (*slot) return 0;
    *slot = x;
    b->seen.used++;
    return 1;
}

/* The bytes the nodes and their kept positions may take. */
static size_t node_room(const Best *b) {
    return b->limit / 4 * 3;
}

/* Room for one more node, within the limit; 0 on success. Its arrays leave room for the kept positions
 * of a CHECKPOINT-th of their nodes. */
static int room(Best *b) {
    if (b->n < b->cap) return 0;
    size_t cap = b->cap ? 2 * b->cap : 4096, most = node_room(b) / (PER_NODE + REC / CHECKPOINT);
    if (cap > most) cap = most; /* the last step up takes what is left */
    if (cap > UINT32_MAX - 1) cap = UINT32_MAX - 1; /* nodes are numbered in 32 bits */
    if (cap <= b->cap) return -1;
    uint32_t *rec = realloc(b->rec, cap * sizeof *rec);
    if (rec) b->rec = rec;
    uint32_t *parent = realloc(b->parent, cap * sizeof *parent);
    if (parent) b->parent = parent;
    uint8_t *settles = realloc(b->settles, cap);
    if (settles) b->settles = settles;
    Move *move = realloc(b->move, cap * sizeof *move);
    if (move) b->move = move;
    int16_t *score = realloc(b->score, cap * sizeof *score);
    if (score) b->score = score;
    uint64_t *heap = realloc(b->heap, cap * sizeof *heap);
    if (heap) b->heap = heap;
    if (!rec || !parent || !settles || !move || !score || !heap) return -1;
    b->cap = cap;
    return 0;
}

/* Keep node `node`'s position, p; 0 on success, -1 when memory runs out. */
static int keep(Best *b, uint32_t node, const Pos *p) {
    if (b->nrecs == b->recs_cap) {
        size_t used = b->cap * PER_NODE, cap = b->recs_cap ? 2 * b->recs_cap : 1024;
        size_t most = node_room(b) > used ? (node_room(b) - used) / REC : 0;
        if (cap > most) cap = most;
        if (cap <= b->recs_cap) return -1;
        uint8_t *recs = realloc(b->recs, cap * REC);
        if (!recs) return -1;
        b->recs = recs;
        b->recs_cap = cap;
    }
    b->rec[node] = (uint32_t)b->nrecs;
    ka_pack(p, b->recs + b->nrecs++ * REC);
    return 0;
}

/* The safe moves from p, made without counting them: they were counted when the node was first expanded. */
static void settle(Pos *p, Move *buf) {
    Undo u;
    for (int n = gen_moves(p, buf);; n = gen_moves(p, buf)) {
        int j = tx_ka_safe(p, buf, n, 0);
        if (j < 0) return;
        apply_move(p, buf[j], &u);
    }
}

/* Node x's position into p, from its nearest ancestor with a kept one: each step down makes the parent's
 * safe moves and then the child's move. Returns x's depth below that ancestor. */
static int restore(const Best *b, uint32_t x, Pos *p, Move *buf) {
    uint32_t path[CHECKPOINT];
    int d = 0;
    for (; b->rec[x] == UINT32_MAX; x = b->parent[x]) path[d++] = x;
    ka_unpack(p, b->recs + (size_t)b->rec[x] * REC);
    for (int i = d - 1; i >= 0; i--) {
        Undo u;
        if (b->settles[b->parent[path[i]]]) settle(p, buf);
        apply_move(p, b->move[path[i]], &u);
    }
    return d;
}

/* Open node `node`, by its score; ties go to the older node. */
static void push(Best *b, uint32_t node) {
    uint64_t x = (uint64_t)(uint16_t)b->score[node] << 32 | node;
    size_t i = b->nheap++;
    while (i) {
        size_t up = (i - 1) / 2;
        if (b->heap[up] <= x) break;
        b->heap[i] = b->heap[up];
        i = up;
    }
    b->heap[i] = x;
}

static uint32_t pop(Best *b) {
    uint64_t top = b->heap[0], x = b->heap[--b->nheap];
    size_t i = 0, n = b->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && b->heap[c + 1] < b->heap[c]) c++;
        if (x <= b->heap[c]) break;
        b->heap[i] = b->heap[c];
        i = c;
    }
    if (n) b->heap[i] = x;
    return (uint32_t)top;
}

/* Make the safe moves (the proved ones) from the position; through search_play when `record`.
 * How many were made, or -1 when the budget or memory runs out. */
static int safe_moves(Search *s, Move *buf, int record) {
    Pos *p = &s->pos;
    Undo u;
    for (int n = gen_moves(p, buf), made = 0;; n = gen_moves(p, buf), made++) {
        int j = tx_ka_safe(p, buf, n, 0);
        if (j < 0) return made;
        if (record) {
            if (tx_search_play(s, buf[j])) return -1;
        } else {
            if (tx_budget_tick(&s->budget)) return -1;
            apply_move(p, buf[j], &u);
        }
    }
}

/* The line to node `x`, played from the root onto the undo stack: each node's move follows its
 * parent's safe moves, which are made again (they depend only on the position). */
static int replay(Search *s, Best *b, uint32_t x) {
    size_t depth = 0;
    for (uint32_t y = x; b->parent[y] != UINT32_MAX; y = b->parent[y]) depth++;
    uint32_t *path = malloc((depth + 1) * sizeof *path);
    if (!path) return -1;
    size_t k = depth;
    for (uint32_t y = x; b->parent[y] != UINT32_MAX; y = b->parent[y]) path[--k] = y;
    Move buf[512];
    s->pos = b->root;
    int r = 0;
    for (k = 0; k < depth && !r; k++)
        r = safe_moves(s, buf, 1) < 0 || tx_search_play(s, b->move[path[k]]);
    if (!r) r = safe_moves(s, buf, 1) < 0;
    free(path);
    return r ? -1 : 0;
}

/* Start a run from s->pos; NULL when memory runs out. Its nodes and its set of positions seen take at most
 * `limit` bytes, which the main table leaves free meanwhile (the budget's `lent`, see search.c). With `back`,
 * cards may be taken back off the foundations. */
Best *tx_bestfirst_start(Search *s, size_t limit, int back) {
    Best *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->root = s->pos;
    b->limit = limit;
    b->back = back;
    b->seen.mask = 4095;
    b->seen.slots = calloc(b->seen.mask + 1, sizeof(uint64_t));
    if (!b->seen.slots || room(b) || keep(b, 0, &s->pos)) {
        tx_bestfirst_free(b);
        return NULL;
    }
    b->parent[0] = UINT32_MAX;
    b->n = 1;
    b->score[0] = (int16_t)score(&s->pos);
    push(b, 0);
    mark(b, s->pos.hash);
    return b;
}

/* Go on from where the run stopped, until the pass's cap. 1 when a win was found (the undo stack then
 * holds the line and s->pos is won), 0 when its space (the restricted one, or with `back` the whole game's)
 * has no win as far as it can tell (it knows positions by hash alone, so this proves nothing), -1 when
 * stopped (the cap, the clock, or its memory; s->pos is as before). */
int tx_bestfirst_run(Search *s, Best *b) {
    Pos *p = &s->pos;
    Pos saved = *p;
    int nundo0 = s->line.nundo, result = -1;
    Move buf[512];
    if (b->full) return -1;
    while (b->nheap) {
        uint32_t x = pop(b);
        int depth = restore(b, x, p, buf) + 1; /* its children's, below the same kept ancestor */
        int made = safe_moves(s, buf, 0);
        if (made < 0) {
            push(b, x); /* expanded again next time */
            goto stopped;
        }
        b->settles[x] = made > 0;
        if (is_won(p)) {
            if (replay(s, b, x)) goto stopped;
            return 1;
        }
        int n = tx_ka_order(p, buf, gen_moves(p, buf), !b->back, 0);
        for (int j = 0; j < n; j++) {
            Undo u;
            if (room(b)) b->full = 1;
            if (b->full || tx_budget_tick(&s->budget)) {
                /* the node goes back to be expanded again; its children made so far are known */
                push(b, x);
                goto stopped;
            }
            apply_move(p, buf[j], &u);
            int fresh = mark(b, p->hash);
            if (fresh < 0) b->full = 1;
            if (fresh > 0) {
                b->rec[b->n] = UINT32_MAX;
                if (depth == CHECKPOINT && keep(b, (uint32_t)b->n, p)) {
                    b->full = 1;
                    undo_move(p, &u);
                    push(b, x);
                    goto stopped;
                }
                b->parent[b->n] = x;
                b->move[b->n] = buf[j];
                b->score[b->n] = (int16_t)score(p);
                push(b, (uint32_t)b->n);
                b->n++;
            }
            undo_move(p, &u);
        }
    }
    result = 0;
stopped:
    *p = saved;
    s->line.nundo = nundo0; /* a line cut short by memory is dropped */
    return result;
}

void tx_bestfirst_free(Best *b) {
    if (!b) return;
    free(b->seen.slots);
    free(b->recs);
    free(b->rec);
    free(b->parent);
    free(b->settles);
    free(b->move);
    free(b->score);
    free(b->heap);
    free(b);
}
