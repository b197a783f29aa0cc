/* The compiled part of the 7 Wonders Dice bots' choice (optional: see cbots.py).
 *
 * Eight functions, each the exact equivalent of a piece of pure Python, which stays the reference and
 * the fallback (tests/test_wd_cbots.py and test_wd_cbots_action.py compare both, function by function,
 * decision by decision and on whole seeded games), and ``setup(PlayerState, PackPart)``:
 *
 *   candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of) -> list
 *       engine.action_candidates's listing: ``first`` (the pass step, or None), then for the Wonder's
 *       lanes and, unless ``forum`` is None, each Forum die's lanes (``made[(die, colour, face)]``, or
 *       ``die_keys(die, colour, face)`` when not made yet), the open spaces' steps: on an arrow
 *       (``ordered``) the first space not crossed, on an unordered lane every space not crossed.
 *   first_ok(candidates, state, p, free, slow) -> the first legal candidate, or None
 *       the first c of the list for which engine.candidate_ok(state, p, c, free) holds: decided here
 *       for the usual candidate (pass; a build or Wonder space not on a Guild Court, with exact small
 *       ints), and by ``slow`` (the Python candidate_ok itself) for any other.
 *   all_ok(candidates, state, p, free, slow) -> list
 *       every candidate of the list for which it holds, in order (decided the same way).
 *   below(getrandbits, n) -> int
 *       random.Random.randrange(n) (n > 0) as the standard generator draws it (_randbelow_with_getrandbits).
 *   roll(getrandbits, forum, faces, sections) -> (dice, roll)
 *       simulate_game's roll of the Forum's dice: the draws (by below's), the event's dice dicts and the roll.
 *   shuffle(getrandbits, x) -> None
 *       random.Random.shuffle(x) as CPython's standard generator does it (Fisher-Yates from the end,
 *       each index drawn by _randbelow_with_getrandbits): the same draws, the same order.
 *   random_main(getrandbits, first, tables, state, p, slow) -> the step
 *       bots.RandomBot.main: candidates, shuffle and first_ok in one call (a simulation's every action).
 *   random_action(getrandbits, first, tables, state, p, slow, trusted, seat, done, events, event, game_id,
 *                 kind, turn) -> the claims dict, or the step
 *       simulate_game's loop for a random bot's action: chosen, applied by the compiled action (which
 *       answers the questions the step asks as this bot would, with these draws: _ckernel.c), its event
 *       appended and the seat done; the step back when the kernel leaves the action to the resolver.
 *
 * The module's LENT capsule lends randbelow, shuffle, where a generator's state lies and first_ok's verdict
 * to _ckernel.c (_lent.h), so that the kernel's answers draw and judge exactly as the bot's Python would.
 *
 * Every draw is random.Random.getrandbits's: called back, or, once ``generator(getrandbits, twin)`` has
 * checked by drawing that this file reads the standard generator's state as CPython does, taken from that
 * state here (a call back cost ~250 instructions a draw, a simulated game ~2,600 draws).
 *
 * The checks count a state.PlayerState's resources themselves (count_resources, as the property
 * counts them: the property was called back once a question, the largest single cost of the check);
 * a player of any other type, or of odd values, is read from the property.
 *
 * A lane is the tuple engine.BoardTables makes: (building, ordered, spaces, keys), spaces and keys
 * tuples of the same length. Anything else raises TypeError (never met: the tables make the lanes).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "_attrs.h" /* get_attr, set_attr: the state's slots and pack parts read cheaply, as _ckernel.c reads them */
#include "_resources.h" /* count_produced: PlayerState.resources, as _ckernel.c counts it */
#include "_lent.h"      /* what is lent to _ckernel.c (LENT) */

static PyObject *s_die_keys, *s_wonder_keys, *s_keys;

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

/* The lanes of a die showing a face, made[(die, colour, face)] (``made``: a board's tables.keys), found again by
 * the four objects' addresses: the listing looks up every Forum die for every action (each lookup a tuple
 * made, hashed, compared and freed, ~400 instructions), and a simulation's dice, colours and faces are the
 * pack's own objects, met again turn after turn. An entry holds a reference to each of the five objects,
 * so no address it compares can be another object's while it is kept; made's entries are never replaced
 * (die_keys adds the ones missing, each a function of its key), so a kept entry is what a lookup gives. */
#define LANES_CACHE 512
typedef struct {
    PyObject *made, *die, *colour, *face, *lanes;
} LanesAt;
static LanesAt lanes_at[LANES_CACHE];

static inline LanesAt *lanes_slot(PyObject *made, PyObject *die, PyObject *colour, PyObject *face) {
    uint64_t h = ((uint64_t)(uintptr_t)made * 0x9E3779B97F4A7C15u) ^ ((uint64_t)(uintptr_t)die * 0xC2B2AE3D27D4EB4Fu)
                 ^ ((uint64_t)(uintptr_t)colour * 0x165667B19E3779F9u) ^ ((uint64_t)(uintptr_t)face * 0x27D4EB2F165667C5u);
    return &lanes_at[(h >> 40) & (LANES_CACHE - 1)];
}

/* An entry replaced by the lanes just found (references taken to the five, the old entry's dropped). */
static void lanes_keep(LanesAt *e, PyObject *made, PyObject *die, PyObject *colour, PyObject *face, PyObject *lanes) {
    LanesAt old = *e;
    e->made = Py_NewRef(made);
    e->die = Py_NewRef(die);
    e->colour = Py_NewRef(colour);
    e->face = Py_NewRef(face);
    e->lanes = Py_NewRef(lanes);
    Py_XDECREF(old.made);
    Py_XDECREF(old.die);
    Py_XDECREF(old.colour);
    Py_XDECREF(old.face);
    Py_XDECREF(old.lanes);
}

