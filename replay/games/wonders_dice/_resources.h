/* PlayerState.resources counted in C, for the 7 Wonders Dice extensions (_ckernel.c, _cbots.c): one
 * count, as the property counts it (state.py: for each (building, spaces that produce a resource) of
 * the board, how many of those spaces are in ``crossed[building]``, summed, less the resources spent).
 *
 * Only the usual values are counted here: a tuple of (str, tuple of str) pairs, a dict of sets, str
 * spaces (an odd value could make hashing or comparing run Python code). Anything else returns 0 with
 * no error set, and the caller reads the property, which gives what it always gave. */
#ifndef REPLAY_WD_RESOURCES_H
#define REPLAY_WD_RESOURCES_H

#include <Python.h>

/* How many items of ``items`` (a tuple, a set or a frozenset, every item an exact str) are in ``set``,
 * into *out: 1, 0 for an item that is not a str (no error set: the caller leaves it to the Python), -1 on
 * an error. A tuple is read in place (PlayerState.producers are tuples for this: a set's iterator object,
 * made for each producer, was a fifth of a fold's counting); a set is first made a tuple (the Barracks'
 * crossed spaces, counted only for an attack: _shields.h). */
static int count_members(PyObject *items, PyObject *set, long *out) {
    PyObject *seq = PyTuple_CheckExact(items) ? Py_NewRef(items) : PySequence_Tuple(items);
    long count = 0;
    int rc = 1;
    if (seq == NULL) return -1;
    for (Py_ssize_t i = 0; rc == 1 && i < PyTuple_GET_SIZE(seq); i++) {
        PyObject *x = PyTuple_GET_ITEM(seq, i);
        int in = PyUnicode_CheckExact(x) ? PySet_Contains(set, x) : -2; /* hashing another type could run Python */
        if (in < 0) rc = in == -1 ? -1 : 0;
        else count += in;
    }
    Py_DECREF(seq);
    if (rc == 1) *out = count;
    return rc;
}

/* The produced spaces crossed less ``spent`` into *out: 1, 0 to leave it to the property (no error
 * set), -1 on an error (set). */
static int count_produced(PyObject *producers, PyObject *crossed_all, long spent, long *out) {
    long made = 0;
    if (!PyTuple_CheckExact(producers) || !PyDict_CheckExact(crossed_all)) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(producers); i++) {
        PyObject *pair = PyTuple_GET_ITEM(producers, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(pair, 0))
            || !PyTuple_CheckExact(PyTuple_GET_ITEM(pair, 1)))
            return 0;
        PyObject *crossed = PyDict_GetItemWithError(crossed_all, PyTuple_GET_ITEM(pair, 0)); /* borrowed */
        if (crossed == NULL) {
            if (PyErr_Occurred()) return -1;
            continue;
        }
        if (!PySet_CheckExact(crossed)) return 0; /* a list, a frozenset, ...: the property */
        if (PySet_GET_SIZE(crossed) == 0) continue;
        long in;
        int ok = count_members(PyTuple_GET_ITEM(pair, 1), crossed, &in);
        if (ok <= 0) return ok;
        made += in;
    }
    *out = made - spent;
    return 1;
}

#endif
