/*
 * Where the layered search keeps its seeds and, for classes too big for its memory, the layers of their
 * breadth-first search (layered_disk.c): a level's seeds, in memory or in files, and sorted files of keys.
 * Memory: the search's budget; disk: files in one directory (TMPDIR, else /tmp), counted against `cap`.
 */
#ifndef TABLEAUX_LAYERED_DISK_H
#define TABLEAUX_LAYERED_DISK_H

#include <stdio.h>

#include "budget.h"
#include "layered_keys.h"

/* A position first met from another class: from is the class it came from (NO_CLASS for the start). In 20
 * bytes, the key as four 32-bit words (seed_key): the seeds are most of what the search holds. */
#define NO_CLASS UINT32_MAX
typedef struct {
    uint32_t k[4];
    uint32_t from;
} Seed;

static inline LKey seed_key(const Seed *s) {
    LKey k;
    memcpy(&k, s->k, sizeof k);
    return k;
}

static inline Seed make_seed(LKey k, uint32_t from) {
    Seed s;
    memcpy(s.k, &k, sizeof k);
    s.from = from;
    return s;
}

typedef struct {
    uint64_t mask;
    size_t begin, end; /* its seeds in the level's array */
    int on_disk;       /* it outgrew the memory and was searched on disk (layered_class.c) */
} Class;

typedef struct {
    Seed *seeds; /* NULL once searched and parked on disk (tx_disk_park) */
    size_t n, cap;
    Class *classes;
    size_t nclasses, classes_cap;
    FILE *pending;    /* with a disk: the file its seeds go to until the level is searched */
    long long parked; /* with a disk: the file holding its seeds once searched (-1: none) */
} Level;

#define NLEVELS 60 /* 7 reserve cells and at most 51 dealt cards on another */

typedef struct Disk {
    char dir[4096];
    size_t bytes;   /* in the files now */
    size_t cap;     /* the most they may hold */
    long long name; /* the next file's number: files are named by number in dir */
    LKey *buf;      /* keys waiting to be sorted into a run (tx_disk_add) */
    size_t nbuf, capbuf;
    long long *runs;
    size_t nruns, runs_cap;
    Budget *budget; /* the memory it holds is counted here */
} Disk;

/* A sorted file of keys, read from the start. */
typedef struct {
    FILE *f;
    LKey k; /* the key read last, while live */
    int live;
} Reader;

int tx_disk_open(Disk **slot, Budget *b, size_t cap);
void tx_disk_close(Disk *D, Level *lev, int nlev);
size_t tx_disk_bytes(const Disk *D);

int tx_disk_take_buffer(Disk *D);
void tx_disk_give_buffer(Disk *D);
int tx_disk_add(Disk *D, LKey k);
int tx_disk_flush(Disk *D);
int tx_disk_write(Disk *D, LKey *keys, size_t n, long long *file);
long long tx_disk_merge(Disk *D, long long prev, long long cur, long long *out);
void tx_disk_drop(Disk *D, long long file);
void tx_disk_drop_runs(Disk *D);

int tx_disk_read(Reader *r, const Disk *D, long long file);
void tx_disk_next(Reader *r);
void tx_disk_done(Reader *r);

int tx_disk_seed(Disk *D, Level *v, Seed s);
int tx_disk_unpark(Disk *D, Level *v);
int tx_disk_park(Disk *D, Level *v);
const Seed *tx_class_seeds(Disk *D, Budget *b, Level *v, const Class *c, Seed **held);
void tx_drop_seeds(Budget *b, const Class *c, Seed *held);

#endif
