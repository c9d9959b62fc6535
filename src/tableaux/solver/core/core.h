/*
 * The solver's C core, shared declarations. The files beside this one follow the Python modules:
 * cards.c (card tables and hashing), king_albert.c and eagle_wing.c (each game's moves, safe moves,
 * move order and keys, in exactly the engine's order; king_albert.h holds King Albert's rules that the
 * layered search shares), table.c (the transposition table), search.c
 * (one depth-first run and its budgets), solve.c (which runs are made: the first pass, the restarted
 * complete search, two threads), bestfirst.c (the first pass's best-first run), layered*.c (classic King
 * Albert's layered complete search, designed in layered.h); ../_core.c is the Python module around them.
 */
#ifndef TABLEAUX_CORE_H
#define TABLEAUX_CORE_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* search_solve may run the complete search on a second thread (POSIX threads, C11 atomics). */
#if !defined(_WIN32) && !defined(TABLEAUX_NO_THREADS)
#define TABLEAUX_THREADS 1
#include <pthread.h>
#include <stdatomic.h>
#endif

enum { GAME_KA = 0, GAME_KA_CLASSIC = 1, GAME_EW = 2 };
enum { V_WINNABLE = 0, V_UNWINNABLE = 1, V_UNKNOWN = 2 };

#define DOWN 64
#define MAXPILES 20
#define MAXCARDS 52

/* King Albert's piles. */
#define KA_NPILES 20
#define KA_T0 4
#define KA_T1 13 /* tableau is 4..12 */
#define KA_R0 13 /* reserve is 13..19 */

/* Eagle Wing's piles. */
#define EW_NPILES 15
#define EW_STOCK 0
#define EW_WASTE 1
#define EW_F0 2 /* foundations 2..5 */
#define EW_RESERVE 10
#define EW_LIMIT 3
#define EW_MAX_REDEALS 2
extern const int EW_TABLEAU[8];

typedef struct {
    uint8_t src, cnt, dst;
} Move;

typedef struct {
    int game;
    int npiles;
    uint8_t n[MAXPILES];
    uint8_t c[MAXPILES][MAXCARDS];
    int redeals;
    uint64_t ph[MAXPILES]; /* per-pile Zobrist hash */
    uint64_t hash;         /* sum over piles of mix(class salt ^ ph) */
} Pos;

/* What it takes to unmake a move. */
typedef struct {
    Move m;
    uint8_t flags;    /* UNDO_* */
    uint8_t orig[3];  /* Eagle Wing: the moved cards' bytes before they were turned up */
    uint8_t refill;   /* Eagle Wing: the reserve card's byte before the refill */
    uint8_t dealt;    /* Eagle Wing: the stock card's byte before it was dealt */
    uint64_t hash;
    uint64_t ph[3]; /* src, dst, Eagle Wing's reserve */
} Undo;

#define UNDO_FLIP 1
#define UNDO_REFILL 2


/* ---- cards.c: card tables, Zobrist words and hashing */
extern uint8_t RANK[128], SUIT[128], RED[128], COLOUR[128];
extern int NEXT_UP[128], NEXT_DOWN[128];
extern uint64_t ZOB[MAXCARDS + 1][128];
extern uint64_t SALT[8];

uint64_t splitmix(uint64_t *s);
void init_tables(void);
/* Which interchangeable kind a pile belongs to: piles of one kind share a salt. */
static inline int pile_class(int game, int i) {
    if (game == GAME_EW) {
        if (i == EW_STOCK) return 4;
        if (i == EW_WASTE) return 5;
        if (i >= EW_F0 && i < EW_F0 + 4) return 1;
        if (i == EW_RESERVE) return 3;
        return 2;
    }
    if (i < KA_T0) return 1;
    if (i < KA_R0) return 2;
    return 3;
}
void rehash(Pos *p);

/* Cards home per suit, from the four foundations from pile f0 on, each holding one suit. */
static inline void suit_heights(const Pos *p, int f0, int h[4]) {
    h[0] = h[1] = h[2] = h[3] = 0;
    for (int f = f0; f < f0 + 4; f++)
        if (p->n[f]) h[SUIT[p->c[f][0]]] = p->n[f];
}

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static inline uint64_t pile_term(const Pos *p, int i) {
    return mix(p->ph[i] ^ SALT[pile_class(p->game, i)]);
}

