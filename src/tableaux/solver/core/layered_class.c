/* One class of the layered search, searched from its seeds to its end (layered_class.h): in memory, in a table of
 * its positions, or when it outgrows the memory breadth first on disk. */
#include "layered_class.h"

/* ---- the class's table */

static int set_init(Layered *L, size_t want) {
    size_t n = 1024;
    while (n < want) n *= 2;
    L->set.slots = lmalloc(L, n * sizeof(LKey), 1);
    if (!L->set.slots) return -1;
    L->set.mask = n - 1;
    L->set.used = 0;
    return 0;
}

static void set_free(Layered *L) {
    lfree(L, L->set.slots, (L->set.mask + 1) * sizeof(LKey));
    L->set.slots = NULL;
}

/* Room for one more key: four fifths full at most. 0, or -1 when memory ran out. */
static int room_for(Layered *L, HashSet *s, size_t width, size_t *moves) {
    if ((s->used + 1) * 5 <= (s->mask + 1) * 4) return 0;
    size_t n = (s->mask + 1) * 2;
    uint8_t *slots = lmalloc(L, n * width, 1);
    if (!slots) return -1;
    lfree(L, lkey_move(s, width, slots, n), n / 2 * width);
    ++*moves;
    return 0;
}

/* 1 when k is new (and now in the table), 0 when it was there, -1 when memory ran out. */
static int set_add(Layered *L, LKey k) {
    if (room_for(L, &L->set, sizeof(LKey), &L->set_moves)) return -1;
    LKey *e = lkey_find(&L->set, sizeof(LKey), k);
    if (!lkey_empty(e)) return 0;
    *e = k;
    L->set.used++;
    return 1;
}

/* ---- a trace's table (layered_line.c) */

/* 1 when k is new to the trace (and now in it), 0 when it was there, -1 when memory ran out. */
int tx_lay_trace_add(Layered *L, Trace *T, LKey k, LKey from) {
    if (room_for(L, &T->t, sizeof(Traced), &T->moves)) return -1;
    Traced *e = lkey_find(&T->t, sizeof(Traced), k);
    if (!lkey_empty(e)) return 0;
    e->k = k;
    e->from = from;
    T->t.used++;
    return 1;
}

/* ---- the search */

/* An in-class child while the class is searched on disk. 0, or -1 when the disk gave out. */
static int disk_child(Layered *L, LKey k) { return tx_disk_add(L->disk, k) ? disk_failed(L) : 0; }

/* The class's table takes the child that emit left waiting; 0, or -1 when it is full (L->spill: on disk). */
static int put_pending(Layered *L) {
    if (!L->has_pending) return 0;
    L->has_pending = 0;
    if (set_add(L, L->pending) < 0 || (L->disk_cap && L->spill_at > 0 && L->set.used > (size_t)L->spill_at)) {
        L->spill = L->disk_cap > 0; /* tx_lay_search_class searches the class again, on disk */
        return -1;
    }
    return 0;
}

/* A seed of a lower level: in memory, or with a disk in the level's file. 0, or -1. */
static int seed(Layered *L, Level *v, LKey k) {
    if (L->disk_cap)
        return tx_disk_open(&L->disk, &L->s->budget, L->disk_cap) || tx_disk_seed(L->disk, v, make_seed(k, L->id))
                   ? disk_failed(L)
                   : 0;
    if (lgrow(L, (void **)&v->seeds, &v->cap, v->n + 1, sizeof(Seed))) return -1;
    v->seeds[v->n++] = make_seed(k, L->id);
    return 0;
}

/* A position just made, from the position `from`: after its safe moves, it is won, or joins its class's table
 * (to be expanded, when new), or waits as a seed of a lower class. 0, or -1 when the search must stop. While a
 * line is put together (L->trace), it is the target or joins the class's trace. */
