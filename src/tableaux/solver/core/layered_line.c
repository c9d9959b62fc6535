/* The layered search's winning line, put together once a won position is met (layered_keys.h has the design):
 * from the won position back to the start, each class it crossed is searched again, noting where each position
 * came from, until the position that entered the next class is met; then the line is played forward. */
#include "layered_line.h"

static const Traced *trace_get(const Trace *T, LKey k) {
    const Traced *e = lkey_find(&T->t, sizeof(Traced), k);
    return lkey_empty(e) ? NULL : e;
}

/* As trace_class for a class on disk: its layers again, kept, up to the target; then back from
 * the position that made it, a layer at a time, each time to a position of the layer before that makes it. */
static int disk_trace(Layered *L, Level *v, Class *c, Trace *T, LKey **path, size_t *np, size_t *cap, uint32_t *origin) {
    long long *layers = lmalloc(L, MAX_KEPT * sizeof(long long), 0);
    int depth = 0, r = -1, made = 0;
    if (!layers) goto out;
    if (tx_disk_open(&L->disk, &L->s->budget, L->disk_cap) || tx_disk_take_buffer(L->disk)) {
        disk_failed(L);
        goto out;
    }
    L->mask = c->mask;
    L->trace = T;
    tx_lay_breadth_first(L, v, c, layers, &depth); /* stops at the target, in the layer `depth` it was expanding */
    made = depth + 1;
    if (!T->found || L->oom) goto out;
    LKey y = T->found_from;
    L->scan_only = 1;
    for (int d = depth;; d--) {
        if (lgrow(L, (void **)path, cap, *np + 1, sizeof(LKey))) goto out;
        (*path)[(*np)++] = y;
        if (d == 0) break;
        T->target = y;
        T->found = 0;
        Reader in;
        if (tx_disk_read(&in, L->disk, layers[d - 1])) {
            disk_failed(L);
            goto out;
        }
        while (in.live && !T->found) {
            LKey k = in.k;
            tx_disk_next(&in);
            tx_lay_expand(L, &k);
        }
        tx_disk_done(&in);
        if (!T->found) goto out;
        y = T->found_from;
    }
    *origin = NO_CLASS - 1;
    Seed *held;
    const Seed *sd = tx_class_seeds(L->disk, &L->s->budget, v, c, &held);
    if (!sd) disk_failed(L);
    for (size_t i = 0; sd && i < c->end - c->begin; i++)
        if (!memcmp(sd[i].k, &y, sizeof y)) *origin = sd[i].from;
    tx_drop_seeds(&L->s->budget, c, held);
    r = *origin == NO_CLASS - 1 ? -1 : 0;
out:
    L->scan_only = 0;
    L->trace = NULL;
    if (layers)
        for (int d = 0; d < made; d++) tx_disk_drop(L->disk, layers[d]);
    if (L->disk && L->disk->buf) tx_disk_give_buffer(L->disk);
    lfree(L, layers, MAX_KEPT * sizeof(long long));
    return r;
}

/* Search class `id` again, each position noting the one it came from, until the target is made (a seed of a
 * lower class, or the won position); then add the positions from the one that made it back to a seed of the
 * class to path[0..*np). *origin: the class that seed came from. 0, or -1. */