/* Card pushes and pops keep the pile hash; the position hash is settled per move. */
static inline void push_card(Pos *p, int i, uint8_t card) {
    p->ph[i] ^= ZOB[p->n[i]][card];
    p->c[i][p->n[i]++] = card;
}

static inline uint8_t pop_card(Pos *p, int i) {
    uint8_t card = p->c[i][--p->n[i]];
    p->ph[i] ^= ZOB[p->n[i]][card];
    return card;
}

static inline void set_card(Pos *p, int i, int d, uint8_t card) {
    p->ph[i] ^= ZOB[d][p->c[i][d]] ^ ZOB[d][card];
    p->c[i][d] = card;
}

static inline int top(const Pos *p, int i) { return p->c[i][p->n[i] - 1]; }

static inline void add(Move *out, int *n, int s, int k, int d) {
    out[*n].src = (uint8_t)s;
    out[*n].cnt = (uint8_t)k;
    out[*n].dst = (uint8_t)d;
    (*n)++;
}

typedef struct {
    int a, b;
    Move m;
} Scored;

/* Write the scored moves into mv, best (lowest a, then b) first, ties in generation order; their count. */
int ordered(Scored *s, int n, Move *mv);

/* ---- king_albert.c and eagle_wing.c */
int ka_moves(const Pos *p, Move *out);
void ka_apply(Pos *p, Move m, Undo *u);
void ka_undo(Pos *p, const Undo *u);
#define GREEDY_ALL 2 /* ka_safe's greedy: every card that can go home goes (a streamlined run) */
int ka_safe(const Pos *p, const Move *mv, int n, int greedy);
int ka_order(const Pos *p, Move *mv, int n, int restricted, int restart);
int ka_can_cover(const Pos *p, int c, int x, int restricted);
int ka_key(const Pos *p, uint8_t *out);
uint64_t ka_hash_suits(const Pos *p);
int ew_moves(const Pos *p, Move *out);
void ew_apply(Pos *p, Move m, Undo *u);
void ew_undo(Pos *p, const Undo *u);
int ew_safe(const Pos *p, const Move *mv, int n);
int ew_order(const Pos *p, Move *mv, int n);
int ew_key(const Pos *p, uint8_t *out);

/* ---- one game or the other */

static inline int gen_moves(const Pos *p, Move *out) {
    return p->game == GAME_EW ? ew_moves(p, out) : ka_moves(p, out);
}

static inline void apply_move(Pos *p, Move m, Undo *u) {
    if (p->game == GAME_EW) ew_apply(p, m, u);
    else ka_apply(p, m, u);
}

static inline void undo_move(Pos *p, const Undo *u) {
    if (p->game == GAME_EW) ew_undo(p, u);
    else ka_undo(p, u);
}

static inline int make_key(const Pos *p, uint8_t *out) { return p->game == GAME_EW ? ew_key(p, out) : ka_key(p, out); }

static inline int pos_rank(const Pos *p) { return p->game == GAME_EW ? p->redeals : 0; }

static inline int is_won(const Pos *p) {
    int f0 = p->game == GAME_EW ? EW_F0 : 0, s = 0;
    for (int f = f0; f < f0 + 4; f++) s += p->n[f];
    return s == 52;
}


/* ---- table.c: the transposition table */
#define SLOT_BITS ((1ULL << 58) - 1) /* the hash bits that choose a slot: room for 2^32 slots and more */
typedef struct {
    uint64_t hash; /* 0: empty slot */
    uint32_t off;
    uint8_t len, rank;
    uint8_t size; /* the bit length of the positions its search took once it was done; 0 until then */
} Slot;

typedef struct {
    Slot *slots;
    size_t mask, used, max_used;
    uint8_t *arena;
    size_t arena_cap, arena_used;
    uint8_t *spare; /* table_gc's copy of what it keeps, held from one collection to the next */
    size_t spare_cap;
    size_t cap;    /* bytes that slots and arena may take together, table_gc's room included */
    size_t clears; /* times the table was full and emptied */
    size_t gcs;    /* times it was full and kept only the positions whose search took longest */
} Table;

