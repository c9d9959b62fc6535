/* Classic King Albert's layered search as the solve calls it (layered.h; layered_keys.h has the design): the
 * levels of classes, from the most bits in their masks down, each class searched in turn (layered_class.c), and
 * the winning line once one is won (layered_line.c). */
#include "layered.h"

#include <stdio.h>

#include "layered_line.h"

/* The classes met so far, while a level's seeds are grouped: slots of a class's mask + 1 (0: empty) and its
 * number. */
typedef struct {
    uint64_t mask1, id;
} ClassSlot;

static uint64_t class_home(const void *slot) { return mix(((const ClassSlot *)slot)->mask1); }
static int no_class(const void *slot) { return !((const ClassSlot *)slot)->mask1; }
static int class_holds(const void *slot, const void *mask1) {
    return ((const ClassSlot *)slot)->mask1 == *(const uint64_t *)mask1;
}
static const HashKind CLASSES = {sizeof(ClassSlot), class_home, no_class};

/* Put a level's seeds in order of their classes (first met first), in place: 4 bytes a seed beside them. 0, or
 * -1 when memory runs out. */
static int group(Layered *L, Level *v) {
    size_t n = v->n, ncls = 0, cls_cap = 0;
    uint32_t *ids = lmalloc(L, n * sizeof(uint32_t), 0);
    HashSet map = {lmalloc(L, 1024 * sizeof(ClassSlot), 1), 1023, 0};
    Class *cls = NULL;
    if (!ids || !map.slots) goto fail;
    for (size_t i = 0; i < n; i++) {
        LKey sk = seed_key(&v->seeds[i]);
        uint64_t m1 = tx_lay_mask(&L->fix, &sk) + 1;
        if ((ncls + 1) * 2 > map.mask + 1) { /* keep the map at most half full */
            size_t slots = (map.mask + 1) * 2;
            uint8_t *nm = lmalloc(L, slots * sizeof(ClassSlot), 1);
            if (!nm) goto fail;
            lfree(L, hs_move(&map, &CLASSES, nm, slots), slots / 2 * sizeof(ClassSlot));
        }
        ClassSlot *x = hs_find(&map, &CLASSES, mix(m1), class_holds, &m1);
        if (!x->mask1) {
            if (lgrow(L, (void **)&cls, &cls_cap, ncls + 1, sizeof(Class))) goto fail;
            cls[ncls] = (Class){m1 - 1, 0, 0, 0};
            *x = (ClassSlot){m1, ncls++};
        }
        ids[i] = (uint32_t)x->id;
        cls[ids[i]].end++;
    }
    lfree(L, map.slots, (map.mask + 1) * sizeof(ClassSlot));
    map.slots = NULL;
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
    lfree(L, map.slots, (map.mask + 1) * sizeof(ClassSlot));
    if (cls) lfree(L, cls, cls_cap * sizeof(Class));
    return -1;
}

/* The start position after its safe moves (made[0..*nmade)): 1 when that wins (the moves are then on the search's
 * line), 0 when it waits as the first seed, -1 when the search cannot start (memory, or not a classic position). */
