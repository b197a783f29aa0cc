/* The replay driver's loop, compiled: ``Replay._run`` (replay/driver.py) for every game, each event
 * applied through the rules' ``apply_at`` and its step made only for the observers that want it.
 *
 * Why: once a game's rules apply an event in one compiled call (7 Wonders Dice's kernel), the Python
 * loop around that call, with its attribute reads, the tuple unpacked, the turn compared and the step
 * made through six descriptor calls, is a sizeable share of what is left of a fold, and more of a
 * projection (docs/performance.md, "Fourteenth pass"). This is the same loop, statement for statement,
 * without the interpreter: the Python loop is its reference, and the path REPLAY_PURE=1 takes.
 *
 * What it keeps of the Python loop: ``replay.index`` set before each event and ``replay.turns`` when a
 * turn is passed; ``replay._before`` read again for each event (``observe`` replaces the list); the
 * observers' list read once (``observe`` extends it) and its ``after`` observers found again when its
 * length changes, by the driver's own ``_overrides`` and ``_wants``; an ``Exception`` raised by
 * ``apply_at`` or by unpacking its result handled as the loop's ``except`` handles it (``_position``
 * and ``_refusal`` called with the exception being handled, so one raised from there is chained as
 * Python chains it); anything else (a ``BaseException``, an error from an observer, from ``_record`` or
 * from ``_refusal``) goes up unchanged. A result that is not a tuple of two is unpacked by Python
 * (``unpack``, set by ``setup``), so its error is Python's own. The step is ``Step`` made as the
 * driver's ``_step`` makes it: ``object.__new__`` (the type's allocation) and each slot written where
 * its member descriptor says, which is what the descriptor's ``__set__`` does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* T_OBJECT_EX: the step's slots */

static PyObject *s_index, *s_turns, *s_before_list, *s_before, *s_after, *s_turn, *s_type, *s_position, *s_refusal;
static PyObject *empty_tuple;

/* set by setup(): the Step type and where its six slots are; the driver's helpers */
#define FIELDS 6
static PyTypeObject *step_type = NULL;
static Py_ssize_t offsets[FIELDS];
static PyObject *overrides = NULL; /* _overrides(observer, method) -> bool */
static PyObject *wants = NULL;     /* _wants(observer, kind) -> bool */
static PyObject *unpack = NULL;    /* _pair(result) -> (position, found), Python's unpacking */

static const char *field_names[FIELDS] = {"index", "event", "position", "problems", "state", "refused"};

/* setup(Step, overrides, wants, unpack): the step type's slots found; None. */
static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "setup(Step, overrides, wants, unpack)");
        return NULL;
    }
    PyTypeObject *t = (PyTypeObject *)args[0];
    if (t->tp_alloc != PyType_GenericAlloc || t->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError, "setup: Step must be a plain slotted class");
        return NULL;
    }
    for (int i = 0; i < FIELDS; i++) {
        PyObject *name = PyUnicode_InternFromString(field_names[i]);
        if (name == NULL) return NULL;
        PyObject *d = _PyType_Lookup(t, name); /* borrowed */
        Py_DECREF(name);
        if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type) || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX
            || ((PyMemberDescrObject *)d)->d_member->offset <= 0) {
            PyErr_Format(PyExc_TypeError, "setup: Step.%s must be a slot", field_names[i]);
            return NULL;
        }
        offsets[i] = ((PyMemberDescrObject *)d)->d_member->offset;
    }
    for (int i = 1; i < 4; i++)
        if (!PyCallable_Check(args[i])) {
            PyErr_SetString(PyExc_TypeError, "setup(Step, overrides, wants, unpack): the last three are callables");
            return NULL;
        }
    Py_XSETREF(step_type, (PyTypeObject *)Py_NewRef(t));
    Py_XSETREF(overrides, Py_NewRef(args[1]));
    Py_XSETREF(wants, Py_NewRef(args[2]));
    Py_XSETREF(unpack, Py_NewRef(args[3]));
    Py_RETURN_NONE;
}

/* Step(index, event, position, problems, state, refused), as the driver's _step makes it. */
static PyObject *make_step(PyObject *index, PyObject *event, PyObject *position, PyObject *problems, PyObject *state,
                           int refused) {
    PyObject *step = step_type->tp_alloc(step_type, 0);
    if (step == NULL) return NULL;
    PyObject *values[FIELDS] = {index, event, position, problems, state, refused ? Py_True : Py_False};
    for (int i = 0; i < FIELDS; i++) *(PyObject **)((char *)step + offsets[i]) = Py_NewRef(values[i]);
    return step;
}

/* [o for o in items if test(o, arg)]: the observers whose ``after`` may do something (test _overrides,
 * arg "after"), and of those the ones that want an event type (test _wants, arg the type). */