#define KEY_MAX 112 /* the longest key (66 bytes, 68 with an obligation) and room for ka_key's 16-byte copies */

int table_init(Table *t, size_t cap);
size_t table_bytes(const Table *t); /* what the slots and the keys take now */
void table_free(Table *t);
void table_clear(Table *t);
int table_full(Table *t);
int table_visit(Table *t, uint64_t hash, const uint8_t *key, int len, int rank);
int table_seen(const Table *t, uint64_t hash, const uint8_t *key, int len, int rank);
void table_done(Table *t, uint64_t hash, const uint8_t *key, int len, long long positions);
int table_gc(Table *t, int shrink);

/* ---- bestfirst.c's state: the nodes of the best-first run, kept between its turns */
typedef struct {
    Pos root;
    uint64_t *seen;   /* the hashes of the positions it has made (open addressing, 0: empty) */
    size_t mask, marked;
    uint8_t *recs;    /* the kept positions: the pile lengths, then the cards pile by pile */
    uint32_t *rec;    /* each node's kept position in recs, UINT32_MAX for one made again from its parent's */
    uint32_t *parent; /* the node it was made from (UINT32_MAX: the root) */
    uint8_t *settles; /* 1 when safe moves were made from it, once it has been expanded */
    Move *move;       /* the move that made it, after its parent's safe moves */
    int16_t *score;   /* its score (bestfirst.c's score) */
    uint64_t *heap;   /* open nodes: score << 32 | node, least first (ties: the older node) */
    size_t n, cap, nheap, limit; /* limit: the bytes it may hold, nodes and seen together */
    size_t nrecs, recs_cap;
    int full;  /* its memory ran out: it stops for good */
    int back;  /* cards may be taken back off the foundations (classic King Albert's second run) */
} Best;

/* ---- search.c: one depth-first run */
#ifdef TABLEAUX_THREADS
/* What the first pass and a complete search on a second thread share (search_solve). */
typedef struct Share {
    atomic_int stop;        /* one of them has the answer: the other stops */
    atomic_int pass_done;   /* the first pass has ended, having made pass_used positions */
    atomic_llong pass_used;
    long long budget;       /* the node budget of the whole solve (-1: none) */
} Share;
#endif

typedef struct {
    int mstart, mcount, midx; /* this frame's ordered moves in the move stack */
    int ubase;                /* undo stack height before the move that led here */
    int kstart, klen, rank;   /* this frame's key in the key stack (for refilling a cleared table); */
    long long start;          /* the node count when it was made: its search's size is the count after */
    uint64_t hash;            /* klen < 0 until the frame is expanded */
    int oblig;                /* classic King Albert: the pile a reserve card just went to, which the
                                 next move must put a card on (search.c's obliges); else -1 */
} Frame;

/* What a solve may spend and has spent: positions, time and memory (search.c's search_tick). */
typedef struct {
    long long nodes, max_nodes; /* positions made; the most it may make (-1: no limit) */
    double deadline;            /* when the time limit runs out (0: none) */
    size_t memory;              /* bytes the table and the stacks may take together */
    size_t lent;                /* of those, what the first pass's best-first runs hold meanwhile */
    int out_of_budget, out_of_memory;
} Budget;

/* The line the depth-first search is on: its frames, and the stacks of their moves, undo records and keys. */
typedef struct {
    Frame *frames;
    int nframes, frames_cap;
    Move *moves;
    int nmoves, moves_cap;
    Undo *undo; /* the moves made from the start position: a winning line, once won */
    int nundo, undo_cap;
    uint8_t *keys;
    int nkeys, keys_cap;
} Stacks;

/* The run being made (solve.c sets it for each one): where it must stop, and the order it takes. */
typedef struct {
    long long cap;   /* it stops past this many positions in all (-1: no cap): the first pass's turn, a restart */
    double deadline; /* and at this time (0: none): the first pass's share of the time limit */
    int capped, timeout; /* it stopped at its cap, or at its deadline (or the other thread decided) */
    int restart; /* 0 keeps the plain move order; a restart shakes it, more each time */
    int greedy;  /* the first pass's run sends cards home by the rule of thumb too */
    int chained; /* classic King Albert's first pass: a tableau card moved is used at once (search.c's obliges) */
    int stream;  /* a streamlined run (STREAM_*): restrictions that are no proof, so it only looks for wins */
} Run;

