/* The compiled part of the 7 Wonders Dice bots' choice (optional: see cbots.py).
 *
 * Three functions, each the exact equivalent of a piece of pure Python, which stays the reference and
 * the fallback (tests/test_wd_cbots.py compares both, function by function and on whole seeded games):
 *
 *   candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of) -> list
 *       engine.action_candidates's listing: ``first`` (the pass step, or None), then for the Wonder's
 *       lanes and, unless ``forum`` is None, each Forum die's lanes (``made[(die, colour, face)]``, or
 *       ``die_keys(die, colour, face)`` when not made yet), the open spaces' steps: on an arrow
 *       (``ordered``) the first space not crossed, on an unordered lane every space not crossed.
 *   below(getrandbits, n) -> int
 *       random.Random.randrange(n) (n > 0) as the standard generator draws it (_randbelow_with_getrandbits).
 *   shuffle(getrandbits, x) -> None
 *       random.Random.shuffle(x) as CPython's standard generator does it (Fisher-Yates from the end,
 *       each index drawn by _randbelow_with_getrandbits): the same draws, the same order.
 *
 * A lane is the tuple engine.BoardTables makes: (building, ordered, spaces, keys), spaces and keys
 * tuples of the same length. Anything else raises TypeError (never met: the tables make the lanes).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Append the open spaces' steps of one lane to ``out``; -1 on error. */
static int open_steps(PyObject *out, PyObject *lane, PyObject *crossed_of) {
    if (!PyTuple_CheckExact(lane) || PyTuple_GET_SIZE(lane) != 4) {
        PyErr_SetString(PyExc_TypeError, "a lane is (building, ordered, spaces, keys)");
        return -1;
    }
    PyObject *building = PyTuple_GET_ITEM(lane, 0), *spaces = PyTuple_GET_ITEM(lane, 2),
             *keys = PyTuple_GET_ITEM(lane, 3);
    if (!PyTuple_CheckExact(spaces) || !PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(spaces) != PyTuple_GET_SIZE(keys)) {
        PyErr_SetString(PyExc_TypeError, "a lane's spaces and keys are tuples of the same length");
        return -1;
    }
    int ordered = PyObject_IsTrue(PyTuple_GET_ITEM(lane, 1));
    if (ordered < 0) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    PyObject *crossed = PyDict_GetItemWithError(crossed_of, building); /* borrowed */
    if (crossed == NULL && PyErr_Occurred()) return -1;
    int any = crossed == NULL ? 0 : PyObject_IsTrue(crossed);
    if (any < 0) return -1;
    if (!any) {
        if (ordered) {
            if (n == 0) {
                PyErr_SetString(PyExc_IndexError, "tuple index out of range"); /* keys[0], as the Python */
                return -1;
            }
            return PyList_Append(out, PyTuple_GET_ITEM(keys, 0));
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (PyList_Append(out, PyTuple_GET_ITEM(keys, i)) < 0) return -1;
        return 0;
    }
    int is_set = PyAnySet_CheckExact(crossed);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(spaces, i);
        int in = is_set ? PySet_Contains(crossed, x) : PySequence_Contains(crossed, x);
        if (in < 0) return -1;
        if (!in) {
            if (PyList_Append(out, PyTuple_GET_ITEM(keys, i)) < 0) return -1;
            if (ordered) return 0; /* an arrow: only its next space */
        }
    }
    return 0;
}

static int lanes_steps(PyObject *out, PyObject *lanes, PyObject *crossed_of) {
    if (!PyTuple_CheckExact(lanes)) {
        PyErr_SetString(PyExc_TypeError, "lanes are a tuple");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lanes); i++)
        if (open_steps(out, PyTuple_GET_ITEM(lanes, i), crossed_of) < 0) return -1;
    return 0;
}