static int emit(Layered *L, Pos *p, LKey k, uint64_t m, const LKey *from) {
    Undo u[MAXCARDS];
    int nu = tx_lay_closure(&L->fix, p, &k, &m, u, NULL), r = 0;
    Trace *T = L->trace;
    if (T) {
        if (same_key(k, T->target)) {
            T->found = 1;
            T->found_from = *from;
            r = -1;
        } else if (m == L->mask && !L->scan_only) {
            r = L->on_disk ? disk_child(L, k) : tx_lay_trace_add(L, T, k, *from);
        }
    } else if (tx_budget_tick(&L->s->budget)) {
        L->stopped = 1;
        r = -1;
    } else if (is_won(p)) {
        L->won = 1;
        L->won_key = k;
        L->won_in = L->id;
        r = -1;
    } else if (m == L->mask) {
        if (L->on_disk) {
            r = disk_child(L, k);
        } else { /* its slot is fetched now and looked at with the next child's (or at the end of tx_lay_expand) */
            __builtin_prefetch(L->set.slots + (key_hash(&k) & L->set.mask) * sizeof(LKey));
            r = put_pending(L);
            L->pending = k;
            L->has_pending = 1;
        }
    } else if ((m & ~L->mask) || __builtin_popcountll(m) >= L->level) {
        L->broken = 1; /* its class was searched already, or will be later than its seeds come: stop, unknown */
        r = -1;
    } else {
        r = seed(L, &L->lev[__builtin_popcountll(m)], k);
    }
    while (nu) tx_ka_undo(p, &u[--nu]);
    return r < 0 ? -1 : 0;
}

/* Make every child of the position with key k. */
int tx_lay_expand(Layered *L, const LKey *k) {
    Pos p;
    tx_lay_decode(&L->fix, k, &p);
    Move mv[128], cov[128];
    int n = tx_lay_moves(&p, mv);
    for (int j = 0; j < n; j++) {
        LKey k2 = *k;
        uint64_t m2 = L->mask;
        Undo u, u2;
        tx_lay_play(&L->fix, &p, &k2, &m2, mv[j], &u);
        int r = 0;
        if (mv[j].src >= KA_R0 && mv[j].dst >= KA_T0) { /* a reserve card put out is covered at once */
            int nc = ka_covers(&p, top(&p, mv[j].dst), mv[j].dst, 0, cov);
            for (int i = 0; i < nc && !r; i++) {
                LKey k3 = k2;
                uint64_t m3 = m2;
                tx_lay_play(&L->fix, &p, &k3, &m3, cov[i], &u2);
                r = emit(L, &p, k3, m3, k);
                tx_ka_undo(&p, &u2);
            }
        } else {
            r = emit(L, &p, k2, m2, k);
        }
        tx_ka_undo(&p, &u);
        if (r) {
            L->has_pending = 0;
            return -1;
        }
    }
    return put_pending(L);
}

/* ---- on disk: breadth first (layered_disk.h)
 *
 * Inside a class every move can be undone (a card goes back where it came from; layered.py proves that no safe
 * move is ever made inside a class), so the class is an undirected graph, and a breadth-first search from its
 * seeds needs no table of the whole class: a position next to one at distance d from the seeds is at distance
 * d - 1, d or d + 1. So the layers are sorted files of keys; the children of layer d are gathered in memory,
 * sorted into runs on disk, and merged into layer d + 1 leaving out what layers d - 1 and d hold. Memory: one
 * buffer; disk: three layers and the runs, counted against the search's disk allowance. */

/* Layer 0: the class's seeds, sorted, into a new file. */
static int seed_layer(Layered *L, Level *v, Class *c, long long *file) {
    Disk *D = L->disk;
    Seed *held;
    const Seed *sd = tx_class_seeds(D, &L->s->budget, v, c, &held);
    if (!sd) return disk_failed(L);
    for (size_t i = 0; i < c->end - c->begin; i++)
        if (disk_child(L, seed_key(&sd[i]))) {
            tx_drop_seeds(&L->s->budget, c, held);
            return -1;
        }
    tx_drop_seeds(&L->s->budget, c, held);
    int r = tx_disk_write(D, D->buf, D->nbuf, file);
    D->nbuf = 0;
    return r ? disk_failed(L) : 0;
}