/* The streamliners (solve.c's streamlined runs; Run.stream): every card that can go home goes at once and
 * for good; keys that do not tell the two suits of a colour apart (ka_hash_suits). */
#define STREAM_HOME 1
#define STREAM_SUITS 2
#define STREAM_BACK 4 /* not a restriction: the run may take cards back off the foundations */

/* Which runs the solve makes, as the caller chose them (_core.c), and the best-first runs between their turns. */
typedef struct {
    int oblige;         /* classic King Albert: a reserve card put on the tableau is covered at once (obliges) */
    int best_first;     /* the first pass takes turns with a best-first run (bestfirst.c) */
    int chain_runs;     /* classic King Albert: the first pass makes chained runs too (first_pass_run) */
    long long restarts; /* the complete search restarts (solve.c's complete), first with this many positions; 0: not */
    int layered;        /* classic King Albert: the complete search is layered.c's, not a depth-first one */
    int stream_alone;   /* >= 0: the solve is one streamlined run of these STREAM_* kinds and nothing else */
    int streams[4], nstreams; /* the first pass's streamlined runs, in turn (solve.c) */
    Best *best;         /* the first pass's best-first run, between its turns */
    Best *best_back;    /* classic King Albert: a second one that takes cards back too */
} Schedule;

/* With two threads (search_solve), the complete search's side. */
typedef struct {
    struct Share *share; /* what the two threads share (else NULL) */
    int complete;        /* this is the second thread's complete search */
    int result;          /* the second thread's search: 1 won, 0 exhausted, -1 stopped */
} Threads;

/* The files the layered search may write for classes too big for its memory (layered_disk.c). */
typedef struct {
    size_t bytes;      /* how many bytes (0: no files) */
    long long spill_at; /* a class whose table passes this many positions goes on disk (-1: only when the memory is
                           full; 0: every class, which tests use) */
} DiskUse;

typedef struct {
    Pos pos;
    Budget budget;
    Table table;
    Stacks line;
    Run run;
    Schedule sched;
    Threads threads;
    DiskUse disk;
} Search;

/* The most items one of a search's stacks may hold (their indexes are ints). A line that needs more ends
 * the search as memory running out does: `unknown`. In 8 GiB, classic King Albert's complete search has
 * made lines so long that a stack passed 2^30 items. Tests build the core with a small limit. */
#ifndef STACK_MAX
#define STACK_MAX (INT_MAX / 2)
#endif

double now(void);
int search_tick(Search *s);
int search_play(Search *s, Move m);
int run(Search *s, int restricted, int keep);
void cap_pass(Search *s, long long size, long long share);
void share_memory(Search *s);

/* ---- solve.c: the first pass, the restarted complete search, two threads */
/* The first run of the restarted complete search, in positions; each run after it may make twice as many. */
#define RESTART_FROM 250000LL
int search_solve(Search *s, long long max_nodes, double time_limit, int first_pass, int threads);
int line_wins(const Pos *start, const Undo *line, int n);
void search_free(Search *s);
#ifdef TABLEAUX_THREADS
int await_pass(Search *c);
#endif

/* ---- layered.c: classic King Albert's layered search, a complete search in far less memory */
int layered_run(Search *s);
int layered_key(const Pos *start, const Pos *p, uint8_t out[16], uint64_t *mask);

/* ---- relaxed.c: classic King Albert relaxed above rank `kept`, searched to its end: 1 lost (the real deal
 * too), 0 won (says nothing), -1 unknown (out of positions, time or memory) */
int relaxed_search(const Pos *start, int kept, long long max_positions, double time_limit, size_t memory,
                   long long *positions, int *out_of_memory);

/* ---- bestfirst.c: the first pass's best-first run */
int bestfirst_start(Search *s, Best **slot, size_t limit, int back);
int bestfirst_run(Search *s, Best *b);
void bestfirst_free(Search *s);

#endif
