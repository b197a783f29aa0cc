/* The compiled links of the hash chain (optional: see replay/chain_compiled.py).
 *
 * A bulk import spent most of its time in per-event Python: transposing the events, making each
 * one's canonical JSON (replay/canonical.py), splitting, hashing it in a worker process. This module
 * does the same work over the same Python objects, in one C pass:
 *
 *   columns(events) -> (game_ids, seqs, kinds, types, versions, payloads) | None
 *       tuple(zip(*events)) when every event is a tuple of six fields; None otherwise (the caller
 *       then transposes in Python).
 *   event_run_ends(events) -> list[int] | None
 *       where each run of equal (game_id, kind) ends: what itertools.groupby finds; None where
 *       ``columns`` would decline.
 *   chain(events, start, stop, word, fallback, native=False) -> bytes
 *       the links of events[start:stop] continuing from the 8-byte word ``word``: for each event,
 *       word = sha256(word + b"\n" + canonical body)[:8], the words joined (replay.chain.link_words);
 *       with ``native``, each as an int64 in this machine's byte order (an Arrow int64 buffer).
 *       The body is made here for plain JSON data (exact dict with str keys, list, tuple, str, int
 *       of 64 bits, bool, None); any other event (a float anywhere, a subclass, a lone surrogate,
 *       a huge int, deep nesting) is handed to ``fallback(event)``, the Python definition, which
 *       returns its bytes or raises what the definition raises. The bytes made here are the
 *       definition's by construction (json.dumps(sort_keys=True, separators=(",", ":"),
 *       ensure_ascii=False).encode()): tests/test_cchain.py compares them over generated values.
 *   sha256(data) -> bytes, sha256_portable(data) -> bytes
 *       the digest, with the processor's SHA instructions where it has them / without: for tests.
 *
 * SHA-256 is written here from FIPS 180-4 (the constants are computed at import from their
 * definition, the first 32 bits of the fractional parts of roots of primes). A call to hashlib per
 * event would cost more than the hashing: OpenSSL 3 sets up a context per call. Where the processor
 * has the SHA extensions (x86-64), the rounds run on them; elsewhere the portable rounds.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_SHANI_BUILD 1
#include <cpuid.h>
#include <immintrin.h>
#endif

/* ------------------------------------------------------------------ SHA-256 (FIPS 180-4) */

static uint32_t K[64];
static uint32_t H0[8];

static void init_constants(void) {
    /* 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes;
       5.3.3: of the square roots of the first 8 primes. */
    int primes[64], found = 0;
    for (int n = 2; found < 64; n++) {
        int prime = 1;
        for (int d = 2; d * d <= n; d++)
            if (n % d == 0) {
                prime = 0;
                break;
            }
        if (prime) primes[found++] = n;
    }
    for (int i = 0; i < 64; i++) {
        long double r = cbrtl((long double)primes[i]);
        K[i] = (uint32_t)((r - floorl(r)) * 4294967296.0L);
    }
    for (int i = 0; i < 8; i++) {
        long double r = sqrtl((long double)primes[i]);
        H0[i] = (uint32_t)((r - floorl(r)) * 4294967296.0L);
    }
}

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void rounds_portable(uint32_t h[8], const uint8_t *block, size_t blocks) {
    uint32_t w[64];
    for (; blocks; blocks--, block += 64) {
        for (int t = 0; t < 16; t++)
            w[t] = ((uint32_t)block[4 * t] << 24) | ((uint32_t)block[4 * t + 1] << 16) |
                   ((uint32_t)block[4 * t + 2] << 8) | (uint32_t)block[4 * t + 3];
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = hh + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
}

#ifdef HAVE_SHANI_BUILD
/* The same rounds on the SHA extensions. The state lives in two registers as the instructions want
   it, (a, b, e, f) and (c, d, g, h); sha256rnds2 does two rounds, sha256msg1/msg2 the schedule. */
__attribute__((target("sha,sse4.1,ssse3"))) static void rounds_shani(uint32_t h[8], const uint8_t *block,
                                                                      size_t blocks) {
    const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    __m128i abcd = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i efgh = _mm_loadu_si128((const __m128i *)&h[4]);
    __m128i badc = _mm_shuffle_epi32(abcd, 0xB1);             /* lanes b a d c */
    __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1B);             /* lanes h g f e */
    __m128i state0 = _mm_alignr_epi8(badc, hgfe, 8);          /* lanes f e b a: ABEF */
    __m128i state1 = _mm_blend_epi16(hgfe, badc, 0xF0);       /* lanes h g d c: CDGH */
    for (; blocks; blocks--, block += 64) {
        __m128i save0 = state0, save1 = state1, w[4], m;
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16 * i)), bswap);
#pragma GCC unroll 16 /* unrolled whole, w[] stays in registers */
        for (int r = 0; r < 16; r++) { /* rounds 4r .. 4r+3 with w[r % 4] = W[4r .. 4r+3] */
            __m128i cur = w[r & 3];
            m = _mm_add_epi32(cur, _mm_loadu_si128((const __m128i *)&K[4 * r]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, m);
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(m, 0x0E));
            if (r < 12) { /* W[4r+16 .. 4r+19] from W[4r ..], W[4r+4 ..], W[4r+8 ..], W[4r+12 ..] */
                __m128i next = _mm_sha256msg1_epu32(cur, w[(r + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(w[(r + 3) & 3], w[(r + 2) & 3], 4));
                w[r & 3] = _mm_sha256msg2_epu32(next, w[(r + 3) & 3]);
            }
        }
        state0 = _mm_add_epi32(state0, save0);
        state1 = _mm_add_epi32(state1, save1);
    }
    __m128i abef = _mm_shuffle_epi32(state0, 0x1B);           /* lanes a b e f */
    __m128i ghcd = _mm_shuffle_epi32(state1, 0xB1);           /* lanes g h c d */
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(abef, ghcd, 0xF0)); /* a b c d */
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(ghcd, abef, 8));    /* e f g h */
}

static int cpu_has_shani(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & bit_SSE4_1) || !(c & bit_SSSE3)) return 0;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 29) & 1; /* CPUID.(EAX=7,ECX=0):EBX.SHA[bit 29] */
}
#endif

typedef void (*rounds_fn)(uint32_t h[8], const uint8_t *block, size_t blocks);
static rounds_fn rounds = rounds_portable;

/* The message's length in bits, big-endian, in the 8 bytes before ``end``: the last of SHA-256's padding. */
static void put_bit_length(uint8_t *end, size_t len) {
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) end[-1 - i] = (uint8_t)(bits >> (8 * i));
}

/* The first ``n`` words of the state ``h`` as big-endian bytes: the digest (8 words) or a link's prefix. */
static void put_words(uint8_t *out, const uint32_t *h, int n) {
    for (int i = 0; i < n; i++) {
        out[4 * i] = (uint8_t)(h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h[i] >> 8);
        out[4 * i + 3] = (uint8_t)h[i];
    }
}

/* The digest of data[0:len] (5.1.1 padding: a 1 bit, zeros, the length in bits as 64 bits). */
static void sha256_with(rounds_fn fn, const uint8_t *data, size_t len, uint8_t out[32]) {
    uint32_t h[8];
    uint8_t tail[128];
    memcpy(h, H0, sizeof h);
    size_t full = len / 64;
    fn(h, data, full);
    size_t rest = len - 64 * full;
    memcpy(tail, data + 64 * full, rest);
    tail[rest] = 0x80;
    size_t tail_len = rest < 56 ? 64 : 128;
    memset(tail + rest + 1, 0, tail_len - rest - 1);
    put_bit_length(tail + tail_len, len);
    fn(h, tail, tail_len / 64);
    put_words(out, h, 8);
}