static int trace_class(Layered *L, uint32_t id, LKey target, LKey **path, size_t *np, size_t *cap, uint32_t *origin) {
    Level *v = &L->lev[L->ids[id].level];
    Class *c = &v->classes[L->ids[id].index];
    Trace T = {0};
    T.target = target;
    if (c->on_disk) return disk_trace(L, v, c, &T, path, np, cap, origin);
    T.t.slots = lmalloc(L, 1024 * sizeof(Traced), 1);
    if (!T.t.slots) return -1;
    T.t.mask = 1023;
    L->mask = c->mask;
    L->trace = &T;
    const LKey zero = {0, 0};
    int r = 0;
    Seed *held;
    const Seed *sd = tx_class_seeds(L->disk, &L->s->budget, v, c, &held);
    if (!sd) r = disk_failed(L);
    for (size_t i = 0; sd && i < c->end - c->begin && r >= 0; i++) r = tx_lay_trace_add(L, &T, seed_key(&sd[i]), zero);
    tx_drop_seeds(&L->s->budget, c, held);
    for (int again = 1; again && r >= 0 && !T.found;) { /* as tx_lay_search_class's scan */
        again = 0;
        Traced *t = (Traced *)T.t.slots;
        for (size_t i = 0; i <= T.t.mask && !T.found; i++) {
            Traced e = t[i];
            if (!(e.k.a | e.k.b) || (e.k.b & MARK)) continue;
            t[i].k.b |= MARK;
            again = 1;
            size_t moves = T.moves;
            tx_lay_expand(L, &e.k);
            if (L->oom) {
                r = -1;
                break;
            }
            if (moves != T.moves) break;
        }
    }
    L->trace = NULL;
    if (!T.found && L->oom && L->disk_cap) { /* the trace, twice the table's size, did not fit: on disk */
        lfree(L, T.t.slots, (T.t.mask + 1) * sizeof(Traced));
        L->oom = 0;
        T = (Trace){0};
        T.target = target;
        return disk_trace(L, v, c, &T, path, np, cap, origin);
    }
    if (!T.found) r = -1;
    for (const Traced *e = r < 0 ? NULL : trace_get(&T, T.found_from); e;) {
        if (lgrow(L, (void **)path, cap, *np + 1, sizeof(LKey))) {
            r = -1;
            break;
        }
        (*path)[(*np)++] = (LKey){e->k.a, e->k.b & ~MARK};
        if (e->from.a | e->from.b) {
            e = trace_get(&T, e->from);
            continue;
        }
        *origin = NO_CLASS - 1; /* a seed of the class: where it came from */
        const Seed *from = tx_class_seeds(L->disk, &L->s->budget, v, c, &held);
        for (size_t i = 0; from && i < c->end - c->begin; i++)
            if (!memcmp(from[i].k, &(LKey){e->k.a, e->k.b & ~MARK}, sizeof e->k)) *origin = from[i].from;
        tx_drop_seeds(&L->s->budget, c, held);
        if (!from) disk_failed(L);
        if (*origin == NO_CLASS - 1) r = -1;
        e = NULL;
    }
    lfree(L, T.t.slots, (T.t.mask + 1) * sizeof(Traced));
    return r < 0 ? -1 : 0;
}

/* Play the step from s->pos to the position with key t (one move, or a reserve card and its cover, then the
 * safe moves) onto the search's line. 0, or -1 when no such step exists (it always does). */
static int play_step(Layered *L, LKey t) {
    Search *s = L->s;
    Pos *p = &s->pos;
    Move mv[128], cov[128], made[MAXCARDS];
    Undo u[MAXCARDS + 2];
    int n = tx_lay_moves(p, mv);
    for (int j = 0; j < n; j++) {
        int reserve = mv[j].src >= KA_R0 && mv[j].dst >= KA_T0;
        tx_ka_apply(p, mv[j], &u[0]);
        int nc = reserve ? ka_covers(p, top(p, mv[j].dst), mv[j].dst, 0, cov) : 1;
        for (int i = 0; i < nc; i++) {
            int nu = 1;
            if (reserve) tx_ka_apply(p, cov[i], &u[nu++]);
            LKey k;
            uint64_t m;
            tx_lay_encode(&L->fix, p, &k, &m);
            int nm = tx_lay_closure(&L->fix, p, &k, &m, &u[nu], made);
            nu += nm;
            int hit = k.a == t.a && k.b == t.b;
            while (nu) tx_ka_undo(p, &u[--nu]);
            if (!hit) {
                if (reserve) tx_ka_apply(p, mv[j], &u[0]);
                continue;
            }
            if (tx_search_play(s, mv[j]) || (reserve && tx_search_play(s, cov[i]))) return -1;
            for (int x = 0; x < nm; x++)
                if (tx_search_play(s, made[x])) return -1;
            return 0;
        }
        if (reserve) tx_ka_undo(p, &u[0]);
    }
    return -1;
}

int tx_lay_line(Layered *L, const Move *made, int nmade) {
    LKey *path = NULL;
    size_t np = 0, cap = 0;
    int r = -1;
    if (lgrow(L, (void **)&path, &cap, 1, sizeof(LKey))) return -1;
    path[np++] = L->won_key;
    for (uint32_t id = L->won_in; id != NO_CLASS;)
        if (trace_class(L, id, path[np - 1], &path, &np, &cap, &id)) goto out;
    for (size_t i = 0; i < np / 2; i++) {
        LKey x = path[i];
        path[i] = path[np - 1 - i];
        path[np - 1 - i] = x;
    }
    for (int x = 0; x < nmade; x++)
        if (tx_search_play(L->s, made[x])) goto out;
    LKey k;
    uint64_t m;
    if (tx_lay_encode(&L->fix, &L->s->pos, &k, &m) || k.a != path[0].a || k.b != path[0].b) goto out;
    for (size_t i = 1; i < np; i++)
        if (play_step(L, path[i])) goto out;
    r = is_won(&L->s->pos) ? 0 : -1;
out:
    lfree(L, path, cap * sizeof(LKey));
    return r;
}

