/* One game or the other: what the searches call for a position of any game (header only). */
#ifndef TABLEAUX_GAME_H
#define TABLEAUX_GAME_H

#include "eagle_wing.h"
#include "king_albert.h"

static inline int gen_moves(const Pos *p, Move *out) {
    return p->game == GAME_EW ? tx_ew_moves(p, out) : tx_ka_moves(p, out);
}

static inline void apply_move(Pos *p, Move m, Undo *u) {
    if (p->game == GAME_EW) tx_ew_apply(p, m, u);
    else tx_ka_apply(p, m, u);
}

static inline void undo_move(Pos *p, const Undo *u) {
    if (p->game == GAME_EW) tx_ew_undo(p, u);
    else tx_ka_undo(p, u);
}

static inline int make_key(const Pos *p, uint8_t *out) {
    return p->game == GAME_EW ? tx_ew_key(p, out) : tx_ka_key(p, out);
}

static inline int pos_rank(const Pos *p) { return p->game == GAME_EW ? p->redeals : 0; }

static inline int is_won(const Pos *p) {
    int f0 = p->game == GAME_EW ? EW_F0 : 0, s = 0;
    for (int f = f0; f < f0 + 4; f++) s += p->n[f];
    return s == 52;
}

/* 1 when the rules allow `m` in `p` (it is one of the moves they generate there), else 0. */
static inline int is_legal(const Pos *p, Move m) {
    Move buf[512];
    int k = gen_moves(p, buf);
    for (int i = 0; i < k; i++)
        if (buf[i].src == m.src && buf[i].cnt == m.cnt && buf[i].dst == m.dst) return 1;
    return 0;
}

/* 1 when the line, played from `start` move by move, makes only moves the rules generate there and ends in a
 * won game: a win from a search that proves nothing (a streamlined run) is believed only then. */
static inline int line_wins(const Pos *start, const Undo *line, int n) {
    Pos p = *start;
    for (int j = 0; j < n; j++) {
        Undo u;
        if (!is_legal(&p, line[j].m)) return 0;
        apply_move(&p, line[j].m, &u);
    }
    return is_won(&p);
}

#endif