/* ------------------------------------------------------------------ canonical JSON */

typedef struct {
    char *data;
    size_t len, cap;
} Buffer;

static int reserve(Buffer *b, size_t more) {
    if (b->len + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more) cap *= 2;
    char *data = PyMem_Realloc(b->data, cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

#define DECLINE 1 /* not plain JSON data for this encoder: the Python definition decides */
#define MAX_DEPTH 100

static const char HEX[] = "0123456789abcdef";

/* json's escaping with ensure_ascii=False: '"', '\\' and the control characters below 0x20. UTF-8 bytes
   of other characters are all >= 0x80, so escaping the bytes is escaping the characters. */
static unsigned char ESCAPED[256]; /* the bytes put_string escapes (set at import) */

static int put_string(Buffer *b, PyObject *s) {
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(s, &size);
    if (text == NULL) { /* a lone surrogate: the definition raises its own error */
        PyErr_Clear();
        return DECLINE;
    }
    Py_ssize_t plain = 0;
    while (plain < size && !ESCAPED[(unsigned char)text[plain]]) plain++;
    if (reserve(b, (size_t)(size - plain) * 6 + (size_t)plain + 2) < 0) return -1;
    char *out = b->data + b->len;
    *out++ = '"';
    memcpy(out, text, (size_t)plain); /* nothing to escape before it: all of it, usually */
    out += plain;
    for (Py_ssize_t i = plain; i < size; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch >= 0x20 && ch != '"' && ch != '\\') {
            *out++ = (char)ch;
            continue;
        }
        *out++ = '\\';
        switch (ch) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '\n': *out++ = 'n'; break;
        case '\r': *out++ = 'r'; break;
        case '\t': *out++ = 't'; break;
        case '\b': *out++ = 'b'; break;
        case '\f': *out++ = 'f'; break;
        default:
            *out++ = 'u';
            *out++ = '0';
            *out++ = '0';
            *out++ = HEX[ch >> 4];
            *out++ = HEX[ch & 15];
        }
    }
    *out++ = '"';
    b->len = (size_t)(out - b->data);
    return 0;
}

static int put_raw(Buffer *b, const char *text, size_t len) {
    if (reserve(b, len) < 0) return -1;
    memcpy(b->data + b->len, text, len);
    b->len += len;
    return 0;
}

static int put_value(Buffer *b, PyObject *v, int depth);

/* int.__repr__ of a 64-bit value (snprintf costs several times more). */
static int put_int(Buffer *b, long long x) {
    if (reserve(b, 21) < 0) return -1;
    char digits[20], *out = b->data + b->len;
    unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    int n = 0;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0) *out++ = '-';
    while (n) *out++ = digits[--n];
    b->len = (size_t)(out - b->data);
    return 0;
}

typedef struct {
    PyObject *key, *value;
    const char *text;
    Py_ssize_t size;
} Item;

static int key_before(const Item *x, const Item *y) {
    /* Code point order (how sorted() orders str keys) is the UTF-8 bytes' order. */
    Py_ssize_t n = x->size < y->size ? x->size : y->size;
    int c = memcmp(x->text, y->text, (size_t)n);
    return c < 0 || (c == 0 && x->size < y->size);
}

/* The sorted order of a dict's keys, remembered by the key objects themselves (held, so an address is never
   another key's): a batch's payloads of one type have the same keys in the same order, sorted once. */
#define MEMO_KEYS 16
#define MEMO_SLOTS 64
typedef struct {
    Py_ssize_t n;
    PyObject *keys[MEMO_KEYS]; /* in the dict's order, strong references */
    unsigned char order[MEMO_KEYS];
} KeyOrder;
static KeyOrder key_orders[MEMO_SLOTS];

static KeyOrder *key_order_slot(PyObject *const *keys, Py_ssize_t n) {
    uintptr_t h = (uintptr_t)n;
    for (Py_ssize_t i = 0; i < n; i++) h = h * 31 + ((uintptr_t)keys[i] >> 4);
    return &key_orders[h % MEMO_SLOTS];
}

/* The dict's items in sorted key order from a remembered order; 0 if none is remembered for these keys. */
static int remembered(Item *items, PyObject *d, Py_ssize_t n) {
    PyObject *keys[MEMO_KEYS], *values[MEMO_KEYS], *key, *value;
    Py_ssize_t pos = 0, i = 0;
    while (PyDict_Next(d, &pos, &key, &value)) {
        keys[i] = key;
        values[i++] = value;
    }
    KeyOrder *memo = key_order_slot(keys, n);
    if (memo->n != n) return 0;
    for (i = 0; i < n; i++)
        if (memo->keys[i] != keys[i]) return 0;
    for (i = 0; i < n; i++) {
        Py_ssize_t j = memo->order[i];
        items[i].key = keys[j];
        items[i].value = values[j];
    }
    return 1;
}

/* Remember the sorted order of a dict whose items were just sorted (every key an exact str). */
static void remember(const Item *items, PyObject *d, Py_ssize_t n) {
    PyObject *keys[MEMO_KEYS], *key, *value;
    Py_ssize_t pos = 0, i = 0;
    while (PyDict_Next(d, &pos, &key, &value)) keys[i++] = key;
    KeyOrder *memo = key_order_slot(keys, n);
    for (i = 0; i < memo->n; i++) Py_CLEAR(memo->keys[i]);
    for (i = 0; i < n; i++) {
        memo->keys[i] = Py_NewRef(keys[i]);
        for (Py_ssize_t j = 0; j < n; j++)
            if (items[j].key == keys[i]) memo->order[j] = (unsigned char)i;
    }
    memo->n = n;
}

static int put_dict(Buffer *b, PyObject *d, int depth) {
    Py_ssize_t n = PyDict_GET_SIZE(d);
    if (n == 0) return put_raw(b, "{}", 2);
    Item small[16];
    Item *items = n <= 16 ? small : PyMem_Malloc(sizeof(Item) * (size_t)n);
    if (items == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    int result = 0;
    if (n <= MEMO_KEYS && remembered(items, d, n)) goto write;
    while (PyDict_Next(d, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) {
            result = DECLINE;
            goto done;
        }
        Item it = {key, value, NULL, 0};
        it.text = PyUnicode_AsUTF8AndSize(key, &it.size);
        if (it.text == NULL) {
            PyErr_Clear();
            result = DECLINE;
            goto done;
        }
        Py_ssize_t j = i++; /* insertion sort: payloads have a handful of keys */
        while (j > 0 && key_before(&it, &items[j - 1])) {
            items[j] = items[j - 1];
            j--;
        }
        items[j] = it;
    }
    if (i != n) { /* changed while read (it cannot here: nothing runs Python code meanwhile) */
        result = DECLINE;
        goto done;
    }
    if (n <= MEMO_KEYS) remember(items, d, n);
write:
    for (i = 0; i < n; i++) {
        if ((result = put_raw(b, i ? "," : "{", 1)) != 0) goto done;
        if ((result = put_string(b, items[i].key)) != 0) goto done;
        if ((result = put_raw(b, ":", 1)) != 0) goto done;
        if ((result = put_value(b, items[i].value, depth + 1)) != 0) goto done;
    }
    result = put_raw(b, "}", 1);
done:
    if (items != small) PyMem_Free(items);
    return result;
}

static int put_items(Buffer *b, PyObject *const *items, Py_ssize_t n, int depth) {
    if (n == 0) return put_raw(b, "[]", 2);
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = put_raw(b, i ? "," : "[", 1);
        if (r == 0) r = put_value(b, items[i], depth + 1);
        if (r != 0) return r;
    }
    return put_raw(b, "]", 1);
}

