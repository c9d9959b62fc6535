/* The depth-first search: one run, and the memory its table and stacks share. */
#include "search.h"

static size_t stack_bytes(const Search *s) {
    return (size_t)s->line.frames_cap * sizeof(Frame) + (size_t)s->line.moves_cap * sizeof(Move) +
           (size_t)s->line.undo_cap * sizeof(Undo) + (size_t)s->line.keys_cap;
}

/* The table and the stacks share one allowance. The table may grow to 7/8 of it, or less when the
 * stacks take more than the rest: a deep line may use room the table has not taken. */
void tx_search_share_memory(Search *s) {
    size_t stacks = stack_bytes(s), reserve = s->budget.memory / 8;
    if (stacks < reserve) stacks = reserve;
    stacks += s->budget.lent;
    s->table.cap = s->budget.memory > stacks ? s->budget.memory - stacks : 0;
}

static int refill(Search *s);

/* Grow one stack so that it holds `need` items; 0 on success, -1 when memory (or its limit) runs out. A
 * very deep line takes room from the table: it forgets its short searches and halves its slots. */
static int grow(Search *s, void **buf, int *cap, int need, size_t item) {
    if (need <= *cap) return 0;
    if (need > STACK_MAX) return -1;
    long long want = *cap ? *cap : 256; /* doubled in an int, it overflowed past 2^30 items: a hang */
    while (want < need) want *= 2;
    int ncap = want > STACK_MAX ? STACK_MAX : (int)want;
    size_t stacks = stack_bytes(s) + (size_t)(ncap - *cap) * item + s->budget.lent;
    while (stacks + tx_table_bytes(&s->table) > s->budget.memory) {
        s->table.cap = s->budget.memory > stacks ? s->budget.memory - stacks : 0; /* so that it does not grow back */
        if (!s->table.set.slots || tx_table_gc(&s->table, 1)) return -1;
        refill(s);
    }
    void *nb = realloc(*buf, (size_t)ncap * item);
    if (!nb) return -1;
    *buf = nb;
    *cap = ncap;
    tx_search_share_memory(s);
    return 0;
}

#define GROW(s, field, cap, need) grow((s), (void **)&(s)->line.field, &(s)->line.cap, (need), sizeof(*(s)->line.field))

/* Make a move and keep it on the undo stack, as part of the line. 0, or -1 when memory runs out. */
int tx_search_play(Search *s, Move m) {
    if (GROW(s, undo, undo_cap, s->line.nundo + 1)) {
        s->budget.out_of_memory = 1;
        return -1;
    }
    apply_move(&s->pos, m, &s->line.undo[s->line.nundo++]);
    return 0;
}

/* Put back the keys of the current line, which a collection or an emptied table lost, so the search
 * never loops; as many as there is room for. 1 when all went back (and there is room for one more). */
static int refill(Search *s) {
    Table *t = &s->table;
    int f = 0;
    for (; f < s->line.nframes && !tx_table_full(t); f++) {
        const Frame *fr = &s->line.frames[f];
        if (fr->klen >= 0) tx_table_visit(t, fr->hash, s->line.keys + fr->kstart, fr->klen, fr->rank);
    }
    return f == s->line.nframes && !tx_table_full(t);
}

/* Make room in a full table (tx_table_gc, else empty it) and put back the keys on the current line.
 * -1 when even an empty table cannot hold the line. */
static int make_room(Search *s) {
    Table *t = &s->table;
    if (!tx_table_full(t)) return 0;
    if (!tx_table_gc(t, 0) && refill(s)) return 0;
    tx_table_clear(t); /* what the collection kept leaves no room for the line */
    t->clears++;
    return refill(s) ? 0 : -1;
}

#define CHAINED 256 /* an obligation from a chained run: CHAINED + (source pile << 8 | target pile) */

/* What a move obliges the next move to do, in the classic rules (-1: nothing). A reserve card put on the
 * tableau must be covered: the obligation is its pile (strategy/king_albert.py: KingAlbertStrategy.obligation has
 * the proof). In the first pass's chained runs, a tableau card moved must be used at once: the next move
 * puts a card on it, or moves or covers the card it left. That is no proof, only a streamliner. */
