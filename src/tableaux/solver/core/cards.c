/* Card tables and hashing: what every other part of the core looks cards up in. */
#include "core.h"

const int EW_TABLEAU[8] = {6, 7, 8, 9, 11, 12, 13, 14};

uint8_t RANK[128], SUIT[128], RED[128];
/* A card with the two suits of its colour as one (clubs and spades, diamonds and hearts): ka_hash_suits. */
uint8_t COLOUR[128];
int NEXT_UP[128], NEXT_DOWN[128];
uint64_t ZOB[MAXCARDS + 1][128];
uint64_t SALT[8];

uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}


void init_tables(void) {
    for (int c = 0; c < 128; c++) {
        int f = c & 63;
        RANK[c] = f < 52 ? (uint8_t)(f % 13 + 1) : 0;
        SUIT[c] = f < 52 ? (uint8_t)(f / 13) : 0;
        RED[c] = (SUIT[c] == 1 || SUIT[c] == 2);
        int low = SUIT[c] < (SUIT[c] ^ 3) ? SUIT[c] : SUIT[c] ^ 3;
        COLOUR[c] = f < 52 ? (uint8_t)((c & DOWN) | (low * 13 + RANK[c] - 1)) : (uint8_t)c;
        NEXT_UP[c] = c < 52 ? (c / 13) * 13 + (c % 13 + 1) % 13 : -1;
        NEXT_DOWN[c] = c < 52 ? (c / 13) * 13 + (c % 13 + 12) % 13 : -1;
    }
    uint64_t seed = 0x7461626C65617578ULL; /* fixed: hashes are the same in every run */
    for (int d = 0; d <= MAXCARDS; d++)
        for (int c = 0; c < 128; c++) ZOB[d][c] = splitmix(&seed);
    for (int i = 0; i < 8; i++) SALT[i] = splitmix(&seed);
}


void rehash(Pos *p) {
    p->hash = 0;
    for (int i = 0; i < p->npiles; i++) {
        uint64_t h = 0;
        for (int d = 0; d < p->n[i]; d++) h ^= ZOB[d][p->c[i][d]];
        p->ph[i] = h;
        p->hash += pile_term(p, i);
    }
}


int ordered(Scored *s, int n, Move *mv) { /* a stable insertion sort on (a, b): n is small */
    for (int i = 1; i < n; i++) {
        Scored x = s[i];
        int j = i - 1;
        while (j >= 0 && (s[j].a > x.a || (s[j].a == x.a && s[j].b > x.b))) {
            s[j + 1] = s[j];
            j--;
        }
        s[j + 1] = x;
    }
    for (int j = 0; j < n; j++) mv[j] = s[j].m;
    return n;
}
