/* Arrow columns to Python values, compiled: what pyarrow's ``Array.to_pylist`` gives (maps as dicts,
 * as ``maps_as_pydicts="strict"`` does), made straight from the array's buffers.
 *
 * Why: decoding the archive's events built each payload dict through pyarrow's per-value Python
 * objects, about half of a 7 Wonders Dice replay (docs/performance.md, "Sixth pass"). Here a struct
 * value is one dict filled from its children's buffers, with no intermediate object.
 *
 * The array is read through the Arrow C data interface (``__arrow_c_array__``, PyCapsules). Anything
 * this code does not know (another type, a dictionary of containers, an index past its dictionary, a map
 * with a repeated key, bytes that are not UTF-8, a buffer missing) is declined: ``values`` returns None
 * with no error raised and nothing kept, and the caller converts the array with pyarrow as before,
 * which then gives what it always gave (its values, or its error). replay/columns.py loads this module.
 *
 * ``events`` makes the decoded rows (the ``Event`` tuples) from the envelope's lists and the payload
 * columns. Every container made here is untracked by the cyclic collector (``untracked`` below says
 * why, and why it is safe): docs/performance.md, "Reading, tenth pass".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

enum Kind { K_NULL, K_BOOL, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64, K_F32, K_F64, K_STR, K_LSTR,
            K_STRUCT, K_LIST, K_LLIST, K_MAP, K_DICT };

/* A schema node, checked against its array once, so that the per-value code trusts its shape. */
typedef struct Node {
    enum Kind kind;
    const struct ArrowArray *a;
    const uint8_t *valid; /* NULL: no null to look for */
    int64_t n;            /* children */
    struct Node *children;
    PyObject **keys;      /* struct: the field names, as str */
    enum Kind index_kind; /* K_DICT: the indices' integer type */
    PyObject *distinct;   /* K_DICT: a list of the dictionary's values, each made once */
} Node;

static void free_node(Node *node) {
    int64_t i;
    if (node->children != NULL) {
        for (i = 0; i < node->n; i++) free_node(&node->children[i]);
        PyMem_Free(node->children);
    }
    if (node->keys != NULL) {
        for (i = 0; i < node->n; i++) Py_XDECREF(node->keys[i]);
        PyMem_Free(node->keys);
    }
    node->children = NULL;
    node->keys = NULL;
    Py_CLEAR(node->distinct);
}

static int primitive(const char *f, enum Kind *kind) {
    if (f[0] == '\0' || f[1] != '\0') return 0;
    switch (f[0]) {
    case 'n': *kind = K_NULL; return 1;
    case 'b': *kind = K_BOOL; return 1;
    case 'c': *kind = K_I8; return 1;
    case 'C': *kind = K_U8; return 1;
    case 's': *kind = K_I16; return 1;
    case 'S': *kind = K_U16; return 1;
    case 'i': *kind = K_I32; return 1;
    case 'I': *kind = K_U32; return 1;
    case 'l': *kind = K_I64; return 1;
    case 'L': *kind = K_U64; return 1;
    case 'f': *kind = K_F32; return 1;
    case 'g': *kind = K_F64; return 1;
    case 'u': *kind = K_STR; return 1;
    case 'U': *kind = K_LSTR; return 1;
    default: return 0;
    }
}

static int dictionary(Node *node, const struct ArrowSchema *s, const struct ArrowArray *a);

