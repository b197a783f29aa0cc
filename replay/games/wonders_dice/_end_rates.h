/* The VP an end effect scores per space counted, by (category, what is counted), in C, for the 7 Wonders Dice
 * extensions (_ckernel.c for the final scores, _crows.c for the turn rows' VP): one reading of
 * ``scoring.end_rates``: several effects on the same count add up, or the highest applies (the option
 * ``per_space_vp`` "max"), in the order the counts first appear.
 *
 * Only the usual values are read here: an exact list of (str, str, int) tuples, each rate within a million and
 * their sums too (so a rate times a board's spaces fits any C long). Anything else returns 0 with no error set,
 * and the caller leaves it to the Python code, which gives what it always gave. */
#ifndef REPLAY_WD_END_RATES_H
#define REPLAY_WD_END_RATES_H

#include <Python.h>

#define END_RATES 16 /* distinct (category, counted) pairs; more are left to the Python */
#define END_RATE_MAX 1000000L

typedef struct {
    PyObject *category[END_RATES], *counted[END_RATES]; /* borrowed: the end effects' list holds them */
    long rate[END_RATES];
    int n;
} EndRates;

/* Two exact strs with the same text (identity first). */
static int same_text(PyObject *a, PyObject *b) {
    return a == b || (PyUnicode_GET_LENGTH(a) == PyUnicode_GET_LENGTH(b) && PyUnicode_Compare(a, b) == 0);
}

/* PlayerState.end_effects (``end``) read into *rates: 1, or 0 for the Python (no error set). */
static int end_rates(PyObject *end, int take_max, EndRates *rates) {
    rates->n = 0;
    if (!PyList_CheckExact(end)) return 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(end); i++) {
        PyObject *e = PyList_GET_ITEM(end, i), *rate_o;
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 3 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(e, 0))
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(e, 1)) || !PyLong_CheckExact(rate_o = PyTuple_GET_ITEM(e, 2)))
            return 0;
        int overflow;
        long rate = PyLong_AsLongAndOverflow(rate_o, &overflow);
        if (overflow || rate > END_RATE_MAX || rate < -END_RATE_MAX) return 0;
        int k = 0;
        while (k < rates->n && !(same_text(rates->category[k], PyTuple_GET_ITEM(e, 0))
                                 && same_text(rates->counted[k], PyTuple_GET_ITEM(e, 1))))
            k++;
        if (k == rates->n) {
            if (k == END_RATES) return 0;
            rates->category[k] = PyTuple_GET_ITEM(e, 0);
            rates->counted[k] = PyTuple_GET_ITEM(e, 1);
            rates->rate[k] = 0;
            rates->n++;
        }
        long now = take_max ? (rate > rates->rate[k] ? rate : rates->rate[k]) : rates->rate[k] + rate;
        if (now > END_RATE_MAX || now < -END_RATE_MAX) return 0;
        rates->rate[k] = now;
    }
    return 1;
}

#endif
