/* Eagle Wing in the core (eagle_wing.c): eagle_wing.py and solver/strategy/eagle_wing.py. */
#ifndef TABLEAUX_EAGLE_WING_H
#define TABLEAUX_EAGLE_WING_H

#include "cards.h"

extern const int tx_ew_tableau[8]; /* the tableau piles, in order */

int tx_ew_moves(const Pos *p, Move *out);
void tx_ew_apply(Pos *p, Move m, Undo *u);
void tx_ew_undo(Pos *p, const Undo *u);
int tx_ew_safe(const Pos *p, const Move *mv, int n);
int tx_ew_order(const Pos *p, Move *mv, int n);
int tx_ew_key(const Pos *p, uint8_t *out);

#endif
