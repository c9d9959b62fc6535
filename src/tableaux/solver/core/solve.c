/* The solve: which runs of the depth-first search (search.c) and the best-first one (bestfirst.c) are made,
 * in what order and on which thread: the first pass, the restarted complete search, and the two threads. */
#include "core.h"

/* The first restart after which the classic first pass makes chained runs too. Sooner, they take the share
 * of the early runs, which decide most deals: on classic deals 1-1000 at 200,000 positions, chained runs
 * from the start decided 6 fewer. From the third run on they cost nothing there, and at 5 million positions
 * they leave 24 of deals 1-2000 unknown instead of 31 (from the first run: 25, fourth: 27, fifth: 28). */
#define CHAIN_FROM 2

/* The streamlined runs' turns, in rounds of the first pass: the first kind's turn is STREAM_FIRST times as long
 * as the other runs' first turn, each other kind's STREAM_NEXT times, and each doubles from round to round. In
 * King Albert they start in the first round: on deals 1-2000 at a million positions they leave 1 deal unknown
 * instead of 5, in 0.63 times the positions, and none is decided later. In classic King Albert they start in
 * round STREAM_FROM_CLASSIC, once the other runs have had 0.9 million positions: from the first round, they won
 * 46 more of deals 1-2000 at a million positions but left 6 unknown that the other runs win there (classic deal
 * 212: 32,000 positions without them, 606,000 for the streamlined run). */
#define STREAM_FIRST 64
#define STREAM_NEXT 16
#define STREAM_FROM_CLASSIC 4

/* A streamlined kind's last turn is its first of STREAM_MOST positions (the fourth round's for the first kind,
 * the sixth's for the second). Its runs are the same search each time, only longer, and none that wins does so
 * late: on 46 hard winnable King Albert deals each kind alone won within 10 million positions or not within 30
 * million, and the better kind within 7.1 million. Past that the other runs get the pass: King Albert deal
 * 25173, which no streamlined run wins, is won in 80 million positions instead of 92, and no other hard deal
 * of either game (benchmarks/solver.py's --hard-tail and --big-rows) changes its positions. */
#define STREAM_MOST 10240000LL

/* The turn of the first pass's i-th streamlined kind in its k-th round of streamlined runs. */
static long long stream_turn(int k, int i) {
    return (20000LL << (k < 30 ? k : 30)) * (i ? STREAM_NEXT : STREAM_FIRST);
}

/* The pass must end: out of budget, time or memory, or its share of the nodes used. */
static int pass_over(const Search *s, long long share) {
    const Budget *b = &s->budget;
    return b->out_of_budget || b->out_of_memory || s->run.timeout || (share >= 0 && b->nodes >= share);
}

/* 1 when the undo stack's line, played from `start` move by move, makes only moves the rules generate there
 * and ends in a won game: a streamlined run's win is believed only then. */
int line_wins(const Pos *start, const Undo *line, int n) {
    Pos p = *start;
    Move buf[512];
    for (int j = 0; j < n; j++) {
        Move m = line[j].m;
        int k = gen_moves(&p, buf), legal = 0;
        for (int i = 0; i < k && !legal; i++) legal = buf[i].src == m.src && buf[i].cnt == m.cnt && buf[i].dst == m.dst;
        if (!legal) return 0;
        Undo u;
        apply_move(&p, m, &u);
    }
    return is_won(&p);
}

/* One streamlined depth-first run (Run.stream: `kinds`) of at most `size` more positions: 1 when it won and its
 * line, replayed from `start`, wins; 0 when its restricted space has no win (which proves nothing); -1 when
 * stopped. */
static int streamlined_run(Search *s, const Pos *start, int kinds, long long size, long long share) {
    cap_pass(s, size, share);
    s->run.stream = kinds;
    s->run.restart = 0;
    s->run.greedy = 0;
    int r = run(s, !(kinds & STREAM_BACK), 0);
    s->run.stream = 0;
    if (r == 1 && !line_wins(start, s->line.undo, s->line.nundo)) {
        s->pos = *start; /* not a win after all: drop it */
        s->line.nundo = 0;
        r = -1;
    }
    return r;
}

