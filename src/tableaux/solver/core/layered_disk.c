/*
 * The layered search's classes too big for its memory, searched breadth first on disk (layered.h has the design).
 *
 * Inside a class every move can be undone (a card goes back where it came from; layered.py proves that no safe
 * move is ever made inside a class), so the class is an undirected graph, and a breadth-first search from its
 * seeds needs no table of the whole class: a position next to one at distance d from the seeds is at distance
 * d - 1, d or d + 1. So the layers are sorted files of keys; the children of layer d are gathered in memory,
 * sorted into runs on disk, and merged into layer d + 1 leaving out what layers d - 1 and d hold. Memory: one
 * buffer; disk: three layers and the runs, counted against the search's disk allowance (TMPDIR, else /tmp).
 */
#include "layered.h"

#include <stdio.h>
#include <unistd.h>

typedef struct Disk {
    char dir[4096];
    size_t bytes;   /* in the files now */
    long long name; /* the next file's number: files are named by number in dir */
    LKey *buf;      /* children of the layer being expanded, waiting to be sorted into a run */
    size_t nbuf, capbuf;
    long long *runs;
    size_t nruns, runs_cap;
} Disk;

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

static void drop_file(Disk *D, long long file) {
    if (file < 0) return;
    long long n = file_keys(D, file);
    if (n > 0) D->bytes -= (size_t)n * sizeof(LKey);
    Path path;
    path_of(D, file, path);
    unlink(path);
}

/* Write keys[0..n) (sorted) to a new file, without repeats: its number in *file. 0, or -1 (disk full or its
 * allowance spent; the file is left for drop_file). */
static int write_keys(Layered *L, const LKey *keys, size_t n, long long *file) {
    Disk *D = L->disk;
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
    return bad || D->bytes > L->disk_cap ? -1 : 0;
}

static int flush_run(Layered *L) {
    Disk *D = L->disk;
    if (!D->nbuf) return 0;
    qsort(D->buf, D->nbuf, sizeof(LKey), key_cmp_q);
    if (lgrow(L, (void **)&D->runs, &D->runs_cap, D->nruns + 1, sizeof *D->runs)) return -1;
    if (write_keys(L, D->buf, D->nbuf, &D->runs[D->nruns])) {
        drop_file(D, D->runs[D->nruns]);
        return -1;
    }
    D->nruns++;
    D->nbuf = 0;
    return 0;
}

/* An in-class child while a class is searched on disk. 0, or -1 when the disk gave out. */
int lay_disk_add(Layered *L, LKey k) {
    Disk *D = L->disk;
    if (D->nbuf == D->capbuf && flush_run(L)) {
        L->oom = 1;
        return -1;
    }
    D->buf[D->nbuf++] = k;
    return 0;
}

/* ---- reading sorted files */

typedef struct {
    FILE *f;
    LKey k;
    int live;
} Reader;

static void rd_next(Reader *r) { r->live = r->f && fread(&r->k, sizeof(LKey), 1, r->f) == 1; }

static int rd_open(Reader *r, const Disk *D, long long file) { /* file < 0: an empty reader */
    Path path;
    if (file >= 0) path_of(D, file, path);
    r->f = file >= 0 ? fopen(path, "rb") : NULL;
    if (r->f) setvbuf(r->f, NULL, _IOFBF, 1 << 16);
    rd_next(r);
    return file >= 0 && !r->f ? -1 : 0;
}

static void rd_close(Reader *r) {
    if (r->f) fclose(r->f);
    r->f = NULL;
}

/* Merge the runs (sorted, each without repeats) into a new file *out, leaving out the keys of the files prev
 * and cur (sorted; -1: none), and drop the runs. The keys written, or -1. A heap picks the least run. */