static int put_value(Buffer *b, PyObject *v, int depth) {
    if (depth > MAX_DEPTH) return DECLINE;
    if (PyUnicode_CheckExact(v)) return put_string(b, v);
    if (PyLong_CheckExact(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow) return DECLINE;
        if (x == -1 && PyErr_Occurred()) return -1;
        return put_int(b, x);
    }
    if (PyDict_CheckExact(v)) return put_dict(b, v, depth);
    if (PyList_CheckExact(v)) {
        /* Nothing here runs Python code, so the list cannot change while it is written. */
        return put_items(b, PySequence_Fast_ITEMS(v), PyList_GET_SIZE(v), depth);
    }
    if (PyTuple_CheckExact(v)) return put_items(b, PySequence_Fast_ITEMS(v), PyTuple_GET_SIZE(v), depth);
    if (v == Py_None) return put_raw(b, "null", 4);
    if (v == Py_True) return put_raw(b, "true", 4);
    if (v == Py_False) return put_raw(b, "false", 5);
    return DECLINE; /* floats (repr's digits), subclasses, anything else: the definition decides */
}

/* ------------------------------------------------------------------ the module's functions */

static PyObject *py_sha256(PyObject *self, PyObject *arg, rounds_fn fn) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    uint8_t digest[32];
    sha256_with(fn, view.buf, (size_t)view.len, digest);
    PyBuffer_Release(&view);
    return PyBytes_FromStringAndSize((const char *)digest, 32);
}

static PyObject *sha256_fast(PyObject *self, PyObject *arg) { return py_sha256(self, arg, rounds); }
static PyObject *sha256_portable(PyObject *self, PyObject *arg) { return py_sha256(self, arg, rounds_portable); }

static PyObject *canonical(PyObject *self, PyObject *arg) {
    /* The canonical body of one value, or None where the definition must decide (for tests). */
    Buffer b = {NULL, 0, 0};
    int r = put_value(&b, arg, 0);
    PyObject *out = r == 0 ? PyBytes_FromStringAndSize(b.data, (Py_ssize_t)b.len) : NULL;
    PyMem_Free(b.data);
    if (r == DECLINE) Py_RETURN_NONE;
    return out;
}

static int builder_put_any(PyObject *sink, PyObject *e);