static PyObject *those(PyObject *items, PyObject *test, PyObject *arg) {
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(items); i++) {
        PyObject *o = PyList_GET_ITEM(items, i);
        PyObject *call[2] = {o, arg};
        PyObject *yes = PyObject_Vectorcall(test, call, 2, NULL);
        int ok = yes == NULL ? -1 : PyObject_IsTrue(yes);
        Py_XDECREF(yes);
        if (ok < 0 || (ok && PyList_Append(out, o) < 0)) Py_CLEAR(out);
    }
    return out;
}

/* The loop's except clause: the exception being raised (an Exception) handled as Python handles it,
 * ``_position`` and ``_refusal`` called with it as the exception being handled. 0 with *position and
 * *found set (new references); -1 with an error set (anything not an Exception is left raised). */
static int refusal(PyObject *replay, PyObject *state, PyObject *event, PyObject **position, PyObject **found) {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) return -1;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL) PyException_SetTraceback(value, tb);
    PyObject *saved_type, *saved_value, *saved_tb;
    PyErr_GetExcInfo(&saved_type, &saved_value, &saved_tb);
    PyErr_SetExcInfo(type, Py_NewRef(value), tb); /* steals type and tb */
    *position = PyObject_CallMethodObjArgs(replay, s_position, state, event, NULL);
    *found = *position == NULL ? NULL : PyObject_CallMethodObjArgs(replay, s_refusal, state, event, value, NULL);
    PyErr_SetExcInfo(saved_type, saved_value, saved_tb); /* steals them: the handled exception as it was */
    Py_DECREF(value);
    if (*found == NULL) {
        Py_CLEAR(*position);
        return -1;
    }
    return 0;
}

