/* The first pass: runs of the depth-first search (search.c) and the best-first one (bestfirst.c) over restricted
 * spaces, in rounds of turns, on a share of the budget. Its runs only look for wins; what it cannot win, the
 * complete search (solve.c) decides. */
#include "pass.h"

#include "bestfirst.h"

/* The complete search's share while it takes turns with the pass on one thread (complete_turn): COMPLETE_NUM positions
 * for each of the pass's, and in classic King Albert COMPLETE_NUM_CLASSIC for each one past the pass's first
 * COMPLETE_LATER. A lost deal costs (share + 1) / share times the complete search's positions, and a win that only the
 * pass finds late, share + 1 times the pass's (until the complete search runs out of memory and leaves the pass alone).
 * On 300 fresh classic deals at 30 million positions (from 3,000,000,000 on, drawn with seed 12), with the streamlined
 * runs from the first round, half as many as the pass's took 37.2 million positions in all, as many 30.3 million, twice
 * as many 23.7 million, four times 21.0 million; on 300 fresh King Albert deals the three shares made 1.46, 1.46 and
 * 1.38 million. King Albert's hard deals are wins the pass finds late: at four times, King Albert 25173 (won by the
 * best-first run after 220 million positions in all, about 50 s) was open at 60 s, so it keeps twice. Classic's time
 * goes to its lost deals: on the 1,259 pooled classic deals of docs/notes/solver-measurements.md ("Against Solvitaire,
 * draw by draw"), at 10 s each, twice took 40.3 CPU s and 110.3 million positions (3622411542 open at 10 s), eight
 * times from the start 35.1 s and 95.3 million, eight times past the pass's first million 36.4 s and 101.4 million
 * (3622411542 lost in 8.9 s); no deal took more positions. The million keeps the pass's early rounds as they were,
 * where the survey's hard classic wins come: classic 161, won by a streamlined run of the pass's third round, takes 4.1
 * million positions with twice, 10.9 million with eight times from the start, 4.9 million as kept; 34602, 6.6, 17.8 and
 * 11.8 million. */
#define COMPLETE_NUM 2
#define COMPLETE_NUM_CLASSIC 8
#define COMPLETE_LATER 1000000LL

/* The first restart after which the classic first pass makes chained runs too. Sooner, they take the share
 * of the early runs, which decide most deals: on classic deals 1-1000 at 200,000 positions, chained runs
 * from the start decided 6 fewer. From the third run on they cost nothing there, and at 5 million positions
 * they leave 24 of deals 1-2000 unknown instead of 31 (from the first run: 25, fourth: 27, fifth: 28). */
#define CHAIN_FROM 2

/* The streamlined runs' turns, in rounds of the first pass, from the first round on: the kind that sends every
 * card home at once has turns STREAM_FIRST times as long as the other runs' first turn, the others STREAM_NEXT
 * times (STREAM_PLAIN_TURN for the plain order's), and each doubles from round to round. In King Albert, on
 * deals 1-2000 at a million positions they leave 1 deal unknown instead of 5, in 0.63 times the positions, and
 * none is decided later. In classic King Albert, from the fifth round on (the other runs' first 0.9 million
 * positions), they took 30.3 million positions on 300 fresh classic deals (above) instead of 23.7 from the
 * first (both with the complete search's turns), and on the deals where Solvitaire won first, whose wins its own
 * streamlined search finds at once, the first round's streamlined run wins too (classic 3572116488: 38,000
 * positions instead of 227,000). Turns a sixteenth or a quarter as long in classic took 37.2 and 33.2 million. */
#define STREAM_FIRST 64
#define STREAM_NEXT 16

/* A streamlined kind's last turn is its first of STREAM_MOST positions (the fourth round's for the first kind,
 * the sixth's for the second). Its runs are the same search each time, only longer, and none that wins does so
 * late: on 46 hard winnable King Albert deals each kind alone won within 10 million positions or not within 30
 * million, and the better kind within 7.1 million. Past that the other runs get the pass: King Albert deal
 * 25173, which no streamlined run wins, is won in 80 million positions instead of 92, and no other hard deal
 * of either game (benchmarks/solver.py's --hard-tail and --big-rows) changes its positions. */