/* engine.action_candidates's listing (see candidates below); ``die_keys`` NULL: ``tables.die_keys``,
 * looked up at the first (die, colour, face) not made yet. A new list, or NULL with an error. */
static PyObject *listing(PyObject *first, PyObject *wonder, PyObject *forum, PyObject *roll, PyObject *made,
                         PyObject *die_keys, PyObject *tables, PyObject *crossed_of) {
    if (!PyDict_Check(crossed_of) || !PyDict_Check(made) || (forum != Py_None && (!PyDict_Check(forum) || !PyDict_Check(roll)))) {
        PyErr_SetString(PyExc_TypeError, "crossed_of, made, forum and roll are dicts");
        return NULL;
    }
    PyObject *out = PyList_New(0), *own_keys = NULL;
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
            PyObject *face = PyTuple_CheckExact(rolled) && PyTuple_GET_SIZE(rolled) >= 1
                                 ? Py_NewRef(PyTuple_GET_ITEM(rolled, 0)) : PySequence_GetItem(rolled, 0);
            if (face == NULL) goto error;
            LanesAt *e = lanes_slot(made, die, colour, face);
            if (e->made == made && e->die == die && e->colour == colour && e->face == face) {
                Py_DECREF(face);
                if (lanes_steps(out, e->lanes, crossed_of) < 0) goto error;
                continue;
            }
            PyObject *key = PyTuple_Pack(3, die, colour, face);
            if (key == NULL) {
                Py_DECREF(face);
                goto error;
            }
            PyObject *lanes = PyDict_GetItemWithError(made, key); /* borrowed */
            if (lanes != NULL) {
                Py_INCREF(lanes);
                if (PyDict_CheckExact(made)) lanes_keep(e, made, die, colour, face, lanes); /* found by address next time */
            } else if (PyErr_Occurred()) {
                Py_DECREF(key);
                Py_DECREF(face);
                goto error;
            } else { /* made on first use (and kept by the tables) */
                if (die_keys == NULL && (die_keys = own_keys = get_attr(tables, s_die_keys)) == NULL) {
                    Py_DECREF(key);
                    Py_DECREF(face);
                    goto error;
                }
                lanes = PyObject_Call(die_keys, key, NULL);
            }
            Py_DECREF(key);
            Py_DECREF(face);
            if (lanes == NULL) goto error;
            int rc = lanes_steps(out, lanes, crossed_of);
            Py_DECREF(lanes);
            if (rc < 0) goto error;
        }
    }
    Py_XDECREF(own_keys);
    return out;
error:
    Py_XDECREF(own_keys);
    Py_DECREF(out);
    return NULL;
}

static PyObject *candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of) takes 7 arguments");
        return NULL;
    }
    return listing(args[0], args[1], args[2], args[3], args[4], args[5], NULL, args[6]);
}

/* ------------------------------------------------------------------ the standard generator's draws */

/* CPython's _random.Random object (Modules/_randommodule.c, long unchanged): the Mersenne
 * Twister's state. Read directly only once generator() has checked, by drawing, that this layout and
 * genrand() below give exactly the numbers its own getrandbits gives (otherwise every draw calls it). */
#define MT_N 624
#define MT_M 397
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[MT_N];
} MTObject;

/* The C function behind random.Random.getrandbits, once generator() has checked the layout; NULL: call it. */
static PyCFunction direct_getrandbits = NULL;

/* genrand_uint32 of Modules/_randommodule.c: the next 32 bits, the state renewed every 624 draws. */
static uint32_t genrand(MTObject *g) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = g->state;
    if (g->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        g->index = 0;
    }
    y = mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* The generator behind a bound getrandbits whose draws are read directly, or NULL: call it. */
static inline MTObject *direct(PyObject *getrandbits) {
    if (direct_getrandbits == NULL || !PyCFunction_Check(getrandbits)
        || PyCFunction_GET_FUNCTION(getrandbits) != direct_getrandbits)
        return NULL;
    return (MTObject *)PyCFunction_GET_SELF(getrandbits);
}

/* generator(getrandbits, twin) -> bool: whether draws are read directly from now on (None, None: not). ``getrandbits`` and
 * ``twin`` are two standard generators' bound getrandbits, in the same state: 3,000 draws of 1 to 32 bits
 * (the state renewed four times) are taken from the first here and from the twin by calling it, and
 * compared; any difference, an object of another size or a build without the GIL, and every draw calls
 * getrandbits as before. */
static PyObject *generator(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs == 2 && args[0] == Py_None && args[1] == Py_None) { /* generator(None, None): every draw calls back */
        direct_getrandbits = NULL;
        Py_RETURN_FALSE;
    }
    if (nargs != 2 || !PyCFunction_Check(args[0]) || !PyCFunction_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "generator(getrandbits, twin): two generators' bound getrandbits, or None, None");
        return NULL;
    }
    direct_getrandbits = NULL;
#ifdef Py_GIL_DISABLED
    Py_RETURN_FALSE; /* the generator's own lock is not ours to take */