/* run(replay, state, events, apply_at, record): Replay._run's loop over the iterator ``events``. */
static PyObject *run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "run(replay, state, events, apply_at, record)");
        return NULL;
    }
    if (step_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "run: setup(Step, overrides, wants, unpack) was not called");
        return NULL;
    }
    PyObject *replay = args[0], *state = args[1], *events = args[2], *apply_at = args[3], *record = args[4];
    PyObject *observers = NULL, *after = NULL, *wanted = NULL, *index = NULL, *turns = NULL, *event = NULL;
    Py_ssize_t at = 0;
    PyObject *result = NULL;
    Py_ssize_t seen = 0;
    observers = PyObject_GetAttrString(replay, "observers");
    index = PyObject_GetAttr(replay, s_index);
    turns = PyObject_GetAttr(replay, s_turns);
    wanted = PyDict_New();
    after = PyList_New(0);
    if (observers == NULL || index == NULL || turns == NULL || wanted == NULL || after == NULL) goto done;
    at = PyLong_AsSsize_t(index);
    if (at == -1 && PyErr_Occurred()) goto done;
    if (!PyList_Check(observers)) {
        PyErr_SetString(PyExc_TypeError, "run: replay.observers must be a list");
        goto done;
    }
    while ((event = PyIter_Next(events)) != NULL) {
        PyObject *position = NULL, *found = NULL, *problems = NULL, *turn = NULL;
        int refused = 0, failed = 1;
        Py_SETREF(index, PyLong_FromSsize_t(++at));
        if (index == NULL || PyObject_SetAttr(replay, s_index, index) < 0) goto event_done;
        PyObject *before = PyObject_GetAttr(replay, s_before_list); /* read each time: observe replaces the list */
        if (before == NULL) goto event_done;
        if (PyList_Check(before)) {
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(before); i++) {
                PyObject *o = PyList_GET_ITEM(before, i);
                Py_INCREF(o);
                PyObject *r = PyObject_CallMethodObjArgs(o, s_before, state, event, NULL);
                Py_DECREF(o);
                if (r == NULL) {
                    Py_DECREF(before);
                    goto event_done;
                }
                Py_DECREF(r);
            }
        } else { /* another iterable: iterated as Python would */
            PyObject *it = PyObject_GetIter(before), *o;
            if (it == NULL) {
                Py_DECREF(before);
                goto event_done;
            }
            while ((o = PyIter_Next(it)) != NULL) {
                PyObject *r = PyObject_CallMethodObjArgs(o, s_before, state, event, NULL);
                Py_DECREF(o);
                if (r == NULL) break;
                Py_DECREF(r);
            }
            Py_DECREF(it);
            if (PyErr_Occurred()) {
                Py_DECREF(before);
                goto event_done;
            }
        }
        Py_DECREF(before);
        PyObject *on[2] = {state, event};
        PyObject *applied = PyObject_Vectorcall(apply_at, on, 2, NULL);
        if (applied != NULL && !(PyTuple_CheckExact(applied) && PyTuple_GET_SIZE(applied) == 2))
            Py_SETREF(applied, PyObject_Vectorcall(unpack, &applied, 1, NULL)); /* Python's unpacking, its errors */
        if (applied != NULL) {
            position = Py_NewRef(PyTuple_GET_ITEM(applied, 0));
            found = Py_NewRef(PyTuple_GET_ITEM(applied, 1));
            Py_DECREF(applied);
        } else {
            if (refusal(replay, state, event, &position, &found) < 0) goto event_done;
            refused = 1;
        }
        int any = PyObject_IsTrue(found);
        if (any < 0) goto event_done;
        if (any) {
            PyObject *call[2] = {found, event};
            problems = PyObject_Vectorcall(record, call, 2, NULL);
            if (problems == NULL) goto event_done;
        } else {
            problems = Py_NewRef(empty_tuple);
        }
        turn = PyObject_GetAttr(position, s_turn);
        if (turn == NULL) goto event_done;
        if (turn != Py_None) {
            int later = PyObject_RichCompareBool(turn, turns, Py_GT);
            if (later < 0) goto event_done;
            if (later) {
                Py_SETREF(turns, Py_NewRef(turn));
                if (PyObject_SetAttr(replay, s_turns, turns) < 0) goto event_done;
            }
        }
        if (PyList_GET_SIZE(observers)) {
            if (PyList_GET_SIZE(observers) != seen) { /* an observer added: the after observers found again */
                seen = PyList_GET_SIZE(observers);
                Py_SETREF(after, those(observers, overrides, s_after));
                if (after == NULL) goto event_done;
                PyDict_Clear(wanted);
            }
            if (PyList_GET_SIZE(after)) {
                PyObject *kind = PyObject_GetAttr(event, s_type);
                if (kind == NULL) goto event_done;
                PyObject *targets = PyDict_GetItemWithError(wanted, kind); /* borrowed */
                if (targets == NULL) {
                    if (PyErr_Occurred() || (targets = those(after, wants, kind)) == NULL) {
                        Py_DECREF(kind);
                        goto event_done;
                    }
                    int stored = PyDict_SetItem(wanted, kind, targets);
                    Py_DECREF(targets); /* the dict holds it */
                    if (stored < 0) {
                        Py_DECREF(kind);
                        goto event_done;
                    }
                }
                Py_DECREF(kind);
                if (PyList_GET_SIZE(targets)) {
                    Py_INCREF(targets);
                    PyObject *step = make_step(index, event, position, problems, state, refused);
                    for (Py_ssize_t i = 0; step != NULL && i < PyList_GET_SIZE(targets); i++) {
                        PyObject *r = PyObject_CallMethodObjArgs(PyList_GET_ITEM(targets, i), s_after, step, NULL);
                        if (r == NULL) Py_CLEAR(step);
                        Py_XDECREF(r);
                    }
                    Py_DECREF(targets);
                    if (step == NULL) goto event_done;
                    Py_DECREF(step);
                }
            }
        }
        failed = 0;
    event_done:
        Py_XDECREF(position);
        Py_XDECREF(found);
        Py_XDECREF(problems);
        Py_XDECREF(turn);
        Py_CLEAR(event);
        if (failed) goto done;
    }
    if (!PyErr_Occurred()) result = Py_NewRef(Py_None);
done:
    Py_XDECREF(event);
    Py_XDECREF(observers);
    Py_XDECREF(after);
    Py_XDECREF(wanted);
    Py_XDECREF(index);
    Py_XDECREF(turns);
    return result;
}

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL, "setup(Step, overrides, wants, unpack)"},
    {"run", (PyCFunction)(void (*)(void))run, METH_FASTCALL,
     "run(replay, state, events, apply_at, record): Replay._run's loop"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cdriver", NULL, -1, methods};

PyMODINIT_FUNC PyInit__cdriver(void) {
    s_index = PyUnicode_InternFromString("index");
    s_turns = PyUnicode_InternFromString("turns");
    s_before_list = PyUnicode_InternFromString("_before");
    s_before = PyUnicode_InternFromString("before");
    s_after = PyUnicode_InternFromString("after");
    s_turn = PyUnicode_InternFromString("turn");
    s_type = PyUnicode_InternFromString("type");
    s_position = PyUnicode_InternFromString("_position");
    s_refusal = PyUnicode_InternFromString("_refusal");
    empty_tuple = PyTuple_New(0);
    if (!s_index || !s_turns || !s_before_list || !s_before || !s_after || !s_turn || !s_type || !s_position || !s_refusal || !empty_tuple)
        return NULL;
    return PyModule_Create(&module);
}