#define STREAM_MOST 10240000LL

/* The plain order's turns (STREAM_PLAIN, classic King Albert's first two kinds, from the biggest pile and from the
 * smallest): twice the other runs' first turn each. Short, since they come first: a deal the planned kinds win at once
 * pays at most this much more for each. On the 1,259 pooled classic deals of docs/notes/solver-measurements.md
 * ("Against Solvitaire, draw by draw"), turns of 20,000 positions for the first kind in the first round left 4079795542
 * to a later round (1.3 million positions instead of 34,000) and took 109.0 million positions in all; 40,000 took 108.6
 * million, and the deals where Solvitaire was more than 1.5 times as fast went from 15 to 8 (20,000: 5, but 2.5 CPU s
 * more in all). For the second kind, on 1,200 fresh classic deals (docs/solver.md, "Streamlined runs"), 40,000 left
 * none such and 20,000 two, in as many positions; turns of 20,000 or 30,000 for both, 2 and 1, in 2% more. */
#define STREAM_PLAIN_TURN 2

/* The turn of a streamlined kind (STREAM_*) in the first pass's k-th round: the plain order's (either way round), the
 * kind that sends every card home at once, or another. */
static long long stream_turn(int k, int kinds) {
    int times = kinds & STREAM_PLAIN ? STREAM_PLAIN_TURN : kinds & STREAM_HOME ? STREAM_FIRST : STREAM_NEXT;
    return (20000LL << (k < 30 ? k : 30)) * times;
}

/* The pass must end: out of budget, time or memory, or its share of the nodes used. */
static int pass_over(const Search *s, long long share) {
    const Budget *b = &s->budget;
    return b->out_of_budget || b->out_of_memory || b->timeout || (share >= 0 && b->nodes >= share);
}

/* One streamlined depth-first run (RunSpec.stream: `kinds`) of at most `size` more positions, within `share`: 1
 * when it won and its line, replayed from `start`, wins; 0 when its restricted space has no win (which proves
 * nothing); -1 when stopped. With `resume` a run that reaches `size` pauses, and the next resumable one goes on
 * from there (RunSpec.resume). */
int tx_streamlined_run(Search *s, const PassPlan *plan, const Pos *start, int kinds, long long size,
                       long long share, int resume) {
    tx_budget_turn(&s->budget, size, share);
    int r = tx_search_run(s, (RunSpec){.restricted = !(kinds & STREAM_BACK), .oblige = plan->oblige, .stream = kinds,
                                       .resume = resume});
#ifdef TX_FAULT_STREAM_LINE
    /* Fault injection, for tests/solver/test_sanitizer.py only: the run's win loses its last move, as a bug in a
     * merged-suit key could make it, and the replay below must catch it. */
    if (r == 1 && s->line.nundo > 0) s->line.nundo--;
#endif
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
    const PassPlan *plan;
    Pos root;        /* where the pass started: a streamlined run's win is replayed from here */
    long long share; /* the pass's nodes (-1: none, it ends at its deadline) */
    int best, back;  /* the best-first runs still in play: without and with cards taken back */
    Best *best_run, *back_run; /* the runs themselves, between their turns */
    int found;       /* a win: the undo stack holds it */
    int exhausted;   /* the restricted space has no win */
    int greedy_done; /* the depth-first runs with the rule of thumb exhausted their space */
    int chain_done;  /* bit k: the chained runs of kind k exhausted their space */
    int stream_done; /* bit i: the streamlined runs of kind streams[i] exhausted their space */
    Complete *complete; /* the complete search, taking turns with the pass on this thread (else NULL) */
    long long budget;   /* the solve's node budget, the pass's and the complete search's together (-1: none) */
    int lost;           /* the complete search searched its whole space: the deal is lost */
    int asked;          /* the deal's own relaxed game was asked (ask_the_deal) */
    long long lead;     /* the positions of King Albert's lead, whose run the long turn goes on with */
} Pass;

