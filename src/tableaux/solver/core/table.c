/* The transposition table: exact keys, bounded memory. */
#include "core.h"


/* The table starts small and doubles up to its cap, so a quick search costs little memory and no
 * time spent clearing memory it never used. */
int table_init(Table *t, size_t cap) {
    memset(t, 0, sizeof *t);
    t->cap = cap;
    size_t nslots = 4096;
    t->slots = calloc(nslots, sizeof(Slot));
    t->arena_cap = 1 << 16;
    t->arena = malloc(t->arena_cap);
    if (!t->slots || !t->arena || cap < nslots * sizeof(Slot) + t->arena_cap) {
        free(t->slots);
        free(t->arena);
        t->slots = NULL;
        t->arena = NULL;
        return -1;
    }
    t->mask = nslots - 1;
    t->max_used = nslots / 10 * 7;
    return 0;
}

size_t table_bytes(const Table *t) { return (t->mask + 1) * sizeof(Slot) + t->arena_cap; }

void table_free(Table *t) {
    free(t->slots);
    free(t->arena);
    t->slots = NULL;
    t->arena = NULL;
}

void table_clear(Table *t) {
    memset(t->slots, 0, (t->mask + 1) * sizeof(Slot));
    t->used = 0;
    t->arena_used = 0;
}

static inline size_t slot_index(const Table *t, uint64_t hash) { return (size_t)(hash ^ (hash >> 29)) & t->mask; }

/* Double the slots (0), or -1 when that would pass the cap or memory runs out. */
static int table_grow_slots(Table *t) {
    size_t n = (t->mask + 1) * 2;
    if (n * sizeof(Slot) + t->arena_cap > t->cap) return -1;
    Slot *ns = calloc(n, sizeof(Slot));
    if (!ns) return -1;
    Slot *old = t->slots;
    size_t oldn = t->mask + 1;
    t->slots = ns;
    t->mask = n - 1;
    t->max_used = n / 10 * 7;
    for (size_t i = 0; i < oldn; i++) {
        if (!old[i].hash) continue;
        size_t j = slot_index(t, old[i].hash);
        while (ns[j].hash) j = (j + 1) & t->mask;
        ns[j] = old[i];
    }
    free(old);
    return 0;
}

static int table_grow_arena(Table *t) {
    size_t n = t->arena_cap * 2;
    if (n > 0xFFFFFF00u) return -1; /* offsets are 32-bit */
    if ((t->mask + 1) * sizeof(Slot) + n > t->cap) return -1;
    uint8_t *na = realloc(t->arena, n);
    if (!na) return -1;
    t->arena = na;
    t->arena_cap = n;
    return 0;
}

/* Room for one more key: grow if the cap allows, else report full (1). */
int table_full(Table *t) {
    if (t->used >= t->max_used && table_grow_slots(t)) return 1;
    if (t->arena_used + KEY_MAX > t->arena_cap && table_grow_arena(t)) return 1;
    return 0;
}

/* 1: a position with this key and a rank at least as good was searched (skip it);
 * 0: new, or better than before (now recorded). The caller makes room first. */
int table_visit(Table *t, uint64_t hash, const uint8_t *key, int len, int rank) {
    if (!hash) hash = 1;
    size_t i = slot_index(t, hash);
    for (;;) {
        Slot *s = &t->slots[i];
        if (!s->hash) {
            s->hash = hash;
            s->off = (uint32_t)t->arena_used;
            s->len = (uint8_t)len;
            s->rank = (uint8_t)rank;
            memcpy(t->arena + t->arena_used, key, (size_t)len);
            t->arena_used += (size_t)len;
            t->used++;
            return 0;
        }
        if (s->hash == hash && s->len == len && !memcmp(t->arena + s->off, key, (size_t)len)) {
            if (s->rank <= rank) return 1;
            s->rank = (uint8_t)rank;
            return 0;
        }
        i = (i + 1) & t->mask;
    }
}


/* 1 when table_visit would skip this key, without recording it. */
int table_seen(const Table *t, uint64_t hash, const uint8_t *key, int len, int rank) {
    if (!hash) hash = 1;
    for (size_t i = slot_index(t, hash);; i = (i + 1) & t->mask) {
        const Slot *s = &t->slots[i];
        if (!s->hash) return 0;
        if (s->hash == hash && s->len == len && !memcmp(t->arena + s->off, key, (size_t)len)) return s->rank <= rank;
    }
}
