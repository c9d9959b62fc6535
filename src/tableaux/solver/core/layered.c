/* The layered search: its memory, the classes' tables and the search itself (layered.h has the design). */
#include "layered.h"

#include <stdio.h>

/* ---- memory, held against the search's allowance */

void *lmalloc(Layered *L, size_t bytes, int zero) {
    if (L->used + bytes > L->s->budget.memory) {
        L->oom = 1;
        return NULL;
    }
    void *p = zero ? calloc(1, bytes) : malloc(bytes);
    if (!p) {
        L->oom = 1;
        return NULL;
    }
    L->used += bytes;
    return p;
}

void lfree(Layered *L, void *p, size_t bytes) {
    if (!p) return;
    free(p);
    L->used -= bytes;
}

/* Resize an array of `size`-byte items to exactly `ncap` (never smaller); 0, or -1 when memory runs out. */
int lresize(Layered *L, void **buf, size_t *cap, size_t ncap, size_t size) {
    if (ncap <= *cap) return 0;
    if (L->used + (ncap - *cap) * size > L->s->budget.memory) {
        L->oom = 1;
        return -1;
    }
    void *nb = realloc(*buf, ncap * size);
    if (!nb) {
        L->oom = 1;
        return -1;
    }
    L->used += (ncap - *cap) * size;
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* Grow an array of `size`-byte items to hold `need`, doubling; 0, or -1 when memory runs out. */
int lgrow(Layered *L, void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 1024;
    while (ncap < need) ncap *= 2;
    return lresize(L, buf, cap, ncap, size);
}

/* ---- the class's table */

static int set_init(Layered *L, size_t want) {
    size_t n = 1024;
    while (n < want) n *= 2;
    L->set = lmalloc(L, n * sizeof(LKey), 1);
    if (!L->set) return -1;
    L->set_mask = n - 1;
    L->set_n = 0;
    return 0;
}

static void set_free(Layered *L) {
    lfree(L, L->set, (L->set_mask + 1) * sizeof(LKey));
    L->set = NULL;
}

static void set_put(LKey *set, size_t mask, LKey k) { /* k may carry its mark */
    LKey bare = {k.a, k.b & ~MARK};
    size_t i = key_hash(&bare) & mask;
    while (set[i].a | set[i].b) i = (i + 1) & mask;
    set[i] = k;
}

/* 1 when k is new (and now in the table), 0 when it was there, -1 when memory ran out. No key is zero: every
 * position has a pile's bottom card (code 1) or a card home (height), so zero marks an empty slot. */
static int set_add(Layered *L, LKey k) {
    if ((L->set_n + 1) * 5 > (L->set_mask + 1) * 4) { /* four fifths full at most: a class is what it holds */
        size_t n = (L->set_mask + 1) * 2;
        LKey *ns = lmalloc(L, n * sizeof(LKey), 1);
        if (!ns) return -1;
        for (size_t i = 0; i <= L->set_mask; i++)
            if (L->set[i].a | L->set[i].b) set_put(ns, n - 1, L->set[i]);
        lfree(L, L->set, (L->set_mask + 1) * sizeof(LKey));
        L->set = ns;
        L->set_mask = n - 1;
        L->set_moves++;
    }
    size_t i = key_hash(&k) & L->set_mask;
    for (;;) {
        LKey *e = &L->set[i];
        if (!(e->a | e->b)) {
            *e = k;
            L->set_n++;
            return 1;
        }
        if (e->a == k.a && (e->b & ~MARK) == k.b) return 0;
        i = (i + 1) & L->set_mask;
    }
}

/* ---- the search */

/* The class's table takes the child that emit left waiting; 0, or -1 when it is full (L->spill: on disk). */
static int put_pending(Layered *L) {
    if (!L->has_pending) return 0;
    L->has_pending = 0;
    long long spill_at = L->s->disk.spill_at;
    if (set_add(L, L->pending) < 0 || (L->disk_cap && spill_at > 0 && L->set_n > (size_t)spill_at)) {
        L->spill = L->disk_cap > 0; /* search_class searches the class again, on disk */
        return -1;
    }
    return 0;
}

/* A position just made, from the position `from`: after its safe moves, it is won, or joins its class's table
 * (to be expanded, when new), or waits as a seed of a lower class. 0, or -1 when the search must stop. While a
 * line is put together (L->trace), it is the target or joins the class's trace. */
static int emit(Layered *L, Pos *p, LKey k, uint64_t m, const LKey *from) {
    Undo u[MAXCARDS];
    int nu = lay_closure(L, p, &k, &m, u, NULL), r = 0;
    Trace *T = L->trace;
    if (T) {
        if (k.a == T->target.a && k.b == T->target.b) {
            T->found = 1;
            T->found_from = *from;
            r = -1;
        } else if (m == L->mask && !L->scan_only) {
            r = L->on_disk ? lay_disk_add(L, k) : lay_trace_add(L, T, k, *from);
        }
    } else if (search_tick(L->s)) {
        L->stopped = 1;
        r = -1;
    } else if (is_won(p)) {
        L->won = 1;
        L->won_key = k;
        L->won_in = L->id;
        r = -1;
    } else if (m == L->mask) {
        if (L->on_disk) {
            r = lay_disk_add(L, k);
        } else { /* its slot is fetched now and looked at with the next child's (or at the end of lay_expand) */
            __builtin_prefetch(&L->set[key_hash(&k) & L->set_mask]);
            r = put_pending(L);
            L->pending = k;
            L->has_pending = 1;
        }
    } else if ((m & ~L->mask) || __builtin_popcountll(m) >= L->level) {
        L->broken = 1; /* its class was searched already, or will be later than its seeds come: stop, unknown */
        r = -1;
    } else {
        Level *v = &L->lev[__builtin_popcountll(m)];
        if (L->disk_cap) r = lay_disk_seed(L, v, make_seed(k, L->id)); /* with a disk, seeds wait in files */
        else if (lgrow(L, (void **)&v->seeds, &v->cap, v->n + 1, sizeof(Seed))) r = -1;
        else v->seeds[v->n++] = make_seed(k, L->id);
    }
    while (nu) ka_undo(p, &u[--nu]);
    return r < 0 ? -1 : 0;
}

/* Make every child of the position with key k. */
int lay_expand(Layered *L, const LKey *k) {
    Pos p;
    lay_decode(L, k, &p);
    Move mv[128], cov[128];
    int n = lay_moves(&p, mv);
    for (int j = 0; j < n; j++) {
        LKey k2 = *k;
        uint64_t m2 = L->mask;
        Undo u, u2;
        lplay(L, &p, &k2, &m2, mv[j], &u);
        int r = 0;
        if (mv[j].src >= KA_R0 && mv[j].dst >= KA_T0) { /* a reserve card put out is covered at once */
            int nc = ka_covers(&p, top(&p, mv[j].dst), mv[j].dst, 0, cov);
            for (int i = 0; i < nc && !r; i++) {
                LKey k3 = k2;
                uint64_t m3 = m2;
                lplay(L, &p, &k3, &m3, cov[i], &u2);
                r = emit(L, &p, k3, m3, k);
                ka_undo(&p, &u2);
            }
        } else {
            r = emit(L, &p, k2, m2, k);
        }
        ka_undo(&p, &u);
        if (r) {
            L->has_pending = 0;
            return -1;
        }
    }
    return put_pending(L);
}

/* Put a level's seeds in order of their classes (first met first), in place: 4 bytes a seed beside them. 0, or
 * -1 when memory runs out. */
static int group(Layered *L, Level *v) {
    size_t n = v->n, map_cap = 1024, ncls = 0, cls_cap = 0;
    uint32_t *ids = lmalloc(L, n * sizeof(uint32_t), 0);
    uint64_t *map = lmalloc(L, map_cap * 2 * sizeof(uint64_t), 1); /* mask + 1, class id */
    Class *cls = NULL;
    if (!ids || !map) goto fail;
    for (size_t i = 0; i < n; i++) {
        LKey sk = seed_key(&v->seeds[i]);
        uint64_t m = lay_mask(L, &sk);
        if ((ncls + 1) * 2 > map_cap) { /* keep the map at most half full */
            uint64_t *nm = lmalloc(L, map_cap * 4 * sizeof(uint64_t), 1);
            if (!nm) goto fail;
            for (size_t j = 0; j < map_cap; j++) {
                if (!map[2 * j]) continue;
                size_t x = mix(map[2 * j]) & (map_cap * 2 - 1);
                while (nm[2 * x]) x = (x + 1) & (map_cap * 2 - 1);
                nm[2 * x] = map[2 * j], nm[2 * x + 1] = map[2 * j + 1];
            }
            lfree(L, map, map_cap * 2 * sizeof(uint64_t));
            map = nm;
            map_cap *= 2;
        }
        size_t x = mix(m + 1) & (map_cap - 1);
        while (map[2 * x] && map[2 * x] != m + 1) x = (x + 1) & (map_cap - 1);
        if (!map[2 * x]) {
            if (lgrow(L, (void **)&cls, &cls_cap, ncls + 1, sizeof(Class))) goto fail;
            cls[ncls] = (Class){m, 0, 0, 0};
            map[2 * x] = m + 1, map[2 * x + 1] = ncls++;
        }
        ids[i] = (uint32_t)map[2 * x + 1];
        cls[ids[i]].end++;
    }
    lfree(L, map, map_cap * 2 * sizeof(uint64_t));
    map = NULL;
    size_t at = 0;
    for (size_t c = 0; c < ncls; c++) {
        size_t count = cls[c].end;
        cls[c].begin = cls[c].end = at; /* end: where the next seed of the class goes */
        at += count;
    }
    /* In place, a class at a time (American flag sort): a seed not in its class's part goes to the next free
     * slot of its own, and what was there comes back to be placed in turn. */
    for (size_t c = 0; c < ncls; c++) {
        size_t bound = c + 1 < ncls ? cls[c + 1].begin : n;
        while (cls[c].end < bound) {
            size_t i = cls[c].end;
            uint32_t d = ids[i];
            if (d == c) {
                cls[c].end++;
                continue;
            }
            size_t j = cls[d].end++;
            Seed t = v->seeds[i];
            v->seeds[i] = v->seeds[j];
            v->seeds[j] = t;
            ids[i] = ids[j];
            ids[j] = d;
        }
    }
    lfree(L, ids, n * sizeof(uint32_t));
    v->classes = cls;
    v->nclasses = ncls;
    v->classes_cap = cls_cap;
    return 0;
fail:
    lfree(L, ids, n * sizeof(uint32_t));
    lfree(L, map, map_cap * 2 * sizeof(uint64_t));
    if (cls) lfree(L, cls, cls_cap * sizeof(Class));
    return -1;
}

/* Search one class from its seeds to the end. Its seeds are left without repeats (the class's begin..end).
 * 0 when done, -1 when the search must stop (won, out of budget or memory). */
static int search_class(Layered *L, Level *v, Class *c) {
    L->mask = c->mask;
    if (L->disk_cap && !L->s->disk.spill_at) { /* every class on disk */
        c->on_disk = 1;
        return lay_disk_class(L, v, c);
    }
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
        for (size_t i = 0; i <= L->set_mask && !r; i++) {
            LKey k = L->set[i];
            if (!(k.a | k.b) || (k.b & MARK)) continue;
            L->set[i].b |= MARK;
            again = 1;
            size_t moves = L->set_moves;
            r = lay_expand(L, &k);
            if (moves != L->set_moves) break;
        }
    }
    set_free(L);
    if (r && L->spill) { /* the class outgrew the memory: all of it again, on disk */
        L->spill = L->oom = 0;
        c->on_disk = 1;
        r = lay_disk_class(L, v, c);
    }
    return r;
}

