/*
 * The layered search's files (layered_disk.h): the seeds of a level, waiting in a file until it is searched and
 * parked in another after; and the sorted files of keys that a class searched on disk is made of
 * (layered_class.c's breadth-first search: each layer a file, the children of a layer gathered in memory, sorted
 * into runs on disk, and merged into the next layer leaving out what the two layers before hold).
 */
#include "layered_disk.h"

#include <stdlib.h>
#include <unistd.h>

typedef char Path[4200];

static int key_cmp(const LKey *x, const LKey *y) {
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return 0;
}

static int key_cmp_q(const void *x, const void *y) { return key_cmp(x, y); }

static void path_of(const Disk *D, long long file, char *out) { snprintf(out, sizeof(Path), "%s/%lld", D->dir, file); }

static long long file_keys(const Disk *D, long long file) {
    Path path;
    path_of(D, file, path);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long long n = ftell(f) / (long long)sizeof(LKey);
    fclose(f);
    return n;
}

/* The files' directory, made the first time it is needed (*slot is NULL until then): 0, or -1. */
int tx_disk_open(Disk **slot, Budget *b, size_t cap) {
    if (*slot) return 0;
    Disk *D = tx_budget_alloc(b, sizeof *D, 1);
    if (!D) return -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(D->dir, sizeof D->dir, "%s/tableaux-layered-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(D->dir)) {
        tx_budget_free(b, D, sizeof *D);
        return -1;
    }
    D->cap = cap;
    D->budget = b;
    *slot = D;
    return 0;
}

/* Every file it made, whatever became of it, and the levels' files still open; then the directory. */
void tx_disk_close(Disk *D, Level *lev, int nlev) {
    for (int lv = 0; lv < nlev; lv++)
        if (lev[lv].pending) {
            fclose(lev[lv].pending);
            lev[lv].pending = NULL;
        }
    if (!D) return;
    for (long long file = 0; file < D->name; file++) {
        Path path;
        path_of(D, file, path);
        unlink(path);
    }
    Budget *b = D->budget;
    tx_budget_free(b, D->runs, D->runs_cap * sizeof *D->runs);
    tx_budget_free(b, D->buf, D->capbuf * sizeof *D->buf);
    rmdir(D->dir);
    tx_budget_free(b, D, sizeof *D);
}

/* What the files hold now, in bytes (for the log). */
size_t tx_disk_bytes(const Disk *D) { return D ? D->bytes : 0; }

void tx_disk_drop(Disk *D, long long file) {
    if (file < 0) return;
    long long n = file_keys(D, file);
    if (n > 0) D->bytes -= (size_t)n * sizeof(LKey);
    Path path;
    path_of(D, file, path);
    unlink(path);
}

/* Sort keys[0..n) and write them to a new file, without repeats: its number in *file. 0, or -1 (disk full or its
 * allowance spent; the file is left for tx_disk_drop). */
int tx_disk_write(Disk *D, LKey *keys, size_t n, long long *file) {
    qsort(keys, n, sizeof(LKey), key_cmp_q);
    Path path;
    *file = D->name++;
    path_of(D, *file, path);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t written = 0;
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        if (i && !key_cmp(&keys[i], &keys[i - 1])) continue;
        bad = fwrite(&keys[i], sizeof(LKey), 1, f) != 1;
        written += !bad;
    }
    bad |= fclose(f) != 0;
    D->bytes += written * sizeof(LKey);
    return bad || D->bytes > D->cap ? -1 : 0;
}

/* The keys gathered so far, sorted into a run on disk. 0, or -1. */
int tx_disk_flush(Disk *D) {
    if (!D->nbuf) return 0;
    if (tx_budget_grow(D->budget, (void **)&D->runs, &D->runs_cap, D->nruns + 1, sizeof *D->runs)) return -1;
    if (tx_disk_write(D, D->buf, D->nbuf, &D->runs[D->nruns])) {
        tx_disk_drop(D, D->runs[D->nruns]);
        return -1;
    }
    D->nruns++;
    D->nbuf = 0;
    return 0;
}

/* A key for the next layer. 0, or -1 when the disk gave out. */
int tx_disk_add(Disk *D, LKey k) {
    if (D->nbuf == D->capbuf && tx_disk_flush(D)) return -1;
    D->buf[D->nbuf++] = k;
    return 0;
}

