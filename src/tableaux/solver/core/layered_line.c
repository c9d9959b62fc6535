/* The layered search's winning line, put together once a won position is met (layered.h has the design). */
#include "layered.h"

/* 1 when k is new to the trace (and now in it), 0 when it was there, -1 when memory ran out. */
int lay_trace_add(Layered *L, Trace *T, LKey k, LKey from) {
    if ((T->n + 1) * 5 > (T->mask + 1) * 4) {
        size_t n = (T->mask + 1) * 2;
        Traced *nt = lmalloc(L, n * sizeof(Traced), 1);
        if (!nt) return -1;
        for (size_t i = 0; i <= T->mask; i++) {
            if (!(T->t[i].k.a | T->t[i].k.b)) continue;
            LKey bare = {T->t[i].k.a, T->t[i].k.b & ~MARK};
            size_t x = key_hash(&bare) & (n - 1);
            while (nt[x].k.a | nt[x].k.b) x = (x + 1) & (n - 1);
            nt[x] = T->t[i];
        }
        lfree(L, T->t, (T->mask + 1) * sizeof(Traced));
        T->t = nt;
        T->mask = n - 1;
        T->moves++;
    }
    size_t i = key_hash(&k) & T->mask;
    for (;;) {
        Traced *e = &T->t[i];
        if (!(e->k.a | e->k.b)) {
            e->k = k;
            e->from = from;
            T->n++;
            return 1;
        }
        if (e->k.a == k.a && (e->k.b & ~MARK) == k.b) return 0;
        i = (i + 1) & T->mask;
    }
}

static const Traced *trace_get(const Trace *T, LKey k) {
    size_t i = key_hash(&k) & T->mask;
    for (;;) {
        const Traced *e = &T->t[i];
        if (!(e->k.a | e->k.b)) return NULL;
        if (e->k.a == k.a && (e->k.b & ~MARK) == k.b) return e;
        i = (i + 1) & T->mask;
    }
}

/* Search class `id` again, each position noting the one it came from, until the target is made (a seed of a
 * lower class, or the won position); then add the positions from the one that made it back to a seed of the
 * class to path[0..*np). *origin: the class that seed came from. 0, or -1. */
static int trace_class(Layered *L, uint32_t id, LKey target, LKey **path, size_t *np, size_t *cap, uint32_t *origin) {
    Level *v = &L->lev[L->ids[id].level];
    Class *c = &v->classes[L->ids[id].index];
    Trace T = {0};
    T.target = target;
    if (c->on_disk) return lay_disk_trace(L, v, c, &T, path, np, cap, origin);
    T.t = lmalloc(L, 1024 * sizeof(Traced), 1);
    if (!T.t) return -1;
    T.mask = 1023;
    L->mask = c->mask;
    L->trace = &T;
    const LKey zero = {0, 0};
    int r = 0;
    Seed *held;
    const Seed *sd = lay_class_seeds(L, v, c, &held);
    if (!sd) r = -1;
    for (size_t i = 0; sd && i < c->end - c->begin && r >= 0; i++) r = lay_trace_add(L, &T, seed_key(&sd[i]), zero);
    lay_drop_seeds(L, c, held);
    for (int again = 1; again && r >= 0 && !T.found;) { /* as search_class's scan */
        again = 0;
        for (size_t i = 0; i <= T.mask && !T.found; i++) {
            Traced e = T.t[i];
            if (!(e.k.a | e.k.b) || (e.k.b & MARK)) continue;
            T.t[i].k.b |= MARK;
            again = 1;
            size_t moves = T.moves;
            lay_expand(L, &e.k);
            if (L->oom) {
                r = -1;
                break;
            }
            if (moves != T.moves) break;
        }
    }
    L->trace = NULL;
    if (!T.found && L->oom && L->disk_cap) { /* the trace, twice the table's size, did not fit: on disk */
        lfree(L, T.t, (T.mask + 1) * sizeof(Traced));
        L->oom = 0;
        T = (Trace){0};
        T.target = target;
        return lay_disk_trace(L, v, c, &T, path, np, cap, origin);
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
        const Seed *from = lay_class_seeds(L, v, c, &held);
        for (size_t i = 0; from && i < c->end - c->begin; i++)
            if (!memcmp(from[i].k, &(LKey){e->k.a, e->k.b & ~MARK}, sizeof e->k)) *origin = from[i].from;
        lay_drop_seeds(L, c, held);
        if (*origin == NO_CLASS - 1) r = -1;
        e = NULL;
    }
    lfree(L, T.t, (T.mask + 1) * sizeof(Traced));
    return r < 0 ? -1 : 0;
}

/* Play the step from s->pos to the position with key t (one move, or a reserve card and its cover, then the
 * safe moves) onto the search's line. 0, or -1 when no such step exists (it always does). */
static int play_step(Layered *L, LKey t) {
    Search *s = L->s;
    Pos *p = &s->pos;
    Move mv[128], cov[128], made[MAXCARDS];
    Undo u[MAXCARDS + 2];
    int n = lay_moves(p, mv);
    for (int j = 0; j < n; j++) {
        int reserve = mv[j].src >= KA_R0 && mv[j].dst >= KA_T0;
        ka_apply(p, mv[j], &u[0]);
        int nc = reserve ? ka_covers(p, top(p, mv[j].dst), mv[j].dst, 0, cov) : 1;
        for (int i = 0; i < nc; i++) {
            int nu = 1;
            if (reserve) ka_apply(p, cov[i], &u[nu++]);
            LKey k;
            uint64_t m;
            lay_encode(L, p, &k, &m);
            int nm = lay_closure(L, p, &k, &m, &u[nu], made);
            nu += nm;
            int hit = k.a == t.a && k.b == t.b;
            while (nu) ka_undo(p, &u[--nu]);
            if (!hit) {
                if (reserve) ka_apply(p, mv[j], &u[0]);
                continue;
            }
            if (search_play(s, mv[j]) || (reserve && search_play(s, cov[i]))) return -1;
            for (int x = 0; x < nm; x++)
                if (search_play(s, made[x])) return -1;
            return 0;
        }
        if (reserve) ka_undo(p, &u[0]);
    }
    return -1;
}

int lay_line(Layered *L, const Move *made, int nmade) {
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
        if (search_play(L->s, made[x])) goto out;
    LKey k;
    uint64_t m;
    if (lay_encode(L, &L->s->pos, &k, &m) || k.a != path[0].a || k.b != path[0].b) goto out;
    for (size_t i = 1; i < np; i++)
        if (play_step(L, path[i])) goto out;
    r = is_won(&L->s->pos) ? 0 : -1;
out:
    lfree(L, path, cap * sizeof(LKey));
    return r;
}

/*
 * The layered search from s->pos (classic King Albert, no card face down): 1 when won (the undo stack then
 * holds the line), 0 when every position was searched without a win, -1 when stopped (budget, time, or
 * memory: s->budget.memory bounds it all). Each position made counts one against s->budget.max_nodes.
 */