/*
 * Breadth first from the class's seeds: each layer's file is expanded (the children go to disk_child) and the
 * next layer merged from the runs. `layers` (NULL: not kept): the layers' files stay, numbers in
 * layers[0..*depth], for a line (MAX_KEPT of them at most). 0 when the class is done, -1 when the search must
 * stop (won, out of budget, memory or disk, a trace's target made). The disk and its buffer are the caller's.
 */
int tx_lay_breadth_first(Layered *L, Level *v, Class *c, long long *layers, int *depth) {
    Disk *D = L->disk;
    long long prev = -1, cur = -1;
    int r = seed_layer(L, v, c, &cur), d = 0;
    if (layers) layers[0] = cur;
    L->on_disk = 1;
    while (!r) {
        Reader in;
        if (tx_disk_read(&in, D, cur)) r = disk_failed(L);
        while (!r && in.live) {
            LKey k = in.k;
            tx_disk_next(&in);
            r = tx_lay_expand(L, &k);
        }
        tx_disk_done(&in);
        if (r || tx_disk_flush(D)) {
            r = r ? -1 : disk_failed(L);
            break;
        }
        long long next;
        long long n = tx_disk_merge(D, prev, cur, &next);
        if (n < 0) {
            tx_disk_drop(D, next);
            r = disk_failed(L);
            break;
        }
        if (!layers) tx_disk_drop(D, prev);
        prev = cur;
        cur = next;
        d++;
        if (layers) {
            if (d >= MAX_KEPT) {
                tx_disk_drop(D, next);
                d--;
                r = -1;
                break;
            }
            layers[d] = next;
        }
        if (!n) break;
    }
    L->on_disk = 0;
    tx_disk_drop_runs(D); /* a layer cut short leaves runs */
    if (!layers) {
        tx_disk_drop(D, prev);
        tx_disk_drop(D, cur);
    }
    *depth = d;
    return r;
}

/* The class, too big for the memory, searched on disk. 0 when done, -1 when the search must stop. */
static int disk_class(Layered *L, Level *v, Class *c) {
    int depth;
    c->on_disk = 1;
    if (tx_disk_open(&L->disk, &L->s->budget, L->disk_cap) || tx_disk_take_buffer(L->disk)) return disk_failed(L);
    int r = tx_lay_breadth_first(L, v, c, NULL, &depth);
    tx_disk_give_buffer(L->disk);
    return r;
}

/* Search one class from its seeds to the end. Its seeds are left without repeats (the class's begin..end).
 * 0 when done, -1 when the search must stop (won, out of budget or memory). */
int tx_lay_search_class(Layered *L, Level *v, Class *c) {
    L->mask = c->mask;
    if (L->disk_cap && !L->spill_at) return disk_class(L, v, c); /* every class on disk */
    if (set_init(L, (c->end - c->begin) * 2)) return -1;
    size_t w = c->begin;
    int r = 0;
    for (size_t i = c->begin; i < c->end && !r; i++) {
        int a = set_add(L, seed_key(&v->seeds[i]));
        if (a < 0) r = -1;
        else if (a) v->seeds[w++] = v->seeds[i];
    }
    c->end = w;
    /* Expand every unmarked slot, again and again: a position made behind the scan waits for the next one, and
     * when the table grows every slot moves, so the scan starts again. */
    for (int again = 1; again && !r;) {
        again = 0;
        LKey *set = (LKey *)L->set.slots;
        for (size_t i = 0; i <= L->set.mask && !r; i++) {
            LKey k = set[i];
            if (!(k.a | k.b) || (k.b & MARK)) continue;
            set[i].b |= MARK;
            again = 1;
            size_t moves = L->set_moves;
            r = tx_lay_expand(L, &k);
            if (moves != L->set_moves) break;
        }
    }
    set_free(L);
    if (r && L->spill) { /* the class outgrew the memory: all of it again, on disk */
        L->spill = L->oom = 0;
        r = disk_class(L, v, c);
    }
    return r;
}