/* The runs of a layer cut short, and the keys still gathered, dropped. */
void tx_disk_drop_runs(Disk *D) {
    for (size_t i = 0; i < D->nruns; i++) tx_disk_drop(D, D->runs[i]);
    D->nruns = 0;
    D->nbuf = 0;
}

/* Take half of the memory left for the buffer (64Ki keys at least, 64Mi at most). 0, or -1. */
int tx_disk_take_buffer(Disk *D) {
    Budget *b = D->budget;
    size_t left = b->memory > b->held ? b->memory - b->held : 0, n = left / 2 / sizeof(LKey);
    if (n > (1u << 26)) n = 1u << 26;
    if (n < (1u << 16) || !(D->buf = tx_budget_alloc(b, n * sizeof(LKey), 0))) return -1;
    D->capbuf = n;
    D->nbuf = 0;
    return 0;
}

void tx_disk_give_buffer(Disk *D) {
    tx_budget_free(D->budget, D->buf, D->capbuf * sizeof(LKey));
    D->buf = NULL;
    D->capbuf = D->nbuf = 0;
}

/* ---- reading sorted files */

void tx_disk_next(Reader *r) { r->live = r->f && fread(&r->k, sizeof(LKey), 1, r->f) == 1; }

int tx_disk_read(Reader *r, const Disk *D, long long file) { /* file < 0: an empty reader */
    Path path;
    if (file >= 0) path_of(D, file, path);
    r->f = file >= 0 ? fopen(path, "rb") : NULL;
    if (r->f) setvbuf(r->f, NULL, _IOFBF, 1 << 16);
    tx_disk_next(r);
    return file >= 0 && !r->f ? -1 : 0;
}

void tx_disk_done(Reader *r) {
    if (r->f) fclose(r->f);
    r->f = NULL;
}

/* Merge the runs (sorted, each without repeats) into a new file *out, leaving out the keys of the files prev
 * and cur (sorted; -1: none), and drop the runs. The keys written, or -1. A heap picks the least run. */
long long tx_disk_merge(Disk *D, long long prev, long long cur, long long *out) {
    size_t k = D->nruns, nh = 0;
    Reader *R = tx_budget_alloc(D->budget, (k + 1) * sizeof(Reader), 1), P = {0}, C = {0};
    size_t *heap = tx_budget_alloc(D->budget, (k + 1) * sizeof(size_t), 0);
    long long n = -1;
    FILE *f = NULL;
    Path path;
    *out = D->name++;
    path_of(D, *out, path);
    if (!R || !heap || tx_disk_read(&P, D, prev) || tx_disk_read(&C, D, cur) || !(f = fopen(path, "wb"))) goto done;
    for (size_t i = 0; i < k; i++) {
        if (tx_disk_read(&R[i], D, D->runs[i])) goto done;
        if (!R[i].live) continue;
        size_t j = nh++; /* sift up */
        while (j && key_cmp(&R[heap[(j - 1) / 2]].k, &R[i].k) > 0) heap[j] = heap[(j - 1) / 2], j = (j - 1) / 2;
        heap[j] = i;
    }
    n = 0;
    LKey last = {0, 0};
    while (nh) {
        size_t least = heap[0];
        LKey x = R[least].k;
        tx_disk_next(&R[least]);
        if (!R[least].live) heap[0] = heap[--nh];
        for (size_t j = 0;;) { /* sift down */
            size_t a = 2 * j + 1, b = a + 1, m = j;
            if (a < nh && key_cmp(&R[heap[a]].k, &R[heap[m]].k) < 0) m = a;
            if (b < nh && key_cmp(&R[heap[b]].k, &R[heap[m]].k) < 0) m = b;
            if (m == j) break;
            size_t t = heap[j];
            heap[j] = heap[m];
            heap[m] = t;
            j = m;
        }
        if ((last.a | last.b) && !key_cmp(&x, &last)) continue;
        last = x;
        while (P.live && key_cmp(&P.k, &x) < 0) tx_disk_next(&P);
        while (C.live && key_cmp(&C.k, &x) < 0) tx_disk_next(&C);
        if ((P.live && !key_cmp(&P.k, &x)) || (C.live && !key_cmp(&C.k, &x))) continue;
        if (fwrite(&x, sizeof x, 1, f) != 1) {
            n = -1;
            break;
        }
        n++;
    }
done:
    if (f && fclose(f)) n = -1;
    if (n > 0) D->bytes += (size_t)n * sizeof(LKey);
    if (n >= 0 && D->bytes > D->cap) n = -1;
    if (R)
        for (size_t i = 0; i < k; i++) tx_disk_done(&R[i]);
    tx_disk_done(&P);
    tx_disk_done(&C);
    for (size_t i = 0; i < k; i++) tx_disk_drop(D, D->runs[i]);
    D->nruns = 0;
    tx_budget_free(D->budget, R, (k + 1) * sizeof(Reader));
    tx_budget_free(D->budget, heap, (k + 1) * sizeof(size_t));
    return n;
}