static int lay_root(Layered *L, Move *made, int *nmade) {
    Pos p = L->s->pos;
    Undo u[MAXCARDS];
    LKey k;
    uint64_t m;
    if (tx_lay_encode(&L->fix, &p, &k, &m)) return -1;
    *nmade = tx_lay_closure(&L->fix, &p, &k, &m, u, made);
    if (is_won(&p)) {
        for (int x = 0; x < *nmade; x++)
            if (tx_search_play(L->s, made[x])) return -1;
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
    if (v->pending && tx_disk_unpark(L->disk, v)) return disk_failed(L);
    if (group(L, v)) return -1;
    for (size_t c = 0; c < v->nclasses; c++) {
        if (lgrow(L, (void **)&L->ids, &L->ids_cap, L->nids + 1, sizeof(ClassId))) return -1;
        L->id = (uint32_t)L->nids;
        L->level = lv;
        L->ids[L->nids++] = (ClassId){(uint32_t)lv, (uint32_t)c};
        if (tx_lay_search_class(L, v, &v->classes[c])) return -1;
    }
    if (!L->disk_cap) return 0;
    return tx_disk_open(&L->disk, &L->s->budget, L->disk_cap) || tx_disk_park(L->disk, v) ? disk_failed(L) : 0;
}

/* With TABLEAUX_LAYERED_LOG set, a line on stderr at each level and at the end: for proofs that take hours. */
static void lay_log(const Layered *L, int lv, int r, double t0) {
    const char *env = getenv("TABLEAUX_LAYERED_LOG");
    if (!env || !*env) return;
    long long nodes = L->s->budget.nodes;
    size_t held = L->s->budget.held >> 20, disk = tx_disk_bytes(L->disk) >> 20;
    if (lv >= 0) {
        fprintf(stderr, "layered: level %d, %lld positions made, %zu MiB held, %zu MiB on disk, %.0f s\n", lv, nodes,
                held, disk, tx_now() - t0);
        return;
    }
    const char *how = !r ? "searched" : L->won ? "won" : L->broken ? "broken" : L->oom ? "out of memory or disk"
                                                                                      : "stopped";
    fprintf(stderr, "layered: %s after %lld positions, %zu MiB held, %zu MiB on disk, %.0f s\n", how, nodes, held,
            disk, tx_now() - t0);
}

/* The layered key of position p in the search from `start`, and its mask (lay_mask: what the search files it under)
 * for _core.layered_key, which tests compare with layered.py's. 0; -1 when the search from start could not make p
 * (or memory runs out); -2 when the mask lay_encode gives is not lay_mask's. */
int tx_layered_key(const Pos *start, const Pos *p, uint8_t out[16], uint64_t *mask) {
    LayFix *F = calloc(1, sizeof *F);
    if (!F) return -1;
    LKey k;
    uint64_t m;
    int r = tx_lay_fix(F, start) || tx_lay_encode(F, p, &k, &m) ? -1 : 0;
    if (!r) {
        memcpy(out, &k, sizeof k);
        *mask = tx_lay_mask(F, &k);
        if (*mask != m) r = -2;
    }
    free(F);
    return r;
}

/* Every class, from the most bits in their masks down. 0 when all were searched, -1 when the search stopped. */
static int search_levels(Layered *L) {
    double t0 = tx_now();
    int r = 0;
    for (int lv = NLEVELS - 1; lv >= 0 && !r; lv--)
        if (L->lev[lv].n || L->lev[lv].pending) { /* with a disk, its seeds may all be in the file */
            lay_log(L, lv, r, t0);
            r = search_level(L, lv);
        }
    lay_log(L, -1, r, t0);
    return r;
}

static void lay_release(Layered *L) {
    tx_disk_close(L->disk, L->lev, NLEVELS);
    for (int lv = 0; lv < NLEVELS; lv++) {
        lfree(L, L->lev[lv].seeds, L->lev[lv].cap * sizeof(Seed));
        lfree(L, L->lev[lv].classes, L->lev[lv].classes_cap * sizeof(Class));
    }
    if (L->set.slots) lfree(L, L->set.slots, (L->set.mask + 1) * sizeof(LKey));
    lfree(L, L->ids, L->ids_cap * sizeof(ClassId));
    free(L);
}

/*
 * The layered search from s->pos (classic King Albert, no card face down): 1 when won (the undo stack then
 * holds the line), 0 when every position was searched without a win, -1 when stopped (budget, time, or
 * memory: s->budget.memory bounds it all). Each position made counts one against s->budget.max_nodes.
 */
int tx_layered_run(Search *s, LayDisk disk) {
    Layered *L = calloc(1, sizeof *L);
    if (!L) {
        s->budget.out_of_memory = 1;
        return -1;
    }
    L->s = s;
    L->disk_cap = disk.bytes;
    L->spill_at = disk.spill_at;
    for (int lv = 0; lv < NLEVELS; lv++) L->lev[lv].parked = -1;
    tx_table_free(&s->table); /* the depth-first search's table: its room is this search's now */
    int depth0 = s->line.nundo, nmade = 0;
    Move made[MAXCARDS];
    /* 1: won at once; 0: the start is a seed */
    int result = tx_lay_fix(&L->fix, &s->pos) ? -1 : lay_root(L, made, &nmade);
    if (result == 0 && search_levels(L)) result = L->won && !tx_lay_line(L, made, nmade) ? 1 : -1;
    if (result < 0) {
        while (s->line.nundo > depth0) undo_move(&s->pos, &s->line.undo[--s->line.nundo]);
        if (L->oom) s->budget.out_of_memory = 1;
    }
    lay_release(L);
    return result;
}