/* 1: built; 0: declined (or out of memory: the caller declines the same way). */
static int build(Node *node, const struct ArrowSchema *s, const struct ArrowArray *a) {
    const char *f = s->format;
    int64_t i, want_buffers, want_children = 0;
    memset(node, 0, sizeof(Node));
    node->a = a;
    if (a->length < 0 || a->offset < 0) return 0;
    if (s->dictionary != NULL || a->dictionary != NULL) return dictionary(node, s, a);
    if (primitive(f, &node->kind)) {
        want_buffers = node->kind == K_NULL ? 0 : (node->kind == K_STR || node->kind == K_LSTR) ? 3 : 2;
    } else if (strcmp(f, "+s") == 0) {
        node->kind = K_STRUCT;
        want_buffers = 1;
        want_children = s->n_children;
    } else if (strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0 || strcmp(f, "+m") == 0) {
        node->kind = f[1] == 'l' ? K_LIST : f[1] == 'L' ? K_LLIST : K_MAP;
        want_buffers = 2;
        want_children = 1;
    } else {
        return 0;
    }
    if (a->n_buffers != want_buffers || s->n_children != want_children || a->n_children != want_children) return 0;
    if (want_buffers > 0 && a->buffers == NULL) return 0;
    for (i = 1; i < want_buffers; i++)
        if (a->buffers[i] == NULL && a->length > 0) return 0;
    if (node->kind != K_NULL && a->null_count != 0 && a->buffers[0] != NULL) node->valid = (const uint8_t *)a->buffers[0];
    if (want_children == 0) return 1;
    node->children = PyMem_Calloc((size_t)want_children, sizeof(Node));
    if (node->children == NULL) return 0;
    node->n = want_children;
    for (i = 0; i < want_children; i++) {
        if (!build(&node->children[i], s->children[i], a->children[i])) return 0;
        if (node->kind == K_STRUCT && a->children[i]->length < a->offset + a->length) return 0;
    }
    if (node->kind == K_MAP) {
        Node *entries = &node->children[0];
        if (entries->kind != K_STRUCT || entries->n != 2 || entries->valid != NULL) return 0;
    }
    if (node->kind == K_STRUCT) {
        node->keys = PyMem_Calloc((size_t)want_children, sizeof(PyObject *));
        if (node->keys == NULL) return 0;
        for (i = 0; i < want_children; i++) {
            int64_t j;
            const char *name = s->children[i]->name;
            if (name == NULL) return 0;
            for (j = 0; j < i; j++)
                if (strcmp(s->children[j]->name, name) == 0) return 0; /* a repeated field name: pyarrow's way */
            node->keys[i] = PyUnicode_InternFromString(name);
            if (node->keys[i] == NULL) return 0;
        }
    }
    return 1;
}

static PyObject *value(const Node *node, int64_t i);

/* A payload container made here (a struct's dict, a list, a map's dict) is taken off the cyclic
 * collector's lists as soon as it is filled (PyObject_GC_UnTrack, a documented C-API).
 *
 * Why: a replay keeps every decoded event alive, and each is ~10 objects; a tracked container is
 * walked by every young collection after it is made and by every older one after that, and those
 * walks were a fifth of reading (docs/performance.md, "Reading, tenth pass"). CPython would
 * untrack a dict of atomic values by itself (a dict is made untracked and tracks itself when a
 * container goes in) but never a list, nor a dict that holds one.
 *
 * Why it is safe: what this module returns is a tree of objects it has just made (dicts, lists,
 * ints, floats, strs, bools, None; the strs shared between values are atomic), so no reference cycle
 * can pass through it. The collector treats a reference from an untracked object as one from
 * outside, so it never frees what such a container holds: the worst a later change could do is
 * leak a cycle, never free a live object. A dict tracks itself again when a container is put in
 * it later (CPython's MAINTAIN_TRACKING); a list does not, so a list that is appended a
 * container that refers back to it would keep that cycle alive for the process's life. Nothing in
 * replay/ mutates a decoded payload (upcasters make new dicts; tests/test_columns.py replays and
 * derives every game kind's decoded events and checks they are unchanged). */
static PyObject *untracked(PyObject *container) {
    PyObject_GC_UnTrack(container);
    return container;
}

/* Short ASCII strings repeat in a log (die ids, faces, kinds, building names): one str per distinct
 * value in a call, found by the bytes' hash, instead of a new str per value. Equal values either way.
 * Each is interned, as a pack's strings are (replay.packs): a fold then looks its payloads' ids up in
 * tables keyed by the very same objects, and compares no characters (about a tenth of a 7 Wonders
 * Dice fold). Interning costs one lookup per distinct value in a call. */
#define CACHE_SLOTS 1024
#define CACHE_LONGEST 40
static PyObject *cache[CACHE_SLOTS];

static void cache_clear(void) {
    int k;
    for (k = 0; k < CACHE_SLOTS; k++) Py_CLEAR(cache[k]);
}

static PyObject *text(const char *p, Py_ssize_t n) {
    uint32_t h = 2166136261u;
    Py_ssize_t k;
    PyObject *found;
    if (n > CACHE_LONGEST) return PyUnicode_DecodeUTF8(p, n, "strict");
    for (k = 0; k < n; k++) {
        if ((unsigned char)p[k] >= 0x80) return PyUnicode_DecodeUTF8(p, n, "strict");
        h = (h ^ (unsigned char)p[k]) * 16777619u;
    }
    h ^= (uint32_t)n;
    found = cache[h % CACHE_SLOTS];
    if (found != NULL && PyUnicode_GET_LENGTH(found) == n && memcmp(PyUnicode_DATA(found), p, (size_t)n) == 0) {
        Py_INCREF(found);
        return found;
    }
    found = PyUnicode_DecodeUTF8(p, n, "strict");
    if (found == NULL) return NULL;
    PyUnicode_InternInPlace(&found);
    Py_XSETREF(cache[h % CACHE_SLOTS], found);
    Py_INCREF(found);
    return found;
}