/* ---- seeds on disk: a level's wait in a file until it is searched, and are parked in another after */

static FILE *open_new(Disk *D, long long *file, const char *mode) {
    Path path;
    *file = D->name++;
    path_of(D, *file, path);
    FILE *f = fopen(path, mode);
    if (f) setvbuf(f, NULL, _IOFBF, 1 << 16);
    return f;
}

/* A seed of level v, appended to its file. 0, or -1 when the disk gives out. */
int tx_disk_seed(Disk *D, Level *v, Seed s) {
    if (!v->pending) {
        long long file;
        if (!(v->pending = open_new(D, &file, "w+b"))) return -1;
        Path path;
        path_of(D, file, path);
        unlink(path); /* the open file stays; nothing is left behind whatever happens */
    }
    if (D->bytes + sizeof s > D->cap || fwrite(&s, sizeof s, 1, v->pending) != 1) return -1;
    D->bytes += sizeof s;
    return 0;
}

/* Before level v is searched: its seeds from the file into memory, after those there already. 0, or -1. */
int tx_disk_unpark(Disk *D, Level *v) {
    FILE *f = v->pending;
    if (!f) return 0;
    long long n = ftell(f) / (long long)sizeof(Seed);
    int r = -1;
    if (n < 0 || fflush(f) || fseek(f, 0, SEEK_SET)) goto out;
    /* exactly, not doubled: a level's seeds can be most of the memory */
    if (tx_budget_resize(D->budget, (void **)&v->seeds, &v->cap, v->n + (size_t)n, sizeof(Seed))) goto out;
    if (fread(v->seeds + v->n, sizeof(Seed), (size_t)n, f) != (size_t)n) goto out;
    v->n += (size_t)n;
    r = 0;
out:
    fclose(f);
    v->pending = NULL;
    if (n > 0) D->bytes -= (size_t)n * sizeof(Seed);
    return r;
}

/* After level v is searched: its seeds (each class's begin..end) to a file, out of memory. 0, or -1. */
int tx_disk_park(Disk *D, Level *v) {
    if (!v->seeds) return 0;
    FILE *f = open_new(D, &v->parked, "wb");
    size_t n = v->n;
    int bad = !f || D->bytes + n * sizeof(Seed) > D->cap || fwrite(v->seeds, sizeof(Seed), n, f) != n;
    if (f && fclose(f)) bad = 1;
    D->bytes += n * sizeof(Seed);
    if (bad) return -1;
    tx_budget_free(D->budget, v->seeds, v->cap * sizeof(Seed));
    v->seeds = NULL;
    v->cap = 0;
    return 0;
}

/* The seeds of class c: in the level's array, or read from its parked file into *held (tx_drop_seeds frees
 * it). NULL when memory or the disk gives out. */
const Seed *tx_class_seeds(Disk *D, Budget *b, Level *v, const Class *c, Seed **held) {
    *held = NULL;
    if (v->seeds) return v->seeds + c->begin;
    size_t n = c->end - c->begin;
    Seed *sd = tx_budget_alloc(b, (n ? n : 1) * sizeof(Seed), 0);
    Path path;
    path_of(D, v->parked, path);
    FILE *f = sd ? fopen(path, "rb") : NULL;
    int ok = f && !fseek(f, (long)(c->begin * sizeof(Seed)), SEEK_SET) && fread(sd, sizeof(Seed), n, f) == n;
    if (f) fclose(f);
    if (!ok) {
        tx_budget_free(b, sd, (n ? n : 1) * sizeof(Seed));
        return NULL;
    }
    *held = sd;
    return sd;
}

void tx_drop_seeds(Budget *b, const Class *c, Seed *held) {
    if (held) tx_budget_free(b, held, ((c->end - c->begin) ? (c->end - c->begin) : 1) * sizeof(Seed));
}
