/* The transposition table: exact keys, bounded memory. */
#include "table.h"

#include <stdlib.h>

/* A slot's probe starts from its hash's SLOT_BITS, folded: the top bits are left to oblige_key's mark (search.c). */
static inline uint64_t fold(uint64_t hash) { return (hash & SLOT_BITS) ^ ((hash & SLOT_BITS) >> 29); }
static uint64_t slot_home(const void *slot) { return fold(((const Slot *)slot)->hash); }
static int slot_empty(const void *slot) { return !((const Slot *)slot)->hash; }
static const HashKind SLOTS = {sizeof(Slot), slot_home, slot_empty};

typedef struct {
    uint64_t hash;
    const uint8_t *key, *arena;
    int len;
} Query;

static int slot_holds(const void *slot, const void *query) {
    const Slot *s = slot;
    const Query *q = query;
    return s->hash == q->hash && s->len == q->len && !memcmp(q->arena + s->off, q->key, (size_t)q->len);
}

/* The slots and the keys may take three quarters of the cap: tx_table_gc needs the last quarter for a
 * while, to copy what it keeps (at most a third of them). */
static size_t held(const Table *t) { return (t->set.mask + 1) * sizeof(Slot) + t->arena_cap; }
static size_t room(const Table *t) { return t->cap / 4 * 3; }

/* The table starts small and doubles up to its cap, so a quick search costs little memory and no
 * time spent clearing memory it never used. */
int tx_table_init(Table *t, size_t cap) {
    memset(t, 0, sizeof *t);
    t->cap = cap;
    size_t nslots = 4096;
    t->set.slots = calloc(nslots, sizeof(Slot));
    t->arena_cap = 1 << 16;
    t->arena = malloc(t->arena_cap);
    if (!t->set.slots || !t->arena || room(t) < nslots * sizeof(Slot) + t->arena_cap) {
        free(t->set.slots);
        free(t->arena);
        t->set.slots = NULL;
        t->arena = NULL;
        return -1;
    }
    t->set.mask = nslots - 1;
    t->max_used = nslots / 10 * 7;
    return 0;
}


/* What the table holds, with tx_table_gc's room for its copy (held from one collection to the next). */
size_t tx_table_bytes(const Table *t) { return held(t) + (t->spare_cap > held(t) / 3 ? t->spare_cap : held(t) / 3); }

void tx_table_free(Table *t) {
    free(t->set.slots);
    free(t->arena);
    free(t->spare);
    t->set.slots = NULL;
    t->arena = NULL;
    t->spare = NULL;
    t->spare_cap = 0;
}

void tx_table_clear(Table *t) {
    memset(t->set.slots, 0, (t->set.mask + 1) * sizeof(Slot));
    t->set.used = 0;
    t->arena_used = 0;
}

/* A slot hash is never 0, which marks an empty slot. */
static inline uint64_t slot_hash(uint64_t hash) { return hash ? hash : 1; }

/* The slot that holds this key, or the empty slot where it would go. */
static inline Slot *probe(const Table *t, uint64_t hash, const uint8_t *key, int len) {
    Query q = {hash, key, t->arena, len};
    return hs_find(&t->set, &SLOTS, fold(hash), slot_holds, &q);
}

/* Double the slots (0), or -1 when that would pass the cap or memory runs out. */
static int table_grow_slots(Table *t) {
    size_t n = (t->set.mask + 1) * 2;
    if (n * sizeof(Slot) + t->arena_cap > room(t)) {
        /* after a collection the arena keeps room its keys do not use: the slots may have it */
        size_t rest = room(t) > n * sizeof(Slot) ? room(t) - n * sizeof(Slot) : 0;
        if (rest < t->arena_used + KEY_MAX) return -1;
        uint8_t *na = realloc(t->arena, rest);
        if (!na) return -1;
        t->arena = na;
        t->arena_cap = rest;
    }
    uint8_t *ns = calloc(n, sizeof(Slot));
    if (!ns) return -1;
    free(hs_move(&t->set, &SLOTS, ns, n));
    t->max_used = n / 10 * 7;
    return 0;
}

static int table_grow_arena(Table *t) {
    size_t n = t->arena_cap * 2, slots = (t->set.mask + 1) * sizeof(Slot);
    if (n > 0xFFFFFF00u) n = 0xFFFFFF00u; /* offsets are 32-bit */
    if (slots + n > room(t)) n = room(t) > slots ? room(t) - slots : 0;
    if (n < t->arena_used + KEY_MAX || n <= t->arena_cap) return -1;
    uint8_t *na = realloc(t->arena, n);
    if (!na) return -1;
    t->arena = na;
    t->arena_cap = n;
    return 0;
}

/* Room for one more key: grow if the cap allows, else report full (1). */
int tx_table_full(Table *t) {
    if (t->set.used >= t->max_used && table_grow_slots(t)) return 1;
    if (t->arena_used + KEY_MAX > t->arena_cap && table_grow_arena(t)) return 1;
    return 0;
}