/* What the start position fixes: the cards lying on a card that is no legal parent for them, the reserve's cards,
 * and from them what each card lying on each other one is (layered.h: code). -1 when a card lies face down: not
 * a classic position. */
static int lay_fix(Layered *L, const Pos *p0) {
    memset(L->pred, -1, sizeof L->pred);
    memset(L->cell, -1, sizeof L->cell);
    for (int i = KA_T0; i < KA_T1; i++)
        for (int j = 0; j < p0->n[i]; j++) {
            int c = p0->c[i][j], b = j ? p0->c[i][j - 1] : -1;
            if (c >= 52) return -1;
            if (b >= 0 && !legal_on(b, c)) L->pred[c] = (int8_t)b;
        }
    for (int i = 0; i < 7; i++)
        if (p0->n[KA_R0 + i]) L->resv[i] = p0->c[KA_R0 + i][0], L->cell[L->resv[i]] = (int8_t)i;
    for (int b = 0; b < 52; b++)
        for (int c = 0; c < 52; c++)
            L->code[b][c] = legal_on(b, c) ? (SUIT[b] < (SUIT[b] ^ 3) ? 2 : 3) : L->pred[c] == b ? 0 : 9;
    return 0;
}

/* The start position after its safe moves (made[0..*nmade)): 1 when that wins (the moves are then on the search's
 * line), 0 when it waits as the first seed, -1 when the search cannot start (memory, or not a classic position). */