/* The values at logical rows [start, stop) of a child (lists index their child from its own offset). */
static PyObject *list_of(const Node *child, int64_t start, int64_t stop) {
    int64_t k;
    PyObject *out;
    if (stop < start || start < 0 || stop > child->a->length) return NULL;
    out = PyList_New((Py_ssize_t)(stop - start));
    if (out == NULL) return NULL;
    for (k = start; k < stop; k++) {
        PyObject *v = value(child, k);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)(k - start), v);
    }
    return untracked(out);
}

static PyObject *map_of(const Node *entries, int64_t start, int64_t stop) {
    int64_t k;
    PyObject *out;
    if (stop < start || start < 0 || stop > entries->a->length) return NULL;
    out = PyDict_New();
    if (out == NULL) return NULL;
    for (k = start; k < stop; k++) {
        int64_t row = entries->a->offset + k; /* the entries' struct: its children are read at its physical row */
        PyObject *key = value(&entries->children[0], row), *v;
        if (key == NULL) goto fail;
        v = value(&entries->children[1], row);
        if (v == NULL) {
            Py_DECREF(key);
            goto fail;
        }
        if (PyDict_SetItem(out, key, v) < 0) {
            Py_DECREF(key);
            Py_DECREF(v);
            goto fail;
        }
        Py_DECREF(key);
        Py_DECREF(v);
    }
    if (PyDict_GET_SIZE(out) != stop - start) goto fail; /* a repeated key: pyarrow's strict conversion says so */
    return untracked(out);
fail:
    Py_DECREF(out);
    return NULL;
}

/* The index at physical row ``j`` of a K_DICT node, or -1 where it is past the dictionary either way. */
static int64_t index_at(const Node *node, int64_t j) {
    const void *indices = node->a->buffers[1];
    int64_t k;
    switch (node->index_kind) {
    case K_I8: k = ((const int8_t *)indices)[j]; break;
    case K_U8: k = ((const uint8_t *)indices)[j]; break;
    case K_I16: k = ((const int16_t *)indices)[j]; break;
    case K_U16: k = ((const uint16_t *)indices)[j]; break;
    case K_I32: k = ((const int32_t *)indices)[j]; break;
    case K_U32: k = ((const uint32_t *)indices)[j]; break;
    case K_I64: k = ((const int64_t *)indices)[j]; break;
    default: k = ((const uint64_t *)indices)[j] > (uint64_t)INT64_MAX ? -1 : (int64_t)((const uint64_t *)indices)[j];
    }
    return k < 0 || k >= PyList_GET_SIZE(node->distinct) ? -1 : k;
}