static PyObject *chain(PyObject *self, PyObject *args) {
    PyObject *events, *fallback, *sink = Py_None;
    Py_ssize_t start, stop;
    const char *word;
    Py_ssize_t word_len;
    int native = 0;
    if (!PyArg_ParseTuple(args, "Onny#O|pO", &events, &start, &stop, &word, &word_len, &fallback, &native, &sink)) return NULL;
    if (!PyList_CheckExact(events) && !PyTuple_CheckExact(events)) {
        PyErr_SetString(PyExc_TypeError, "chain: events must be a list or a tuple");
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(events);
    if (word_len != 8 || start < 0 || stop > n || start > stop) {
        PyErr_SetString(PyExc_ValueError, "chain: an 8-byte word and 0 <= start <= stop <= len(events)");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, 8 * (stop - start));
    if (out == NULL) return NULL;
    char *words = PyBytes_AS_STRING(out);
    Buffer b = {NULL, 0, 0};
    if (reserve(&b, 512) < 0) goto fail;
    memcpy(b.data, word, 8);
    b.data[8] = '\n';
    for (Py_ssize_t i = start; i < stop; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(events, i); /* re-read: the fallback may run Python code */
        b.len = 9;
        int r = DECLINE;
        if (PyTuple_Check(e) && PyTuple_GET_SIZE(e) == 6) r = put_items(&b, PySequence_Fast_ITEMS(e), 6, 0);
        if (r < 0) goto fail;
        if (r == DECLINE) {
            b.len = 9;
            Py_INCREF(e);
            PyObject *body = PyObject_CallOneArg(fallback, e);
            Py_DECREF(e);
            if (body == NULL) goto fail;
            if (!PyBytes_Check(body)) {
                Py_DECREF(body);
                PyErr_SetString(PyExc_TypeError, "chain: the fallback must return bytes");
                goto fail;
            }
            int put = put_raw(&b, PyBytes_AS_STRING(body), (size_t)PyBytes_GET_SIZE(body));
            Py_DECREF(body);
            if (put < 0) goto fail;
            if (PyList_CheckExact(events) && PyList_GET_SIZE(events) < stop) {
                PyErr_SetString(PyExc_RuntimeError, "chain: the events changed while they were hashed");
                goto fail;
            }
        }
        /* 5.1.1 padding written in place after the message (no copy of its tail), then only the first
           two words of the digest are needed: the link's 8 bytes. */
        if (reserve(&b, 72) < 0) goto fail;
        size_t len = b.len, total = ((len + 8) / 64 + 1) * 64;
        uint8_t *m = (uint8_t *)b.data;
        m[len] = 0x80;
        memset(m + len + 1, 0, total - len - 1 - 8);
        put_bit_length(m + total, len);
        uint32_t h[8];
        memcpy(h, H0, sizeof h);
        rounds(h, m, total / 64);
        put_words(m, h, 2);
        if (sink != Py_None && builder_put_any(sink, PySequence_Fast_GET_ITEM(events, i)) < 0) goto fail;
        if (native) { /* the link as an int64 in this machine's order: an Arrow column's buffer as it is */
            int64_t link = (int64_t)(((uint64_t)h[0] << 32) | h[1]);
            memcpy(words + 8 * (i - start), &link, 8);
        } else {
            memcpy(words + 8 * (i - start), m, 8);
        }
    }
    PyMem_Free(b.data);
    return out;
fail:
    PyMem_Free(b.data);
    Py_DECREF(out);
    return NULL;
}

/* Whether ``events`` is a list or tuple of 6-tuples (Event tuples), what columns and event_run_ends take;
   its length and items in ``n`` and ``items``. */
static int six_tuples(PyObject *events, Py_ssize_t *n, PyObject *const **items) {
    if (!PyList_CheckExact(events) && !PyTuple_CheckExact(events)) return 0;
    *n = PySequence_Fast_GET_SIZE(events);
    *items = PySequence_Fast_ITEMS(events);
    for (Py_ssize_t i = 0; i < *n; i++)
        if (!PyTuple_Check((*items)[i]) || PyTuple_GET_SIZE((*items)[i]) != 6) return 0;
    return 1;
}

static PyObject *columns(PyObject *self, PyObject *events) {
    Py_ssize_t n;
    PyObject *const *items;
    if (!six_tuples(events, &n, &items)) Py_RETURN_NONE;
    PyObject *out = PyTuple_New(6);
    if (out == NULL) return NULL;
    for (int f = 0; f < 6; f++) {
        PyObject *column = PyTuple_New(n);
        if (column == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = PyTuple_GET_ITEM(items[i], f);
            Py_INCREF(v);
            PyTuple_SET_ITEM(column, i, v);
        }
        PyTuple_SET_ITEM(out, f, column);
    }
    return out;
}

/* event_run_ends(events) -> list | None: where each run of equal (game id, kind) ends, read from the events
   themselves (no transposed columns), or None where ``columns`` would return None (not a list or tuple of 6-tuples). */
static PyObject *event_run_ends(PyObject *self, PyObject *events) {
    Py_ssize_t n;
    PyObject *const *items;
    if (!six_tuples(events, &n, &items)) Py_RETURN_NONE;
    PyObject *ends = PyList_New(0);
    if (ends == NULL) return NULL;
    for (Py_ssize_t i = 1; i <= n; i++) {
        int same = 0;
        if (i < n) {
            PyObject *x = items[i - 1], *y = items[i];
            PyObject *a = PyTuple_GET_ITEM(x, 0), *b = PyTuple_GET_ITEM(y, 0);
            same = a == b ? 1 : PyObject_RichCompareBool(a, b, Py_EQ);
            if (same == 1) {
                a = PyTuple_GET_ITEM(x, 2), b = PyTuple_GET_ITEM(y, 2);
                same = a == b ? 1 : PyObject_RichCompareBool(a, b, Py_EQ);
            }
            if (same < 0) goto fail;
        }
        if (!same) {
            PyObject *end = PyLong_FromSsize_t(i);
            if (end == NULL || PyList_Append(ends, end) < 0) {
                Py_XDECREF(end);
                goto fail;
            }
            Py_DECREF(end);
        }
    }
    return ends;
fail:
    Py_DECREF(ends);
    return NULL;
}

/* ------------------------------------------------------------------ Arrow buffers from Python values */

static int grow(Buffer *b, size_t more) { return reserve(b, more); }

/* A column's Arrow buffers, written value by value: codes 'q' 'i' 'h' 'b' (int64/32/16/8: exact ints in
   range), '?' (bool: True/False), 'd' (float64: exact floats), 's' (string: exact str, int32 offsets).
   None (a null) only where nullable. Anything else is declined: pyarrow then converts the values as it
   always did (and raises what it raises). */
typedef struct {
    int code, width, nullable;
    long long low, high;
    Py_ssize_t i, nulls;
    Buffer validity, data, offsets;
} Writer;

static int writer_init(Writer *w, int code, int nullable, Py_ssize_t n) {
    memset(w, 0, sizeof *w);
    w->code = code;
    w->nullable = nullable;
    switch (code) {
    case 'q': w->width = 8; w->low = INT64_MIN; w->high = INT64_MAX; break;
    case 'i': w->width = 4; w->low = INT32_MIN; w->high = INT32_MAX; break;
    case 'h': w->width = 2; w->low = INT16_MIN; w->high = INT16_MAX; break;
    case 'b': w->width = 1; w->low = INT8_MIN; w->high = INT8_MAX; break;
    case 'd': w->width = 8; break;
    case '?': case 's': w->width = 0; break;
    default: PyErr_SetString(PyExc_ValueError, "column: unknown code"); return -1;
    }
    size_t bitmap = (size_t)(n + 7) / 8 + 1;
    if (grow(&w->validity, bitmap) < 0) return -1;
    memset(w->validity.data, 0, bitmap);
    w->validity.len = (size_t)(n + 7) / 8;
    if (code == '?') {
        if (grow(&w->data, bitmap) < 0) return -1;
        memset(w->data.data, 0, bitmap);
        w->data.len = (size_t)(n + 7) / 8;
    } else if (code == 's') {
        if (grow(&w->offsets, 4 * (size_t)(n + 1)) < 0) return -1;
        memset(w->offsets.data, 0, 4);
        w->offsets.len = 4;
    } else if (grow(&w->data, (size_t)w->width * (size_t)n + 1) < 0) {
        return -1;
    }
    return 0;
}

static void writer_free(Writer *w) {
    PyMem_Free(w->validity.data);
    PyMem_Free(w->data.data);
    PyMem_Free(w->offsets.data);
    memset(w, 0, sizeof *w);
}

/* A value that holds no data: a null, or (``valid``) the type's blank value (0, False, ""). */
static void writer_empty(Writer *w, int valid) {
    Py_ssize_t i = w->i++;
    if (valid) w->validity.data[i >> 3] |= (char)(1 << (i & 7));
    else w->nulls++;
    if (w->code == 's') {
        memcpy(w->offsets.data + w->offsets.len, w->offsets.data + w->offsets.len - 4, 4);
        w->offsets.len += 4;
    } else if (w->code != '?') {
        memset(w->data.data + w->data.len, 0, (size_t)w->width);
        w->data.len += (size_t)w->width;
    }
}

static int writer_put(Writer *w, PyObject *v) {
    if (v == Py_None) {
        if (!w->nullable) return DECLINE;
        writer_empty(w, 0);
        return 0;
    }
    Py_ssize_t i = w->i;
    if (w->code == 's') {
        if (!PyUnicode_CheckExact(v)) return DECLINE;
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(v, &size);
        if (text == NULL) {
            PyErr_Clear();
            return DECLINE;
        }
        if ((long long)w->data.len + size > INT32_MAX) return DECLINE;
        if (put_raw(&w->data, text, (size_t)size) < 0) return -1;
        int32_t end = (int32_t)w->data.len;
        memcpy(w->offsets.data + w->offsets.len, &end, 4);
        w->offsets.len += 4;
    } else if (w->code == '?') {
        if (v == Py_True) w->data.data[i >> 3] |= (char)(1 << (i & 7));
        else if (v != Py_False) return DECLINE;
    } else if (w->code == 'd') {
        if (!PyFloat_CheckExact(v)) return DECLINE;
        double x = PyFloat_AS_DOUBLE(v);
        memcpy(w->data.data + w->data.len, &x, 8);
        w->data.len += 8;
    } else {
        if (!PyLong_CheckExact(v)) return DECLINE;
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (overflow || x < w->low || x > w->high) return DECLINE;
        char *at = w->data.data + w->data.len;
        if (w->width == 8) { int64_t y = (int64_t)x; memcpy(at, &y, 8); }
        else if (w->width == 4) { int32_t y = (int32_t)x; memcpy(at, &y, 4); }
        else if (w->width == 2) { int16_t y = (int16_t)x; memcpy(at, &y, 2); }
        else { int8_t y = (int8_t)x; memcpy(at, &y, 1); }
        w->data.len += (size_t)w->width;
    }
    w->validity.data[i >> 3] |= (char)(1 << (i & 7));
    w->i++;
    return 0;
}

/* (validity | None, data, offsets | None) as bytes; the writer is freed. */
static PyObject *writer_finish(Writer *w) {
    PyObject *v = w->nulls ? PyBytes_FromStringAndSize(w->validity.data, (Py_ssize_t)w->validity.len) : Py_NewRef(Py_None);
    PyObject *d = PyBytes_FromStringAndSize(w->data.data ? w->data.data : "", (Py_ssize_t)w->data.len);
    PyObject *o = w->code == 's' ? PyBytes_FromStringAndSize(w->offsets.data, (Py_ssize_t)w->offsets.len)
                                 : Py_NewRef(Py_None);
    PyObject *out = v && d && o ? PyTuple_Pack(3, v, d, o) : NULL;
    Py_XDECREF(v);
    Py_XDECREF(d);
    Py_XDECREF(o);
    writer_free(w);
    return out;
}

/* column(values, code, nullable[, index]) -> (validity | None, data, offsets | None) | None
   With ``index``, the values are each record's item at that index (``values`` a list of exact tuples, a derived
   table's records): read in place, where transposing the records first made a tuple a column. */
static PyObject *column(PyObject *self, PyObject *args) {
    PyObject *values;
    int code, nullable;
    Py_ssize_t index = -1;
    if (!PyArg_ParseTuple(args, "OCp|n", &values, &code, &nullable, &index)) return NULL;
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(values);
    PyObject *const *items = PySequence_Fast_ITEMS(values);
    if (index >= 0)
        for (Py_ssize_t i = 0; i < n; i++)
            if (!PyTuple_CheckExact(items[i]) || PyTuple_GET_SIZE(items[i]) <= index) Py_RETURN_NONE;
    Writer w;
    if (writer_init(&w, code, nullable, n) < 0) {
        writer_free(&w);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = writer_put(&w, index >= 0 ? PyTuple_GET_ITEM(items[i], index) : items[i]);
        if (r != 0) {
            writer_free(&w);
            if (r < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    return writer_finish(&w);
}

/* Whether a row's type is ``name``: the few distinct type objects of a batch are compared once each. */
typedef struct {
    PyObject *seen[8];
    int same[8], count;
} TypeCache;

static int is_type(TypeCache *c, PyObject *t, PyObject *name) {
    if (t == name) return 1;
    for (int j = 0; j < c->count; j++)
        if (c->seen[j] == t) return c->same[j];
    int same = PyObject_RichCompareBool(t, name, Py_EQ);
    if (same >= 0 && c->count < 8) {
        c->seen[c->count] = t; /* borrowed: the types tuple holds it for the whole call */
        c->same[c->count++] = same;
    }
    return same;
}

/* positions(types, name, other) -> (indices, mask): int64 indices, row i of type ``name`` taking the next
   of that type's values (0, 1, 2, ...) and every other row ``other``; mask: a bitmap of the other rows.
   What replay.schema._spread computes with six Arrow passes, in one. */
static PyObject *positions(PyObject *self, PyObject *args) {
    PyObject *types, *name;
    long long other;
    if (!PyArg_ParseTuple(args, "O!UL", &PyTuple_Type, &types, &name, &other)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(types);
    PyObject *indices = PyBytes_FromStringAndSize(NULL, 8 * n);
    PyObject *mask = PyBytes_FromStringAndSize(NULL, (n + 7) / 8);
    if (indices == NULL || mask == NULL) goto fail;
    int64_t *at = (int64_t *)PyBytes_AS_STRING(indices);
    char *bits = PyBytes_AS_STRING(mask);
    memset(bits, 0, (size_t)(n + 7) / 8);
    TypeCache cache = {{NULL}, {0}, 0};
    int64_t next = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int same = is_type(&cache, PyTuple_GET_ITEM(types, i), name);
        if (same < 0) goto fail;
        if (same) {
            at[i] = next++;
        } else {
            at[i] = other;
            bits[i >> 3] |= (char)(1 << (i & 7));
        }
    }
    PyObject *out = PyTuple_Pack(2, indices, mask);
    Py_DECREF(indices);
    Py_DECREF(mask);
    return out;
fail:
    Py_XDECREF(indices);
    Py_XDECREF(mask);
    return NULL;
}

/* fields(payloads, names) -> tuple of tuples | None: each name's values over the payloads, when every
   payload is an exact dict holding exactly those keys (else None: pyarrow converts the dicts as before). */
static PyObject *fields(PyObject *self, PyObject *args) {
    PyObject *payloads, *names;
    if (!PyArg_ParseTuple(args, "OO!", &payloads, &PyTuple_Type, &names)) return NULL;
    if (!PyList_CheckExact(payloads) && !PyTuple_CheckExact(payloads)) Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(payloads), k = PyTuple_GET_SIZE(names);
    PyObject *const *items = PySequence_Fast_ITEMS(payloads);
    PyObject *out = PyTuple_New(k);
    if (out == NULL) return NULL;
    for (Py_ssize_t f = 0; f < k; f++) {
        PyObject *values = PyTuple_New(n);
        if (values == NULL) goto fail;
        PyTuple_SET_ITEM(out, f, values);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = items[i];
        if (!PyDict_CheckExact(p) || PyDict_GET_SIZE(p) != k) goto decline;
        for (Py_ssize_t f = 0; f < k; f++) {
            PyObject *v = PyDict_GetItemWithError(p, PyTuple_GET_ITEM(names, f));
            if (v == NULL) {
                if (PyErr_Occurred()) goto fail;
                goto decline;
            }
            PyTuple_SET_ITEM(PyTuple_GET_ITEM(out, f), i, Py_NewRef(v));
        }
    }
    return out;
decline:
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(out);
    return NULL;
}

/* group(types, payloads) -> {type: [payload, ...]}: the payloads of each type, in row order. */
static PyObject *group(PyObject *self, PyObject *args) {
    PyObject *types, *payloads;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &types, &PyTuple_Type, &payloads)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(types);
    if (PyTuple_GET_SIZE(payloads) != n) {
        PyErr_SetString(PyExc_ValueError, "group: columns of different lengths");
        return NULL;
    }
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    PyObject *last_type = NULL, *last = NULL; /* runs of one type are common: skip the lookup */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(types, i);
        PyObject *into = t == last_type ? last : PyDict_GetItemWithError(out, t);
        if (into == NULL) {
            if (PyErr_Occurred()) goto fail;
            into = PyList_New(0);
            if (into == NULL) goto fail;
            int put = PyDict_SetItem(out, t, into);
            Py_DECREF(into);
            if (put < 0) goto fail;
        }
        last_type = t;
        last = into;
        if (PyList_Append(into, PyTuple_GET_ITEM(payloads, i)) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* spread(types, name, payloads, names, codes, nullables) -> (count, mask | None, ((validity | None, data,
   offsets | None), ...)) | None. One type's payload fields straight to full-length Arrow buffers: row i of
   type ``name`` holds payloads[i]'s fields, every other row the blank that replay.schema._spread takes there
   (0, False, "" for a non-nullable field, null for a nullable one) and is null in ``mask``. What
   fields + column + positions + an Arrow take did in four passes (the payload dicts read twice, a struct
   copied), in one, while each payload is in cache. Declined (None) where ``fields`` or ``column`` would
   decline: the caller then takes the old way, which converts or raises as it always did. */
static PyObject *spread(PyObject *self, PyObject *args) {
    PyObject *types, *name, *payloads, *names;
    const char *codes, *nullables;
    Py_ssize_t codes_len, nullables_len;
    if (!PyArg_ParseTuple(args, "O!UO!O!y#y#", &PyTuple_Type, &types, &name, &PyTuple_Type, &payloads,
                          &PyTuple_Type, &names, &codes, &codes_len, &nullables, &nullables_len)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(types), k = PyTuple_GET_SIZE(names);
    if (PyTuple_GET_SIZE(payloads) != n || codes_len != k || nullables_len != k) {
        PyErr_SetString(PyExc_ValueError, "spread: columns of different lengths");
        return NULL;
    }
    PyObject *out = NULL, *mask = PyBytes_FromStringAndSize(NULL, (n + 7) / 8);
    Writer *ws = PyMem_Calloc((size_t)(k ? k : 1), sizeof(Writer));
    if (mask == NULL || ws == NULL) goto fail;
    char *bits = PyBytes_AS_STRING(mask);
    memset(bits, 0, (size_t)(n + 7) / 8);
    for (Py_ssize_t f = 0; f < k; f++)
        if (writer_init(&ws[f], codes[f], nullables[f] != 0, n) < 0) goto fail;
    TypeCache cache = {{NULL}, {0}, 0};
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int same = is_type(&cache, PyTuple_GET_ITEM(types, i), name);
        if (same < 0) goto fail;
        if (!same) {
            bits[i >> 3] |= (char)(1 << (i & 7));
            for (Py_ssize_t f = 0; f < k; f++) writer_empty(&ws[f], !ws[f].nullable);
            continue;
        }
        count++;
        PyObject *p = PyTuple_GET_ITEM(payloads, i);
        if (!PyDict_CheckExact(p) || PyDict_GET_SIZE(p) != k) goto decline;
        for (Py_ssize_t f = 0; f < k; f++) {
            PyObject *v = PyDict_GetItemWithError(p, PyTuple_GET_ITEM(names, f));
            if (v == NULL) {
                if (PyErr_Occurred()) goto fail;
                goto decline;
            }
            int r = writer_put(&ws[f], v);
            if (r < 0) goto fail;
            if (r == DECLINE) goto decline;
        }
    }
    PyObject *built = PyTuple_New(k);
    if (built == NULL) goto fail;
    for (Py_ssize_t f = 0; f < k; f++) {
        PyObject *one = writer_finish(&ws[f]);
        if (one == NULL) {
            Py_DECREF(built);
            goto fail;
        }
        PyTuple_SET_ITEM(built, f, one);
    }
    out = Py_BuildValue("(nNN)", count, count == n ? (Py_DECREF(mask), Py_NewRef(Py_None)) : mask, built);
    PyMem_Free(ws);
    return out;
decline:
    for (Py_ssize_t f = 0; f < k; f++) writer_free(&ws[f]);
    PyMem_Free(ws);
    Py_DECREF(mask);
    Py_RETURN_NONE;
fail:
    if (ws != NULL)
        for (Py_ssize_t f = 0; f < k; f++) writer_free(&ws[f]);
    PyMem_Free(ws);
    Py_XDECREF(mask);
    return NULL;
}

/* ------------------------------------------------------------------ nested payload columns */

/* Room in a writer for one more value, for a column whose length is not known before it is written
   (the fields of a list's elements): the bitmaps grow a byte at a time, the data as it is written. */
static int writer_room(Writer *w) {
    size_t byte = (size_t)(w->i >> 3);
    if (byte >= w->validity.len) {
        if (reserve(&w->validity, 1) < 0) return -1;
        w->validity.data[w->validity.len++] = 0;
    }
    if (w->code == '?') {
        if (byte >= w->data.len) {
            if (reserve(&w->data, 1) < 0) return -1;
            w->data.data[w->data.len++] = 0;
        }
        return 0;
    }
    if (w->code == 's') return reserve(&w->offsets, 4);
    return reserve(&w->data, (size_t)w->width);
}

/* One column of a nested type, as nested() writes it. The spec says what it is:
     ("p", code, nullable)   a plain value (Writer's codes);
     ("s", names, specs)     a struct, never null: an exact dict holding exactly those keys;
     ("l", spec)             a list, never null: an exact list, its elements written to one child column;
     ("o",)                  anything else (a map): the values kept, for pyarrow to convert. */
typedef struct Node {
    char kind;
    Writer w;
    PyObject *names;      /* "s": the keys (the spec's tuple, borrowed: the spec outlives the call) */
    Py_ssize_t k;         /* "s": how many */
    struct Node *child;   /* "s": k nodes; "l": one */
    Buffer offsets;       /* "l": int32 offsets, the first 0 */
    long long total;      /* "l": elements so far */
    PyObject *kept;       /* "o": the values */
} Node;

#define NESTED_DEPTH 16

static void node_free(Node *nd) {
    if (nd->kind == 'p') writer_free(&nd->w);
    if (nd->child != NULL) {
        Py_ssize_t m = nd->kind == 's' ? nd->k : 1;
        for (Py_ssize_t j = 0; j < m; j++) node_free(&nd->child[j]);
        PyMem_Free(nd->child);
        nd->child = NULL;
    }
    PyMem_Free(nd->offsets.data);
    nd->offsets.data = NULL;
    Py_CLEAR(nd->kept);
}

/* A node from its spec (zeroed before); -1 with an error for a spec that is not one. */
static int node_init(Node *nd, PyObject *spec, int depth) {
    const char *kind;
    if (depth > NESTED_DEPTH || !PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) < 1
        || !PyUnicode_CheckExact(PyTuple_GET_ITEM(spec, 0)) || (kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(spec, 0))) == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "nested: not a column spec");
        return -1;
    }
    nd->kind = kind[0];
    Py_ssize_t size = PyTuple_GET_SIZE(spec);
    if (nd->kind == 'p' && size == 3) {
        const char *code = PyUnicode_Check(PyTuple_GET_ITEM(spec, 1)) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(spec, 1)) : NULL;
        int nullable = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 2));
        if (code == NULL || nullable < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "nested: a plain column's code is a str");
            return -1;
        }
        return writer_init(&nd->w, code[0], nullable, 0);
    }
    if (nd->kind == 's' && size == 3 && PyTuple_CheckExact(PyTuple_GET_ITEM(spec, 1))
        && PyTuple_CheckExact(PyTuple_GET_ITEM(spec, 2))
        && PyTuple_GET_SIZE(PyTuple_GET_ITEM(spec, 1)) == PyTuple_GET_SIZE(PyTuple_GET_ITEM(spec, 2))) {
        nd->names = PyTuple_GET_ITEM(spec, 1);
        nd->k = PyTuple_GET_SIZE(nd->names);
        nd->child = PyMem_Calloc((size_t)(nd->k ? nd->k : 1), sizeof(Node));
        if (nd->child == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t j = 0; j < nd->k; j++)
            if (node_init(&nd->child[j], PyTuple_GET_ITEM(PyTuple_GET_ITEM(spec, 2), j), depth + 1) < 0) return -1;
        return 0;
    }
    if (nd->kind == 'l' && size == 2) {
        nd->child = PyMem_Calloc(1, sizeof(Node));
        if (nd->child == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        if (reserve(&nd->offsets, 4) < 0) return -1;
        memset(nd->offsets.data, 0, 4);
        nd->offsets.len = 4;
        return node_init(nd->child, PyTuple_GET_ITEM(spec, 1), depth + 1);
    }
    if (nd->kind == 'o' && size == 1) {
        nd->kept = PyList_New(0);
        return nd->kept == NULL ? -1 : 0;
    }
    PyErr_SetString(PyExc_ValueError, "nested: not a column spec");
    return -1;
}