static int lay_root(Layered *L, Move *made, int *nmade) {
    Pos p = L->s->pos;
    Undo u[MAXCARDS];
    LKey k;
    uint64_t m;
    if (lay_encode(L, &p, &k, &m)) return -1;
    *nmade = lay_closure(L, &p, &k, &m, u, made);
    if (is_won(&p)) {
        for (int x = 0; x < *nmade; x++)
            if (search_play(L->s, made[x])) return -1;
        return 1;
    }
    Level *v = &L->lev[__builtin_popcountll(m)];
    if (lgrow(L, (void **)&v->seeds, &v->cap, 1, sizeof(Seed))) return -1;
    v->seeds[v->n++] = make_seed(k, NO_CLASS);
    return 0;
}

/* Search the classes of level lv (the bits in their masks), each from its seeds, in order of their first seeds. 0,
 * or -1 when the search must stop (won, out of budget, memory or disk). */
static int search_level(Layered *L, int lv) {
    Level *v = &L->lev[lv];
    if ((L->disk_cap && lay_disk_unpark(L, v)) || group(L, v)) return -1;
    for (size_t c = 0; c < v->nclasses; c++) {
        if (lgrow(L, (void **)&L->ids, &L->ids_cap, L->nids + 1, sizeof(ClassId))) return -1;
        L->id = (uint32_t)L->nids;
        L->level = lv;
        L->ids[L->nids++] = (ClassId){(uint32_t)lv, (uint32_t)c};
        if (search_class(L, v, &v->classes[c])) return -1;
    }
    return L->disk_cap && lay_disk_park(L, v) ? -1 : 0;
}

