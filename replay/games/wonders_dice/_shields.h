/* A player's shields in one Barracks, counted in C, for the 7 Wonders Dice extensions (_ckernel.c for
 * an attack's effect, _crows.c for the actions row's defender_shields): one count, as state.py counts
 * them, ``PlayerState.shields`` (the crossed spaces of the Barracks that are shield spaces) or, given
 * this turn's crossings, ``shields_before_turn`` (less those crossed this turn: actions resolving
 * simultaneously, as engine.defence reads them).
 *
 * Only the usual values are counted here: an exact dict of sets, str spaces, (str, str) crossings (an
 * odd value could make hashing or comparing run Python code). Anything else returns 0 with no error
 * set, and the caller leaves it to the Python code, which gives what it always gave. */
#ifndef REPLAY_WD_SHIELDS_H
#define REPLAY_WD_SHIELDS_H

#include <Python.h>
#include "_resources.h" /* count_members */

/* The shields into *out: 1, 0 to leave it to the Python (no error set), -1 on an error (set).
 * ``shield_spaces``: the Barracks' Building.shield_spaces; ``crossed_all``: PlayerState.crossed;
 * ``this_turn``: PlayerState.this_turn, or NULL for the shields as they stand. */
static int count_shields(PyObject *shield_spaces, PyObject *crossed_all, PyObject *this_turn, PyObject *barracks,
                         long *out) {
    long count = 0;
    if (!PyFrozenSet_CheckExact(shield_spaces) || !PyDict_CheckExact(crossed_all) || !PyUnicode_CheckExact(barracks)
        || (this_turn != NULL && !PyList_CheckExact(this_turn)))
        return 0;
    PyObject *crossed = PyDict_GetItemWithError(crossed_all, barracks); /* borrowed */
    if (crossed == NULL && PyErr_Occurred()) return -1;
    if (crossed != NULL) {
        if (!PyAnySet_CheckExact(crossed)) return 0;
        int ok = count_members(crossed, shield_spaces, &count);
        if (ok <= 0) return ok;
    }
    for (Py_ssize_t i = 0; this_turn != NULL && i < PyList_GET_SIZE(this_turn); i++) {
        PyObject *pair = PyList_GET_ITEM(this_turn, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(pair, 0))
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(pair, 1)))
            return 0;
        if (PyTuple_GET_ITEM(pair, 0) != barracks && PyUnicode_Compare(PyTuple_GET_ITEM(pair, 0), barracks) != 0) continue;
        int in = PySet_Contains(shield_spaces, PyTuple_GET_ITEM(pair, 1));
        if (in < 0) return -1;
        count -= in;
    }
    *out = count;
    return 1;
}

#endif