#else
    PyCFunction meth = PyCFunction_GET_FUNCTION(args[0]);
    PyObject *a = PyCFunction_GET_SELF(args[0]), *b = PyCFunction_GET_SELF(args[1]);
    if (a == NULL || b == NULL || a == b || PyCFunction_GET_FUNCTION(args[1]) != meth
        || Py_TYPE(a)->tp_basicsize < (Py_ssize_t)sizeof(MTObject))
        Py_RETURN_FALSE;
    for (int i = 0; i < 3000; i++) {
        int k = 1 + i % 32;
        uint32_t mine = genrand((MTObject *)a) >> (32 - k);
        PyObject *bits = PyLong_FromLong(k), *theirs = bits == NULL ? NULL : PyObject_CallOneArg(args[1], bits);
        Py_XDECREF(bits);
        if (theirs == NULL) return NULL;
        unsigned long value = PyLong_AsUnsignedLong(theirs);
        Py_DECREF(theirs);
        if (value == (unsigned long)-1 && PyErr_Occurred()) return NULL;
        if (value != mine) Py_RETURN_FALSE;
    }
    direct_getrandbits = meth;
    Py_RETURN_TRUE;
#endif
}

/* random.Random._randbelow_with_getrandbits(n): getrandbits(n.bit_length()) until below n; -1 on error.
 * The standard generator's draws are read from its state (direct) when generator() has allowed it. */
static Py_ssize_t randbelow(PyObject *getrandbits, Py_ssize_t n) {
    int k = 0;
    for (Py_ssize_t m = n; m; m >>= 1) k++; /* n.bit_length() */
    MTObject *g = k >= 1 && k <= 32 ? direct(getrandbits) : NULL; /* a shift by 32 is undefined */
    if (g != NULL) {
        uint32_t j;
        do j = genrand(g) >> (32 - k); while (j >= (uint32_t)n);
        return (Py_ssize_t)j;
    }
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

static PyObject *k_id, *k_colour, *k_face, *k_section;

/* roll(getrandbits, forum, faces, sections) -> (dice, roll): the Forum's dice rolled in its order, each
 * die's face (faces[colour][randrange(len)], a list or tuple) then its section (randrange(sections)) drawn as
 * simulate_game draws them, as the event's dice ({"id", "colour", "face", "section"}, in that order) and
 * the roll ({die: (face, section)}). */
static PyObject *roll(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t sections;
    if (nargs != 4 || !PyDict_CheckExact(args[1]) || !PyDict_CheckExact(args[2]) || !PyLong_CheckExact(args[3])
        || (sections = PyLong_AsSsize_t(args[3])) <= 0) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "roll(getrandbits, forum, faces, sections): two dicts and a positive int");
        }
        return NULL;
    }
    PyObject *dice = PyList_New(0), *rolled = PyDict_New(), *die, *colour;
    Py_ssize_t pos = 0;
    if (dice == NULL || rolled == NULL) goto error;
    while (PyDict_Next(args[1], &pos, &die, &colour)) {
        PyObject *shown = PyDict_GetItemWithError(args[2], colour);
        if (shown == NULL || !(PyList_CheckExact(shown) || PyTuple_CheckExact(shown)) || PySequence_Fast_GET_SIZE(shown) == 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "roll: a colour's faces are not a list or tuple of faces");
            goto error;
        }
        Py_ssize_t f = randbelow(args[0], PySequence_Fast_GET_SIZE(shown)), s = f < 0 ? -1 : randbelow(args[0], sections);
        if (s < 0) goto error;
        PyObject *face = PySequence_Fast_GET_ITEM(shown, f), *section = PyLong_FromSsize_t(s);
        if (section == NULL) goto error;
        PyObject *one = PyDict_New(), *pair = PyTuple_Pack(2, face, section);
        int bad = one == NULL || pair == NULL || PyDict_SetItem(one, k_id, die) < 0 || PyDict_SetItem(one, k_colour, colour) < 0
                  || PyDict_SetItem(one, k_face, face) < 0 || PyDict_SetItem(one, k_section, section) < 0
                  || PyList_Append(dice, one) < 0 || PyDict_SetItem(rolled, die, pair) < 0;
        Py_XDECREF(one);
        Py_XDECREF(pair);
        Py_DECREF(section);
        if (bad) goto error;
    }
    return Py_BuildValue("(NN)", dice, rolled);
error:
    Py_XDECREF(dice);
    Py_XDECREF(rolled);
    return NULL;
}

/* random.Random.shuffle(x) (x a list) by the standard generator's draws; -1 on error. */
static int shuffle_list(PyObject *getrandbits, PyObject *x) {
    for (Py_ssize_t i = PyList_GET_SIZE(x) - 1; i > 0; i--) {
        Py_ssize_t j = randbelow(getrandbits, i + 1);
        if (j < 0) return -1;
        if (i >= PyList_GET_SIZE(x)) { /* the list changed size meanwhile (a generator of its own) */
            PyErr_SetString(PyExc_RuntimeError, "shuffle: the list changed size");
            return -1;
        }
        PyObject *a = PyList_GET_ITEM(x, i);
        PyList_SET_ITEM(x, i, PyList_GET_ITEM(x, j));
        PyList_SET_ITEM(x, j, a);
    }
    return 0;
}

static PyObject *shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "shuffle(getrandbits, x): x a list");
        return NULL;
    }
    if (shuffle_list(args[0], args[1]) < 0) return NULL;
    Py_RETURN_NONE;
}