/* One value into its node: 0, DECLINE (not what the spec takes as it is: pyarrow decides) or -1. */
static int node_put(Node *nd, PyObject *v) {
    int r = 0;
    switch (nd->kind) {
    case 'p':
        if (writer_room(&nd->w) < 0) return -1;
        return writer_put(&nd->w, v);
    case 'o':
        return PyList_Append(nd->kept, v);
    case 's':
        if (!PyDict_CheckExact(v) || PyDict_GET_SIZE(v) != nd->k) return DECLINE;
        for (Py_ssize_t j = 0; j < nd->k && r == 0; j++) {
            PyObject *x = PyDict_GetItemWithError(v, PyTuple_GET_ITEM(nd->names, j));
            if (x == NULL) return PyErr_Occurred() ? -1 : DECLINE;
            Py_INCREF(x);
            r = node_put(&nd->child[j], x);
            Py_DECREF(x);
        }
        return r;
    case 'l':
        if (!PyList_CheckExact(v)) return DECLINE;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v) && r == 0; j++) {
            PyObject *x = Py_NewRef(PyList_GET_ITEM(v, j));
            r = node_put(nd->child, x);
            Py_DECREF(x);
            nd->total++;
        }
        if (r != 0) return r;
        if (nd->total > INT32_MAX) return DECLINE;
        if (reserve(&nd->offsets, 4) < 0) return -1;
        int32_t end = (int32_t)nd->total;
        memcpy(nd->offsets.data + nd->offsets.len, &end, 4);
        nd->offsets.len += 4;
        return 0;
    }
    return DECLINE;
}