/* 1: a position with this key and a rank at least as good was searched (skip it);
 * 0: new, or better than before (now recorded). The caller makes room first. */
int tx_table_visit(Table *t, uint64_t hash, const uint8_t *key, int len, int rank) {
    hash = slot_hash(hash);
    Slot *s = probe(t, hash, key, len);
    if (s->hash) { /* searched before */
        if (s->rank <= rank) return 1;
        s->rank = (uint8_t)rank;
        return 0;
    }
    *s = (Slot){hash, (uint32_t)t->arena_used, (uint8_t)len, (uint8_t)rank, 0};
    memcpy(t->arena + t->arena_used, key, (size_t)len);
    t->arena_used += (size_t)len;
    t->set.used++;
    return 0;
}


/* 1 when tx_table_visit would skip this key, without recording it. */
int tx_table_seen(const Table *t, uint64_t hash, const uint8_t *key, int len, int rank) {
    const Slot *s = probe(t, slot_hash(hash), key, len);
    return s->hash && s->rank <= rank;
}

/* Note how many positions the search of a position took, once it is done (if it is still there). */
void tx_table_done(Table *t, uint64_t hash, const uint8_t *key, int len, long long positions) {
    int size = 1;
    while (size < 63 && (1LL << size) <= positions) size++;
    Slot *s = probe(t, slot_hash(hash), key, len);
    if (s->hash) s->size = (uint8_t)size;
}

/*
 * A full table keeps the positions whose searches took longest, at most a third of them, and forgets
 * the rest (the small-tree garbage collection of proof-number search). Forgetting is always sound: a
 * forgotten position is only searched again. Searching again is what costs, and it costs least for the
 * many positions whose searches were short; the positions of the current line have size 0 and go too,
 * and the search puts them back. 0 when room was made, -1 when it could not be (nothing to keep, or no
 * memory): then the caller empties the table. With `shrink` it also halves the slots, to give memory
 * back to the search's stacks (-1: it could not).
 */
int tx_table_gc(Table *t, int shrink) {
    size_t count[64] = {0}, bytes_of[64] = {0}, n = t->set.mask + 1, keep = 0, bytes = 0;
    const Slot *slots = (const Slot *)t->set.slots;
    for (size_t i = 0; i < n; i++)
        if (slots[i].hash) {
            count[slots[i].size]++;
            bytes_of[slots[i].size] += slots[i].len;
        }
    /* keep the sizes from the largest down, while they are at most a third of the keys and their bytes */
    int least = 64;
    while (least > 1 && keep + count[least - 1] <= t->set.used / 3 && bytes + bytes_of[least - 1] <= t->arena_used / 3) {
        least--;
        keep += count[least];
        bytes += bytes_of[least];
    }
    if (!keep || (shrink && n <= 4096)) return -1;
    /* What is kept is copied aside, then back. The copy goes to a buffer held from one collection to the
     * next, and the keys go back to the start of the same arena: fresh memory from the system comes
     * cleared page by page, which took a tenth of the time of classic deal 140's proof when each
     * collection allocated its copy and a new arena. A shrink gives the memory back instead. */
    size_t need = keep * sizeof(Slot) + bytes + KEY_MAX;
    if (t->spare_cap < need) {
        size_t want = !shrink && need < held(t) / 3 + KEY_MAX ? held(t) / 3 + KEY_MAX : need;
        free(t->spare);
        t->spare = malloc(want);
        t->spare_cap = t->spare ? want : 0;
        if (!t->spare) return -1;
    }
    Slot *kept = (Slot *)t->spare;
    uint8_t *keys = t->spare + keep * sizeof(Slot);
    size_t k = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        Slot s = slots[i];
        if (!s.hash || s.size < least) continue;
        memcpy(keys + o, t->arena + s.off, s.len);
        s.off = (uint32_t)o;
        o += s.len;
        kept[k++] = s;
    }
    uint8_t *half = NULL;
    if (shrink) { /* a smaller arena, and half the slots: what is kept fills under half of them */
        uint8_t *arena = malloc(bytes + KEY_MAX);
        if (!arena) return -1; /* nothing changed yet */
        free(t->arena);
        t->arena = arena;
        t->arena_cap = bytes + KEY_MAX; /* it grows again as keys come (tx_table_full) */
        half = calloc(n / 2, sizeof(Slot));
    }
    if (half) {
        free(t->set.slots);
        t->set.slots = half;
        n /= 2;
        t->set.mask = n - 1;
        t->max_used = n / 10 * 7;
    } else {
        memset(t->set.slots, 0, n * sizeof(Slot));
    }
    memcpy(t->arena, keys, o);
    t->arena_used = o;
    for (size_t j = 0; j < k; j++) hs_place(&t->set, &SLOTS, &kept[j]);
    t->set.used = k;
    if (shrink) { /* the memory goes back to the search's stacks */
        free(t->spare);
        t->spare = NULL;
        t->spare_cap = 0;
    }
    t->gcs++;
    return shrink && !half ? -1 : 0;
}