/* Where a generator's state lies (its index and words), when its draws are read directly; NULL otherwise. */
static void *draws_state(PyObject *getrandbits, size_t *size) {
    MTObject *g = direct(getrandbits);
    if (g == NULL) return NULL;
    *size = sizeof(MTObject) - offsetof(MTObject, index);
    return *size <= DRAWS_STATE_MAX ? (void *)&g->index : NULL;
}

/* ------------------------------------------------------------------ first_ok */

static PyObject *s_rules, *s_start, *s_special, *s_board, *s_forum, *s_unlocked, *s_free_colours, *s_forum_sections,
    *s_roll, *s_discount_all, *s_discount, *s_options, *s_income, *s_colour, *s_guild, *s_space, *s_cost, *s_resources,
    *s_coins, *s_coin_cap, *v_pass, *v_build, *v_when_chosen, *s_producers, *s_crossed, *s_resources_spent;

/* What first_ok reads once per call: the table as every candidate of one question sees it. */
typedef struct {
    PyObject *special, *board, *forum, *unlocked, *free_colours, *forum_sections, *roll, *discount, *income, *coin_cap;
    long discount_all, coins;
    int when_chosen, capped;
    long cap;
    int resources_known; /* the player's resources, read at the first candidate that needs them: no
                          * candidate's check changes the table, so once a question (not once a candidate) */
    long resources;
} Table;

/* An exact int that fits a C long (and stays far from overflow), into *out; 0 if not (no error set). */
static int small_long(PyObject *o, long *out) {
    int overflow = 0;
    if (o == NULL || !PyLong_CheckExact(o)) return 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()) || v <= -1000000000L || v >= 1000000000L) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* x in container, for a set, tuple or anything else; -1 on error. */
static int contains(PyObject *container, PyObject *x) {
    return PyAnySet_Check(container) ? PySet_Contains(container, x) : PySequence_Contains(container, x);
}

/* A new reference to d.get(key) (d a dict), or NULL with *missing set (no error), or NULL with an error. */
static PyObject *dict_get(PyObject *d, PyObject *key, int *missing) {
    *missing = 0;
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL) {
        if (!PyErr_Occurred()) *missing = 1;
        return NULL;
    }
    Py_INCREF(v);
    return v;
}

static PyObject *player_type; /* state.PlayerState (set by setup): whose resources count_resources counts */

/* PlayerState.resources as the property counts it (the spaces of each producing building crossed,
 * ``len(spaces.intersection(crossed))``, summed, less ``resources_spent``), without calling it back:
 * 1 counted into *out, 0 for the property to say (a player of another type, a value of an unusual
 * type: no error set), -1 on an error. */
static int count_resources(PyObject *p, long *out) {
    if (player_type == NULL || (PyObject *)Py_TYPE(p) != player_type) return 0;
    PyObject *producers = get_attr(p, s_producers), *crossed_all = NULL, *spent_o = NULL;
    int rc = 0;
    long spent;
    if (producers == NULL || (crossed_all = get_attr(p, s_crossed)) == NULL
        || (spent_o = get_attr(p, s_resources_spent)) == NULL) {
        PyErr_Clear(); /* the property's own lookups raise it again */
        goto done;
    }
    if (small_long(spent_o, &spent)) rc = count_produced(producers, crossed_all, spent, out);
done:
    Py_XDECREF(spent_o);
    Py_XDECREF(crossed_all);
    Py_XDECREF(producers);
    return rc;
}

/* The candidate's verdict, as engine.candidate_ok gives it: 1 legal, 0 not, 2 for the Python to
 * decide (a Guild Court space, a value of an unusual type), -1 on an error (the Python's own). */
