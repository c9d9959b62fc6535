/* Card tables and hashing: what every other part of the core looks cards up in. */
#include "cards.h"

uint8_t tx_rank[128], tx_suit[128], tx_red[128];
uint8_t tx_colour[128];
int tx_next_up[128], tx_next_down[128];
uint64_t tx_zob[MAXCARDS + 1][256];
uint64_t tx_salt[8];

uint64_t tx_splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}


void tx_init_tables(void) {
    for (int c = 0; c < 128; c++) {
        int f = c & 63;
        tx_rank[c] = f < 52 ? (uint8_t)(f % 13 + 1) : 0;
        tx_suit[c] = f < 52 ? (uint8_t)(f / 13) : 0;
        tx_red[c] = (tx_suit[c] == 1 || tx_suit[c] == 2);
        int low = tx_suit[c] < (tx_suit[c] ^ 3) ? tx_suit[c] : tx_suit[c] ^ 3;
        tx_colour[c] = f < 52 ? (uint8_t)((c & DOWN) | (low * 13 + tx_rank[c] - 1)) : (uint8_t)c;
        tx_next_up[c] = c < 52 ? (c / 13) * 13 + (c % 13 + 1) % 13 : -1;
        tx_next_down[c] = c < 52 ? (c / 13) * 13 + (c % 13 + 12) % 13 : -1;
    }
    uint64_t seed = 0x7461626C65617578ULL; /* fixed: hashes are the same in every run */
    for (int d = 0; d <= MAXCARDS; d++)
        for (int c = 0; c < 128; c++) tx_zob[d][c] = tx_splitmix(&seed);
    for (int i = 0; i < 8; i++) tx_salt[i] = tx_splitmix(&seed);
    for (int d = 0; d <= MAXCARDS; d++) /* the relaxed game's face-down kinds (relaxed.c), drawn after the rest */
        for (int c = 128; c < 256; c++) tx_zob[d][c] = tx_splitmix(&seed);
}


void tx_rehash(Pos *p) {
    p->hash = 0;
    for (int i = 0; i < p->npiles; i++) {
        uint64_t h = 0;
        for (int d = 0; d < p->n[i]; d++) h ^= tx_zob[d][p->c[i][d]];
        p->ph[i] = h;
        p->hash += pile_term(p, i);
    }
}


int tx_ordered(Scored *s, int n, Move *mv) { /* a stable insertion sort on (a, b): n is small */
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
