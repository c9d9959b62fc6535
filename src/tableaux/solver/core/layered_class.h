/* The layered search's state, and one class searched: in memory, or breadth first on disk (layered_class.c). */
#ifndef TABLEAUX_LAYERED_CLASS_H
#define TABLEAUX_LAYERED_CLASS_H

#include "layered_disk.h"
#include "search.h"

typedef struct {
    uint32_t level, index; /* where a class lies: L->lev[level].classes[index] */
} ClassId;

/* While a winning line is put together (layered_line.c), a class is searched again and each position notes the
 * one it came from, until the target is met. */
typedef struct {
    LKey k, from; /* k's MARK bit: expanded */
} Traced;

typedef struct Trace {
    HashSet t;    /* of Traced */
    size_t moves; /* times it grew */
    LKey target;           /* a position of another class, or the won one */
    int found;
    LKey found_from; /* the position that made it */
} Trace;

typedef struct {
    Search *s;       /* its position, budget (positions, time, memory) and line */
    LayFix fix;      /* what the start position fixes */
    Level lev[NLEVELS];
    size_t disk_cap;    /* bytes its files may take (0: the search keeps to its memory) */
    long long spill_at; /* a class whose table passes this many positions goes on disk (-1: only when the memory is
                           full; 0: every class, which tests use) */
    /* the class being searched */
    HashSet set;      /* of LKeys; a slot's MARK bit: its position has been expanded */
    size_t set_moves; /* times it grew, which moves every slot */
    uint64_t mask;
    int level;    /* the bits in its mask */
    uint32_t id;  /* its number, in the order classes are searched */
    ClassId *ids; /* every class's place, by number */
    size_t nids, ids_cap;
    int won;
    LKey won_key;    /* the won position */
    uint32_t won_in; /* the class it was made in */
    int oom, stopped;
    int broken;    /* a move added to a mask: impossible (layered.py proves it), and the search would be unsound */
    Disk *disk;    /* its files, once a class outgrows the memory or a seed waits on disk */
    int on_disk;   /* the class being searched is on disk: its children go to tx_disk_add */
    int scan_only; /* a trace on disk looks for its target only */
    int spill;     /* the class's table ran out of memory: search it on disk instead */
    LKey pending;  /* a child waiting for its slot, fetched meanwhile (emit, put_pending) */
    int has_pending;
    Trace *trace; /* while a winning line is put together: see layered_line.c */
} Layered;

/* Memory, held against the search's budget; running out marks the search out of memory. */
static inline void *lmalloc(Layered *L, size_t bytes, int zero) {
    void *p = tx_budget_alloc(&L->s->budget, bytes, zero);
    if (!p) L->oom = 1;
    return p;
}

static inline void lfree(Layered *L, void *p, size_t bytes) { tx_budget_free(&L->s->budget, p, bytes); }

static inline int lgrow(Layered *L, void **buf, size_t *cap, size_t need, size_t size) {
    if (!tx_budget_grow(&L->s->budget, buf, cap, need, size)) return 0;
    L->oom = 1;
    return -1;
}

/* Something the search's files needed failed (memory or disk): the search stops, out of memory. -1. */
static inline int disk_failed(Layered *L) {
    L->oom = 1;
    return -1;
}

#define MAX_KEPT 4096 /* layers kept for a line: more than any class has shown (a class on disk is a few deep) */

int tx_lay_trace_add(Layered *L, Trace *T, LKey k, LKey from);
int tx_lay_expand(Layered *L, const LKey *k);
int tx_lay_search_class(Layered *L, Level *v, Class *c);
int tx_lay_breadth_first(Layered *L, Level *v, Class *c, long long *layers, int *depth);

#endif