/* The value at logical row ``i`` of the node's array; NULL (an error set, or none) to decline. */
static PyObject *value(const Node *node, int64_t i) {
    const struct ArrowArray *a = node->a;
    int64_t j = a->offset + i;
    if (node->valid != NULL && !((node->valid[j >> 3] >> (j & 7)) & 1)) Py_RETURN_NONE;
    switch (node->kind) {
    case K_NULL: Py_RETURN_NONE;
    case K_BOOL: return PyBool_FromLong((((const uint8_t *)a->buffers[1])[j >> 3] >> (j & 7)) & 1);
    case K_I8: return PyLong_FromLong(((const int8_t *)a->buffers[1])[j]);
    case K_U8: return PyLong_FromLong(((const uint8_t *)a->buffers[1])[j]);
    case K_I16: return PyLong_FromLong(((const int16_t *)a->buffers[1])[j]);
    case K_U16: return PyLong_FromLong(((const uint16_t *)a->buffers[1])[j]);
    case K_I32: return PyLong_FromLong(((const int32_t *)a->buffers[1])[j]);
    case K_U32: return PyLong_FromUnsignedLong(((const uint32_t *)a->buffers[1])[j]);
    case K_I64: return PyLong_FromLongLong(((const int64_t *)a->buffers[1])[j]);
    case K_U64: return PyLong_FromUnsignedLongLong(((const uint64_t *)a->buffers[1])[j]);
    case K_F32: return PyFloat_FromDouble((double)((const float *)a->buffers[1])[j]);
    case K_F64: return PyFloat_FromDouble(((const double *)a->buffers[1])[j]);
    case K_STR: {
        const int32_t *off = (const int32_t *)a->buffers[1];
        if (off[j + 1] < off[j]) return NULL;
        return text((const char *)a->buffers[2] + off[j], off[j + 1] - off[j]);
    }
    case K_LSTR: {
        const int64_t *off = (const int64_t *)a->buffers[1];
        if (off[j + 1] < off[j]) return NULL;
        return text((const char *)a->buffers[2] + off[j], (Py_ssize_t)(off[j + 1] - off[j]));
    }
    case K_STRUCT: {
        int64_t k;
        PyObject *out = _PyDict_NewPresized((Py_ssize_t)node->n);
        if (out == NULL) return NULL;
        for (k = 0; k < node->n; k++) {
            PyObject *v = value(&node->children[k], j);
            if (v == NULL || PyDict_SetItem(out, node->keys[k], v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(v);
        }
        return untracked(out);
    }
    case K_LIST: {
        const int32_t *off = (const int32_t *)a->buffers[1];
        return list_of(&node->children[0], off[j], off[j + 1]);
    }
    case K_LLIST: {
        const int64_t *off = (const int64_t *)a->buffers[1];
        return list_of(&node->children[0], off[j], off[j + 1]);
    }
    case K_MAP: {
        const int32_t *off = (const int32_t *)a->buffers[1];
        return map_of(&node->children[0], off[j], off[j + 1]);
    }
    case K_DICT: {
        int64_t k = index_at(node, j);
        return k < 0 ? NULL : Py_NewRef(PyList_GET_ITEM(node->distinct, (Py_ssize_t)k)); /* past it: declined */
    }
    }
    return NULL;
}

/* A dictionary-encoded array (the archive reads its strings so: the envelope's, and the payloads' within one
 * row group) as its values: each distinct value made once, and each row the same object as every other row
 * of that index, as a list comprehension over the dictionary would give. Only a dictionary of atomic values
 * (not structs, lists or maps: pyarrow gives each row its own container). An index out of the dictionary
 * (a damaged page) is declined by ``value``, so that the caller's own reading reports it. 1: built; 0:
 * declined. */
static int dictionary(Node *node, const struct ArrowSchema *s, const struct ArrowArray *a) {
    Node values;
    int64_t i, m;
    int ok = 0;
    if (s->dictionary == NULL || a->dictionary == NULL || !primitive(s->format, &node->index_kind) ||
        node->index_kind < K_I8 || node->index_kind > K_U64 || a->n_buffers != 2 || s->n_children != 0 ||
        a->n_children != 0 || a->buffers == NULL || (a->length > 0 && a->buffers[1] == NULL))
        return 0;
    node->kind = K_DICT;
    if (a->null_count != 0 && a->buffers[0] != NULL) node->valid = (const uint8_t *)a->buffers[0];
    if (!build(&values, s->dictionary, a->dictionary) || values.kind >= K_STRUCT) goto done;
    m = a->dictionary->length;
    node->distinct = PyList_New((Py_ssize_t)m);
    if (node->distinct == NULL) goto done;
    for (i = 0; i < m; i++) {
        PyObject *v = value(&values, i);
        if (v == NULL) goto done;
        PyList_SET_ITEM(node->distinct, (Py_ssize_t)i, v);
    }
    ok = 1;
done:
    free_node(&values);
    return ok;
}

static PyObject *values(PyObject *self, PyObject *array) {
    PyObject *pair, *out = NULL;
    struct ArrowSchema *s;
    struct ArrowArray *a;
    Node root;
    int64_t i;
    (void)self;
    memset(&root, 0, sizeof(Node)); /* freed below whichever way the array is read */
    pair = PyObject_CallMethod(array, "__arrow_c_array__", NULL);
    if (pair == NULL) goto decline;
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        Py_DECREF(pair);
        goto decline;
    }
    s = PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 0), "arrow_schema");
    a = s == NULL ? NULL : PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 1), "arrow_array");
    if (a == NULL) {
        Py_DECREF(pair);
        goto decline;
    }
    if (build(&root, s, a)) {
        out = PyList_New((Py_ssize_t)a->length);
        for (i = 0; out != NULL && i < a->length; i++) {
            PyObject *v = value(&root, i);
            if (v == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, (Py_ssize_t)i, v);
        }
    }
    free_node(&root);
    cache_clear();
    Py_DECREF(pair); /* the capsules release the exported structs */
    if (out != NULL) return out;