/* What a turn leaves the round: go on to its next turn, go to the next round, or end the pass (a turn that wins
 * ends it). */
enum { TURN_ON, NEXT_ROUND, PASS_ENDS };

/* Before the complete search works on the pass's thread: it may make what the pass leaves of the solve's node
 * budget. */
static void lend_to_complete(Pass *p) {
    p->complete->s->budget.max_nodes = p->budget >= 0 ? p->budget - p->s->budget.nodes : -1;
}

/* After it: the pass may make what the complete search left, and stops where it ran out of budget or time. */
static void back_from_complete(Pass *p) {
    Budget *b = &p->s->budget, *cb = &p->complete->s->budget;
    if (p->budget >= 0) b->max_nodes = p->budget - cb->nodes;
    b->out_of_budget |= cb->out_of_budget;
    b->timeout |= cb->timeout;
}

/* The complete search's turn, when it takes turns with the pass on this thread: it catches up with its share of
 * the positions (COMPLETE_NUM for each one the pass has made, in classic COMPLETE_NUM_CLASSIC past its first
 * COMPLETE_LATER), within what is left of the solve's node budget and the pass's time. Its win becomes the pass's
 * (its line moves to the pass's undo stack), and its exhausted space ends the pass with the deal lost. A lost
 * deal, which only the complete search can decide, so costs (share + 1) / share times the complete search's
 * positions, not the pass's whole share first. `most` (>= 0) cuts the turn short; the next one catches up. */
