/*
 * The deal's shuffle at native speed: tableaux/rulebook/deal.py's shuffled_deck, its reference, which
 * tests/rules/test_cards_and_deals.py holds it to (the same 52 cards in the same order for every deal number).
 *
 * GLib's GRand is the Mersenne Twister MT19937: g_rand_new_with_seed fills its 624 words from the seed, and
 * g_rand_int_range draws by rejection from its tempered outputs. Seeding alone is a loop of 623 steps, which takes
 * Python longer than many a solve of a King Albert deal takes the compiled core: every solve of a deal number
 * starts here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int next; /* the word to temper next; MT_N: twist first */
} DealRand;

static void deal_seed(DealRand *r, uint32_t seed) {
    r->mt[0] = seed;
    for (int i = 1; i < MT_N; i++) r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->next = MT_N;
}

static void deal_twist(DealRand *r) {
    for (int k = 0; k < MT_N; k++) {
        uint32_t y = (r->mt[k] & 0x80000000u) | (r->mt[(k + 1) % MT_N] & 0x7fffffffu);
        r->mt[k] = r->mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    r->next = 0;
}

/* g_rand_int: the next tempered 32-bit output. */
static uint32_t deal_int32(DealRand *r) {
    if (r->next >= MT_N) deal_twist(r);
    uint32_t y = r->mt[r->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* g_rand_int_range(rand, 0, n) for 1 <= n <= 2**31: outputs above the largest multiple of n are drawn again. */
static uint32_t deal_int_range(DealRand *r, uint32_t n) {
    uint32_t leftover = (0x80000000u % n) * 2;
    if (leftover >= n) leftover -= n;
    uint32_t maxvalue = 0xffffffffu - leftover;
    for (;;) {
        uint32_t v = deal_int32(r);
        if (v <= maxvalue) return v % n;
    }
}

static PyObject *deal_shuffled_deck(PyObject *self, PyObject *arg) {
    unsigned long deal = PyLong_AsUnsignedLong(arg);
    if (deal == (unsigned long)-1 && PyErr_Occurred()) return NULL;
    if (deal > 0xffffffffUL) return PyErr_Format(PyExc_OverflowError, "a deal number is at most 4294967295");
    DealRand r;
    deal_seed(&r, (uint32_t)deal);
    int vec[52], picked[52];
    for (int i = 0; i < 52; i++) vec[i] = i;
    for (int i = 0; i < 52; i++) { /* pick one at a time, swap-remove; dealt from the end of the picks */
        int j = i + (int)deal_int_range(&r, (uint32_t)(52 - i));
        picked[51 - i] = vec[j];
        vec[j] = vec[i];
    }
    PyObject *out = PyList_New(52);
    if (!out) return NULL;
    for (int i = 0; i < 52; i++) {
        PyObject *card = PyLong_FromLong(picked[i]);
        if (!card) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, card);
    }
    return out;
}

static PyMethodDef deal_methods[] = {
    {"shuffled_deck", deal_shuffled_deck, METH_O,
     "shuffled_deck(deal) -> the 52 cards in the order they are dealt (deal.py's shuffled_deck, for a deal number\n"
     "already checked)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef deal_module = {PyModuleDef_HEAD_INIT, "_deal", "deal.py's shuffle, compiled", -1,
                                         deal_methods};

PyMODINIT_FUNC PyInit__deal(void) { return PyModule_Create(&deal_module); }