decline:
    PyErr_Clear();
    Py_RETURN_NONE;
}

/* events(cls, game_ids, seqs, kinds, types, versions, payloads) -> list: row i as ``cls`` (a tuple
 * subclass without a __dict__: replay.events.Event) of the six columns' items i, the payload taken
 * from ``payloads``, a list, or a dict of lists by type name (``payloads[types[i]][i]``: the decoded
 * column of the row's own type, gathered here instead of in a list first).
 *
 * What ``tuple.__new__(cls, row)`` for each row makes, with one difference: a row whose six items
 * are all untracked (strs, ints, a payload dict made by ``values``) is untracked too. CPython never
 * untracks a tuple subclass, nor a tuple holding a dict, so every collection after a read walked every
 * event still alive (a replay keeps them all). It is safe for the reason ``untracked`` gives: the
 * row cannot change, and its payload dict, if it is later made to hold a container, tracks itself
 * again; only a cycle made through a payload back to its event would then be kept alive for good. */
static PyObject *events(PyObject *self, PyObject *args) {
    PyTypeObject *cls;
    PyObject *cols[6], *out, *last_type = NULL, *last_column = NULL;
    Py_ssize_t n, i, k;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!OOOOOO:events", &PyType_Type, &cls, &cols[0], &cols[1], &cols[2], &cols[3],
                          &cols[4], &cols[5]))
        return NULL;
    if (!PyType_IsSubtype(cls, &PyTuple_Type) || cls->tp_dictoffset != 0) {
        PyErr_SetString(PyExc_TypeError, "events: cls must be a tuple subclass without a __dict__");
        return NULL;
    }
    for (k = 0; k < 5; k++)
        if (!PyList_Check(cols[k])) {
            PyErr_SetString(PyExc_TypeError, "events: the envelope columns must be lists");
            return NULL;
        }
    if (!PyList_Check(cols[5]) && !PyDict_Check(cols[5])) {
        PyErr_SetString(PyExc_TypeError, "events: payloads must be a list or a dict of lists by type");
        return NULL;
    }
    n = PyList_GET_SIZE(cols[0]);
    for (k = 1; k < 6; k++)
        if (PyList_Check(cols[k]) && PyList_GET_SIZE(cols[k]) != n) {
            PyErr_SetString(PyExc_ValueError, "events: the columns differ in length");
            return NULL;
        }
    out = PyList_New(n);
    if (out == NULL) return NULL;
    for (i = 0; i < n; i++) {
        PyObject *row, *item, *payload;
        int tracked = 0;
        if (PyList_Check(cols[5])) {
            payload = PyList_GET_ITEM(cols[5], i);
        } else {
            PyObject *type = PyList_GET_ITEM(cols[3], i);
            if (type != last_type) { /* rows of one type come in runs; the dict is looked up once a run */
                last_column = PyDict_GetItemWithError(cols[5], type);
                if (last_column == NULL) {
                    if (!PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "events: no payload column of type %R", type);
                    goto fail;
                }
                if (!PyList_Check(last_column) || PyList_GET_SIZE(last_column) != n) {
                    PyErr_SetString(PyExc_ValueError, "events: a payload column is not a list of the rows' length");
                    goto fail;
                }
                last_type = type;
            }
            payload = PyList_GET_ITEM(last_column, i);
        }
        row = cls->tp_alloc(cls, 6);
        if (row == NULL) goto fail;
        for (k = 0; k < 6; k++) {
            item = k == 5 ? payload : PyList_GET_ITEM(cols[k], i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(row, k, item);
            tracked |= PyObject_GC_IsTracked(item);
        }
        if (!tracked) PyObject_GC_UnTrack(row);
        PyList_SET_ITEM(out, i, row);
    }
    return out;
fail:
    Py_DECREF(out); /* the rows not yet made are NULL: a list's dealloc skips them */
    return NULL;
}

static PyMethodDef methods[] = {
    {"values", values, METH_O,
     "values(array) -> list | None: the values of a pyarrow Array as to_pylist gives them (maps as dicts), "
     "or None where this module declines the array (convert it with pyarrow then)."},
    {"events", events, METH_VARARGS,
     "events(cls, game_ids, seqs, kinds, types, versions, payloads) -> list: tuple.__new__(cls, row) for each row "
     "of the columns (payloads: a list, or a dict of lists by type), rows of untracked items untracked."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_columns", NULL, -1, methods};

PyMODINIT_FUNC PyInit__columns(void) { return PyModule_Create(&module); }