static int verdict(Table *t, PyObject *p, PyObject *s, int free) {
    if (!PyTuple_Check(s) || PyTuple_GET_SIZE(s) < 5) return 2;
    PyObject *kind = PyTuple_GET_ITEM(s, 0);
    int is = PyObject_RichCompareBool(kind, v_pass, Py_EQ);
    if (is != 0) return is; /* pass: always legal (or an error) */
    int build = PyObject_RichCompareBool(kind, v_build, Py_EQ);
    if (build < 0) return -1; /* anything else (the Wonder, a crossing) names no die */
    int rc = -1, missing;
    long owed = 0, credit = 0;
    PyObject *b = PyObject_GetItem(t->board, PyTuple_GET_ITEM(s, 2)), *colour = NULL, *bcolour = NULL, *guild = NULL,
             *spaces = NULL, *space = NULL, *cost_o = NULL, *v = NULL;
    if (b == NULL) return -1;
    if (build) {
        PyObject *die = PyTuple_GET_ITEM(s, 1);
        if ((colour = PyObject_GetItem(t->forum, die)) == NULL) goto done;
        if ((is = contains(t->special, colour)) < 0) goto done;
        if (is) {
            if ((is = contains(t->unlocked, colour)) < 0) goto done;
            if (!is) { rc = 0; goto done; }
        }
        if ((is = free ? 1 : contains(t->free_colours, colour)) < 0) goto done;
        if (!is) { /* die_cost */
            long section, price, off = 0;
            PyObject *rolled = PyObject_GetItem(t->roll, die);
            if (rolled == NULL) goto done;
            PyObject *section_o = PySequence_GetItem(rolled, 1);
            Py_DECREF(rolled);
            if (section_o == NULL) goto done;
            int ok = small_long(section_o, &section);
            Py_DECREF(section_o);
            if (!ok || section < 0) { rc = 2; goto done; }
            v = PySequence_GetItem(t->forum_sections, section);
            if (v == NULL) goto done;
            ok = small_long(v, &price);
            Py_CLEAR(v);
            if (!ok) { rc = 2; goto done; }
            v = dict_get(t->discount, colour, &missing);
            if (v == NULL && !missing) goto done;
            if (v != NULL && !small_long(v, &off)) { rc = 2; goto done; }
            Py_CLEAR(v);
            owed = price - t->discount_all - off;
            if (owed < 0) owed = 0;
        }
        if (t->when_chosen) {
            v = dict_get(t->income, colour, &missing);
            if (v == NULL && !missing) goto done;
            if (v != NULL && !small_long(v, &credit)) { rc = 2; goto done; }
            Py_CLEAR(v);
        }
    }
    if ((bcolour = get_attr(b, s_colour)) == NULL) goto done;
    if ((is = contains(t->special, bcolour)) < 0) goto done;
    if (is) {
        if ((is = contains(t->unlocked, bcolour)) < 0) goto done;
        if (!is) { rc = 0; goto done; }
    }
    if ((guild = get_attr(b, s_guild)) == NULL) goto done;
    if ((is = PyObject_IsTrue(guild)) < 0) goto done;
    if (is) { rc = 2; goto done; } /* the Guild Court's condition: the Python's */
    if ((spaces = get_attr(b, s_space)) == NULL) goto done;
    if ((space = PyObject_GetItem(spaces, PyTuple_GET_ITEM(s, 4))) == NULL) goto done;
    if ((cost_o = get_attr(space, s_cost)) == NULL) goto done;
    long cost;
    if (!small_long(cost_o, &cost)) { rc = 2; goto done; }
    if (cost) { /* construction_coins */
        if (!t->resources_known) {
            int counted = count_resources(p, &t->resources);
            if (counted < 0) goto done;
            if (!counted) { /* the property itself */
                if ((v = get_attr(p, s_resources)) == NULL) goto done;
                if (!small_long(v, &t->resources)) { rc = 2; goto done; }
            }
            t->resources_known = 1;
        }
        long resources = t->resources;
        long missing_resources = cost - (resources > 0 ? resources : 0);
        owed += missing_resources > 0 ? missing_resources : 0;
    }
    long available = t->coins;
    if (credit) {
        available = t->coins + credit;
        if (t->capped && t->cap < available) available = t->cap;
    }
    rc = owed <= available;
done:
    Py_XDECREF(v);
    Py_XDECREF(cost_o);
    Py_XDECREF(space);
    Py_XDECREF(spaces);
    Py_XDECREF(guild);
    Py_XDECREF(bcolour);
    Py_XDECREF(colour);
    Py_DECREF(b);
    return rc;
}

static void table_clear(Table *t) {
    Py_CLEAR(t->special); Py_CLEAR(t->board); Py_CLEAR(t->forum); Py_CLEAR(t->unlocked); Py_CLEAR(t->free_colours);
    Py_CLEAR(t->forum_sections); Py_CLEAR(t->roll); Py_CLEAR(t->discount); Py_CLEAR(t->income); Py_CLEAR(t->coin_cap);
}

/* Read the table once; 1 done, 0 unusual (the Python decides every candidate), -1 on an error. */
static int table_read(Table *t, PyObject *state, PyObject *p) {
    PyObject *rules = NULL, *start = NULL, *options = NULL, *o = NULL;
    int rc = -1;
    memset(t, 0, sizeof *t);
    if ((rules = get_attr(state, s_rules)) == NULL || (start = get_attr(rules, s_start)) == NULL
        || (options = get_attr(state, s_options)) == NULL
        || (t->special = get_attr(start, s_special)) == NULL
        || (t->forum_sections = get_attr(start, s_forum_sections)) == NULL
        || (t->board = get_attr(p, s_board)) == NULL || (t->forum = get_attr(state, s_forum)) == NULL
        || (t->roll = get_attr(state, s_roll)) == NULL || (t->unlocked = get_attr(p, s_unlocked)) == NULL
        || (t->free_colours = get_attr(p, s_free_colours)) == NULL
        || (t->discount = get_attr(p, s_discount)) == NULL || (t->income = get_attr(p, s_income)) == NULL
        || (t->coin_cap = get_attr(options, s_coin_cap)) == NULL)
        goto done;
    rc = 0;
    if (!PyDict_CheckExact(t->discount) || !PyDict_CheckExact(t->income)) goto done;
    if ((o = get_attr(p, s_discount_all)) == NULL) { rc = -1; goto done; }
    if (!small_long(o, &t->discount_all)) goto done;
    Py_CLEAR(o);
    if ((o = get_attr(p, s_coins)) == NULL) { rc = -1; goto done; }
    if (!small_long(o, &t->coins)) goto done;
    Py_CLEAR(o);
    t->capped = t->coin_cap != Py_None;
    if (t->capped && !small_long(t->coin_cap, &t->cap)) goto done;
    if ((o = get_attr(options, s_income)) == NULL) { rc = -1; goto done; }
    if ((t->when_chosen = PyObject_RichCompareBool(o, v_when_chosen, Py_EQ)) < 0) { rc = -1; goto done; }
    rc = 1;
done:
    Py_XDECREF(o);
    Py_XDECREF(options);
    Py_XDECREF(start);
    Py_XDECREF(rules);
    return rc;
}