/* With TABLEAUX_LAYERED_LOG set, a line on stderr at each level and at the end: for proofs that take hours. */
static void lay_log(const Layered *L, int lv, int r, double t0) {
    const char *env = getenv("TABLEAUX_LAYERED_LOG");
    if (!env || !*env) return;
    long long nodes = L->s->budget.nodes;
    size_t held = L->used >> 20, disk = lay_disk_bytes(L) >> 20;
    if (lv >= 0) {
        fprintf(stderr, "layered: level %d, %lld positions made, %zu MiB held, %zu MiB on disk, %.0f s\n", lv, nodes,
                held, disk, now() - t0);
        return;
    }
    const char *how = !r ? "searched" : L->won ? "won" : L->broken ? "broken" : L->oom ? "out of memory or disk"
                                                                                      : "stopped";
    fprintf(stderr, "layered: %s after %lld positions, %zu MiB held, %zu MiB on disk, %.0f s\n", how, nodes, held,
            disk, now() - t0);
}

/* The layered key of position p in the search from `start`, and its mask (lay_mask: what the search files it under)
 * for _core.layered_key, which tests compare with layered.py's. 0; -1 when the search from start could not make p
 * (or memory runs out); -2 when the mask lay_encode gives is not lay_mask's. */
int layered_key(const Pos *start, const Pos *p, uint8_t out[16], uint64_t *mask) {
    Layered *L = calloc(1, sizeof *L);
    if (!L) return -1;
    LKey k;
    uint64_t m;
    int r = lay_fix(L, start) || lay_encode(L, p, &k, &m) ? -1 : 0;
    if (!r) {
        memcpy(out, &k, sizeof k);
        *mask = lay_mask(L, &k);
        if (*mask != m) r = -2;
    }
    free(L);
    return r;
}

/* Every class, from the most bits in their masks down. 0 when all were searched, -1 when the search stopped. */
static int search_levels(Layered *L) {
    double t0 = now();
    int r = 0;
    for (int lv = NLEVELS - 1; lv >= 0 && !r; lv--)
        if (L->lev[lv].n || L->lev[lv].pending) { /* with a disk, its seeds may all be in the file */
            lay_log(L, lv, r, t0);
            r = search_level(L, lv);
        }
    lay_log(L, -1, r, t0);
    return r;
}

static void lay_free(Layered *L) {
    lay_disk_close(L);
    for (int lv = 0; lv < NLEVELS; lv++) {
        free(L->lev[lv].seeds);
        free(L->lev[lv].classes);
    }
    free(L->set);
    free(L->ids);
    free(L);
}

/*
 * The layered search from s->pos (classic King Albert, no card face down): 1 when won (the undo stack then
 * holds the line), 0 when every position was searched without a win, -1 when stopped (budget, time, or
 * memory: s->budget.memory bounds it all). Each position made counts one against s->budget.max_nodes.
 */
int layered_run(Search *s) {
    Layered *L = calloc(1, sizeof *L);
    if (!L) {
        s->budget.out_of_memory = 1;
        return -1;
    }
    L->s = s;
    L->disk_cap = s->disk.bytes;
    for (int lv = 0; lv < NLEVELS; lv++) L->lev[lv].parked = -1;
    table_free(&s->table); /* the depth-first search's table: its room is this search's now */
    int depth0 = s->line.nundo, nmade = 0;
    Move made[MAXCARDS];
    int result = lay_fix(L, &s->pos) ? -1 : lay_root(L, made, &nmade); /* 1: won at once; 0: the start is a seed */
    if (result == 0 && search_levels(L)) result = L->won && !lay_line(L, made, nmade) ? 1 : -1;
    if (result < 0) {
        while (s->line.nundo > depth0) undo_move(&s->pos, &s->line.undo[--s->line.nundo]);
        if (L->oom) s->budget.out_of_memory = 1;
    }
    lay_free(L);
    return result;
}