/* The first pass's state between its turns: what it has found, and which runs have nothing left to give. */
typedef struct {
    Search *s;
    Pos root;        /* where the pass started: a streamlined run's win is replayed from here */
    long long share; /* the pass's nodes (-1: none, it ends at its deadline) */
    int from;        /* the round of the streamlined runs' first turn */
    int best, back;  /* the best-first runs still in play: without and with cards taken back */
    int found;       /* a win: the undo stack holds it */
    int exhausted;   /* the restricted space has no win */
    int greedy_done; /* the depth-first runs with the rule of thumb exhausted their space */
    int chain_done;  /* bit k: the chained runs of kind k exhausted their space */
    int stream_done; /* bit i: the streamlined runs of kind streams[i] exhausted their space */
} Pass;

/* What a turn leaves the round: go on to its next turn, go to the next round, or end the pass (a turn that wins
 * ends it). */
enum { TURN_ON, NEXT_ROUND, PASS_ENDS };

/* Round `restart`'s streamlined runs, each kind in turn that has not exhausted its space or reached STREAM_MOST. */
static int stream_turns(Pass *p, int restart) {
    Search *s = p->s;
    for (int i = 0; i < s->sched.nstreams && restart >= p->from && !p->found; i++) {
        long long turn = stream_turn(restart - p->from, i);
        if (p->stream_done >> i & 1 || turn > STREAM_MOST) continue;
        int r = streamlined_run(s, &p->root, s->sched.streams[i], turn, p->share);
        if (r == 1) p->found = 1;
        if (r == 0) p->stream_done |= 1 << i;
        if (pass_over(s, p->share)) break;
    }
    return p->found || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

/* The round's depth-first run over the restricted space, in a shaken move order. */
static int depth_first_turn(Pass *p, int restart, long long size) {
    Search *s = p->s;
    cap_pass(s, size, p->share);
    s->run.restart = restart;
    /* Every other run leaves out the rule of thumb for sending cards home: some wins keep a card
     * on the tableau that the rule would have sent home. */
    s->run.greedy = restart % 2 == 0 && !p->greedy_done;
    int r = run(s, 1, 0);
    if (r == 1) p->found = 1;
    /* exhausted: no order finds a win there; out of budget, time or share: stop */
    p->exhausted = r == 0 && !s->run.greedy;
    if (p->found || p->exhausted || pass_over(s, p->share)) return PASS_ENDS;
    /* The space with the rule of thumb is exhausted: no later run of it can win, and the space without
     * it is likely small too, so the next run tries it at once (when it is exhausted too the pass ends;
     * the complete search decides). Lost deals spent most of their pass on the turns in between. */
    if (r == 0) {
        p->greedy_done = 1;
        return NEXT_ROUND;
    }
    return TURN_ON;
}

/* Classic King Albert: then a chained run (obliges), of one of three kinds in turn: without cards taken back,
 * with and without the rule of thumb, and with cards taken back. A kind whose space is exhausted has no win
 * to give and is left out from then on. */
static int chained_turn(Pass *p, int restart, long long size) {
    Search *s = p->s;
    int j = restart - CHAIN_FROM, kind = j % 4 < 3 ? j % 4 : 2; /* 0, 1: no card back, greedy = kind; 2: back */
    if (j < 0 || !s->sched.chain_runs || s->pos.game != GAME_KA_CLASSIC || p->chain_done >> kind & 1) return TURN_ON;
    cap_pass(s, size, p->share);
    s->run.chained = 1;
    s->run.greedy = kind == 1;
    int r = run(s, kind < 2, 0);
    s->run.chained = 0;
    if (r == 1) p->found = 1;
    if (r == 0) p->chain_done |= 1 << kind;
    return p->found || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

/* The best-first runs' turns: as long as the depth-first run's, and a quarter of that for the one that takes
 * cards back. */
static int best_first_turns(Pass *p, long long size) {
    Search *s = p->s;
    if (!p->best) return NEXT_ROUND;
    cap_pass(s, size, p->share);
    int r = bestfirst_run(s, s->sched.best);
    if (r == 1) p->found = 1;
    p->exhausted = r == 0;
    /* exhausted: no win without worrying back */
    if (p->found || p->exhausted || pass_over(s, p->share)) return PASS_ENDS;
    if (!p->back) return NEXT_ROUND;
    cap_pass(s, size / 4, p->share);
    r = bestfirst_run(s, s->sched.best_back);
    if (r == 1) p->found = 1;
    if (r == 0) p->back = 0;
    return p->found || pass_over(s, p->share) ? PASS_ENDS : NEXT_ROUND;
}

/* The pass's last turns, when its rounds found no win and the restricted space has none: the runs that
 * may take cards back, since a win must take one back. */
static void last_turns(Pass *p, int restart) {
    Search *s = p->s;
    if (p->found || !p->exhausted) return;
    /* The second best-first run gets a last turn, half as long as the pass so far (deal 161's restricted
     * space is exhausted after 244,000 positions, and this turn wins it). With the quarter turns above, it
     * cost the lost ones of classic deals 1-2000 at 5 million positions a fifth more positions in all. */
    if (p->back) {
        cap_pass(s, s->budget.nodes / 2, p->share); /* the pass is the first thing a solve does: its nodes so far */
        p->found = bestfirst_run(s, s->sched.best_back) == 1;
    }
    /* Still no win: the streamlined runs that take cards back get the turn the round would have given them,
     * even before round `from`. Classic deal 20838's restricted space is exhausted after a few hundred
     * positions, long before round STREAM_FROM_CLASSIC, and its streamlined run with cards back wins in
     * 154,000 positions, where the complete search needs 140 million. On classic deals 1-2000 at a million
     * positions the turn changes no verdict and costs the lost deals 5% more positions. */
    int round = restart > p->from ? restart - p->from : 0;
    for (int i = 0; i < s->sched.nstreams && !p->found && !pass_over(s, p->share); i++)
        if ((s->sched.streams[i] & STREAM_BACK) && !(p->stream_done >> i & 1))
            p->found = streamlined_run(s, &p->root, s->sched.streams[i], stream_turn(round, i), p->share) == 1;
}

/* The first pass (King Albert) on its share: 1 when it found a win (the undo stack holds it). */
static int first_pass_run(Search *s, double start, double time_limit) {
    /* The first pass gets half of what is given: half the nodes and half the time. With a node budget B
     * it stops at B/2, so a bigger budget gives it more, never less, and the complete search after it
     * gets B minus what the pass used, which also only grows. Within its share it runs again and again
     * with a shaken move order and twice the nodes each time: a depth-first search that took a wrong
     * turn early can spend millions of positions below it, and a fresh start is the cure. The runs'
     * sizes do not depend on the budget (only the last is cut short), so the first k runs are the same
     * whatever the budget. With no node budget the share is 64 million. Beside a complete search of its
     * own (search_solve's two threads) it gets all of the time instead of half. */
    long long max_nodes = s->budget.max_nodes;
    Pass p = {.s = s, .from = s->pos.game == GAME_KA_CLASSIC ? STREAM_FROM_CLASSIC : 0};
    p.share = max_nodes >= 0 ? max_nodes / 2 : (time_limit > 0 ? -1 : 64000000LL);
    s->run.deadline = time_limit > 0 ? start + (s->threads.share ? time_limit : time_limit / 2) : 0;
    /* In classic King Albert a chained run follows each depth-first run, as long: a streamliner that
     * wins some deals at once (the solve wins deal 787 in 6.1M positions, where the plain complete search
     * needs 42.8M) and others not at all.
     * A best-first run takes turns with the depth-first runs, each turn as long as the run before it:
     * some deals it wins at once, others only a depth-first run wins. It holds three eighths of the
     * memory, which the table leaves free until the complete search. In classic King Albert a second
     * best-first run, which may take cards back off the foundations, takes half of that memory and the
     * next turn, a quarter as long (as long, it took the early runs' share: classic deals 1-1000 at
     * 200,000 positions left 146 unknown instead of 126; a quarter, 128). Many classic wins need a card
     * back, and no restricted run can find them (deal 161: won in 249,000 positions, where the complete
     * search needs 153 million). */
    p.best = s->sched.best_first;
    p.back = p.best && s->pos.game == GAME_KA_CLASSIC;
    if (p.best) {
        s->budget.lent = s->budget.memory / 8 * 3;
        share_memory(s);
        size_t half = p.back ? s->budget.lent / 2 : 0;
        if (bestfirst_start(s, &s->sched.best, s->budget.lent - half, 0)) p.best = 0;
        if (p.back && bestfirst_start(s, &s->sched.best_back, half, 1)) p.back = 0;
    }
    p.root = s->pos;
    int restart = 0;
    for (;; restart++) {
        long long size = 20000LL << (restart < 30 ? restart : 30);
        if (stream_turns(&p, restart) == PASS_ENDS) break;
        int turn = depth_first_turn(&p, restart, size);
        if (turn == PASS_ENDS) break;
        if (turn == NEXT_ROUND) continue;
        if (chained_turn(&p, restart, size) == PASS_ENDS || best_first_turns(&p, size) == PASS_ENDS) break;
    }
    last_turns(&p, restart);
    bestfirst_free(s);
    s->budget.lent = 0;
    share_memory(s);
    s->run.restart = 0;
    return p.found;
}

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
    if (s->sched.layered) return layered_run(s);
    if (!s->sched.restarts) return run(s, 0, 0);
    int r = -1;
    long long size = s->sched.restarts;
    for (int k = 0;; size *= 2, k++) {
        s->run.restart = k;
        s->run.cap = s->budget.nodes + size;
        r = run(s, 0, k > 0); /* a later run keeps what the collection below left */
        if (r >= 0 || !s->run.capped || s->budget.out_of_budget || s->budget.out_of_memory) break;
        if (table_gc(&s->table, 0)) table_clear(&s->table);
    }
    s->run.restart = 0;
    s->run.cap = -1;
    return r;
}

#ifdef TABLEAUX_THREADS
/* The second thread: the complete search, from the start. */
static void *complete_thread(void *arg) {
    Search *c = arg;
    c->threads.result = complete(c);
    if (c->threads.result >= 0) atomic_store(&c->threads.share->stop, 1); /* won or proved lost: the pass may stop */
    return NULL;
}

/* The complete search reached the nodes it may have while the pass runs: wait for the pass to end and
 * take what it left, as the complete search after it would have. 1 when that leaves more to search. */
int await_pass(Search *c) {
    Share *sh = c->threads.share;
    struct timespec ms = {0, 1000000};
    while (!atomic_load(&sh->pass_done) && !atomic_load(&sh->stop)) nanosleep(&ms, NULL);
    if (!atomic_load(&sh->pass_done)) return 0;
    c->budget.max_nodes = sh->budget - atomic_load(&sh->pass_used);
    return c->budget.nodes < c->budget.max_nodes;
}

/* Start the complete search of s's position on a second thread, with five eighths of the memory and, for a node
 * budget, at first the least the pass leaves of it. The search, or NULL when it could not start. */
static Search *start_complete(Search *s, Share *sh, pthread_t *thread) {
    Search *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    long long max_nodes = s->budget.max_nodes;
    atomic_init(&sh->stop, 0);
    atomic_init(&sh->pass_done, 0);
    atomic_init(&sh->pass_used, 0);
    sh->budget = max_nodes;
    c->pos = s->pos;
    c->sched = s->sched; /* no best-first run has started yet */
    c->disk = s->disk;
    c->budget.memory = s->budget.memory / 8 * 5;
    s->budget.memory -= c->budget.memory;
    c->budget.max_nodes = max_nodes >= 0 ? max_nodes - max_nodes / 2 - 1 : -1;
    c->budget.deadline = s->budget.deadline;
    c->run.cap = -1;
    c->threads.share = s->threads.share = sh;
    c->threads.complete = 1;
    if (table_init(&c->table, c->budget.memory - c->budget.memory / 8) ||
        pthread_create(thread, NULL, complete_thread, c)) {
        s->budget.memory += c->budget.memory;
        s->threads.share = NULL;
        search_free(c);
        return NULL;
    }
    return c;
}

/* The first pass has ended, with a win when `found`: stop the complete search, or wait for it, and take its
 * positions, and its verdict or its line. The verdict. */
static int join_complete(Search *s, Search *c, Share *sh, pthread_t thread, int found) {
    int verdict = V_UNKNOWN;
    atomic_store(&sh->pass_used, s->budget.nodes);
    atomic_store(&sh->pass_done, 1);
    if (found) atomic_store(&sh->stop, 1);
    pthread_join(thread, NULL);
    s->budget.nodes += c->budget.nodes;
    s->budget.out_of_memory |= c->budget.out_of_memory;
    if (!found && c->threads.result == 1) { /* the complete search's line is the answer */
        found = 1;
        Stacks mine = s->line;
        s->line.undo = c->line.undo, s->line.nundo = c->line.nundo, s->line.undo_cap = c->line.undo_cap;
        c->line.undo = mine.undo, c->line.nundo = mine.nundo, c->line.undo_cap = mine.undo_cap;
    } else if (!found && c->threads.result == 0) {
        verdict = V_UNWINNABLE;
    }
    search_free(c);
    s->threads.share = NULL;
    return found ? V_WINNABLE : verdict;
}
#endif

/*
 * The whole solve from s->pos: the first pass (King Albert) on its share, then the complete search.
 * The caller sets s->pos, s->budget.memory (which bounds the tables and the stacks together), s->sched and
 * s->disk. Returns V_*, and when winnable the undo stack holds the winning line. Needs no Python: it runs
 * without the GIL. With threads == 2 (King Albert, first pass on) the complete search runs on a second thread
 * from the start, with five eighths of the memory: the verdict is the one a single thread gives for a
 * node budget (the complete search waits for the pass before it passes B/2, and then gets B minus what
 * the pass used), and with a time limit both searches get all of it.
 */
int search_solve(Search *s, long long max_nodes, double time_limit, int first_pass, int threads) {
    int verdict = V_UNKNOWN, found = 0;
    s->budget.max_nodes = max_nodes;
    double start = now();
    s->budget.deadline = time_limit > 0 ? start + time_limit : 0;
    first_pass = first_pass && s->pos.game != GAME_EW;
#ifdef TABLEAUX_THREADS
    Share sh;
    pthread_t thread;
    Search *c = threads > 1 && first_pass ? start_complete(s, &sh, &thread) : NULL;
#else
    (void)threads;
#endif
    /* the table's room while the stacks are small (share_memory) */
    if (table_init(&s->table, s->budget.memory - s->budget.memory / 8)) {
        s->budget.out_of_memory = 1;
#ifdef TABLEAUX_THREADS
        if (c) { /* no pass: the other thread stops at once */
            atomic_store(&sh.stop, 1);
            join_complete(s, c, &sh, thread, 0);
        }
#endif
        return V_UNKNOWN;
    }
    if (s->sched.stream_alone >= 0) {
        Pos from = s->pos;
        s->run.deadline = s->budget.deadline;
        found = streamlined_run(s, &from, s->sched.stream_alone, max_nodes >= 0 ? max_nodes : LLONG_MAX / 4, -1) == 1;
        return found ? V_WINNABLE : V_UNKNOWN;
    }
    if (first_pass) found = first_pass_run(s, start, time_limit);
#ifdef TABLEAUX_THREADS
    if (c) return join_complete(s, c, &sh, thread, found);
#endif
    if (!found && !s->budget.out_of_budget && !s->budget.out_of_memory) {
        s->run.cap = -1;
        s->run.deadline = 0;
        int r = complete(s);
        if (r == 1) found = 1;
        else if (r == 0) verdict = V_UNWINNABLE;
    }
    return found ? V_WINNABLE : verdict;
}

void search_free(Search *s) {
    bestfirst_free(s);
    table_free(&s->table);
    free(s->line.frames);
    free(s->line.moves);
    free(s->line.undo);
    free(s->line.keys);
    free(s);
}