/* engine.candidate_ok for a listed step on the table as read, but with the player's coins and resources as
 * given (lent to _ckernel.c, which judges a question's candidates on the table as the action will have left
 * it): 1 legal, 0 not, -1 not decided here (verdict's 2, an unusual table, an error: dropped). */
static int judged(PyObject *state, PyObject *p, PyObject *step, int free, long coins, long resources) {
    Table t;
    int rc = table_read(&t, state, p);
    if (rc == 1) {
        t.coins = coins;
        t.resources = resources;
        t.resources_known = 1;
        rc = verdict(&t, p, step, free);
    }
    table_clear(&t);
    if (rc != 0 && rc != 1) {
        if (PyErr_Occurred()) PyErr_Clear();
        return -1;
    }
    return rc;
}

/* What _ckernel.c borrows (_lent.h), as the module's LENT capsule. */
static Lent lent = {randbelow, shuffle_list, draws_state, judged};

/* What legal() gives, from its arguments. */
static PyObject *legal_of(PyObject *candidates, PyObject *state, PyObject *p, PyObject *free_o, PyObject *slow, int all) {
    int free = PyObject_IsTrue(free_o);
    if (free < 0) return NULL;
    Table t;
    int usual = table_read(&t, state, p);
    PyObject *found = NULL, *out = NULL;
    if (usual < 0) goto done;
    if (all && (out = PyList_New(0)) == NULL) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(candidates); i++) {
        PyObject *c = PyList_GET_ITEM(candidates, i);
        Py_INCREF(c);
        int ok = usual ? verdict(&t, p, c, free) : 2;
        if (ok == 2) { /* the Python decides */
            PyObject *r = PyObject_CallFunctionObjArgs(slow, state, p, c, free_o, NULL);
            ok = r == NULL ? -1 : PyObject_IsTrue(r);
            Py_XDECREF(r);
        }
        if (ok > 0 && !all) {
            found = c;
            goto done;
        }
        if (ok > 0 && PyList_Append(out, c) < 0) ok = -1;
        Py_DECREF(c);
        if (ok < 0) goto done;
    }
    found = all ? Py_NewRef(out) : Py_NewRef(Py_None);
done:
    Py_XDECREF(out);
    table_clear(&t);
    return found;
}

/* The candidates engine.candidate_ok finds legal: the first (``all`` 0: the candidate or None) or
 * every one (``all`` 1: a list). */
static PyObject *legal(PyObject *const *args, Py_ssize_t nargs, int all, const char *usage) {
    if (nargs != 5 || !PyList_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    return legal_of(args[0], args[1], args[2], args[3], args[4], all);
}

static PyObject *first_ok(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return legal(args, nargs, 0, "first_ok(candidates, state, p, free, slow): candidates a list");
}

static PyObject *all_ok(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return legal(args, nargs, 1, "all_ok(candidates, state, p, free, slow): candidates a list");
}

/* random_main(getrandbits, first, tables, state, p, slow) -> the step, or None: bots.RandomBot.main in one
 * call (engine.action_candidates listed from ``tables`` with ``first`` for the pass, shuffled by the
 * standard generator, the first legal by first_ok with the die paid). */
static PyObject *random_main(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "random_main(getrandbits, first, tables, state, p, slow) takes 6 arguments");
        return NULL;
    }
    PyObject *tables = args[2], *state = args[3], *p = args[4], *wonder = NULL, *made = NULL, *forum = NULL,
             *rolled = NULL, *crossed = NULL, *found = NULL, *list = NULL;
    if ((wonder = get_attr(tables, s_wonder_keys)) != NULL && (made = get_attr(tables, s_keys)) != NULL
        && (forum = get_attr(state, s_forum)) != NULL && (rolled = get_attr(state, s_roll)) != NULL
        && (crossed = get_attr(p, s_crossed)) != NULL
        && (list = listing(args[1], wonder, forum, rolled, made, NULL, tables, crossed)) != NULL
        && shuffle_list(args[0], list) == 0)
        found = legal_of(list, state, p, Py_False, args[5], 0);
    Py_XDECREF(list);
    Py_XDECREF(crossed);
    Py_XDECREF(rolled);
    Py_XDECREF(forum);
    Py_XDECREF(made);
    Py_XDECREF(wonder);
    return found;
}

static PyObject *k_kind, *k_die, *k_building, *k_lane, *k_space, *k_slot, *k_turn, *k_player, *k_steps, *k_claims,
    *k_paid, *k_vp, *k_coins, *s_acted, *s_players, *s_next_seat, *s_phase, *v_swaps, *v_action_taken, *one, *zero;

/* projector._done(state, seat): the seat has acted; the next seat to act is the first that has not (all
 * of them: their number), and once every seat has acted the turn's swaps come. 1 done, 0 for the Python
 * _done (an unusual table: ``acted`` not a set, ``players`` not a list), -1 on an error. */
static int seat_done(PyObject *state, PyObject *seat) {
    PyObject *acted = get_attr(state, s_acted), *players = NULL, *next = NULL;
    int rc = 0;
    if (acted == NULL || (players = get_attr(state, s_players)) == NULL) { rc = -1; goto done; }
    if (!PySet_CheckExact(acted) || !PyList_CheckExact(players)) goto done;
    if (PySet_Add(acted, seat) < 0) { rc = -1; goto done; }
    Py_ssize_t n = PyList_GET_SIZE(players), nxt = n;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *s_o = PyLong_FromSsize_t(s);
        int in = s_o == NULL ? -1 : PySet_Contains(acted, s_o);
        Py_XDECREF(s_o);
        if (in < 0) { rc = -1; goto done; }
        if (!in) { nxt = s; break; }
    }
    if ((next = PyLong_FromSsize_t(nxt)) == NULL || set_attr(state, s_next_seat, next) < 0) { rc = -1; goto done; }
    if (PySet_GET_SIZE(acted) == n && set_attr(state, s_phase, v_swaps) < 0) { rc = -1; goto done; }
    rc = 1;