/* What a node wrote: "p" (validity | None, data, offsets | None); "s" a tuple of its children's;
   "l" (offsets, elements, its child's); "o" the list of values. The node's buffers are freed. */
static PyObject *node_finish(Node *nd) {
    switch (nd->kind) {
    case 'p':
        return writer_finish(&nd->w);
    case 'o':
        return Py_NewRef(nd->kept);
    case 's': {
        PyObject *out = PyTuple_New(nd->k);
        for (Py_ssize_t j = 0; out != NULL && j < nd->k; j++) {
            PyObject *c = node_finish(&nd->child[j]);
            if (c == NULL) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, j, c);
        }
        return out;
    }
    case 'l': {
        PyObject *offsets = PyBytes_FromStringAndSize(nd->offsets.data, (Py_ssize_t)nd->offsets.len);
        PyObject *c = offsets ? node_finish(nd->child) : NULL;
        PyObject *out = c ? Py_BuildValue("(OLO)", offsets, nd->total, c) : NULL;
        Py_XDECREF(offsets);
        Py_XDECREF(c);
        return out;
    }
    }
    Py_RETURN_NONE;
}

/* nested(values, spec) -> what node_finish gives for the values as one column of the spec's type, or None
   where a value is not what the spec takes as it is (pyarrow then converts them all, or raises what it
   raises). Each value is read once, while it is in cache: the nested payloads (a turn's dice, an action's
   steps) that pyarrow converted object by object. */
