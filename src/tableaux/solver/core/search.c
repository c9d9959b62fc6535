/* The depth-first search, its two passes and its budgets. */
#include "core.h"


double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t stack_bytes(const Search *s) {
    return (size_t)s->frames_cap * sizeof(Frame) + (size_t)s->moves_cap * sizeof(Move) +
           (size_t)s->undo_cap * sizeof(Undo) + (size_t)s->keys_cap;
}

/* The table and the stacks share one allowance. The table may grow to 7/8 of it, or less when the
 * stacks take more than the rest: a deep line may use room the table has not taken. */
static void share_memory(Search *s) {
    size_t stacks = stack_bytes(s), reserve = s->memory / 8;
    if (stacks < reserve) stacks = reserve;
    stacks += s->lent;
    s->table.cap = s->memory > stacks ? s->memory - stacks : 0;
}

static int refill(Search *s);

/* Grow one stack so that it holds `need` items; 0 on success, -1 when memory (or its limit) runs out. A
 * very deep line takes room from the table: it forgets its short searches and halves its slots. */
static int grow(Search *s, void **buf, int *cap, int need, size_t item) {
    if (need <= *cap) return 0;
    int ncap = *cap ? *cap : 256;
    while (ncap < need) ncap *= 2;
    size_t stacks = stack_bytes(s) + (size_t)(ncap - *cap) * item + s->lent;
    while (stacks + table_bytes(&s->table) > s->memory) {
        s->table.cap = s->memory > stacks ? s->memory - stacks : 0; /* so that it does not grow back */
        if (!s->table.slots || table_gc(&s->table, 1)) return -1;
        refill(s);
    }
    void *nb = realloc(*buf, (size_t)ncap * item);
    if (!nb) return -1;
    *buf = nb;
    *cap = ncap;
    share_memory(s);
    return 0;
}

#define GROW(s, field, cap, need) grow((s), (void **)&(s)->field, &(s)->cap, (need), sizeof(*(s)->field))

#ifdef TABLEAUX_THREADS
static int await_pass(Search *c);
#endif