done:
    Py_XDECREF(next);
    Py_XDECREF(players);
    Py_XDECREF(acted);
    return rc;
}

/* random_action(getrandbits, first, tables, state, p, slow, trusted, seat, done, events, event, game_id, kind, turn)
 *   -> the claims dict, or the step:
 * one action of a random bot in a simulation (simulate_game's loop for it, in one call): its main step
 * chosen as random_main chooses it; the step's event dict ({"kind", "die", "building", "lane", "space",
 * "slot"}); the step applied by ``trusted(state, seat, step dict, getrandbits, steps)`` (the compiled
 * action, which answers the questions the step asks as this bot would, drawing from getrandbits, and
 * appends each answer's step dict to ``steps``, the list of the event's steps). When that applies it,
 * giving (paid, vp): the action's event appended to ``events`` (``event`` the Event type, made as
 * tuple.__new__(event, (game_id, len(events), kind, "action_taken", 1, payload)), the payload {"turn",
 * "player", "steps": [step dict, answers...], "claims": {"paid", "vp", "coins": 0}}), the seat done
 * (projector._done, in C, or ``done(state, seat)`` itself for an unusual table), and the claims dict
 * returned for its coins to be filled in at the turn's end. When it declines (a question it does not
 * answer): nothing made but the main step's draws (the answers' draws taken back), and the step
 * returned for the resolver. */
static PyObject *random_action(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 14 || !PyList_CheckExact(args[9]) || !PyType_Check(args[10])
        || !PyType_IsSubtype((PyTypeObject *)args[10], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "random_action(getrandbits, first, tables, state, p, slow, trusted, seat, done, "
                                         "events, event, game_id, kind, turn): events a list, event a tuple type");
        return NULL;
    }
    PyObject *state = args[3], *seat = args[7], *events = args[9], *step = random_main(self, args, 6), *as_dict = NULL,
             *applied = NULL, *claims = NULL, *payload = NULL, *steps = NULL, *fields = NULL, *wrapped = NULL,
             *event = NULL, *seq = NULL, *paid = NULL, *vp = NULL, *out = NULL;
    if (step == NULL) return NULL;
    if (step == Py_None) {
        PyErr_SetString(PyExc_AssertionError, "a main prompt with no legal answer"); /* pass is always legal */
        goto done;
    }
    if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 6) {
        PyErr_SetString(PyExc_TypeError, "random_action: a step is a StepKey");
        goto done;
    }
    PyObject *const *f = &PyTuple_GET_ITEM(step, 0);
    if ((as_dict = PyDict_New()) == NULL || PyDict_SetItem(as_dict, k_kind, f[0]) < 0 || PyDict_SetItem(as_dict, k_die, f[1]) < 0
        || PyDict_SetItem(as_dict, k_building, f[2]) < 0 || PyDict_SetItem(as_dict, k_lane, f[3]) < 0
        || PyDict_SetItem(as_dict, k_space, f[4]) < 0 || PyDict_SetItem(as_dict, k_slot, f[5]) < 0)
        goto done;
    if ((steps = PyList_New(1)) == NULL) goto done;
    PyList_SET_ITEM(steps, 0, Py_NewRef(as_dict));
    PyObject *call[5] = {state, seat, as_dict, args[0], steps};
    if ((applied = PyObject_Vectorcall(args[6], call, 5, NULL)) == NULL) goto done;
    if (applied == Py_None) { /* declined: the resolver's */
        out = Py_NewRef(step);
        goto done;
    }
    if ((paid = PySequence_GetItem(applied, 0)) == NULL || (vp = PySequence_GetItem(applied, 1)) == NULL) goto done;
    if ((claims = PyDict_New()) == NULL || PyDict_SetItem(claims, k_paid, paid) < 0 || PyDict_SetItem(claims, k_vp, vp) < 0
        || PyDict_SetItem(claims, k_coins, zero) < 0)
        goto done;
    if ((payload = PyDict_New()) == NULL || PyDict_SetItem(payload, k_turn, args[13]) < 0
        || PyDict_SetItem(payload, k_player, seat) < 0 || PyDict_SetItem(payload, k_steps, steps) < 0
        || PyDict_SetItem(payload, k_claims, claims) < 0)
        goto done;
    if ((seq = PyLong_FromSsize_t(PyList_GET_SIZE(events))) == NULL
        || (fields = PyTuple_Pack(6, args[11], seq, args[12], v_action_taken, one, payload)) == NULL
        || (wrapped = PyTuple_Pack(1, fields)) == NULL
        || (event = PyTuple_Type.tp_new((PyTypeObject *)args[10], wrapped, NULL)) == NULL || PyList_Append(events, event) < 0)
        goto done;
    int finished = seat_done(state, seat);
    if (finished < 0) goto done;
    if (!finished) { /* the Python _done, for a table it reads otherwise */
        PyObject *r = PyObject_Vectorcall(args[8], call, 2, NULL);
        if (r == NULL) goto done;
        Py_DECREF(r);
    }
    out = Py_NewRef(claims);