static PyObject *nested(PyObject *self, PyObject *args) {
    PyObject *values, *spec;
    if (!PyArg_ParseTuple(args, "OO!", &values, &PyTuple_Type, &spec)) return NULL;
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) Py_RETURN_NONE;
    Node root;
    memset(&root, 0, sizeof root);
    PyObject *out = NULL;
    if (node_init(&root, spec, 0) < 0) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(values);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = Py_NewRef(PySequence_Fast_ITEMS(values)[i]);
        int r = node_put(&root, v);
        Py_DECREF(v);
        if (r < 0) goto done;
        if (r == DECLINE) {
            out = Py_NewRef(Py_None);
            goto done;
        }
    }
    out = node_finish(&root);
done:
    node_free(&root);
    return out;
}

/* ------------------------------------------------------------------ the columns, fused into the chain's pass */

/* A kind's columns written while its events are hashed: ``chain`` hands each event to the builder right after
   its canonical body, while the event's objects are in cache, instead of five later passes over the whole
   batch (transposing, the envelope columns, grouping, each type's fields, the spreads) each waiting for memory
   again. It writes the envelope columns and, for each type whose fields are all plain values, those fields
   spread to every row as ``spread`` does. It never raises for a value: anything it does not take exactly
   makes it decline (``builder_finish`` returns None) and the columns are then made the old way, which
   converts or raises as before. */
#define BUILDER_TYPES 32
#define BUILDER_SEEN 16
static const char BUILDER_NAME[] = "replay._cchain.builder";

typedef struct {
    PyObject *name, *names; /* held: the type's name, its fields' names (a tuple) */
    Py_ssize_t k, count;
    Writer *ws;
    Buffer mask; /* rows of other types: set */
} Plain;

typedef struct {
    Py_ssize_t capacity, i;
    int declined;
    PyObject **types_col, **payloads_col; /* held: each row's type and payload, for the types it does not write */
    Writer envelope[5];
    Py_ssize_t types;
    Plain plain[BUILDER_TYPES];
    PyObject *seen[BUILDER_SEEN]; /* held: type objects met, and which plain type each is (-1: none) */
    int seen_index[BUILDER_SEEN], seen_count;
} Builder;

static void builder_release(Builder *b) {
    for (Py_ssize_t i = 0; b->types_col != NULL && i < b->i; i++) {
        Py_XDECREF(b->types_col[i]);
        Py_XDECREF(b->payloads_col[i]);
    }
    PyMem_Free(b->types_col);
    PyMem_Free(b->payloads_col);
    b->types_col = b->payloads_col = NULL;
    for (int f = 0; f < 5; f++) writer_free(&b->envelope[f]);
    for (Py_ssize_t t = 0; t < b->types; t++) {
        Plain *p = &b->plain[t];
        for (Py_ssize_t f = 0; p->ws != NULL && f < p->k; f++) writer_free(&p->ws[f]);
        PyMem_Free(p->ws);
        PyMem_Free(p->mask.data);
        p->ws = NULL;
        p->mask.data = NULL;
    }
}

static void builder_destroy(PyObject *capsule) {
    Builder *b = PyCapsule_GetPointer(capsule, BUILDER_NAME);
    if (b == NULL) return;
    builder_release(b);
    for (Py_ssize_t t = 0; t < b->types; t++) {
        Py_XDECREF(b->plain[t].name);
        Py_XDECREF(b->plain[t].names);
    }
    for (int j = 0; j < b->seen_count; j++) Py_DECREF(b->seen[j]);
    PyMem_Free(b);
}

/* builder(capacity, ((type, field names, codes, nullables), ...)) -> a capsule for ``chain`` and
   ``builder_finish``: at most ``capacity`` rows; the codes as ``column``'s. */
static PyObject *builder_new(PyObject *self, PyObject *args) {
    Py_ssize_t capacity;
    PyObject *specs;
    if (!PyArg_ParseTuple(args, "nO!", &capacity, &PyTuple_Type, &specs)) return NULL;
    Py_ssize_t types = PyTuple_GET_SIZE(specs);
    if (capacity < 0 || types > BUILDER_TYPES) {
        PyErr_SetString(PyExc_ValueError, "builder: a capacity >= 0 and at most 32 types");
        return NULL;
    }
    Builder *b = PyMem_Calloc(1, sizeof(Builder));
    if (b == NULL) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(b, BUILDER_NAME, builder_destroy);
    if (capsule == NULL) {
        PyMem_Free(b);
        return NULL;
    }
    b->capacity = capacity;
    b->types_col = PyMem_Calloc((size_t)(capacity ? capacity : 1), sizeof(PyObject *));
    b->payloads_col = PyMem_Calloc((size_t)(capacity ? capacity : 1), sizeof(PyObject *));
    if (b->types_col == NULL || b->payloads_col == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    static const char ENVELOPE[5] = {'s', 'q', 's', 's', 'i'};
    for (int f = 0; f < 5; f++)
        if (writer_init(&b->envelope[f], ENVELOPE[f], 0, capacity) < 0) goto fail;
    for (Py_ssize_t t = 0; t < types; t++) {
        PyObject *name, *names;
        const char *codes, *nullables;
        Py_ssize_t codes_len, nullables_len;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(specs, t), "UO!y#y#", &name, &PyTuple_Type, &names, &codes, &codes_len,
                              &nullables, &nullables_len)) goto fail;
        Plain *p = &b->plain[t];
        p->k = PyTuple_GET_SIZE(names);
        if (codes_len != p->k || nullables_len != p->k) {
            PyErr_SetString(PyExc_ValueError, "builder: a code and a nullable flag per field");
            goto fail;
        }
        p->name = Py_NewRef(name);
        p->names = Py_NewRef(names);
        b->types = t + 1;
        p->ws = PyMem_Calloc((size_t)(p->k ? p->k : 1), sizeof(Writer));
        if (p->ws == NULL || reserve(&p->mask, (size_t)(capacity + 7) / 8 + 1) < 0) goto fail;
        memset(p->mask.data, 0, (size_t)(capacity + 7) / 8 + 1);
        for (Py_ssize_t f = 0; f < p->k; f++)
            if (writer_init(&p->ws[f], codes[f], nullables[f] != 0, capacity) < 0) goto fail;
    }
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

/* The plain type an event's type is (-1: none), or -2 on an error. */
static int builder_type(Builder *b, PyObject *type) {
    for (int j = 0; j < b->seen_count; j++)
        if (b->seen[j] == type) return b->seen_index[j];
    int index = -1;
    for (Py_ssize_t t = 0; t < b->types && index < 0; t++) {
        int same = b->plain[t].name == type ? 1 : PyObject_RichCompareBool(type, b->plain[t].name, Py_EQ);
        if (same < 0) return -2;
        if (same) index = (int)t;
    }
    if (b->seen_count < BUILDER_SEEN) {
        b->seen[b->seen_count] = Py_NewRef(type);
        b->seen_index[b->seen_count++] = index;
    }
    return index;
}

