/* King Albert relaxed above a rank (relaxed.c): its positions and moves, which the relaxed verdicts (verdicts.c)
 * search too, and the search to its end, whose loss proves the deal lost. */
#ifndef TABLEAUX_RELAXED_H
#define TABLEAUX_RELAXED_H

#include "budget.h"
#include "cards.h"

#define RDOWN 0x80 /* a face-down card's kind has this bit more */

typedef struct {
    /* a pile has room past its 52 cards because tx_relaxed_key copies it 16 bytes at a time */
    uint8_t pile[9][MAXCARDS + 12], len[9], res[7], height[4];
    uint8_t cells[8]; /* the cells' kinds, sorted, the empty ones (0) first: kept by take() and put() */
    int kept;       /* the rank kept apart */
    int builds;     /* AisleRiot's rules: builds move, and face-down cards turn up */
    uint64_t ph[9]; /* each pile's Zobrist hash (tx_zob by depth and kind), kept by take() and put() */
    uint64_t term[16]; /* each pile's and cell's term of tx_relaxed_hash (0 for an empty cell) */
    uint64_t sum;      /* their sum: both kept by the moves as they change them */
} RPos;

typedef struct {
    uint8_t src, dst; /* src: pile 0-8, cell 9-15, foundation 16-19; dst: pile 0-8, foundation 16-19 */
    uint8_t n;        /* the cards moved: more than one only from pile to pile (a build) */
    uint8_t flip;     /* set when made: the move turned the card below it up */
} RMove;

/* Whether move m takes back `last`, the move that made the position m is made from: its child is then that
 * position again (a move that turned a card up changed more than it takes back). */
static inline int tx_relaxed_undoes(const RMove *m, const RMove *last) {
    return m->src == last->dst && m->dst == last->src && m->n == last->n && !last->flip;
}

#define RELAXED_KEY_SLACK 16 /* what tx_relaxed_key's copies of 16 bytes may write past the key's end */
#define RELAXED_MOVES_MAX 320 /* more than a position has: 5 for each of at most 56 cards that can move */

void tx_relaxed_from(const Pos *start, int kept, RPos *p);
int tx_relaxed_moves(const RPos *p, RMove *out);
void tx_relaxed_make(RPos *p, RMove *m);
void tx_relaxed_unmake(RPos *p, const RMove *m);
uint64_t tx_relaxed_hash(const RPos *p);
int tx_relaxed_key(const RPos *p, uint8_t *key);
static inline int tx_relaxed_won(const RPos *p) {
    return p->height[0] + p->height[1] + p->height[2] + p->height[3] == 52;
}

int tx_relaxed_search(const Pos *start, int kept, Budget *b);

#endif