done:
    Py_XDECREF(vp);
    Py_XDECREF(paid);
    Py_XDECREF(seq);
    Py_XDECREF(event);
    Py_XDECREF(wrapped);
    Py_XDECREF(fields);
    Py_XDECREF(payload);
    Py_XDECREF(steps);
    Py_XDECREF(claims);
    Py_XDECREF(applied);
    Py_XDECREF(as_dict);
    Py_DECREF(step);
    return out;
}

/* setup(PlayerState, PackPart): the type whose resources first_ok counts itself (as its property does),
 * and the pack parts' base, whose attributes get_attr keeps (_attrs.h). */
static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyType_Check(args[0]) || !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "setup(PlayerState, PackPart): two types");
        return NULL;
    }
    Py_XSETREF(player_type, Py_NewRef(args[0]));
    Py_XSETREF(pack_part, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"generator", (PyCFunction)(void (*)(void))generator, METH_FASTCALL,
     "generator(getrandbits, twin): whether the standard generator's draws are read from its state (checked by drawing)"},
    {"random_main", (PyCFunction)(void (*)(void))random_main, METH_FASTCALL,
     "random_main(getrandbits, first, tables, state, p, slow): bots.RandomBot.main, listed, shuffled and checked in one call"},
    {"random_action", (PyCFunction)(void (*)(void))random_action, METH_FASTCALL,
     "random_action(getrandbits, first, tables, state, p, slow, trusted, seat, done, events, event, game_id, kind, turn): "
     "a random bot's action in a simulation, chosen, applied and logged in one call"},
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "setup(PlayerState, PackPart): the player type whose resources are counted here, the pack parts' base"},
    {"candidates", (PyCFunction)(void (*)(void))candidates, METH_FASTCALL,
     "candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of): engine.action_candidates's listing"},
    {"below", (PyCFunction)(void (*)(void))below, METH_FASTCALL,
     "below(getrandbits, n): random.Random.randrange(n) for the standard generator, the same draws"},
    {"first_ok", (PyCFunction)(void (*)(void))first_ok, METH_FASTCALL,
     "first_ok(candidates, state, p, free, slow): the first candidate engine.candidate_ok finds legal, or None"},
    {"all_ok", (PyCFunction)(void (*)(void))all_ok, METH_FASTCALL,
     "all_ok(candidates, state, p, free, slow): the candidates engine.candidate_ok finds legal, in order"},
    {"roll", (PyCFunction)(void (*)(void))roll, METH_FASTCALL,
     "roll(getrandbits, forum, faces, sections): the Forum's dice rolled as simulate_game rolls them, (dice, roll)"},
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(getrandbits, x): random.Random.shuffle(x) for the standard generator, the same draws"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cbots",
                                    "The compiled part of the 7 Wonders Dice bots' choice (see cbots.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

#define INTERN(var, text) if (((var) = PyUnicode_InternFromString(text)) == NULL) return NULL

PyMODINIT_FUNC PyInit__cbots(void) {
    INTERN(s_rules, "rules"); INTERN(s_start, "start"); INTERN(s_special, "special"); INTERN(s_board, "board");
    INTERN(s_forum, "forum"); INTERN(s_unlocked, "unlocked"); INTERN(s_free_colours, "free_colours");
    INTERN(s_forum_sections, "forum_sections"); INTERN(s_roll, "roll"); INTERN(s_discount_all, "discount_all");
    INTERN(s_discount, "discount"); INTERN(s_options, "options"); INTERN(s_income, "income"); INTERN(s_colour, "colour");
    INTERN(s_guild, "guild"); INTERN(s_space, "space"); INTERN(s_cost, "cost"); INTERN(s_resources, "resources");
    INTERN(s_coins, "coins"); INTERN(s_coin_cap, "coin_cap"); INTERN(v_pass, "pass"); INTERN(v_build, "build");
    INTERN(v_when_chosen, "when_chosen");
    INTERN(s_producers, "producers"); INTERN(s_crossed, "crossed"); INTERN(s_resources_spent, "resources_spent");
    INTERN(s_die_keys, "die_keys"); INTERN(s_wonder_keys, "wonder_keys"); INTERN(s_keys, "keys");
    INTERN(k_kind, "kind"); INTERN(k_die, "die"); INTERN(k_building, "building"); INTERN(k_lane, "lane");
    INTERN(k_space, "space"); INTERN(k_slot, "slot"); INTERN(k_turn, "turn"); INTERN(k_player, "player");
    INTERN(k_steps, "steps"); INTERN(k_claims, "claims"); INTERN(k_paid, "paid"); INTERN(k_vp, "vp"); INTERN(k_coins, "coins");
    INTERN(s_acted, "acted"); INTERN(s_players, "players"); INTERN(s_next_seat, "next_seat"); INTERN(s_phase, "phase");
    INTERN(v_swaps, "swaps"); INTERN(v_action_taken, "action_taken");
    if ((one = PyLong_FromLong(1)) == NULL || (zero = PyLong_FromLong(0)) == NULL) return NULL;
    INTERN(k_id, "id"); INTERN(k_colour, "colour"); INTERN(k_face, "face"); INTERN(k_section, "section");
    PyObject *m = PyModule_Create(&module), *capsule = m == NULL ? NULL : PyCapsule_New(&lent, LENT_CAPSULE, NULL);
    if (capsule == NULL || PyModule_AddObject(m, "LENT", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