/* Count one position about to be made. 1 when the budget (or the pass's share) is spent. */
int search_tick(Search *s) {
#ifdef TABLEAUX_THREADS
    if (s->share && atomic_load_explicit(&s->share->stop, memory_order_relaxed)) {
        s->pass_capped = s->pass_timeout = 1; /* the other thread has the answer */
        s->out_of_budget = 1;
        return 1;
    }
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes && !(s->complete && await_pass(s))) {
#else
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) {
#endif
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

/* The first pass's next run (depth-first or best-first) may make `size` more positions, within the share. */
static void cap_pass(Search *s, long long size, long long share) {
    s->pass_cap = s->nodes + size;
    if (share >= 0 && s->pass_cap > share) s->pass_cap = share;
    s->pass_capped = 0;
}

/* Make a move and keep it on the undo stack, as part of the line. 0, or -1 when memory runs out. */
int search_play(Search *s, Move m) {
    if (GROW(s, undo, undo_cap, s->nundo + 1)) {
        s->out_of_memory = 1;
        return -1;
    }
    apply_move(&s->pos, m, &s->undo[s->nundo++]);
    return 0;
}

/* Put back the keys of the current line, which a collection or an emptied table lost, so the search
 * never loops; as many as there is room for. 1 when all went back (and there is room for one more). */
static int refill(Search *s) {
    Table *t = &s->table;
    int f = 0;
    for (; f < s->nframes && !table_full(t); f++) {
        const Frame *fr = &s->frames[f];
        if (fr->klen >= 0) table_visit(t, fr->hash, s->keys + fr->kstart, fr->klen, fr->rank);
    }
    return f == s->nframes && !table_full(t);
}

/* Make room in a full table (table_gc, else empty it) and put back the keys on the current line.
 * -1 when even an empty table cannot hold the line. */
static int make_room(Search *s) {
    Table *t = &s->table;
    if (!table_full(t)) return 0;
    if (!table_gc(t, 0) && refill(s)) return 0;
    table_clear(t); /* what the collection kept leaves no room for the line */
    t->clears++;
    return refill(s) ? 0 : -1;
}

#define CHAINED 256 /* an obligation from a chained run: CHAINED + (source pile << 8 | target pile) */

/* What a move obliges the next move to do, in the classic rules (-1: nothing). A reserve card put on the
 * tableau must be covered: the obligation is its pile (strategy.py's KingAlbertStrategy.obligation has
 * the proof). In the first pass's chained runs, a tableau card moved must be used at once: the next move
 * puts a card on it, or moves or covers the card it left. That is no proof, only a streamliner. */
static int obliges(const Search *s, Move m) {
    if (s->pos.game != GAME_KA_CLASSIC || m.dst < KA_T0) return -1;
    if (s->oblige && m.src >= KA_R0) return m.dst;
    if (s->chained && m.src >= KA_T0 && m.src < KA_T1 && s->pos.n[m.src]) return CHAINED + (m.src << 8 | m.dst);
    return -1;
}

/* The moves allowed at a node with an obligation (obliges). */
static int keep_obliged(Move *mv, int n, int ob) {
    int k = 0, a = ob >= CHAINED ? (ob - CHAINED) >> 8 : -1, d = ob >= CHAINED ? (ob - CHAINED) & 255 : ob;
    for (int j = 0; j < n; j++)
        if (mv[j].dst == d || mv[j].src == a || mv[j].dst == a) mv[k++] = mv[j];
    return k;
}

/* Dead ends: a node with an obligation that no move the search would make there meets has no child, so
 * it is dropped before it is made, counted or looked up. Most reserve cards put on the tableau have no
 * card that could cover them at once; uncoverable asks before the move (ka_can_cover), and unmet after a
 * chained run's move. */
static int uncoverable(const Search *s, Move m, int restricted) {
    return s->pos.game == GAME_KA_CLASSIC && s->oblige && m.src >= KA_R0 && m.dst >= KA_T0 &&
           !ka_can_cover(&s->pos, top(&s->pos, m.src), m.dst, restricted, s->level);
}

static int unmet(const Search *s, int ob, int restricted) {
    Move mv[512];
    int n = keep_obliged(mv, gen_moves(&s->pos, mv), ob);
    return !n || !ka_order(&s->pos, mv, n, restricted, 0, s->level);
}

/* A node with an obligation is another node than its position: its key gets the cards the obligation
 * names (a key longer than any position's with the same cards home), its hash a mark. The mark only
 * changes the hash's top bits, which table.c's slot_index leaves out, so the node's slot is found next to
 * its position's, which the search has just looked up (table_seen): one trip to memory instead of two. */
static int oblige_key(const Pos *p, int ob, uint8_t *key, int klen, uint64_t *hash) {
    int c = top(p, ob >= CHAINED ? (ob - CHAINED) & 255 : ob);
    uint64_t mark = (uint64_t)(c + 1);
    key[klen++] = (uint8_t)c;
    if (ob >= CHAINED) {
        int u = top(p, (ob - CHAINED) >> 8);
        key[klen++] = (uint8_t)u;
        mark += 128 * (uint64_t)(u + 1);
    }
    *hash = p->hash ^ (mix(0x9E3779B97F4A7C15ULL * mark) & ~SLOT_BITS);
    return klen;
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
    if (!s->keep_table) table_clear(&s->table);

    /* key, klen and kh always hold the key and hash of the newest node: made when the node is, they
     * are still right when it is expanded (at once), unless safe moves change the position there. */
    int klen = make_key(p, key);
    uint64_t kh = p->hash;
    table_visit(&s->table, kh, key, klen, pos_rank(p));
    int expand = 1; /* the top frame still needs its moves */
    if (GROW(s, frames, frames_cap, 1)) goto oom;
    s->frames[0].ubase = depth0;
    s->frames[0].start = s->nodes;
    s->frames[0].klen = -1;
    s->frames[0].oblig = -1;
    s->nframes = 1;

    while (s->nframes) {
        Frame *fr = &s->frames[s->nframes - 1];
        if (expand) {
            expand = 0;
            int n = gen_moves(p, buf), closed = 0, ob = fr->oblig;
            if (ob >= 0) n = keep_obliged(buf, n, ob);
            for (; ob < 0;) { /* no safe moves before an obligation is met */
                int j = p->game == GAME_EW ? ew_safe(p, buf, n) : ka_safe(p, buf, n, restricted && s->greedy, s->level);
                if (j < 0) break;
                if (search_tick(s)) goto stopped;
                if (search_play(s, buf[j])) goto oom;
                klen = make_key(p, key);
                kh = p->hash;
                if (make_room(s)) goto oom;
                if (table_visit(&s->table, kh, key, klen, pos_rank(p))) {
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
            n = p->game == GAME_EW ? ew_order(p, buf, n) : ka_order(p, buf, n, restricted, s->restart, s->level);
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
            fr->hash = kh;
            s->nmoves += n;
            s->nkeys += klen;
        }
        if (fr->midx == fr->mcount) {
            table_done(&s->table, fr->hash, s->keys + fr->kstart, fr->klen, s->nodes - fr->start);
            while (s->nundo > fr->ubase) undo_move(p, &s->undo[--s->nundo]);
            s->nmoves = fr->mstart;
            s->nkeys = fr->kstart;
            s->nframes--;
            continue;
        }
        Move m = s->moves[fr->mstart + fr->midx++];
        if (uncoverable(s, m, restricted)) continue;
        int ubase = s->nundo;
        if (search_play(s, m)) goto oom;
        int ob = obliges(s, m);
        if (ob >= CHAINED && unmet(s, ob, restricted)) {
            undo_move(p, &s->undo[--s->nundo]);
            continue;
        }
        if (search_tick(s)) goto stopped;
        klen = make_key(p, key);
        if (make_room(s)) goto oom;
        uint64_t h = p->hash;
        /* a node with an obligation is skipped when its position was searched without one */
        if (ob >= 0 && table_seen(&s->table, h, key, klen, pos_rank(p))) {
            undo_move(p, &s->undo[--s->nundo]);
            continue;
        }
        if (ob >= 0) klen = oblige_key(p, ob, key, klen, &h);
        if (table_visit(&s->table, h, key, klen, pos_rank(p))) {
            undo_move(p, &s->undo[--s->nundo]);
            continue;
        }
        if (GROW(s, frames, frames_cap, s->nframes + 1)) goto oom;
        s->frames[s->nframes].ubase = ubase;
        s->frames[s->nframes].start = s->nodes;
        s->frames[s->nframes].klen = -1;
        s->frames[s->nframes].oblig = ob;
        s->nframes++;
        kh = h;
        expand = 1;
    }
    return 0;
oom:
    s->out_of_memory = 1;
stopped:
    while (s->nundo > depth0) undo_move(p, &s->undo[--s->nundo]);
    return -1;
}


/* The first pass (King Albert) on its share: 1 when it found a win (the undo stack holds it). */
/* The first restart after which the classic first pass makes chained runs too. Sooner, they take the share
 * of the early runs, which decide most deals: on classic deals 1-1000 at 200,000 positions, chained runs
 * from the start decided 6 fewer. From the third run on they cost nothing there, and at 5 million positions
 * they leave 24 of deals 1-2000 unknown instead of 31 (from the first run: 25, fourth: 27, fifth: 28). */
#define CHAIN_FROM 2

static int first_pass_run(Search *s, double start, double time_limit) {
    /* The first pass gets half of what is given: half the nodes and half the time. With a node budget B
     * it stops at B/2, so a bigger budget gives it more, never less, and the complete search after it
     * gets B minus what the pass used, which also only grows. Within its share it runs again and again
     * with a shaken move order and twice the nodes each time: a depth-first search that took a wrong
     * turn early can spend millions of positions below it, and a fresh start is the cure. The runs'
     * sizes do not depend on the budget (only the last is cut short), so the first k runs are the same
     * whatever the budget. With no node budget the share is 64 million. Beside a complete search of its
     * own (search_solve's two threads) it gets all of the time instead of half. */
    long long max_nodes = s->max_nodes, share = max_nodes >= 0 ? max_nodes / 2 : (time_limit > 0 ? -1 : 64000000LL);
    s->pass_deadline = time_limit > 0 ? start + (s->share ? time_limit : time_limit / 2) : 0;
    /* In classic King Albert a chained run follows each depth-first run, as long: a streamliner that
     * wins some deals at once (deal 787 in 2.9M positions, which the complete search needs 200M+ for)
     * and others not at all.
     * A best-first run takes turns with the depth-first runs, each turn as long as the run before it:
     * some deals it wins at once, others only a depth-first run wins. It holds three eighths of the
     * memory, which the table leaves free until the complete search. */
    int best = s->best_first, found = 0;
    int chain_done = 0; /* bit k: the chained runs of kind k exhausted their space */
    int greedy_done = 0; /* the depth-first runs with the rule of thumb exhausted their space */
    if (best) {
        s->lent = s->memory / 8 * 3;
        share_memory(s);
        if (bestfirst_start(s)) best = 0;
    }
    for (int restart = 0; !found; restart++) {
        long long size = 20000LL << (restart < 30 ? restart : 30);
        cap_pass(s, size, share);
        s->restart = restart;
        /* Every other run leaves out the rule of thumb for sending cards home: some wins keep a card
         * on the tableau that the rule would have sent home. */
        s->greedy = restart % 2 == 0 && !greedy_done;
        int r = run(s, 1);
        if (r == 1) found = 1;
        /* exhausted: no order finds a win there; out of budget, time or share: stop */
        if ((r == 0 && !s->greedy) || s->out_of_budget || s->out_of_memory || s->pass_timeout) break;
        if (share >= 0 && s->nodes >= share) break;
        /* The space with the rule of thumb is exhausted: no later run of it can win, and the space without
         * it is likely small too, so the next run tries it at once (when it is exhausted too the pass ends;
         * the complete search decides). Lost deals spent most of their pass on the turns in between. */
        if (r == 0) {
            greedy_done = 1;
            continue;
        }
        /* Classic King Albert: then a chained run (obliges), of one of three kinds in turn: without cards
         * taken back, with and without the rule of thumb, and with cards taken back. A kind whose space
         * is exhausted has no win to give and is left out from then on. */
        int j = restart - CHAIN_FROM, kind = j % 4 < 3 ? j % 4 : 2; /* 0, 1: no card back, greedy = kind; 2: cards back */
        if (!found && j >= 0 && s->chain_runs && s->pos.game == GAME_KA_CLASSIC && !(chain_done >> kind & 1)) {
            cap_pass(s, size, share);
            s->chained = 1;
            s->greedy = kind == 1;
            r = run(s, kind < 2);
            s->chained = 0;
            if (r == 1) found = 1;
            if (r == 0) chain_done |= 1 << kind;
            if (s->out_of_budget || s->out_of_memory || s->pass_timeout) break;
            if (share >= 0 && s->nodes >= share) break;
        }
        if (found || !best) continue;
        cap_pass(s, size, share);
        r = bestfirst_run(s);
        if (r == 1) found = 1;
        if (r == 0 || s->out_of_memory || s->pass_timeout) break; /* no win without worrying back */
        if (share >= 0 && s->nodes >= share) break;
    }
    bestfirst_free(s);
    s->lent = 0;
    share_memory(s);
    s->restart = 0;
    return found;
}

/* The first run of the restarted complete search, in positions; each run after it may make twice as many. */
#define RESTART_FROM 250000LL

/*
 * The complete search. With restarts (classic King Albert beside the first pass) it runs again and again with a
 * shaken move order and twice the positions each time, like the first pass but over the whole space: a wrong
 * turn near the root can hold a depth-first search for most of its budget. Each run keeps what the runs before
 * it searched to the end, and loses only the positions of the line that was cut off, which the table's
 * collection drops since their searches never ended: a finished position may owe its end to a position on that
 * line, which was being searched then, and the next run searches those again from the start (docs/solver.md
 * has the whole argument). A run that searches its space to the end decides, as the plain search does.
 */
static int complete(Search *s) {
    if (!s->restarts) return run(s, 0);
    int r = -1;
    for (long long size = RESTART_FROM, k = 0;; size *= 2, k++) {
        s->restart = (int)k;
        s->pass_cap = s->nodes + size;
        r = run(s, 0);
        s->keep_table = 1;
        if (r >= 0 || !s->pass_capped || s->out_of_budget || s->out_of_memory) break;
        if (table_gc(&s->table, 0)) table_clear(&s->table);
    }
    s->keep_table = 0;
    s->restart = 0;
    s->pass_cap = -1;
    return r;
}

#ifdef TABLEAUX_THREADS
/* The second thread: the complete search, from the start. */
static void *complete_thread(void *arg) {
    Search *c = arg;
    c->result = complete(c);
    if (c->result >= 0) atomic_store(&c->share->stop, 1); /* won or proved lost: the pass may stop */
    return NULL;
}

/* The complete search reached the nodes it may have while the pass runs: wait for the pass to end and
 * take what it left, as the complete search after it would have. 1 when that leaves more to search. */
static int await_pass(Search *c) {
    Share *sh = c->share;
    struct timespec ms = {0, 1000000};
    while (!atomic_load(&sh->pass_done) && !atomic_load(&sh->stop)) nanosleep(&ms, NULL);
    if (!atomic_load(&sh->pass_done)) return 0;
    c->max_nodes = sh->budget - atomic_load(&sh->pass_used);
    return c->nodes < c->max_nodes;
}
#endif

/*
 * The whole solve from s->pos: the first pass (King Albert) on its share, then the complete search.
 * The caller sets s->pos, s->level and s->memory, which bounds the tables and the stacks together.
 * Returns V_*, and when winnable the undo stack holds the winning line. Needs no Python: it runs without
 * the GIL. With threads == 2 (King Albert, first pass on) the complete search runs on a second thread
 * from the start, with five eighths of the memory: the verdict is the one a single thread gives for a
 * node budget (the complete search waits for the pass before it passes B/2, and then gets B minus what
 * the pass used), and with a time limit both searches get all of it.
 */
int search_solve(Search *s, long long max_nodes, double time_limit, int first_pass, int threads) {
    int verdict = V_UNKNOWN, found = 0, game = s->pos.game;
    s->max_nodes = max_nodes;
    double start = now();
    s->deadline = time_limit > 0 ? start + time_limit : 0;
    first_pass = first_pass && game != GAME_EW;
#ifdef TABLEAUX_THREADS
    Share sh;
    Search *c = NULL;
    pthread_t thread;
    if (threads > 1 && first_pass && (c = calloc(1, sizeof *c))) {
        atomic_init(&sh.stop, 0);
        atomic_init(&sh.pass_done, 0);
        atomic_init(&sh.pass_used, 0);
        sh.budget = max_nodes;
        c->pos = s->pos;
        c->level = s->level;
        c->oblige = s->oblige;
        c->memory = s->memory / 8 * 5;
        s->memory -= c->memory;
        c->max_nodes = max_nodes >= 0 ? max_nodes - max_nodes / 2 - 1 : -1; /* the least the pass leaves */
        c->deadline = s->deadline;
        c->pass_cap = -1;
        c->share = s->share = &sh;
        c->complete = 1;
        c->restarts = s->restarts;
        if (table_init(&c->table, c->memory - c->memory / 8) || pthread_create(&thread, NULL, complete_thread, c)) {
            s->memory += c->memory;
            s->share = NULL;
            search_free(c);
            c = NULL;
        }
    }
#else
    (void)threads;
#endif
    if (table_init(&s->table, s->memory - s->memory / 8)) { /* what share_memory gives while the stacks are small */
        s->out_of_memory = 1;
    } else {
        if (first_pass) found = first_pass_run(s, start, time_limit);
#ifdef TABLEAUX_THREADS
        if (c) {
            atomic_store(&sh.pass_used, s->nodes);
            atomic_store(&sh.pass_done, 1);
            if (found) atomic_store(&sh.stop, 1);
            pthread_join(thread, NULL);
            s->nodes += c->nodes;
            s->out_of_memory |= c->out_of_memory;
            if (!found && c->result == 1) { /* the complete search's line is the answer */
                found = 1;
                Undo *u = s->undo;
                int n = s->nundo, cap = s->undo_cap;
                s->undo = c->undo, s->nundo = c->nundo, s->undo_cap = c->undo_cap;
                c->undo = u, c->nundo = n, c->undo_cap = cap;
            } else if (!found && c->result == 0) {
                verdict = V_UNWINNABLE;
            }
            search_free(c);
            s->share = NULL;
            if (found) verdict = V_WINNABLE;
            return verdict;
        }
#endif
        if (!found && !s->out_of_budget && !s->out_of_memory) {
            s->pass_cap = -1;
            s->pass_deadline = 0;
            int r = complete(s);
            if (r == 1) found = 1;
            else if (r == 0) verdict = V_UNWINNABLE;
        }
        if (found) verdict = V_WINNABLE;
    }
    return verdict;
}

void search_free(Search *s) {
    bestfirst_free(s);
    table_free(&s->table);
    free(s->frames);
    free(s->moves);
    free(s->undo);
    free(s->keys);
    free(s);
}