static long long merge_runs(Layered *L, long long prev, long long cur, long long *out) {
    Disk *D = L->disk;
    size_t k = D->nruns, nh = 0;
    Reader *R = lmalloc(L, (k + 1) * sizeof(Reader), 1), P = {0}, C = {0};
    size_t *heap = lmalloc(L, (k + 1) * sizeof(size_t), 0);
    long long n = -1;
    FILE *f = NULL;
    Path path;
    *out = D->name++;
    path_of(D, *out, path);
    if (!R || !heap || rd_open(&P, D, prev) || rd_open(&C, D, cur) || !(f = fopen(path, "wb"))) goto done;
    for (size_t i = 0; i < k; i++) {
        if (rd_open(&R[i], D, D->runs[i])) goto done;
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
        rd_next(&R[least]);
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
        while (P.live && key_cmp(&P.k, &x) < 0) rd_next(&P);
        while (C.live && key_cmp(&C.k, &x) < 0) rd_next(&C);
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
    if (n >= 0 && D->bytes > L->disk_cap) n = -1;
    if (R)
        for (size_t i = 0; i < k; i++) rd_close(&R[i]);
    rd_close(&P);
    rd_close(&C);
    for (size_t i = 0; i < k; i++) drop_file(D, D->runs[i]);
    D->nruns = 0;
    lfree(L, R, (k + 1) * sizeof(Reader));
    lfree(L, heap, (k + 1) * sizeof(size_t));
    return n;
}

/* ---- the search on disk */

static int disk_open(Layered *L) {
    if (L->disk) return 0;
    Disk *D = lmalloc(L, sizeof *D, 1);
    if (!D) return -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(D->dir, sizeof D->dir, "%s/tableaux-layered-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(D->dir)) {
        lfree(L, D, sizeof *D);
        return -1;
    }
    L->disk = D;
    return 0;
}

void lay_disk_close(Layered *L) {
    Disk *D = L->disk;
    if (!D) return;
    for (int lv = 0; lv < NLEVELS; lv++)
        if (L->lev[lv].pending) fclose(L->lev[lv].pending);
    for (long long file = 0; file < D->name; file++) { /* every file it made, whatever became of it */
        Path path;
        path_of(D, file, path);
        unlink(path);
    }
    free(D->runs);
    free(D->buf);
    rmdir(D->dir);
    free(D);
    L->disk = NULL;
}

/* Take half of the memory left for the buffer (64Ki keys at least, 64Mi at most). 0, or -1. */
static int take_buffer(Layered *L) {
    Disk *D = L->disk;
    size_t left = L->s->budget.memory > L->used ? L->s->budget.memory - L->used : 0, n = left / 2 / sizeof(LKey);
    if (n > (1u << 26)) n = 1u << 26;
    if (n < (1u << 16) || !(D->buf = lmalloc(L, n * sizeof(LKey), 0))) return -1;
    D->capbuf = n;
    D->nbuf = 0;
    return 0;
}

static void give_buffer(Layered *L) {
    Disk *D = L->disk;
    lfree(L, D->buf, D->capbuf * sizeof(LKey));
    D->buf = NULL;
    D->capbuf = D->nbuf = 0;
}

/* Layer 0: the class's seeds, sorted, into a new file. */
static int seed_layer(Layered *L, Level *v, Class *c, long long *file) {
    Disk *D = L->disk;
    Seed *held;
    const Seed *sd = lay_class_seeds(L, v, c, &held);
    if (!sd) return -1;
    for (size_t i = 0; i < c->end - c->begin; i++)
        if (lay_disk_add(L, seed_key(&sd[i]))) {
            lay_drop_seeds(L, c, held);
            return -1;
        }
    lay_drop_seeds(L, c, held);
    qsort(D->buf, D->nbuf, sizeof(LKey), key_cmp_q);
    int r = write_keys(L, D->buf, D->nbuf, file);
    D->nbuf = 0;
    return r;
}

/*
 * Breadth first from the class's seeds: each layer's file is expanded (the children go to lay_disk_add) and the
 * next layer merged from the runs. `layers` (NULL: not kept): the layers' files stay, numbers in
 * layers[0..*depth], for a line. 0 when the class is done, -1 when the search must stop (won, out of budget,
 * memory or disk, a trace's target made).
 */
#define MAX_KEPT 4096 /* layers kept for a line: more than any class has shown (a class on disk is a few deep) */

static int breadth_first(Layered *L, Level *v, Class *c, long long *layers, int *depth) {
    Disk *D = L->disk;
    long long prev = -1, cur = -1;
    int r = seed_layer(L, v, c, &cur), d = 0;
    if (layers) layers[0] = cur;
    L->on_disk = 1;
    while (!r) {
        Reader in;
        if (rd_open(&in, D, cur)) r = -1;
        while (!r && in.live) {
            LKey k = in.k;
            rd_next(&in);
            r = lay_expand(L, &k);
        }
        rd_close(&in);
        if (r || flush_run(L)) {
            r = -1;
            break;
        }
        long long next;
        long long n = merge_runs(L, prev, cur, &next);
        if (n < 0) {
            drop_file(D, next);
            r = -1;
            break;
        }
        if (!layers) drop_file(D, prev);
        prev = cur;
        cur = next;
        d++;
        if (layers) {
            if (d >= MAX_KEPT) {
                drop_file(D, next);
                d--;
                r = -1;
                break;
            }
            layers[d] = next;
        }
        if (!n) break;
    }
    L->on_disk = 0;
    for (size_t i = 0; i < D->nruns; i++) drop_file(D, D->runs[i]); /* a layer cut short leaves runs */
    D->nruns = 0;
    D->nbuf = 0;
    if (!layers) {
        drop_file(D, prev);
        drop_file(D, cur);
    }
    *depth = d;
    return r;
}

/* The class, too big for the memory, searched on disk. 0 when done, -1 when the search must stop. */
int lay_disk_class(Layered *L, Level *v, Class *c) {
    int depth;
    if (disk_open(L) || take_buffer(L)) {
        L->oom = 1;
        return -1;
    }
    int r = breadth_first(L, v, c, NULL, &depth);
    give_buffer(L);
    return r;
}

/* As trace_class (layered_line.c) for a class on disk: its layers again, kept, up to the target; then back from
 * the position that made it, a layer at a time, each time to a position of the layer before that makes it. */
int lay_disk_trace(Layered *L, Level *v, Class *c, Trace *T, LKey **path, size_t *np, size_t *cap, uint32_t *origin) {
    long long *layers = lmalloc(L, MAX_KEPT * sizeof(long long), 0);
    int depth = 0, r = -1, made = 0;
    if (!layers || disk_open(L) || take_buffer(L)) goto out;
    L->mask = c->mask;
    L->trace = T;
    breadth_first(L, v, c, layers, &depth); /* stops at the target, in the layer `depth` it was expanding */
    made = depth + 1;
    if (!T->found || L->oom) goto out;
    LKey y = T->found_from;
    L->scan_only = 1;
    for (int d = depth;; d--) {
        if (lgrow(L, (void **)path, cap, *np + 1, sizeof(LKey))) goto out;
        (*path)[(*np)++] = y;
        if (d == 0) break;
        T->target = y;
        T->found = 0;
        Reader in;
        if (rd_open(&in, L->disk, layers[d - 1])) goto out;
        while (in.live && !T->found) {
            LKey k = in.k;
            rd_next(&in);
            lay_expand(L, &k);
        }
        rd_close(&in);
        if (!T->found) goto out;
        y = T->found_from;
    }
    *origin = NO_CLASS - 1;
    Seed *held;
    const Seed *sd = lay_class_seeds(L, v, c, &held);
    for (size_t i = 0; sd && i < c->end - c->begin; i++)
        if (!memcmp(sd[i].k, &y, sizeof y)) *origin = sd[i].from;
    lay_drop_seeds(L, c, held);
    r = *origin == NO_CLASS - 1 ? -1 : 0;
out:
    L->scan_only = 0;
    L->trace = NULL;
    if (layers)
        for (int d = 0; d < made; d++) drop_file(L->disk, layers[d]);
    if (L->disk && L->disk->buf) give_buffer(L);
    lfree(L, layers, MAX_KEPT * sizeof(long long));
    return r;
}

/* ---- seeds on disk: a level's wait in a file until it is searched, and are parked in another after */

static FILE *open_new(Layered *L, long long *file, const char *mode) {
    Disk *D = L->disk;
    Path path;
    *file = D->name++;
    path_of(D, *file, path);
    FILE *f = fopen(path, mode);
    if (f) setvbuf(f, NULL, _IOFBF, 1 << 16);
    return f;
}

/* A seed of level v, appended to its file. 0, or -1 when the disk gives out. */
int lay_disk_seed(Layered *L, Level *v, Seed s) {
    Disk *D;
    if (disk_open(L)) goto fail;
    D = L->disk;
    if (!v->pending) {
        long long file;
        if (!(v->pending = open_new(L, &file, "w+b"))) goto fail;
        Path path;
        path_of(D, file, path);
        unlink(path); /* the open file stays; nothing is left behind whatever happens */
    }
    if (D->bytes + sizeof s > L->disk_cap || fwrite(&s, sizeof s, 1, v->pending) != 1) goto fail;
    D->bytes += sizeof s;
    return 0;
fail:
    L->oom = 1;
    return -1;
}

/* Before level v is searched: its seeds from the file into memory, after those there already. */
int lay_disk_unpark(Layered *L, Level *v) {
    FILE *f = v->pending;
    if (!f) return 0;
    long long n = ftell(f) / (long long)sizeof(Seed);
    int r = -1;
    if (n < 0 || fflush(f) || fseek(f, 0, SEEK_SET)) goto out;
    /* exactly, not doubled: a level's seeds can be most of the memory */
    if (lresize(L, (void **)&v->seeds, &v->cap, v->n + (size_t)n, sizeof(Seed))) goto out;
    if (fread(v->seeds + v->n, sizeof(Seed), (size_t)n, f) != (size_t)n) goto out;
    v->n += (size_t)n;
    r = 0;
out:
    fclose(f);
    v->pending = NULL;
    if (n > 0) L->disk->bytes -= (size_t)n * sizeof(Seed);
    if (r) L->oom = 1;
    return r;
}

/* After level v is searched: its seeds (each class's begin..end) to a file, out of memory. */
int lay_disk_park(Layered *L, Level *v) {
    if (!v->seeds) return 0;
    FILE *f = open_new(L, &v->parked, "wb");
    size_t n = v->n;
    int bad = !f || L->disk->bytes + n * sizeof(Seed) > L->disk_cap || fwrite(v->seeds, sizeof(Seed), n, f) != n;
    if (f && fclose(f)) bad = 1;
    L->disk->bytes += n * sizeof(Seed);
    if (bad) {
        L->oom = 1;
        return -1;
    }
    lfree(L, v->seeds, v->cap * sizeof(Seed));
    v->seeds = NULL;
    v->cap = 0;
    return 0;
}

/* The seeds of class c: in the level's array, or read from its parked file into *held (lay_drop_seeds frees
 * it). NULL when memory or the disk gives out. */
const Seed *lay_class_seeds(Layered *L, Level *v, const Class *c, Seed **held) {
    *held = NULL;
    if (v->seeds) return v->seeds + c->begin;
    size_t n = c->end - c->begin;
    Seed *sd = lmalloc(L, (n ? n : 1) * sizeof(Seed), 0);
    Path path;
    path_of(L->disk, v->parked, path);
    FILE *f = sd ? fopen(path, "rb") : NULL;
    int ok = f && !fseek(f, (long)(c->begin * sizeof(Seed)), SEEK_SET) && fread(sd, sizeof(Seed), n, f) == n;
    if (f) fclose(f);
    if (!ok) {
        lfree(L, sd, (n ? n : 1) * sizeof(Seed));
        L->oom = 1;
        return NULL;
    }
    *held = sd;
    return sd;
}

void lay_drop_seeds(Layered *L, const Class *c, Seed *held) {
    if (held) lfree(L, held, ((c->end - c->begin) ? (c->end - c->begin) : 1) * sizeof(Seed));
}

/* What the files hold now, in bytes (for the log). */
size_t lay_disk_bytes(const Layered *L) { return L->disk ? L->disk->bytes : 0; }