/* One event's row: 0, or -1 on an error (not on a value it does not take: it declines then). */
static int builder_put(Builder *b, PyObject *e) {
    if (b->declined) return 0;
    if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 6 || b->i >= b->capacity) {
        b->declined = 1;
        return 0;
    }
    PyObject *const *items = PySequence_Fast_ITEMS(e);
    for (int f = 0; f < 5; f++) {
        int r = writer_put(&b->envelope[f], items[f]);
        if (r != 0) {
            b->declined = 1;
            return r < 0 ? -1 : 0;
        }
    }
    int index = builder_type(b, items[3]);
    if (index == -2) return -1;
    Py_ssize_t i = b->i++;
    PyObject *payload = items[5];
    b->types_col[i] = Py_NewRef(items[3]);
    b->payloads_col[i] = Py_NewRef(payload);
    for (Py_ssize_t t = 0; t < b->types; t++) {
        Plain *p = &b->plain[t];
        if (t != index) {
            p->mask.data[i >> 3] |= (char)(1 << (i & 7));
            for (Py_ssize_t f = 0; f < p->k; f++) writer_empty(&p->ws[f], !p->ws[f].nullable);
            continue;
        }
        p->count++;
        if (!PyDict_CheckExact(payload) || PyDict_GET_SIZE(payload) != p->k) {
            b->declined = 1;
            return 0;
        }
        for (Py_ssize_t f = 0; f < p->k; f++) {
            PyObject *v = PyDict_GetItemWithError(payload, PyTuple_GET_ITEM(p->names, f));
            int r = v == NULL ? (PyErr_Occurred() ? -1 : DECLINE) : writer_put(&p->ws[f], v);
            if (r != 0) {
                b->declined = 1;
                return r < 0 ? -1 : 0;
            }
        }
    }
    return 0;
}

static int builder_put_any(PyObject *sink, PyObject *e) {
    Builder *b = PyCapsule_GetPointer(sink, BUILDER_NAME);
    return b == NULL ? -1 : builder_put(b, e);
}

/* builder_finish(builder) -> (envelope, types, (type column, payload column)) | None: the envelope's five
   columns and, per type, (count, mask | None, its fields' columns), each column as ``column`` returns it; the
   rows' types and payloads as two tuples (for the types it does not write); None where it declined. Once. */
static PyObject *builder_finish(PyObject *self, PyObject *capsule) {
    Builder *b = PyCapsule_GetPointer(capsule, BUILDER_NAME);
    if (b == NULL) return NULL;
    if (b->declined) {
        builder_release(b);
        Py_RETURN_NONE;
    }
    b->declined = 1; /* finished: it takes no more rows */
    Py_ssize_t n = b->i;
    size_t bitmap = (size_t)(n + 7) / 8;
    PyObject *envelope = PyTuple_New(5), *types = PyTuple_New(b->types), *out = NULL;
    if (envelope == NULL || types == NULL) goto done;
    for (int f = 0; f < 5; f++) {
        b->envelope[f].validity.len = bitmap;
        PyObject *one = writer_finish(&b->envelope[f]);
        if (one == NULL) goto done;
        PyTuple_SET_ITEM(envelope, f, one);
    }
    for (Py_ssize_t t = 0; t < b->types; t++) {
        Plain *p = &b->plain[t];
        PyObject *fields = PyTuple_New(p->k);
        if (fields == NULL) goto done;
        for (Py_ssize_t f = 0; f < p->k; f++) {
            p->ws[f].validity.len = bitmap;
            if (p->ws[f].code == '?') p->ws[f].data.len = bitmap;
            PyObject *one = writer_finish(&p->ws[f]);
            if (one == NULL) {
                Py_DECREF(fields);
                goto done;
            }
            PyTuple_SET_ITEM(fields, f, one);
        }
        PyObject *mask = p->count == n ? Py_NewRef(Py_None) : PyBytes_FromStringAndSize(p->mask.data, (Py_ssize_t)bitmap);
        PyObject *one = mask == NULL ? NULL : Py_BuildValue("(nNN)", p->count, mask, fields);
        if (one == NULL) goto done;
        PyTuple_SET_ITEM(types, t, one);
    }
    PyObject *type_col = PyTuple_New(n), *payload_col = PyTuple_New(n);
    if (type_col == NULL || payload_col == NULL) {
        Py_XDECREF(type_col);
        Py_XDECREF(payload_col);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* the tuples take the builder's references */
        PyTuple_SET_ITEM(type_col, i, b->types_col[i]);
        PyTuple_SET_ITEM(payload_col, i, b->payloads_col[i]);
        b->types_col[i] = b->payloads_col[i] = NULL;
    }
    out = Py_BuildValue("(OO(NN))", envelope, types, type_col, payload_col);
done:
    builder_release(b);
    Py_XDECREF(envelope);
    Py_XDECREF(types);
    return out;
}

static PyObject *uses_sha_instructions(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(rounds != rounds_portable);
}

static PyMethodDef methods[] = {
    {"columns", columns, METH_O, "The six fields of 6-tuples as six tuples, or None."},
    {"event_run_ends", event_run_ends, METH_O, "Where each run of equal (game_id, kind) ends, read from the events; None where columns declines."},
    {"chain", chain, METH_VARARGS, "The links of events[start:stop] from an 8-byte word, as 8-byte words."},
    {"group", group, METH_VARARGS, "The payloads of each type, in row order."},
    {"positions", positions, METH_VARARGS, "Take indices and null mask spreading one type's values to its rows."},
    {"column", column, METH_VARARGS, "Arrow buffers of a column of plain values, or None."},
    {"spread", spread, METH_VARARGS, "One type's plain payload fields as full-length Arrow buffers, or None."},
    {"builder", builder_new, METH_VARARGS, "A kind's columns, written by chain as it hashes (a capsule)."},
    {"builder_finish", builder_finish, METH_O, "A builder's columns, or None where it declined."},
    {"nested", nested, METH_VARARGS, "A column of nested values (structs, lists) as Arrow buffers, or None."},
    {"fields", fields, METH_VARARGS, "Each field's values over exact dicts holding exactly those keys, or None."},
    {"canonical", canonical, METH_O, "The canonical JSON of a value, or None where the definition decides."},
    {"sha256", sha256_fast, METH_O, "SHA-256 of a buffer."},
    {"sha256_portable", sha256_portable, METH_O, "SHA-256 of a buffer, without the SHA instructions."},
    {"uses_sha_instructions", uses_sha_instructions, METH_NOARGS, "Whether the processor's SHA instructions hash."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cchain", "The compiled links of the hash chain.", -1,
                                    methods};

/* FIPS 180-4's example (its appendix): SHA-256("abc"). Checked at import for both rounds, so that a
   compiler or a processor that computed the constants or the rounds otherwise is found at once: the
   module then does not load, and the pure-Python path (hashlib) runs. */
static int self_check(rounds_fn fn) {
    static const uint8_t abc_digest[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    uint8_t digest[32];
    sha256_with(fn, (const uint8_t *)"abc", 3, digest);
    return memcmp(digest, abc_digest, 32) == 0;
}

PyMODINIT_FUNC PyInit__cchain(void) {
    init_constants();
    for (int c = 0; c < 0x20; c++) ESCAPED[c] = 1;
    ESCAPED['"'] = ESCAPED['\\'] = 1;
#ifdef HAVE_SHANI_BUILD
    if (cpu_has_shani()) rounds = rounds_shani;
#endif
    if (!self_check(rounds_portable) || !self_check(rounds)) {
        PyErr_SetString(PyExc_ImportError, "replay._cchain: SHA-256 does not give the standard's example digest here");
        return NULL;
    }
    return PyModule_Create(&module);
}