static PyObject *candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of) takes 7 arguments");
        return NULL;
    }
    PyObject *first = args[0], *wonder = args[1], *forum = args[2], *roll = args[3], *made = args[4],
             *die_keys = args[5], *crossed_of = args[6];
    if (!PyDict_Check(crossed_of) || !PyDict_Check(made) || (forum != Py_None && (!PyDict_Check(forum) || !PyDict_Check(roll)))) {
        PyErr_SetString(PyExc_TypeError, "crossed_of, made, forum and roll are dicts");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    if (first != Py_None && PyList_Append(out, first) < 0) goto error;
    if (lanes_steps(out, wonder, crossed_of) < 0) goto error;
    if (forum != Py_None) {
        Py_ssize_t pos = 0;
        PyObject *die, *colour;
        while (PyDict_Next(forum, &pos, &die, &colour)) {
            PyObject *rolled = PyDict_GetItemWithError(roll, die); /* borrowed */
            if (rolled == NULL) {
                if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, die);
                goto error;
            }
            PyObject *face = PySequence_GetItem(rolled, 0);
            if (face == NULL) goto error;
            PyObject *key = PyTuple_Pack(3, die, colour, face);
            Py_DECREF(face);
            if (key == NULL) goto error;
            PyObject *lanes = PyDict_GetItemWithError(made, key); /* borrowed */
            if (lanes != NULL) {
                Py_INCREF(lanes);
            } else if (PyErr_Occurred()) {
                Py_DECREF(key);
                goto error;
            } else {
                lanes = PyObject_Call(die_keys, key, NULL); /* made on first use (and kept by the tables) */
            }
            Py_DECREF(key);
            if (lanes == NULL) goto error;
            int rc = lanes_steps(out, lanes, crossed_of);
            Py_DECREF(lanes);
            if (rc < 0) goto error;
        }
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

/* random.Random._randbelow_with_getrandbits(n): getrandbits(n.bit_length()) until below n; -1 on error. */
static Py_ssize_t randbelow(PyObject *getrandbits, Py_ssize_t n) {
    int k = 0;
    for (Py_ssize_t m = n; m; m >>= 1) k++; /* n.bit_length() */
    PyObject *bits = PyLong_FromLong(k);
    if (bits == NULL) return -1;
    Py_ssize_t j;
    do {
        PyObject *r = PyObject_CallOneArg(getrandbits, bits);
        if (r == NULL) {
            Py_DECREF(bits);
            return -1;
        }
        j = PyLong_AsSsize_t(r);
        Py_DECREF(r);
        if (j < 0) { /* an error, or a generator giving negative numbers */
            Py_DECREF(bits);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "getrandbits gave a negative number");
            return -1;
        }
    } while (j >= n);
    Py_DECREF(bits);
    return j;
}

static PyObject *below(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n;
    if (nargs != 2 || !PyLong_CheckExact(args[1]) || (n = PyLong_AsSsize_t(args[1])) <= 0) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "below(getrandbits, n): n a positive int");
        }
        return NULL;
    }
    Py_ssize_t j = randbelow(args[0], n);
    return j < 0 ? NULL : PyLong_FromSsize_t(j);
}

static PyObject *shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "shuffle(getrandbits, x): x a list");
        return NULL;
    }
    PyObject *getrandbits = args[0], *x = args[1];
    for (Py_ssize_t i = PyList_GET_SIZE(x) - 1; i > 0; i--) {
        Py_ssize_t j = randbelow(getrandbits, i + 1);
        if (j < 0) return NULL;
        if (i >= PyList_GET_SIZE(x)) { /* the list changed size meanwhile (a generator of its own) */
            PyErr_SetString(PyExc_RuntimeError, "shuffle: the list changed size");
            return NULL;
        }
        PyObject *a = PyList_GET_ITEM(x, i);
        PyList_SET_ITEM(x, i, PyList_GET_ITEM(x, j));
        PyList_SET_ITEM(x, j, a);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"candidates", (PyCFunction)(void (*)(void))candidates, METH_FASTCALL,
     "candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of): engine.action_candidates's listing"},
    {"below", (PyCFunction)(void (*)(void))below, METH_FASTCALL,
     "below(getrandbits, n): random.Random.randrange(n) for the standard generator, the same draws"},
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(getrandbits, x): random.Random.shuffle(x) for the standard generator, the same draws"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cbots",
                                    "The compiled part of the 7 Wonders Dice bots' choice (see cbots.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cbots(void) { return PyModule_Create(&module); }
