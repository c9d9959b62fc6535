/* One depth-first run (search.c): the line it is on, its table, and the memory they share. */
#ifndef TABLEAUX_SEARCH_H
#define TABLEAUX_SEARCH_H

#include "budget.h"
#include "game.h"
#include "table.h"

typedef struct {
    int mstart, mcount, midx; /* this frame's ordered moves in the move stack */
    int ubase;                /* undo stack height before the move that led here */
    int kstart, klen, rank;   /* this frame's key in the key stack (for refilling a cleared table); */
    long long start;          /* the node count when it was made: its search's size is the count after */
    uint64_t hash;            /* klen < 0 until the frame is expanded */
    int oblig;                /* classic King Albert: the pile a reserve card just went to, which the
                                 next move must put a card on (search.c's obliges); else -1 */
} Frame;

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
    int paused; /* a resumable run stopped at the end of its turn: its frames wait here for it to go on */
} Stacks;

/* A search's position, what it may spend, its table and its line: what every run from it works on (the
 * depth-first runs, the best-first ones and the layered search all put their winning line on its undo stack). */
typedef struct {
    Pos pos;
    Budget budget;
    Table table;
    Stacks line;
    SuitsMemo suits; /* a streamlined run's key terms (tx_ka_hash_suits) */
} Search;

/* The streamliners (pass.c's streamlined runs; RunSpec.stream): every card that can go home goes at once and
 * for good; keys that do not tell the two suits of a colour apart (tx_ka_hash_suits). */
#define STREAM_HOME 1
#define STREAM_SUITS 2
#define STREAM_BACK 4 /* not a restriction: the run may take cards back off the foundations */
#define STREAM_PLAIN 8 /* not a restriction: the plain move order (tx_ka_plain_order) instead of the planned one */
#define STREAM_SMALL 16 /* not a restriction: with STREAM_PLAIN, from the smallest pile instead of the biggest */
#define STREAM_ALL (STREAM_HOME | STREAM_SUITS | STREAM_BACK | STREAM_PLAIN | STREAM_SMALL)

/* How one depth-first run searches: tx_search_run's parameters. */
typedef struct {
    int restricted; /* the first pass's space: no card is taken back off the foundations */
    int restart;    /* 0 keeps the plain move order; a restart shakes it, more each time */
    int greedy;     /* with `restricted`: cards go home by the first pass's rule of thumb too */
    int oblige;     /* classic King Albert: a reserve card put on the tableau is covered at once (obliges) */
    int chained;    /* classic King Albert's first pass: a tableau card moved is used at once (obliges) */
    int stream;     /* a streamlined run (STREAM_*): restrictions that are no proof, so it only looks for wins */
    int resume;     /* resumable: a run that reaches the end of its turn (its cap or time) pauses there, its line
                       kept, and a paused run goes on from where it stopped, exactly as if it had not (see
                       tx_search_run) */
    /* The complete search's relaxed verdicts (complete.c): 1 when the position just made is proved lost, so
       that it is dropped (its key stays in the table). NULL: none. */
    int (*prune)(void *ctx, const Pos *p, Budget *b);
    void *prune_ctx;
} RunSpec;

/* The most items one of a search's stacks may hold (their indexes are ints). A line that needs more ends
 * the search as memory running out does: `unknown`. In 8 GiB, classic King Albert's complete search has
 * made lines so long that a stack passed 2^30 items. Tests build the core with a small limit. */
#ifndef STACK_MAX
#define STACK_MAX (INT_MAX / 2)
#endif

int tx_search_run(Search *s, RunSpec how);
int tx_search_play(Search *s, Move m);
void tx_search_abandon(Search *s);
void tx_search_share_memory(Search *s);
void tx_search_take_line(Search *to, Search *from);
void tx_search_free(Search *s);

#endif
