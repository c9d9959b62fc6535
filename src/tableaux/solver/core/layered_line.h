/* The layered search's winning line (layered_line.c). */
#ifndef TABLEAUX_LAYERED_LINE_H
#define TABLEAUX_LAYERED_LINE_H

#include "layered_class.h"

int tx_lay_line(Layered *L, const Move *made, int nmade);

#endif