static int obliges(const Search *s, const RunSpec *how, Move m) {
    if (s->pos.game != GAME_KA_CLASSIC || m.dst < KA_T0) return -1;
    if (how->oblige && m.src >= KA_R0) return m.dst;
    if (how->chained && m.src >= KA_T0 && m.src < KA_T1 && s->pos.n[m.src]) return CHAINED + (m.src << 8 | m.dst);
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
 * card that could cover them at once; uncoverable asks before the move (tx_ka_can_cover), and unmet after a
 * chained run's move. */
static int uncoverable(const Search *s, const RunSpec *how, Move m) {
    return s->pos.game == GAME_KA_CLASSIC && how->oblige && m.src >= KA_R0 && m.dst >= KA_T0 &&
           !tx_ka_can_cover(&s->pos, top(&s->pos, m.src), m.dst, how->restricted);
}

static int unmet(const Search *s, int ob, int restricted) {
    Move mv[512];
    int n = keep_obliged(mv, gen_moves(&s->pos, mv), ob);
    return !n || !tx_ka_order(&s->pos, mv, n, restricted, 0);
}

/* A node with an obligation is another node than its position: its key gets the cards the obligation
 * names (a key longer than any position's with the same cards home), its hash a mark. The mark only
 * changes the hash's top bits, which table.c's slot_index leaves out, so the node's slot is found next to
 * its position's, which the search has just looked up (tx_table_seen): one trip to memory instead of two. */
static int oblige_key(const Pos *p, int ob, uint8_t *key, int klen, uint64_t *hash) {
    uint64_t base = *hash;
    int c = top(p, ob >= CHAINED ? (ob - CHAINED) & 255 : ob);
    uint64_t mark = (uint64_t)(c + 1);
    key[klen++] = (uint8_t)c;
    if (ob >= CHAINED) {
        int u = top(p, (ob - CHAINED) >> 8);
        key[klen++] = (uint8_t)u;
        mark += 128 * (uint64_t)(u + 1);
    }
    *hash = base ^ (mix(0x9E3779B97F4A7C15ULL * mark) & ~SLOT_BITS);
    return klen;
}

/* The key of the position as the run knows it (written to key, its length to *klen), and its hash: the
 * canonical key and the position's own hash, or for a streamlined run that merges suits its hash alone
 * (tx_ka_hash_suits), which is then its key too. */
static uint64_t node_key(Search *s, const RunSpec *how, uint8_t *key, int *klen) {
    if (!(how->stream & STREAM_SUITS)) {
        *klen = make_key(&s->pos, key);
        return s->pos.hash;
    }
    uint64_t h = tx_ka_hash_suits(&s->pos, &s->suits);
    memcpy(key, &h, sizeof h);
    *klen = (int)sizeof h;
    return h;
}

/* A paused run (RunSpec.resume) given up: the position back to where it started, its line gone. */
void tx_search_abandon(Search *s) {
    if (s->line.paused)
        while (s->line.nundo > s->line.frames[0].ubase) undo_move(&s->pos, &s->line.undo[--s->line.nundo]);
    s->line.nframes = s->line.nmoves = s->line.nkeys = 0;
    s->line.paused = 0;
}

/*
 * Depth-first search from the current position, as `how` says. 1 when won (the undo stack then holds the line),
 * 0 when the space is exhausted, -1 when stopped (the budget, the turn's cap or time, or memory: the budget's
 * flags say which).
 *
 * A resumable run (how.resume) pauses at the end of its turn instead: only between two children of a position,
 * the child it was about to make neither made nor counted, so that going on makes every position it would have
 * made without the pause, in the same order, and counts each once (its safe moves are made past the turn's end,
 * tx_budget_count). Then s->line.paused is set, and the next resumable run goes on from there.
 */
int tx_search_run(Search *s, RunSpec how) {
    int restricted = how.restricted;
    Pos *p = &s->pos;
    uint8_t key[KEY_MAX];
    Move buf[512];
    int klen, expand;
    uint64_t kh;
    s->budget.capped = 0;
    if (how.resume && s->line.paused) { /* its top frame is expanded: the next child comes next */
        s->line.paused = 0;
        expand = 0;
        kh = 0;
        klen = 0;
        goto resumed;
    }
    tx_search_abandon(s);
    tx_table_clear(&s->table); /* every run starts from an empty table (complete.c says why) */

    /* key, klen and kh always hold the key and hash of the newest node: made when the node is, they
     * are still right when it is expanded (at once), unless safe moves change the position there. */
    kh = node_key(s, &how, key, &klen);
    tx_table_visit(&s->table, kh, key, klen, pos_rank(p));
    if (how.prune && how.prune(how.prune_ctx, p, &s->budget)) return 0;
    expand = 1; /* the top frame still needs its moves */
    if (GROW(s, frames, frames_cap, 1)) goto oom;
    s->line.frames[0].ubase = s->line.nundo;
    s->line.frames[0].start = s->budget.nodes;
    s->line.frames[0].klen = -1;
    s->line.frames[0].oblig = -1;
    s->line.nframes = 1;
resumed:;
    int depth0 = s->line.frames[0].ubase;

    while (s->line.nframes) {
        Frame *fr = &s->line.frames[s->line.nframes - 1];
        if (expand) {
            expand = 0;
            int n = gen_moves(p, buf), closed = 0, ob = fr->oblig;
            if (ob >= 0) n = keep_obliged(buf, n, ob);
            for (; ob < 0;) { /* no safe moves before an obligation is met */
                int greedy = how.stream & STREAM_HOME ? GREEDY_ALL : restricted && how.greedy;
                int j = p->game == GAME_EW ? tx_ew_safe(p, buf, n) : tx_ka_safe(p, buf, n, greedy);
                if (j < 0) break;
                if (how.resume ? tx_budget_count(&s->budget) : tx_budget_tick(&s->budget)) goto stopped;
                if (tx_search_play(s, buf[j])) goto oom;
                kh = node_key(s, &how, key, &klen);
                if (make_room(s)) goto oom;
                if (tx_table_visit(&s->table, kh, key, klen, pos_rank(p))) {
                    closed = 1;
                    break;
                }
                n = gen_moves(p, buf);
            }
            if (closed) { /* its closure under safe moves was searched already */
                while (s->line.nundo > fr->ubase) undo_move(p, &s->line.undo[--s->line.nundo]);
                s->line.nframes--;
                continue;
            }
            if (is_won(p)) return 1;
            n = p->game == GAME_EW             ? tx_ew_order(p, buf, n)
                : how.stream & STREAM_PLAIN ? tx_ka_plain_order(p, buf, n, restricted, how.stream & STREAM_SMALL)
                                            : tx_ka_order(p, buf, n, restricted, how.restart);
            if (GROW(s, moves, moves_cap, s->line.nmoves + n) || GROW(s, keys, keys_cap, s->line.nkeys + klen))
                goto oom;
            fr = &s->line.frames[s->line.nframes - 1];
            memcpy(s->line.moves + s->line.nmoves, buf, (size_t)n * sizeof(Move));
            memcpy(s->line.keys + s->line.nkeys, key, (size_t)klen);
            fr->mstart = s->line.nmoves;
            fr->mcount = n;
            fr->midx = 0;
            fr->kstart = s->line.nkeys;
            fr->klen = klen;
            fr->rank = pos_rank(p);
            fr->hash = kh;
            s->line.nmoves += n;
            s->line.nkeys += klen;
        }
        if (fr->midx == fr->mcount) {
            tx_table_done(&s->table, fr->hash, s->line.keys + fr->kstart, fr->klen, s->budget.nodes - fr->start);
            while (s->line.nundo > fr->ubase) undo_move(p, &s->line.undo[--s->line.nundo]);
            s->line.nmoves = fr->mstart;
            s->line.nkeys = fr->kstart;
            s->line.nframes--;
            continue;
        }
        Move m = s->line.moves[fr->mstart + fr->midx++];
        if (uncoverable(s, &how, m)) continue;
        int ubase = s->line.nundo;
        if (tx_search_play(s, m)) goto oom;
        int ob = obliges(s, &how, m);
        if (ob >= CHAINED && unmet(s, ob, restricted)) {
            undo_move(p, &s->line.undo[--s->line.nundo]);
            continue;
        }
        if (tx_budget_tick(&s->budget)) {
            if (!how.resume || !s->budget.capped || s->budget.out_of_budget) goto stopped;
            undo_move(p, &s->line.undo[--s->line.nundo]); /* pause: this child comes first when the run goes on */
            fr->midx--;
            s->budget.nodes--;
            s->line.paused = 1;
            return -1;
        }
        uint64_t h = node_key(s, &how, key, &klen);
        if (make_room(s)) goto oom;
        /* a node with an obligation is skipped when its position was searched without one */
        if (ob >= 0 && tx_table_seen(&s->table, h, key, klen, pos_rank(p))) {
            undo_move(p, &s->line.undo[--s->line.nundo]);
            continue;
        }
        if (ob >= 0) klen = oblige_key(p, ob, key, klen, &h);
        if (tx_table_visit(&s->table, h, key, klen, pos_rank(p)) ||
            (how.prune && how.prune(how.prune_ctx, p, &s->budget))) {
            undo_move(p, &s->line.undo[--s->line.nundo]);
            continue;
        }
        if (GROW(s, frames, frames_cap, s->line.nframes + 1)) goto oom;
        s->line.frames[s->line.nframes].ubase = ubase;
        s->line.frames[s->line.nframes].start = s->budget.nodes;
        s->line.frames[s->line.nframes].klen = -1;
        s->line.frames[s->line.nframes].oblig = ob;
        s->line.nframes++;
        kh = h;
        expand = 1;
    }
    return 0;
oom:
    s->budget.out_of_memory = 1;
stopped:
    while (s->line.nundo > depth0) undo_move(p, &s->line.undo[--s->line.nundo]);
    s->line.nframes = 0;
    return -1;
}

/* The winning line `from` holds becomes `to`'s: their undo stacks change places. */
void tx_search_take_line(Search *to, Search *from) {
    Stacks mine = to->line;
    to->line.undo = from->line.undo, to->line.nundo = from->line.nundo, to->line.undo_cap = from->line.undo_cap;
    from->line.undo = mine.undo, from->line.nundo = mine.nundo, from->line.undo_cap = mine.undo_cap;
}

void tx_search_free(Search *s) {
    tx_table_free(&s->table);
    free(s->line.frames);
    free(s->line.moves);
    free(s->line.undo);
    free(s->line.keys);
    free(s);
}