static int complete_turn_upto(Pass *p, long long most) {
    Complete *c = p->complete;
    Search *s = p->s;
    if (!c || p->found) return TURN_ON;
    Budget *cb = &c->s->budget;
    long long made = s->budget.nodes, early = made < COMPLETE_LATER ? made : COMPLETE_LATER;
    int later = s->pos.game == GAME_KA_CLASSIC ? COMPLETE_NUM_CLASSIC : COMPLETE_NUM;
    long long want = early * COMPLETE_NUM + (made - early) * later - cb->nodes;
    if (most >= 0 && want > most) want = most;
    if (want <= 0) return TURN_ON;
    lend_to_complete(p);
    cb->turn_deadline = s->budget.turn_deadline;
    int r = tx_complete_turn(c, want);
    cb->turn_deadline = 0;
    back_from_complete(p);
    if (r == 1) { /* its line is the answer */
        tx_search_take_line(s, c->s);
        p->found = 1;
    }
    if (r == 0) p->lost = 1;
    if (cb->out_of_memory) p->complete = NULL; /* it cannot go on: the pass can still win */
    return r >= 0 || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

static int complete_turn(Pass *p) {
    return complete_turn_upto(p, -1);
}

/* King Albert: once the kind that sends every card home has exhausted its space, the complete search's relaxed
 * verdicts are asked of the deal itself, at once, whatever their verdicts_from says: a lost answer proves the deal
 * lost (verdicts.c), and a live one is kept for the complete search's own queries. It is a sign, no proof: on the
 * 600 fresh King Albert deals of seeds 2029 and 2030 (benchmarks/solver.py --fresh), that kind exhausted its space
 * on all 96 lost deals and on 4 of the 504 winnable ones, and the deal's relaxed game was lost for 93 of the 96.
 * Asked then, a lost deal is spared the other kind's turn and the complete search's positions before its first
 * query: 3.94 million positions in all instead of 4.19, and 4% fewer instructions (callgrind). Asked of every deal
 * at its start, the winnable ones paid more for their live relaxed games than the lost ones saved.
 * Before it, the complete search has a turn of at most ASK_AFTER positions: a deal whose whole space is that small
 * is decided there for less than its relaxed game costs (3576481786: lost in 782 positions instead of 92,516, its
 * relaxed game live after 89,008, where Solvitaire takes 7 ms; on the 900 fresh King Albert deals of seeds 2029,
 * 2030 and 20261210, 4.70 million positions in all instead of 4.74, 131 deals at most 1,000 more; a turn of 5,000,
 * 4.79 million; the complete search's whole turn first, as after the other runs, 4.93). */
#define ASK_AFTER 1000

static int ask_the_deal(Pass *p) {
    Complete *c = p->complete;
    Search *s = p->s;
    if (!c || p->asked || p->found || s->pos.game != GAME_KA) return TURN_ON;
    p->asked = 1;
    if (complete_turn_upto(p, ASK_AFTER) == PASS_ENDS) return PASS_ENDS;
    lend_to_complete(p);
    p->lost = tx_complete_lost(c, &p->root);
    back_from_complete(p);
    return p->lost || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

/* The probe: in the first round, just before the long turn of the kind that sends every card home, each kind that
 * takes cards back has a short turn. Some deals that kind wins at once, where the kind before it takes a long turn
 * to win or to exhaust its space. Its later turns are the same search, made longer, so a deal pays at most the
 * probe more.
 * Classic King Albert: STREAM_PROBE positions (classic 4029445222: won in 725 positions by a run that takes cards
 * back, and by the first pass in 40,725 instead of 213,860, where Solvitaire decides it in 0.018 s). Measured as the
 * first round's streamlined positions, each kind alone on each deal of the 300 fresh classic deals of seed 2029
 * (benchmarks/solver.py --fresh): 7.71 million in all instead of 7.81, none more than 1.5 times as many (a probe of
 * 8,000: 3 such deals).
 * King Albert: first STREAM_LEAD positions of the kind that sends cards home, then a probe of STREAM_PROBE_KA
 * (King Albert 3703682070: won in 10,286 positions instead of 1,280,286, where Solvitaire takes 0.12 s; 4268099697
 * in 35,724 instead of 539,097). The lead keeps every deal that kind wins within it as it was, the many quick ones
 * (a probe before it, of 1,000, moved a third of the catalogue's deals to another grade, whose measure is
 * positions), and the children that the catalogue's grades solve within 20,000 positions, whose pass gets half of
 * them. The lead's run pauses at its end while the probe runs on a search of its own (probe_aside), and the long
 * turn goes on with it, so a deal past the lead pays the probe's 6,000 positions more and no others (when the long
 * turn made the lead's positions again, 16,000: on the 600 deals below, 3.60 million positions in all instead of
 * 3.94, and 6% fewer instructions). On the 600 fresh King Albert deals of seeds 2029 and 2030, the lead and probe
 * took 0.89 CPU s instead of 1.08, and on the 1,000 of seed 2028 1.49 instead of 1.51; leads of 5,000 and 20,000,
 * and probes of 1,000 and 2,000, did no better, and a turn of the complete search after the lead and the probe made
 * it 1.13 s (it catches up early, on deals the pass wins soon after). */
#define STREAM_PROBE 1000
#define STREAM_LEAD 10000
#define STREAM_PROBE_KA 6000

static int probe_turns(Pass *p, Search *on, long long size) {
    Search *s = p->s;
    for (int i = 0; i < p->plan->nstreams && !p->found; i++) {
        if (!(p->plan->streams[i] & STREAM_BACK) || p->stream_done >> i & 1) continue;
        int r = tx_streamlined_run(on, p->plan, &p->root, p->plan->streams[i], size, p->share, 0);
        if (on != s) { /* its positions are the pass's */
            s->budget.nodes = on->budget.nodes;
            s->budget.out_of_budget |= on->budget.out_of_budget;
            s->budget.timeout |= on->budget.timeout;
        }
        if (r == 1) p->found = 1;
        if (r == 0) p->stream_done |= 1 << i;
        if (pass_over(s, p->share)) break;
    }
    return p->found || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

/* King Albert's probe, while the lead's run waits on the pass's search, paused: on a search of its own, with a
 * sixteenth of the pass's memory lent to it. A win there is the pass's; a pass that ends there drops the lead's
 * run (its position back to the deal's). */
static int probe_aside(Pass *p, long long size) {
    Search *s = p->s, *q = calloc(1, sizeof *q);
    size_t room = s->budget.memory / 16;
    if (q) {
        q->pos = p->root;
        q->budget = s->budget;
        q->budget.memory = room;
        q->budget.lent = q->budget.held = 0;
        q->budget.out_of_memory = 0;
        if (tx_table_init(&q->table, room - room / 8)) {
            free(q);
            q = NULL;
        }
    }
    if (!q) { /* no room beside it: the lead's run is made again in the long turn */
        tx_search_abandon(s);
        return probe_turns(p, s, size);
    }
    s->budget.lent += room;
    tx_search_share_memory(s);
    int turn = probe_turns(p, q, size);
    s->budget.lent -= room;
    tx_search_share_memory(s);
    if (turn == PASS_ENDS) tx_search_abandon(s);
    if (p->found) tx_search_take_line(s, q);
    tx_search_free(q);
    return turn;
}

/* King Albert's lead of kind i (the one that sends every card home), then the probe, or classic's probe alone. The
 * lead's run pauses at its end, and the long turn goes on with it (stream_turns), so its positions are made once.
 * A lead that exhausts its space leaves out the kind's long turn, and the complete search has the turn it would
 * have had after it. */
static int lead_and_probe(Pass *p, int i) {
    Search *s = p->s;
    if (s->pos.game == GAME_KA) {
        long long before = s->budget.nodes;
        int r = tx_streamlined_run(s, p->plan, &p->root, p->plan->streams[i], STREAM_LEAD, p->share, 1);
        p->lead = s->budget.nodes - before;
        if (r == 1) p->found = 1;
        if (p->found || pass_over(s, p->share)) {
            if (s->line.paused) tx_search_abandon(s);
            return PASS_ENDS;
        }
        if (r == 0) {
            p->stream_done |= 1 << i;
            return ask_the_deal(p) == PASS_ENDS ? PASS_ENDS : complete_turn(p);
        }
        return probe_aside(p, STREAM_PROBE_KA);
    }
    return probe_turns(p, s, STREAM_PROBE);
}

/* The kind that sends every card home in the planned order: the one with King Albert's lead, the probe before its
 * long turn, and the deal's relaxed game asked once its space is exhausted. */
static int planned_home(int kinds) {
    return (kinds & (STREAM_HOME | STREAM_PLAIN)) == STREAM_HOME;
}

/* Round `restart`'s streamlined runs, each kind in turn that has not exhausted its space or reached STREAM_MOST. In
 * King Albert the complete search has its turn after each run, not only after the round: a lost deal's first round is
 * mostly the first kind exhausting its space and the second kind's long turn, and the complete search with its relaxed
 * verdicts proves most lost deals in its first turn (3390447547: lost after 531,000 positions instead of 851,000; on
 * the 300 fresh King Albert deals of seed 2029, 0.81 CPU s instead of 0.85, and on the 1,100 pooled ones of
 * docs/notes/solver-measurements.md 1.50 s instead of 1.64). Classic keeps its turn after the round: there the later
 * kinds win the deals Solvitaire wins at once, and with a turn before them, on the 1,259 pooled classic deals, 19 were
 * more than 1.5 times as slow as Solvitaire's instead of 5. */
static int stream_turns(Pass *p, int restart) {
    Search *s = p->s;
    for (int i = 0; i < p->plan->nstreams && !p->found; i++) {
        if (restart == 0 && planned_home(p->plan->streams[i]) && lead_and_probe(p, i) == PASS_ENDS) return PASS_ENDS;
        long long turn = stream_turn(restart, p->plan->streams[i]);
        if (p->stream_done >> i & 1 || turn > STREAM_MOST) continue;
        int resumed = s->line.paused && restart == 0 && planned_home(p->plan->streams[i]); /* the lead's run */
        int r = tx_streamlined_run(s, p->plan, &p->root, p->plan->streams[i], resumed ? turn - p->lead : turn,
                                   p->share, resumed);
        if (s->line.paused) tx_search_abandon(s); /* only the lead's run is resumed */
        if (r == 1) p->found = 1;
        if (r == 0) p->stream_done |= 1 << i;
        if (pass_over(s, p->share)) break;
        if (r == 0 && planned_home(p->plan->streams[i]) && ask_the_deal(p) == PASS_ENDS) return PASS_ENDS;
        if (s->pos.game == GAME_KA && complete_turn(p) == PASS_ENDS) return PASS_ENDS;
    }
    return p->found || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

/* The round's depth-first run over the restricted space, in a shaken move order. */
static int depth_first_turn(Pass *p, int restart, long long size) {
    Search *s = p->s;
    tx_budget_turn(&s->budget, size, p->share);
    /* Every other run leaves out the rule of thumb for sending cards home: some wins keep a card
     * on the tableau that the rule would have sent home. */
    int greedy = restart % 2 == 0 && !p->greedy_done;
    int r = tx_search_run(s, (RunSpec){.restricted = 1, .restart = restart, .greedy = greedy, .oblige = p->plan->oblige});
    if (r == 1) p->found = 1;
    /* exhausted: no order finds a win there; out of budget, time or share: stop */
    p->exhausted = r == 0 && !greedy;
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

/* Classic King Albert: then a chained run (search.c's obliges), in the round's move order, of one of three kinds
 * in turn: without cards taken back, with and without the rule of thumb, and with cards taken back. A kind whose
 * space is exhausted has no win to give and is left out from then on. */
static int chained_turn(Pass *p, int restart, long long size) {
    Search *s = p->s;
    int j = restart - CHAIN_FROM, kind = j % 4 < 3 ? j % 4 : 2; /* 0, 1: no card back, greedy = kind; 2: back */
    if (j < 0 || !p->plan->chain_runs || s->pos.game != GAME_KA_CLASSIC || p->chain_done >> kind & 1) return TURN_ON;
    tx_budget_turn(&s->budget, size, p->share);
    int r = tx_search_run(s, (RunSpec){.restricted = kind < 2, .restart = restart, .greedy = kind == 1,
                                       .oblige = p->plan->oblige, .chained = 1});
    if (r == 1) p->found = 1;
    if (r == 0) p->chain_done |= 1 << kind;
    return p->found || pass_over(s, p->share) ? PASS_ENDS : TURN_ON;
}

/* The best-first runs' turns: as long as the depth-first run's, and a quarter of that for the one that takes
 * cards back. */
static int best_first_turns(Pass *p, long long size) {
    Search *s = p->s;
    if (!p->best) return NEXT_ROUND;
    tx_budget_turn(&s->budget, size, p->share);
    int r = tx_bestfirst_run(s, p->best_run);
    if (r == 1) p->found = 1;
    p->exhausted = r == 0;
    /* exhausted: no win without worrying back */
    if (p->found || p->exhausted || pass_over(s, p->share)) return PASS_ENDS;
    if (!p->back) return NEXT_ROUND;
    tx_budget_turn(&s->budget, size / 4, p->share);
    r = tx_bestfirst_run(s, p->back_run);
    if (r == 1) p->found = 1;
    if (r == 0) p->back = 0;
    return p->found || pass_over(s, p->share) ? PASS_ENDS : NEXT_ROUND;
}

/* The pass's last turn, when its rounds found no win and the restricted space has none: the best-first run that
 * may take cards back, since a win must take one back. (The streamlined runs that take cards back had their turn
 * in the round: the same turn again would make the same positions.) */
static void last_turns(Pass *p) {
    Search *s = p->s;
    if (p->found || !p->exhausted) return;
    /* The second best-first run gets a last turn, half as long as the pass so far (deal 161's restricted
     * space is exhausted after 244,000 positions, and this turn wins it). With the quarter turns above, it
     * cost the lost ones of classic deals 1-2000 at 5 million positions a fifth more positions in all. */
    if (p->back) {
        tx_budget_turn(&s->budget, s->budget.nodes / 2, p->share); /* the pass is the first thing a solve does */
        p->found = tx_bestfirst_run(s, p->back_run) == 1;
    }
}

/* The first pass (King Albert) on its share, from a solve that started at `start` with `time_limit` seconds (0:
 * none), `beside` a complete search on another thread or not, and taking turns with `complete` on this thread
 * (NULL: none): 1 when it found a win (the undo stack holds it), 0 when the complete search proved the deal lost,
 * -1 when neither. */
int tx_first_pass(Search *s, const PassPlan *plan, Complete *complete, double start, double time_limit,
                  int beside) {
    /* The first pass gets half of what is given: half the nodes and half the time. With a node budget B
     * it stops at B/2, so a bigger budget gives it more, never less, and the complete search after it
     * gets B minus what the pass used, which also only grows. Within its share it runs again and again
     * with a shaken move order and twice the nodes each time: a depth-first search that took a wrong
     * turn early can spend millions of positions below it, and a fresh start is the cure. The runs'
     * sizes do not depend on the budget (only the last is cut short), so the first k runs are the same
     * whatever the budget. With no node budget the share is 64 million. Beside a complete search of its
     * own (solve.c's two threads) it gets all of the time instead of half. On one thread the complete search
     * takes turns with it (complete_turn); its positions count against the node budget, not against the pass's
     * share, so with a node budget the two use it all before the pass reaches B/2, and with a time limit they
     * take turns until its end too (classic 3829566880, won in 5.9 s, was open at 10 s when they stopped at
     * half of it). */
    long long max_nodes = s->budget.max_nodes;
    Pass p = {.s = s, .plan = plan, .complete = complete, .budget = max_nodes};
    p.share = max_nodes >= 0 ? max_nodes / 2 : (time_limit > 0 ? -1 : 64000000LL);
    s->budget.turn_deadline = time_limit > 0 ? start + (beside || complete ? time_limit : time_limit / 2) : 0;
    /* In classic King Albert a chained run follows each depth-first run, as long: a streamliner that
     * wins some deals at once (without the streamlined runs, the solve wins deal 974 in 694,000 positions, and
     * in 5.3M without chained runs) and others not at all.
     * A best-first run takes turns with the depth-first runs, each turn as long as the run before it:
     * some deals it wins at once, others only a depth-first run wins. It holds three eighths of the
     * memory, which the table leaves free until the complete search. In classic King Albert a second
     * best-first run, which may take cards back off the foundations, takes half of that memory and the
     * next turn, a quarter as long (as long, it took the early runs' share: classic deals 1-1000 at
     * 200,000 positions left 146 unknown instead of 126; a quarter, 128). Many classic wins need a card
     * back, and no restricted run can find them (deal 161: won in 249,000 positions, where the complete
     * search needs 153 million). */
    p.best = plan->best_first;
    p.back = p.best && s->pos.game == GAME_KA_CLASSIC;
    if (p.best) { /* three eighths of the solve's memory, the complete search's on this thread included */
        s->budget.lent = (s->budget.memory + (complete ? complete->s->budget.memory : 0)) / 8 * 3;
        tx_search_share_memory(s);
        size_t half = p.back ? s->budget.lent / 2 : 0;
        p.best = (p.best_run = tx_bestfirst_start(s, s->budget.lent - half, 0)) != NULL;
        if (p.back) p.back = (p.back_run = tx_bestfirst_start(s, half, 1)) != NULL;
    }
    p.root = s->pos;
    int restart = 0;
    for (;; restart++) {
        long long size = 20000LL << (restart < 30 ? restart : 30);
        if (stream_turns(&p, restart) == PASS_ENDS || complete_turn(&p) == PASS_ENDS) break;
        int turn = depth_first_turn(&p, restart, size);
        if (turn == PASS_ENDS || complete_turn(&p) == PASS_ENDS) break;
        if (turn == NEXT_ROUND) continue;
        if (chained_turn(&p, restart, size) == PASS_ENDS || complete_turn(&p) == PASS_ENDS ||
            best_first_turns(&p, size) == PASS_ENDS || complete_turn(&p) == PASS_ENDS)
            break;
    }
    if (!p.lost) last_turns(&p);
    tx_bestfirst_free(p.best_run);
    tx_bestfirst_free(p.back_run);
    s->budget.lent = 0;
    tx_search_share_memory(s);
    s->budget.turn_deadline = 0;
    return p.found ? 1 : p.lost ? 0 : -1;
}

