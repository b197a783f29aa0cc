/* The compiled fast path of the 7 Wonders Dice fold (optional: see compiled.py).
 *
 * Two functions, each the usual case of one event type, over the same Python objects the
 * pure-Python fold uses (GameState, PlayerState, the board's compiled SpacePlans):
 *
 *   action(state, payload) -> None | list | (paid, vp)
 *       projector._direct_action + kernel.direct_action for a one-step action (pass, or one
 *       space built with a die or on the Wonder; on a Guild Court, its condition checked), and the
 *       resolver's (engine._Action) follow-ups of such a step, each answered by the next logged step
 *       in the order the resolver asks them: an extra action skipped or taken (a build or Wonder
 *       step on another building, asking nothing and completing nothing), the spaces a "cross"
 *       effect crosses (one, or two in the same building; skipped; or none when the effect lapses,
 *       asking nothing), each checked on the table as simulated after the steps before it, the
 *       bonus slot a completion asks (its own effects answered the same way). Checked, applied, the
 *       seat's turn done. [] when the claims are all right (or absent); (paid, vp) when they must be
 *       checked (the Python code reports them).
 *   roll(state, payload) -> None | True
 *       projector._roll + _start_turn for a roll of the Forum's dice in the Forum's order.
 *   position(event_type, payload) -> Position | None
 *       rules.position's cached Position of (turn, seat) when both are exact ints.
 *
 * None: declined, with nothing changed. Anything unusual is declined (a value of another type
 * than the exact int/str/list/dict expected, a missing key, a rule broken, a question the kernel
 * does not answer...), and the Python code then does what it always did, so its problems and
 * messages are unchanged. Every check is made before anything changes. The effects are applied in
 * C as engine.apply_effect applies them (effect_in_c), except where a value is odd (a big int, a
 * bool, another type): then engine.apply_effect itself is called. The Python code is the
 * reference: tests/test_wd_compiled.py runs both on the same games and damaged events and
 * compares states, problems and outputs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* ------------------------------------------------------------------ interned names */

static PyObject *s_phase, *s_pending, *s_options, *s_resolution, *s_players, *s_next_seat, *s_turn, *s_coins,
    *s_board, *s_rules, *s_compiled, *s_plans, *s_forum, *s_roll, *s_start, *s_special, *s_unlocked, *s_reaches,
    *s_free_colours, *s_forum_sections, *s_discount_all, *s_discount, *s_producers, *s_crossed, *s_resources_spent,
    *s_bonuses, *s_income, *s_coin_cap, *s_resources, *s_this_turn, *s_agora_completers, *s_acted, *s_vp, *s_type,
    *s_pass_coins, *s_faces, *s_follow_ups, *s_barracks, *s_bonus_slots, *s_slots;
static PyObject *k_player, *k_steps, *k_kind, *k_building, *k_lane, *k_space, *k_die, *k_claims, *k_paid, *k_dice,
    *k_id, *k_colour, *k_face, *k_section, *k_slot;
static PyObject *v_actions, *v_two_phase, *v_pass, *v_build, *v_wonder, *v_when_chosen, *v_after_paying,
    *v_after_action, *v_spent, *v_swaps, *v_roll, *v_vp, *v_bonus, *v_one_building, *v_barracks_, *v_cross,
    *v_extra_action, *v_skip, *s_count, *s_buildings, *v_per_space, *v_unlock;

static PyObject *apply_effect = NULL; /* engine.apply_effect, set by setup() */

/* ------------------------------------------------------------------ references held for one call */

#define MAXREF 256
#define MAXEFFECTS 16
#define MAXSTEPS 8
#define MAXCROSS 4 /* the spaces an action's effects may cross */
typedef struct {
    PyObject *o[MAXREF];
    int n;
    int full;
} Refs;

/* An empty Refs, not zero-initialised: 256 pointers a call, of which only the first n are read. */
static inline void refs_empty(Refs *r) {
    r->n = 0;
    r->full = 0;
}

static PyObject *keep(Refs *r, PyObject *o) {
    if (o == NULL) return NULL;
    if (r->n >= MAXREF) {
        Py_DECREF(o);
        r->full = 1;
        return NULL;
    }
    r->o[r->n++] = o;
    return o;
}

static void release(Refs *r) {
    while (r->n) Py_DECREF(r->o[--r->n]);
}

#define GA(obj, name) keep(&refs, PyObject_GetAttr((obj), (name)))

/* Whether two objects are equal exact str objects (identity first). */
static int eq(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (!PyUnicode_CheckExact(a) || !PyUnicode_CheckExact(b)) return 0;
    if (PyUnicode_GET_LENGTH(a) != PyUnicode_GET_LENGTH(b)) return 0;
    return PyUnicode_Compare(a, b) == 0;
}

/* An exact int that fits a C long, into *out; 0 if not (no error left set). */
static int as_long(PyObject *o, long *out) {
    int overflow = 0;
    if (o == NULL || !PyLong_CheckExact(o)) return 0;
    *out = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* Values kept far from overflow: anything larger is declined to the Python code. */
#define SMALL(x) ((x) > -1000000000L && (x) < 1000000000L)

static long gained(int capped, long cap, long coins, long gain) {
    long total = coins + gain;
    return capped && cap < total ? cap : total;
}

static int set_long(PyObject *obj, PyObject *name, long value) {
    PyObject *v = PyLong_FromLong(value);
    if (v == NULL) return -1;
    int rc = PyObject_SetAttr(obj, name, v);
    Py_DECREF(v);
    return rc;
}

/* PlayerState.resources: crossed spaces that produce a resource, less those spent; 0 on failure. */
static int player_resources(PyObject *producers, PyObject *crossed_all, long spent, long *out) {
    long made = 0;
    if (!PyTuple_CheckExact(producers)) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(producers);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyTuple_GET_ITEM(producers, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return 0;
        PyObject *crossed = PyDict_GetItemWithError(crossed_all, PyTuple_GET_ITEM(pair, 0));
        if (crossed == NULL) {
            if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
            continue;
        }
        if (!PySet_CheckExact(crossed)) return 0;
        if (PySet_GET_SIZE(crossed) == 0) continue;
        PyObject *spaces = PyTuple_GET_ITEM(pair, 1);
        if (!PyFrozenSet_CheckExact(spaces)) return 0;
        PyObject *it = PyObject_GetIter(spaces), *x;
        if (it == NULL) { PyErr_Clear(); return 0; }
        while ((x = PyIter_Next(it)) != NULL) {
            int in = PySet_Contains(crossed, x);
            Py_DECREF(x);
            if (in < 0) { Py_DECREF(it); PyErr_Clear(); return 0; }
            made += in;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    }
    *out = made - spent;
    return 1;
}

/* A kernel's two ways out other than success: declined (None, nothing changed, any lookup error
 * dropped, for the Python code to do it) and failed (NULL with the error set). */
static PyObject *declined(Refs *refs) {
    release(refs);
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

static PyObject *failed(Refs *refs) {
    release(refs);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the compiled kernel lost track of its references");
    return NULL;
}

/* The three kernels take (a, b): a TypeError naming the call otherwise. */
static int two_args(Py_ssize_t nargs, const char *call) {
    if (nargs == 2) return 1;
    PyErr_SetString(PyExc_TypeError, call);
    return 0;
}

/* ------------------------------------------------------------------ effects (engine.apply_effect) */

static PyObject *v_attack, *v_resource, *v_shield, *v_vp_per_leader_end, *v_die_discount, *v_die_free, *v_income,
    *v_leaders, *v_barracks_west, *v_barracks_east, *v_simultaneous, *s_amount, *s_colours, *s_die, *s_end_effects,
    *s_pending_swaps, *s_shield_spaces, *s_seat;

/* What an effect needs of the action around it, read once by the kernel: the table, the player,
 * and the options apply_effect reads (the coin cap, whether actions resolve simultaneously). */
typedef struct {
    PyObject *state, *player, *players, *crossed_all, *vp_d;
    int capped, simultaneous;
    long cap, seat;  /* seat: the player's (p.seat, checked to be its index in state.players) */
} Ctx;

/* dict[key] += amount for a dict of exact small ints (a discount or an income by colour); the
 * values are checked by the caller's pass over the same keys before anything changes. */
static int add_to(PyObject *d, PyObject *key, long amount) {
    long held = 0;
    PyObject *cur = PyDict_GetItemWithError(d, key);
    if (cur == NULL && PyErr_Occurred()) return -1;
    if (cur != NULL && !as_long(cur, &held)) {
        PyErr_SetString(PyExc_TypeError, "a discount or income is not a small int");
        return -1;
    }
    PyObject *sum = PyLong_FromLong(held + amount);
    if (sum == NULL) return -1;
    int rc = PyDict_SetItem(d, key, sum);
    Py_DECREF(sum);
    return rc;
}

/* Whether every colour of a tuple is an exact str whose value in d (if any) is an exact small int. */
static int colours_ok(PyObject *colours, PyObject *d) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(colours); i++) {
        PyObject *c = PyTuple_GET_ITEM(colours, i), *cur;
        long held;
        if (!PyUnicode_CheckExact(c)) return 0;
        if (d == NULL) continue;
        cur = PyDict_GetItemWithError(d, c);
        if (cur == NULL && PyErr_Occurred()) return 0;
        if (cur != NULL && !(as_long(cur, &held) && SMALL(held))) return 0;
    }
    return 1;
}

/* PlayerState.shields(barracks), or shields_before_turn when actions resolve simultaneously, of the
 * player at seat: _shields, as engine.defence reads it; -1 for an odd value (for the Python code). */
static long shields_of(Ctx *c, Refs *r, long seat, PyObject *barracks) {
    PyObject *p = PyList_GET_ITEM(c->players, seat);
    PyObject *board = keep(r, PyObject_GetAttr(p, s_board));
    if (board == NULL || !PyDict_CheckExact(board)) return -1;
    PyObject *b = PyDict_GetItemWithError(board, barracks);
    if (b == NULL) return PyErr_Occurred() ? -1 : 0;  /* no such Barracks on that board: no shields */
    PyObject *shields = keep(r, PyObject_GetAttr(b, s_shield_spaces));
    PyObject *crossed_all = keep(r, PyObject_GetAttr(p, s_crossed));
    if (shields == NULL || !PyFrozenSet_CheckExact(shields) || crossed_all == NULL || !PyDict_CheckExact(crossed_all))
        return -1;
    long count = 0;
    PyObject *crossed = PyDict_GetItemWithError(crossed_all, barracks);
    if (crossed == NULL && PyErr_Occurred()) return -1;
    if (crossed != NULL) {
        if (!PySet_CheckExact(crossed)) return -1;
        PyObject *it = PyObject_GetIter(crossed), *x;
        if (it == NULL) return -1;
        while ((x = PyIter_Next(it)) != NULL) {
            int in = PySet_Contains(shields, x);
            Py_DECREF(x);
            if (in < 0) break;
            count += in;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return -1;
    }
    if (c->simultaneous) {  /* shields_before_turn: less those crossed this turn */
        PyObject *this_turn = keep(r, PyObject_GetAttr(p, s_this_turn));
        if (this_turn == NULL || !PyList_CheckExact(this_turn)) return -1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(this_turn); i++) {
            PyObject *pair = PyList_GET_ITEM(this_turn, i);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return -1;
            if (!eq(PyTuple_GET_ITEM(pair, 0), barracks)) continue;
            int in = PySet_Contains(shields, PyTuple_GET_ITEM(pair, 1));
            if (in < 0) return -1;
            count -= in;
        }
    }
    return count;
}

/* engine.apply_effect for every kind but "vp" (the kernel's own), "cross" and "extra_action" (the
 * kernel's questions), in C: the same changes in the same order, the same VP into *vp. Each kind is
 * checked first and then applied, so 0 (an odd value: an effect whose parameters or whose player's
 * values are not the plain types apply_effect reads) leaves everything unchanged and no error set,
 * for the caller to call apply_effect itself; 1 applied; -1 failed (the error set, in a change). */
static int effect_in_c(Ctx *c, PyObject *e, PyObject *t, PyObject *cat, PyObject *where, long *vp) {
    Refs r;
    refs_empty(&r);
    PyObject *player = c->player;
    int rc = 0;
    long amount, now;
    *vp = 0;
#define OK(cond) do { if (!(cond)) goto odd; } while (0)
#define GE(obj, name) keep(&r, PyObject_GetAttr((obj), (name)))
    if (eq(t, v_resource) || eq(t, v_shield)) {  /* read from the crossed spaces: nothing to do */
        rc = 1;
    } else if (eq(t, v_attack)) {
        /* vp less the defender's shields (at most 2): engine.defence, then p.vp[category] += vp */
        long base, seat = c->seat, n = (long)PyList_GET_SIZE(c->players), held = 0;
        OK(as_long(GE(e, s_vp), &base) && SMALL(base));
        int west = where != Py_None && eq(where, v_barracks_west);
        OK(where == Py_None || PyUnicode_CheckExact(where));
        long defender = west ? (seat + 1) % n : (seat - 1 + n) % n;
        long shields = shields_of(c, &r, defender, west ? v_barracks_east : v_barracks_west);
        OK(shields >= 0);
        PyObject *cur = PyDict_GetItemWithError(c->vp_d, cat);
        OK(cur != NULL || !PyErr_Occurred());
        if (cur != NULL) OK(as_long(cur, &held) && SMALL(held));
        *vp = base - (shields < 2 ? shields : 2);
        if (*vp < 0) *vp = 0;
        PyObject *sum = PyLong_FromLong(held + *vp);
        if (sum == NULL) goto error;
        int set = PyDict_SetItem(c->vp_d, cat, sum);
        Py_DECREF(sum);
        if (set < 0) goto error;
        rc = 1;
    } else if (eq(t, s_coins)) {
        OK(as_long(GE(e, s_amount), &amount) && SMALL(amount) && as_long(GE(player, s_coins), &now) && SMALL(now));
        if (set_long(player, s_coins, gained(c->capped, c->cap, now, amount)) < 0) goto error;
        rc = 1;
    } else if (eq(t, v_per_space) || eq(t, v_vp_per_leader_end)) {
        /* per_space: coins now per crossed space of the building; both: an end effect recorded */
        int per_space = eq(t, v_per_space);
        PyObject *counted = v_leaders, *each = GE(e, s_vp);
        PyObject *end = GE(player, s_end_effects);
        OK(each && PyLong_CheckExact(each) && end && PyList_CheckExact(end));
        if (per_space) {
            counted = GE(e, k_building);
            OK(counted && PyUnicode_CheckExact(counted));
            OK(as_long(GE(e, s_coins), &amount) && SMALL(amount) && as_long(GE(player, s_coins), &now) && SMALL(now));
            PyObject *crossed = PyDict_GetItemWithError(c->crossed_all, counted);
            OK(crossed != NULL || !PyErr_Occurred());
            OK(crossed == NULL || PySet_CheckExact(crossed));
            long count = crossed ? (long)PySet_GET_SIZE(crossed) : 0;
            OK(count < 1000);
            if (set_long(player, s_coins, gained(c->capped, c->cap, now, amount * count)) < 0) goto error;
        }
        PyObject *entry = PyTuple_Pack(3, cat, counted, each);
        if (entry == NULL) goto error;
        int added = PyList_Append(end, entry);
        Py_DECREF(entry);
        if (added < 0) goto error;
        rc = 1;
    } else if (eq(t, v_die_discount) || eq(t, v_income)) {
        /* die_discount: by colour, or on every die without colours; income: by colour */
        int income = eq(t, v_income);
        PyObject *colours = GE(e, s_colours), *d = GE(player, income ? s_income : s_discount);
        OK(as_long(GE(e, s_amount), &amount) && SMALL(amount));
        OK(colours && PyTuple_CheckExact(colours) && d && PyDict_CheckExact(d) && colours_ok(colours, d));
        if (PyTuple_GET_SIZE(colours) == 0 && !income) {
            long all;
            OK(as_long(GE(player, s_discount_all), &all) && SMALL(all));
            if (set_long(player, s_discount_all, all + amount) < 0) goto error;
        } else {
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(colours); i++)
                if (add_to(d, PyTuple_GET_ITEM(colours, i), amount) < 0) goto error;
        }
        rc = 1;
    } else if (eq(t, v_die_free)) {
        PyObject *colours = GE(e, s_colours), *free = GE(player, s_free_colours);
        OK(colours && PyTuple_CheckExact(colours) && free && PySet_CheckExact(free) && colours_ok(colours, NULL));
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(colours); i++)
            if (PySet_Add(free, PyTuple_GET_ITEM(colours, i)) < 0) goto error;
        rc = 1;
    } else if (eq(t, v_unlock)) {
        /* the die unlocked, and waiting to replace a grey die unless in the Forum or waiting already */
        PyObject *die = GE(e, s_die), *unlocked = GE(player, s_unlocked);
        PyObject *forum = GE(c->state, s_forum), *swaps = GE(c->state, s_pending_swaps);
        OK(die && PyUnicode_CheckExact(die) && unlocked && PySet_CheckExact(unlocked));
        OK(forum && PyDict_CheckExact(forum) && swaps && PyList_CheckExact(swaps));
        int waiting = 0;
        Py_ssize_t pos = 0;
        PyObject *key, *colour;
        while (!waiting && PyDict_Next(forum, &pos, &key, &colour)) {
            OK(PyUnicode_CheckExact(colour));
            waiting = eq(colour, die);
        }
        for (Py_ssize_t i = 0; !waiting && i < PyList_GET_SIZE(swaps); i++) {
            OK(PyUnicode_CheckExact(PyList_GET_ITEM(swaps, i)));
            waiting = eq(PyList_GET_ITEM(swaps, i), die);
        }
        if (PySet_Add(unlocked, die) < 0) goto error;
        if (!waiting && PyList_Append(swaps, die) < 0) goto error;
        rc = 1;
    }
#undef OK
#undef GE
odd:
    release(&r);
    if (rc == 0 && PyErr_Occurred()) PyErr_Clear();
    return rc;
error:
    release(&r);
    return -1;
}

/* An effect applied as engine.apply_effect applies it, in C where effect_in_c can, else by calling
 * apply_effect; its VP into *vp. -1 on an error (set). */
static int apply_one(Ctx *c, Refs *refs, PyObject *e, PyObject *t, PyObject *cat, PyObject *where, long *vp) {
    int done = PyUnicode_CheckExact(t) ? effect_in_c(c, e, t, cat, where, vp) : 0;
    if (done) return done < 0 ? -1 : 0;
    PyObject *got = keep(refs, PyObject_CallFunctionObjArgs(apply_effect, c->state, c->player, e, cat, where, NULL));
    if (got == NULL) return -1;
    if (!as_long(got, vp)) {
        PyErr_SetString(PyExc_TypeError, "apply_effect gave a VP count that is not a small int");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the Guild Court */

static PyObject *v_purple, *s_compare, *s_compare_groups;

/* Crossed spaces of a group of buildings at a player (engine._count): PlayerState.count of each,
 * or count_before_turn (less those crossed this turn) when before_turn; -1 for an odd value. */
static long group_count(Refs *r, PyObject *p, PyObject *group, int before_turn) {
    PyObject *crossed_all = keep(r, PyObject_GetAttr(p, s_crossed));
    PyObject *this_turn = before_turn ? keep(r, PyObject_GetAttr(p, s_this_turn)) : NULL;
    if (crossed_all == NULL || !PyDict_CheckExact(crossed_all)) return -1;
    if (before_turn && (this_turn == NULL || !PyList_CheckExact(this_turn))) return -1;
    long count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(group); i++) {
        PyObject *b = PyTuple_GET_ITEM(group, i);
        if (!PyUnicode_CheckExact(b)) return -1;
        PyObject *crossed = PyDict_GetItemWithError(crossed_all, b);
        if (crossed == NULL && PyErr_Occurred()) return -1;
        if (crossed != NULL && !PySet_CheckExact(crossed)) return -1;
        count += crossed ? (long)PySet_GET_SIZE(crossed) : 0;
        for (Py_ssize_t j = 0; before_turn && j < PyList_GET_SIZE(this_turn); j++) {
            PyObject *pair = PyList_GET_ITEM(this_turn, j);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return -1;
            count -= eq(PyTuple_GET_ITEM(pair, 0), b);
        }
    }
    return count;
}

/* Whether engine._Action._guild_problem(die) is None for the player at seat building with die: the
 * die is purple, and its face's group of buildings has, crossed before this turn, at least as many
 * spaces as each neighbour's (strictly more with 2 players), the neighbour's counted as the
 * resolution counts them (before this turn when simultaneous). 0 also for any odd value: declined. */
static int guild_holds(Refs *r, PyObject *rules, PyObject *players, PyObject *colour,
                       PyObject *face, long seat, int simultaneous) {
    if (!eq(colour, v_purple)) return 0;
    PyObject *faces = keep(r, PyObject_GetAttr(rules, s_faces));
    PyObject *groups = keep(r, PyObject_GetAttr(rules, s_compare_groups));
    if (faces == NULL || !PyDict_CheckExact(faces) || groups == NULL || !PyDict_CheckExact(groups)) return 0;
    PyObject *by_face = PyDict_GetItemWithError(faces, colour);
    if (by_face == NULL || !PyDict_CheckExact(by_face)) return 0;
    PyObject *f = PyDict_GetItemWithError(by_face, face);
    if (f == NULL) return 0;
    PyObject *compare = keep(r, PyObject_GetAttr(f, s_compare));
    if (compare == NULL || !PyUnicode_CheckExact(compare)) return 0;  /* None: the resolver's assertion */
    PyObject *group = PyDict_GetItemWithError(groups, compare);
    if (group == NULL || !PyTuple_CheckExact(group)) return 0;
    long n = (long)PyList_GET_SIZE(players);
    long mine = group_count(r, PyList_GET_ITEM(players, seat), group, 1);
    if (mine < 0) return 0;
    long others[2] = {(seat + 1) % n, (seat - 1 + n) % n};  /* left, right: state.neighbours */
    for (int i = 0; i < 2; i++) {
        long o = others[i];
        if (o == seat || (i == 1 && o == others[0])) continue;  /* {left, right} - {seat} */
        long theirs = group_count(r, PyList_GET_ITEM(players, o), group, simultaneous);
        if (theirs < 0 || mine < theirs || (n == 2 && mine == theirs)) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ a crossing's lapse */

static PyObject *s_lanes, *s_symbol, *s_spaces, *s_ordered, *s_cross_mandatory, *s_free_die, *s_free_action_wonder;

/* The spaces an action has crossed so far beyond the player's table (its own, then the crossings
 * its effects made and an extra action's), for the question a later effect asks. */
typedef struct {
    PyObject *b[2 + MAXCROSS], *x[2 + MAXCROSS];
    int n;
} Made;

/* Whether building/space is crossed, counting what the action made; -1 for an odd value. */
static int taken(PyObject *crossed_all, const Made *made, PyObject *building, PyObject *space) {
    for (int j = 0; j < made->n; j++)
        if (eq(made->b[j], building) && eq(made->x[j], space)) return 1;
    PyObject *crossed = PyDict_GetItemWithError(crossed_all, building);
    if (crossed == NULL) return PyErr_Occurred() ? -1 : 0;
    if (!PySet_CheckExact(crossed)) return -1;
    return PySet_Contains(crossed, space);
}

/* PlayerState.count(building) counting what the action made; -1 for an odd value. */
static long count_made(PyObject *crossed_all, const Made *made, PyObject *building) {
    long n = 0;
    for (int j = 0; j < made->n; j++) n += eq(made->b[j], building);
    PyObject *crossed = PyDict_GetItemWithError(crossed_all, building);
    if (crossed == NULL) return PyErr_Occurred() ? -1 : n;
    if (!PySet_CheckExact(crossed)) return -1;
    return n + (long)PySet_GET_SIZE(crossed);
}

/* Whether a "cross" effect naming targets has a space it may cross now, on the table the action
 * will have made (coins, the resources left, the spaces crossed: made): engine._Action._effect_cross
 * lists the open spaces of the named buildings (the next on an arrow, any open one otherwise) and
 * asks only if one has no _space_problem (its lock and its payment; a Guild Court is declined, -1).
 * 1 one may be crossed (the question is asked), 0 none (the effect lapses), -1 odd: declined. */
static int cross_open(Refs *r, PyObject *board, PyObject *plans, PyObject *crossed_all, PyObject *unlocked,
                      const Made *made, PyObject *targets, long resources, long coins) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(targets); i++) {
        PyObject *bid = PyTuple_GET_ITEM(targets, i);
        if (!PyUnicode_CheckExact(bid)) return -1;
        PyObject *b = PyDict_GetItemWithError(board, bid);
        if (b == NULL) {
            if (PyErr_Occurred()) return -1;
            continue;  /* not on this board: no space to list */
        }
        PyObject *lanes = keep(r, PyObject_GetAttr(b, s_lanes));
        if (lanes == NULL || !PyTuple_CheckExact(lanes)) return -1;
        for (Py_ssize_t l = 0; l < PyTuple_GET_SIZE(lanes); l++) {
            PyObject *lane = PyTuple_GET_ITEM(lanes, l);
            PyObject *symbol = keep(r, PyObject_GetAttr(lane, s_symbol)), *spaces = keep(r, PyObject_GetAttr(lane, s_spaces));
            PyObject *ordered = keep(r, PyObject_GetAttr(lane, s_ordered));
            if (symbol == NULL || spaces == NULL || !PyTuple_CheckExact(spaces) || (ordered != Py_True && ordered != Py_False))
                return -1;
            for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(spaces); s++) {
                PyObject *x = PyTuple_GET_ITEM(spaces, s);
                int in = taken(crossed_all, made, bid, x);
                if (in < 0) return -1;
                if (in) continue;
                PyObject *key = keep(r, PyTuple_Pack(3, bid, symbol, x));
                PyObject *plan = key ? PyDict_GetItemWithError(plans, key) : NULL;
                long cost;
                if (plan == NULL || !PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != 9) return -1;
                if (PyTuple_GET_ITEM(plan, 5) != Py_False || !as_long(PyTuple_GET_ITEM(plan, 1), &cost) || !SMALL(cost))
                    return -1;
                PyObject *locked = PyTuple_GET_ITEM(plan, 4);
                int open = locked == Py_None ? 1 : PySet_Contains(unlocked, locked);
                if (open < 0) return -1;
                long owed = cost > resources ? cost - resources : 0;  /* construction_coins */
                if (open && owed <= coins) return 1;
                if (ordered == Py_True) break;  /* only the next space of an arrow is listed */
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ action */


/* Whether (building, space) produces a resource on this board (PlayerState.producers); -1 if odd. */
static int produces(PyObject *producers, PyObject *building, PyObject *space) {
    if (!PyTuple_CheckExact(producers)) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(producers); i++) {
        PyObject *pair = PyTuple_GET_ITEM(producers, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return -1;
        if (!eq(PyTuple_GET_ITEM(pair, 0), building)) continue;
        int in = PySet_Contains(PyTuple_GET_ITEM(pair, 1), space);
        if (in < 0) PyErr_Clear();
        return in;
    }
    return 0;
}
/* A simulated space's effects (none asks: checked before) as the checks after it must see them:
 * coins, per-space gains and unlocks leave the simulated coins and locks unsure (*dirty); die
 * discounts, free colours and income change what a die costs or earns (*costly); a "vp" effect's
 * value and the VP the player holds in the space's category must be small ints. 0: decline. */
static int simulated_effects(Refs *r, PyObject *effects, PyObject *vp_d, PyObject *category, int *dirty, int *costly) {
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(effects); j++) {
        PyObject *e = PyTuple_GET_ITEM(effects, j);
        PyObject *t = keep(r, PyObject_GetAttr(e, s_type));
        if (t == NULL || !PyUnicode_CheckExact(t)) return 0;
        if (eq(t, s_coins) || eq(t, v_per_space) || eq(t, v_unlock)) *dirty = 1;
        if (eq(t, v_die_discount) || eq(t, v_die_free) || eq(t, v_income)) *costly = 1;
        if (eq(t, v_vp)) {
            long held, v;
            if (!as_long(keep(r, PyObject_GetAttr(e, s_vp)), &v) || !SMALL(v)) return 0;
            PyObject *cur = PyDict_GetItemWithError(vp_d, category);
            if (cur == NULL && PyErr_Occurred()) return 0;
            if (cur != NULL && (!as_long(cur, &held) || !SMALL(held))) return 0;
        }
    }
    return 1;
}

#define NEED(cond) do { if (!(cond)) goto decline; } while (0)

static PyObject *action(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "action(state, payload)")) return NULL;
    PyObject *state = args[0], *p = args[1];
    Refs refs;
    refs_empty(&refs);
    PyObject *result = NULL;
    long seat, n, next_seat, turn, state_turn, coins, cap = 0, extra = 0, resources = 0, cost, bonus_size, agora_size;
    int capped;

    /* ---- projector._direct_action's guards */
    PyObject *phase = GA(state, s_phase);
    NEED(phase && eq(phase, v_actions));
    PyObject *pending = GA(state, s_pending);
    NEED(pending && PyDict_CheckExact(pending) && PyDict_GET_SIZE(pending) == 0);
    PyObject *options = GA(state, s_options);
    NEED(options);
    PyObject *resolution = GA(options, s_resolution);
    NEED(resolution && PyUnicode_CheckExact(resolution) && !eq(resolution, v_two_phase));
    NEED(PyDict_CheckExact(p));
    PyObject *seat_o = PyDict_GetItemWithError(p, k_player);
    NEED(as_long(seat_o, &seat));
    NEED(as_long(GA(state, s_next_seat), &next_seat) && seat == next_seat);
    PyObject *players = GA(state, s_players);
    NEED(players && PyList_CheckExact(players));
    n = (long)PyList_GET_SIZE(players);
    NEED(0 <= seat && seat < n);
    NEED(as_long(PyDict_GetItemWithError(p, s_turn), &turn));
    NEED(as_long(GA(state, s_turn), &state_turn) && turn == state_turn);
    PyObject *steps = PyDict_GetItemWithError(p, k_steps);
    NEED(steps && PyList_CheckExact(steps) && PyList_GET_SIZE(steps) >= 1 && PyList_GET_SIZE(steps) <= MAXSTEPS);
    Py_ssize_t n_steps = PyList_GET_SIZE(steps), k = 1;  /* k: the next logged step to answer a question */
    PyObject *step = PyList_GET_ITEM(steps, 0);
    NEED(PyDict_CheckExact(step));
    PyObject *kind = PyDict_GetItemWithError(step, k_kind);
    NEED(kind && PyUnicode_CheckExact(kind));

    PyObject *player = PyList_GET_ITEM(players, seat);
    long own_seat;  /* the resolver reads p.seat (the Agora's completers, attacks, the Guild Court): the same seat */
    NEED(as_long(GA(player, s_seat), &own_seat) && own_seat == seat);
    PyObject *rules = GA(state, s_rules);
    NEED(rules);
    PyObject *start = GA(rules, s_start);
    NEED(start);
    NEED(as_long(GA(player, s_coins), &coins) && SMALL(coins));
    PyObject *cap_o = GA(options, s_coin_cap);
    NEED(cap_o);
    capped = cap_o != Py_None;
    if (capped) NEED(as_long(cap_o, &cap) && SMALL(cap));
    long paid = 0, vp = 0;

    if (eq(kind, v_pass)) {
        long pass_coins;
        NEED(n_steps == 1);
        NEED(as_long(GA(start, s_pass_coins), &pass_coins) && SMALL(pass_coins));
        if (set_long(player, s_coins, gained(capped, cap, coins, pass_coins)) < 0) goto error;
        goto done;
    }
    int wonder = eq(kind, v_wonder);
    NEED(wonder || eq(kind, v_build));

    /* ---- kernel._found */
    PyObject *building = PyDict_GetItemWithError(step, k_building);
    PyObject *lane = PyDict_GetItemWithError(step, k_lane);
    PyObject *space = PyDict_GetItemWithError(step, k_space);
    NEED(building && lane && space && PyUnicode_CheckExact(building) && PyUnicode_CheckExact(lane)
         && PyUnicode_CheckExact(space));
    PyObject *board = GA(player, s_board);
    PyObject *compiled = GA(rules, s_compiled);
    NEED(board && compiled && PyDict_CheckExact(compiled));
    PyObject *board_id = keep(&refs, PyLong_FromVoidPtr(board));
    NEED(board_id);
    PyObject *tables = PyDict_GetItemWithError(compiled, board_id);
    NEED(tables);
    PyObject *tables_board = GA(tables, s_board);
    NEED(tables_board == board);  /* the board the cache entry was made for (board_tables checks the same) */
    PyObject *plans = GA(tables, s_plans);
    NEED(plans && PyDict_CheckExact(plans));
    PyObject *key = keep(&refs, PyTuple_Pack(3, building, lane, space));
    NEED(key);
    PyObject *plan = PyDict_GetItemWithError(plans, key);
    NEED(plan && PyTuple_Check(plan) && PyTuple_GET_SIZE(plan) == 9);
    /* SpacePlan: before, cost, effects, category, locked, guild, asks, bonus_size, agora_size */
    PyObject *before = PyTuple_GET_ITEM(plan, 0), *effects = PyTuple_GET_ITEM(plan, 2);
    PyObject *category = PyTuple_GET_ITEM(plan, 3), *locked = PyTuple_GET_ITEM(plan, 4);
    NEED(PyTuple_CheckExact(before) && PyTuple_CheckExact(effects));
    NEED(as_long(PyTuple_GET_ITEM(plan, 1), &cost) && SMALL(cost));
    int guild = PyTuple_GET_ITEM(plan, 5) == Py_True;  /* a Guild Court space: its condition checked below */
    NEED(guild || PyTuple_GET_ITEM(plan, 5) == Py_False);
    NEED(!(guild && wonder));  /* the Wonder is never the Guild Court (the resolver would look for the purple die) */
    int asks = PyTuple_GET_ITEM(plan, 6) == Py_True;  /* only an extra action, skipped, is answered here (below) */
    NEED(asks || PyTuple_GET_ITEM(plan, 6) == Py_False);
    NEED(as_long(PyTuple_GET_ITEM(plan, 7), &bonus_size) && as_long(PyTuple_GET_ITEM(plan, 8), &agora_size));
    PyObject *crossed_all = GA(player, s_crossed);
    NEED(crossed_all && PyDict_CheckExact(crossed_all));
    PyObject *crossed = PyDict_GetItemWithError(crossed_all, building);  /* borrowed; NULL: none crossed yet */
    NEED(crossed || !PyErr_Occurred());
    NEED(crossed == NULL || PySet_CheckExact(crossed));
    long n_crossed = crossed ? (long)PySet_GET_SIZE(crossed) : 0;
    PyObject *bonuses = NULL;  /* with a bonus step: the player's slots, and the slot taken */
    long slot = -1;
    PyObject *slot_effects = NULL;
    int to_choose = 0;  /* whether this crossing completes the building with a bonus slot still free */
    if (bonus_size && n_crossed + 1 >= bonus_size) {
        bonuses = GA(player, s_bonuses);
        NEED(bonuses && PyList_CheckExact(bonuses));
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(bonuses); i++) {
            PyObject *b = PyList_GET_ITEM(bonuses, i);
            NEED(b == Py_True || b == Py_False);
            if (b == Py_False) to_choose = 1;
        }
    }
    if (to_choose) {
        /* engine._Action._cross then _take_bonus: this crossing completes the building (the
         * arrow's last open space: len(crossed) + 1 == its size; the space is checked open below),
         * and the logged step after the space's own questions takes a free slot (_bonus_problem);
         * the Barracks counted as one building are the resolver's. */
        NEED(n_crossed + 1 == bonus_size);
        PyObject *barracks = GA(options, s_barracks);
        NEED(barracks && PyUnicode_CheckExact(barracks));
        if (eq(barracks, v_one_building)) NEED(PyUnicode_Tailmatch(building, v_barracks_, 0, PY_SSIZE_T_MAX, -1) == 0);
    }
    PyObject *unlocked = GA(player, s_unlocked);
    NEED(unlocked && PySet_CheckExact(unlocked));
    PyObject *colour = NULL;  /* the die's colour; NULL for the Wonder */
    if (wonder) {
        NEED(eq(building, v_wonder));
    } else {
        PyObject *die = PyDict_GetItemWithError(step, k_die);
        NEED(die && PyUnicode_CheckExact(die));
        PyObject *forum = GA(state, s_forum), *roll = GA(state, s_roll);
        NEED(forum && roll && PyDict_CheckExact(forum) && PyDict_CheckExact(roll));
        colour = PyDict_GetItemWithError(forum, die);
        NEED(colour && PyUnicode_CheckExact(colour));
        PyObject *shown = PyDict_GetItemWithError(roll, die);
        NEED(shown && PyTuple_CheckExact(shown) && PyTuple_GET_SIZE(shown) == 2);
        PyObject *face = PyTuple_GET_ITEM(shown, 0);
        long section;
        NEED(PyUnicode_CheckExact(face) && as_long(PyTuple_GET_ITEM(shown, 1), &section));
        PyObject *special = GA(start, s_special);
        NEED(special && PyTuple_CheckExact(special));
        int is_special = PySequence_Contains(special, colour);
        NEED(is_special >= 0);
        if (is_special) {
            int in = PySet_Contains(unlocked, colour);
            NEED(in == 1);
        }
        PyObject *reaches = GA(tables, s_reaches);
        NEED(reaches && PyDict_CheckExact(reaches));
        PyObject *by_face = PyDict_GetItemWithError(reaches, colour);
        NEED(by_face && PyDict_CheckExact(by_face));
        PyObject *reach = PyDict_GetItemWithError(by_face, face);
        NEED(reach && PyFrozenSet_CheckExact(reach));
        PyObject *pair = keep(&refs, PyTuple_Pack(2, building, lane));
        NEED(pair);
        NEED(PySet_Contains(reach, pair) == 1);
        if (guild) {
            NEED(guild_holds(&refs, rules, players, colour, face, seat, eq(resolution, v_simultaneous)));
        }
        PyObject *free = GA(player, s_free_colours);
        NEED(free && PySet_CheckExact(free));
        int is_free = PySet_Contains(free, colour);
        NEED(is_free >= 0);
        if (!is_free) {
            PyObject *sections = GA(start, s_forum_sections);
            NEED(sections && PyTuple_CheckExact(sections) && 0 <= section && section < PyTuple_GET_SIZE(sections));
            long base, all, one = 0;
            NEED(as_long(PyTuple_GET_ITEM(sections, section), &base) && SMALL(base));
            NEED(as_long(GA(player, s_discount_all), &all) && SMALL(all));
            PyObject *discount = GA(player, s_discount);
            NEED(discount && PyDict_CheckExact(discount));
            PyObject *d = PyDict_GetItemWithError(discount, colour);
            NEED(d || !PyErr_Occurred());
            if (d) NEED(as_long(d, &one) && SMALL(one));
            extra = base - all - one;
            if (extra < 0) extra = 0;
        }
    }
    long spent = 0;
    NEED(as_long(GA(player, s_resources_spent), &spent) && SMALL(spent));
    if (cost) {
        PyObject *producers = GA(player, s_producers);
        NEED(producers && player_resources(producers, crossed_all, spent, &resources));
        if (resources < 0) resources = 0;
    }
    /* ---- kernel._space_ok (no Guild Court here) */
    if (locked != Py_None) NEED(PySet_Contains(unlocked, locked) == 1);
    Py_ssize_t n_before = PyTuple_GET_SIZE(before);
    if (n_crossed) {
        NEED(PySet_Contains(crossed, space) == 0);
        for (Py_ssize_t i = 0; i < n_before; i++)
            NEED(PySet_Contains(crossed, PyTuple_GET_ITEM(before, i)) == 1);
    } else {
        NEED(n_before == 0);
    }
    PyObject *when = GA(options, s_income);
    NEED(when && PyUnicode_CheckExact(when));
    long income = 0;
    PyObject *income_d = GA(player, s_income);
    NEED(income_d && PyDict_CheckExact(income_d));
    if (colour) {
        PyObject *i = PyDict_GetItemWithError(income_d, colour);
        NEED(i || !PyErr_Occurred());
        if (i) NEED(as_long(i, &income) && SMALL(income));
    }
    long owed = extra + (cost > resources ? cost - resources : 0);
    long credit = eq(when, v_when_chosen) ? income : 0;
    NEED(owed <= (credit ? gained(capped, cap, coins, credit) : coins));
    /* the effects: "vp" applied here, any other kind by engine.apply_effect; the space's (group 0),
     * then the bonus slot's (group 1: category "bonus", no building), none asking a question */
    Py_ssize_t n_effects = PyTuple_GET_SIZE(effects), n_slot = 0;
    NEED(n_effects <= MAXEFFECTS);
    long effect_vp[2][MAXEFFECTS];
    int here[2][MAXEFFECTS];  /* 1: a "vp" effect, applied here; 0: through apply_one; 2: nothing (an extra action
                                * skipped, a crossing skipped or lapsed); 3: a space crossed */
    PyObject *types[2][MAXEFFECTS];  /* each effect's type (an exact str, held by refs) */
    PyObject *vp_d = GA(player, s_vp);
    NEED(vp_d && PyDict_CheckExact(vp_d));
    /* the spaces other effects cross (engine._Action._effect_cross), checked on a simulated table */
    PyObject *cross_b[MAXCROSS], *cross_x[MAXCROSS], *cross_plan[MAXCROSS], *producers_o = NULL;
    long cross_owed[MAXCROSS], cross_spent[MAXCROSS], coins_sim = 0, made_sim = 0, spent_sim = 0, paid_extra = 0;
    int cross_i[2][MAXEFFECTS], cross_n[2][MAXEFFECTS], n_cross = 0, dirty = 0, simulated = 0, spending = 0, n_extra = 0;
    Made made = {{building}, {space}, 1};  /* the action's own space, then the spaces its effects cross */
    long cross_income[MAXCROSS];  /* an extra action's: its die's income (0 for a crossing) */
    int costly = 0;  /* an effect before changed what a die costs or earns (a discount, a free colour, an income) */
    /* The table as the action will have left it when an effect asks its question (coins, resources
     * made and spent), started from the action's own space and kept up by each step after it. */
#define SIMULATE() do { if (!simulated) { \
        PyObject *producers = GA(player, s_producers), *spend_c = GA(options, s_resources); \
        long raw; \
        NEED(producers && spend_c && PyUnicode_CheckExact(spend_c) && player_resources(producers, crossed_all, spent, &raw)); \
        int own = produces(producers, building, space); \
        NEED(own >= 0); \
        spending = eq(spend_c, v_spent); \
        made_sim = raw + spent + own; \
        long held_res = raw > 0 ? raw : 0; \
        spent_sim = spent + (cost && spending ? (cost < held_res ? cost : held_res) : 0); \
        coins_sim = coins; \
        if (income && eq(when, v_when_chosen)) coins_sim = gained(capped, cap, coins_sim, income); \
        coins_sim -= owed; \
        if (income && eq(when, v_after_paying)) coins_sim = gained(capped, cap, coins_sim, income); \
        producers_o = producers; \
        simulated = 1; \
    } } while (0)
    PyObject *completers = NULL;
    for (int g = 0; g < 2; g++) {
        if (g) {
            if (!to_choose) break;
            /* the bonus slot, answered by the next logged step */
            NEED(k < n_steps);
            PyObject *bonus_step = PyList_GET_ITEM(steps, k++);
            NEED(PyDict_CheckExact(bonus_step));
            PyObject *bkind = PyDict_GetItemWithError(bonus_step, k_kind);
            NEED(bkind && eq(bkind, v_bonus));
            NEED(as_long(PyDict_GetItemWithError(bonus_step, k_slot), &slot));
            NEED(0 <= slot && slot < PyList_GET_SIZE(bonuses) && PyList_GET_ITEM(bonuses, slot) == Py_False);
            PyObject *slots_o = GA(rules, s_bonus_slots);
            NEED(slots_o);
            PyObject *slots = GA(slots_o, s_slots);
            NEED(slots && PyTuple_CheckExact(slots) && slot < PyTuple_GET_SIZE(slots));
            slot_effects = PyTuple_GET_ITEM(slots, slot);
            NEED(PyTuple_CheckExact(slot_effects));
            n_slot = PyTuple_GET_SIZE(slot_effects);
            NEED(n_slot <= MAXEFFECTS);
        }
        PyObject *group = g ? slot_effects : effects, *cat = g ? v_bonus : category;
        Py_ssize_t count = g ? n_slot : n_effects;
        int held_checked = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *e = PyTuple_GET_ITEM(group, i);
            PyObject *t = GA(e, s_type);
            NEED(t && PyUnicode_CheckExact(t));
            types[g][i] = t;
            if (eq(t, v_cross)) {
                /* engine._Action._effect_cross: up to count spaces (1 or 2, the second in the building of
                 * the first), each asked only if a space of the buildings named may be crossed (else the
                 * effect lapses there, without a question); the logged step skips (where the option allows
                 * it: the effect ends) or crosses one space. Checked against the table as the action will
                 * have left it (simulated: coins, resources, the spaces crossed), which needs every effect
                 * before it to leave locks alone. */
                long count;
                NEED(!dirty && as_long(GA(e, s_count), &count) && (count == 1 || count == 2));
                PyObject *targets = GA(e, s_buildings);
                NEED(targets && PyTuple_CheckExact(targets));
                SIMULATE();
                here[g][i] = 2;  /* nothing, unless a space is crossed below */
                cross_i[g][i] = n_cross;
                cross_n[g][i] = 0;
                for (long round = 0; round < count; round++) {
                    NEED(!dirty);  /* the first space's effects may have changed what the second's check reads */
                    long res_now = made_sim - spent_sim;
                    int open = cross_open(&refs, board, plans, crossed_all, unlocked, &made, targets,
                                          res_now > 0 ? res_now : 0, coins_sim);
                    NEED(open >= 0);
                    if (!open) break;  /* it lapses: no question asked, nothing more done */
                    NEED(k < n_steps);
                    PyObject *answer = PyList_GET_ITEM(steps, k++);
                    NEED(PyDict_CheckExact(answer));
                    PyObject *akind = PyDict_GetItemWithError(answer, k_kind);
                    NEED(akind);
                    if (eq(akind, v_skip)) {  /* Prompt.check: a skip is allowed unless crossing is mandatory */
                        PyObject *mandatory = GA(options, s_cross_mandatory);
                        NEED(mandatory == Py_False);
                        break;
                    }
                    PyObject *b2 = PyDict_GetItemWithError(answer, k_building), *l2 = PyDict_GetItemWithError(answer, k_lane);
                    PyObject *x2 = PyDict_GetItemWithError(answer, k_space);
                    NEED(eq(akind, v_cross) && b2 && l2 && x2 && PyUnicode_CheckExact(b2) && PyUnicode_CheckExact(l2)
                         && PyUnicode_CheckExact(x2) && n_cross < MAXCROSS);
                    int named = 0;
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(targets); j++) named |= eq(PyTuple_GET_ITEM(targets, j), b2);
                    NEED(named);
                    NEED(!eq(made.b[0], b2));  /* the action's own building: its completion is the resolver's */
                    PyObject *key2 = keep(&refs, PyTuple_Pack(3, b2, l2, x2));
                    NEED(key2);
                    PyObject *plan2 = PyDict_GetItemWithError(plans, key2);
                    NEED(plan2 && PyTuple_Check(plan2) && PyTuple_GET_SIZE(plan2) == 9);
                    PyObject *before2 = PyTuple_GET_ITEM(plan2, 0), *effects2 = PyTuple_GET_ITEM(plan2, 2);
                    PyObject *locked2 = PyTuple_GET_ITEM(plan2, 4);
                    long cost2, bonus2, agora2;
                    NEED(PyTuple_CheckExact(before2) && PyTuple_CheckExact(effects2) && PyTuple_GET_SIZE(effects2) <= MAXEFFECTS);
                    NEED(as_long(PyTuple_GET_ITEM(plan2, 1), &cost2) && SMALL(cost2) && cost2 >= 0);
                    /* no Guild Court; asks nothing */
                    NEED(PyTuple_GET_ITEM(plan2, 5) == Py_False && PyTuple_GET_ITEM(plan2, 6) == Py_False);
                    NEED(as_long(PyTuple_GET_ITEM(plan2, 7), &bonus2) && as_long(PyTuple_GET_ITEM(plan2, 8), &agora2));
                    if (locked2 != Py_None) NEED(PySet_Contains(unlocked, locked2) == 1);
                    /* open and next on its arrow, counting the spaces the action crossed before it */
                    long n2 = count_made(crossed_all, &made, b2);
                    NEED(n2 >= 0);
                    NEED(!(bonus2 && n2 + 1 >= bonus2));  /* it may complete its building: a bonus slot, the resolver's */
                    NEED(taken(crossed_all, &made, b2, x2) == 0);
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(before2); j++)
                        NEED(taken(crossed_all, &made, b2, PyTuple_GET_ITEM(before2, j)) == 1);
                    long res2 = made_sim - spent_sim;
                    if (res2 < 0) res2 = 0;
                    long owed2 = cost2 > res2 ? cost2 - res2 : 0;
                    NEED(owed2 <= coins_sim);  /* _space_problem's payment, nothing for a die */
                    long delta2 = spending ? (cost2 < res2 ? cost2 : res2) : 0;
                    int own2 = produces(producers_o, b2, x2);
                    NEED(own2 >= 0);
                    coins_sim -= owed2;
                    spent_sim += delta2;
                    made_sim += own2;
                    NEED(simulated_effects(&refs, effects2, vp_d, PyTuple_GET_ITEM(plan2, 3), &dirty, &costly));  /* none asks (checked) */
                    if (agora2) {
                        completers = GA(state, s_agora_completers);
                        NEED(completers && PyList_CheckExact(completers));
                    }
                    cross_b[n_cross] = b2;
                    cross_x[n_cross] = x2;
                    cross_plan[n_cross] = plan2;
                    cross_owed[n_cross] = owed2;
                    cross_spent[n_cross] = delta2;
                    cross_income[n_cross] = 0;
                    n_cross++;
                    cross_n[g][i]++;
                    made.b[made.n] = b2;
                    made.x[made.n++] = x2;
                    paid_extra += owed2;
                    here[g][i] = 3;
                    targets = keep(&refs, PyTuple_Pack(1, b2));  /* "up to two spaces of the building shown" */
                    NEED(targets);
                }
                continue;
            }
            if (eq(t, v_unlock)) dirty = 1;  /* a lock a later step's check reads */
            if (eq(t, v_die_discount) || eq(t, v_die_free) || eq(t, v_income)) costly = 1;
            if (eq(t, s_coins) || eq(t, v_per_space)) {
                /* coins gained (apply_effect's values, checked as effect_in_c checks them), kept in the
                 * simulated table for the questions after it */
                long amount;
                if (eq(t, s_coins)) {
                    NEED(as_long(GA(e, s_amount), &amount) && SMALL(amount));
                } else {
                    long each, n_made;
                    PyObject *counted = GA(e, k_building);
                    NEED(counted && PyUnicode_CheckExact(counted) && as_long(GA(e, s_coins), &each) && SMALL(each));
                    n_made = count_made(crossed_all, &made, counted);
                    NEED(n_made >= 0 && n_made < 1000);
                    amount = each * n_made;
                }
                SIMULATE();
                coins_sim = gained(capped, cap, coins_sim, amount);
            }
            if (eq(t, v_extra_action)) {
                /* _ask_effect: another action, which may always be skipped; or a build or Wonder step
                 * (_extra_allowed), checked as _action_problem checks it on the simulated table */
                NEED(k < n_steps);
                PyObject *answer = PyList_GET_ITEM(steps, k++);
                NEED(PyDict_CheckExact(answer));
                PyObject *akind = PyDict_GetItemWithError(answer, k_kind);
                NEED(akind);
                if (eq(akind, v_skip)) {
                    here[g][i] = 2;
                    continue;
                }
                PyObject *free_die = GA(e, s_free_die);
                NEED(free_die == Py_True || free_die == Py_False);
                int wonder3 = eq(akind, v_wonder);
                NEED(wonder3 || eq(akind, v_build));  /* a pass (extra_action_pass) or anything else: the resolver's */
                if (wonder3 && free_die == Py_True) NEED(GA(options, s_free_action_wonder) == Py_True);
                NEED(!dirty && !costly && n_cross < MAXCROSS && n_extra == 0);
                PyObject *b3 = PyDict_GetItemWithError(answer, k_building), *l3 = PyDict_GetItemWithError(answer, k_lane);
                PyObject *x3 = PyDict_GetItemWithError(answer, k_space);
                NEED(b3 && l3 && x3 && PyUnicode_CheckExact(b3) && PyUnicode_CheckExact(l3) && PyUnicode_CheckExact(x3));
                if (wonder3) NEED(eq(b3, v_wonder));
                for (int j = 0; j < made.n; j++) NEED(!eq(made.b[j], b3));  /* a building the action crossed already */
                PyObject *key3 = keep(&refs, PyTuple_Pack(3, b3, l3, x3));
                NEED(key3);
                PyObject *plan3 = PyDict_GetItemWithError(plans, key3);
                NEED(plan3 && PyTuple_Check(plan3) && PyTuple_GET_SIZE(plan3) == 9);
                PyObject *before3 = PyTuple_GET_ITEM(plan3, 0), *effects3 = PyTuple_GET_ITEM(plan3, 2);
                PyObject *locked3 = PyTuple_GET_ITEM(plan3, 4);
                long cost3, bonus3, agora3, extra3 = 0, income3 = 0;
                NEED(PyTuple_CheckExact(before3) && PyTuple_CheckExact(effects3) && PyTuple_GET_SIZE(effects3) <= MAXEFFECTS);
                NEED(as_long(PyTuple_GET_ITEM(plan3, 1), &cost3) && SMALL(cost3) && cost3 >= 0);
                /* no Guild Court, no question of its own */
                NEED(PyTuple_GET_ITEM(plan3, 5) == Py_False && PyTuple_GET_ITEM(plan3, 6) == Py_False);
                NEED(as_long(PyTuple_GET_ITEM(plan3, 7), &bonus3) && as_long(PyTuple_GET_ITEM(plan3, 8), &agora3));
                if (locked3 != Py_None) NEED(PySet_Contains(unlocked, locked3) == 1);
                PyObject *crossed3 = PyDict_GetItemWithError(crossed_all, b3);
                NEED(crossed3 || !PyErr_Occurred());
                NEED(crossed3 == NULL || PySet_CheckExact(crossed3));
                long n3 = crossed3 ? (long)PySet_GET_SIZE(crossed3) : 0;
                NEED(!(bonus3 && n3 + 1 >= bonus3));  /* it may complete its building: a bonus slot, the resolver's */
                if (n3) {
                    NEED(PySet_Contains(crossed3, x3) == 0);
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(before3); j++)
                        NEED(PySet_Contains(crossed3, PyTuple_GET_ITEM(before3, j)) == 1);
                } else {
                    NEED(PyTuple_GET_SIZE(before3) == 0);
                }
                if (!wonder3) {  /* the die: in the Forum, unlocked, reaching the lane; its cost (die_cost) and income */
                    PyObject *die3 = PyDict_GetItemWithError(answer, k_die);
                    PyObject *forum3 = GA(state, s_forum), *roll3 = GA(state, s_roll), *special3 = GA(start, s_special);
                    NEED(die3 && PyUnicode_CheckExact(die3) && forum3 && roll3 && special3 && PyDict_CheckExact(forum3)
                         && PyDict_CheckExact(roll3) && PyTuple_CheckExact(special3));
                    PyObject *colour3 = PyDict_GetItemWithError(forum3, die3);
                    NEED(colour3 && PyUnicode_CheckExact(colour3));
                    PyObject *shown3 = PyDict_GetItemWithError(roll3, die3);
                    NEED(shown3 && PyTuple_CheckExact(shown3) && PyTuple_GET_SIZE(shown3) == 2);
                    PyObject *face3 = PyTuple_GET_ITEM(shown3, 0);
                    long section3;
                    NEED(PyUnicode_CheckExact(face3) && as_long(PyTuple_GET_ITEM(shown3, 1), &section3));
                    int special_die = PySequence_Contains(special3, colour3);
                    NEED(special_die >= 0);
                    if (special_die) NEED(PySet_Contains(unlocked, colour3) == 1);
                    PyObject *reaches3 = GA(tables, s_reaches);
                    NEED(reaches3 && PyDict_CheckExact(reaches3));
                    PyObject *by_face3 = PyDict_GetItemWithError(reaches3, colour3);
                    NEED(by_face3 && PyDict_CheckExact(by_face3));
                    PyObject *reach3 = PyDict_GetItemWithError(by_face3, face3);
                    NEED(reach3 && PyFrozenSet_CheckExact(reach3));
                    PyObject *pair3 = keep(&refs, PyTuple_Pack(2, b3, l3));
                    NEED(pair3 && PySet_Contains(reach3, pair3) == 1);
                    PyObject *free3 = GA(player, s_free_colours);
                    NEED(free3 && PySet_CheckExact(free3));
                    int is_free3 = PySet_Contains(free3, colour3);
                    NEED(is_free3 >= 0);
                    if (free_die == Py_False && !is_free3) {
                        PyObject *sections3 = GA(start, s_forum_sections), *discount3 = GA(player, s_discount);
                        long base3, all3, one3 = 0;
                        NEED(sections3 && PyTuple_CheckExact(sections3) && 0 <= section3 && section3 < PyTuple_GET_SIZE(sections3));
                        NEED(as_long(PyTuple_GET_ITEM(sections3, section3), &base3) && SMALL(base3));
                        NEED(as_long(GA(player, s_discount_all), &all3) && SMALL(all3));
                        NEED(discount3 && PyDict_CheckExact(discount3));
                        PyObject *d3 = PyDict_GetItemWithError(discount3, colour3);
                        NEED(d3 || !PyErr_Occurred());
                        if (d3) NEED(as_long(d3, &one3) && SMALL(one3));
                        extra3 = base3 - all3 - one3;
                        if (extra3 < 0) extra3 = 0;
                    }
                    PyObject *i3 = PyDict_GetItemWithError(income_d, colour3);
                    NEED(i3 || !PyErr_Occurred());
                    if (i3) NEED(as_long(i3, &income3) && SMALL(income3));
                }
                SIMULATE();
                long res3 = made_sim - spent_sim;
                if (res3 < 0) res3 = 0;
                long owed3 = extra3 + (cost3 > res3 ? cost3 - res3 : 0);
                long credit3 = eq(when, v_when_chosen) ? income3 : 0;
                NEED(owed3 <= (credit3 ? gained(capped, cap, coins_sim, credit3) : coins_sim));  /* _space_problem's payment */
                long delta3 = spending ? (cost3 < res3 ? cost3 : res3) : 0;
                int own3 = produces(producers_o, b3, x3);
                NEED(own3 >= 0);
                if (income3 && eq(when, v_when_chosen)) coins_sim = gained(capped, cap, coins_sim, income3);
                coins_sim -= owed3;
                if (income3 && eq(when, v_after_paying)) coins_sim = gained(capped, cap, coins_sim, income3);
                spent_sim += delta3;
                made_sim += own3;
                NEED(simulated_effects(&refs, effects3, vp_d, PyTuple_GET_ITEM(plan3, 3), &dirty, &costly));  /* none asks (checked) */
                if (income3 && eq(when, v_after_action)) dirty = 1;  /* income after the action: coins, kept simple */
                if (agora3) {
                    completers = GA(state, s_agora_completers);
                    NEED(completers && PyList_CheckExact(completers));
                }
                cross_b[n_cross] = b3;
                cross_x[n_cross] = x3;
                cross_plan[n_cross] = plan3;
                cross_owed[n_cross] = owed3;
                cross_spent[n_cross] = delta3;
                cross_income[n_cross] = income3;
                cross_i[g][i] = n_cross++;
                cross_n[g][i] = 1;
                made.b[made.n] = b3;
                made.x[made.n++] = x3;
                n_extra++;
                paid_extra += owed3;
                here[g][i] = 3;
                continue;
            }
            here[g][i] = eq(t, v_vp);
            if (here[g][i]) {
                NEED(as_long(GA(e, s_vp), &effect_vp[g][i]) && SMALL(effect_vp[g][i]));
                if (!held_checked) {
                    long held;
                    PyObject *cur = PyDict_GetItemWithError(vp_d, cat);
                    NEED(cur || !PyErr_Occurred());
                    if (cur) NEED(as_long(cur, &held) && SMALL(held));
                    held_checked = 1;
                }
            }
        }
    }
    NEED(k == n_steps);  /* a step no question asked for: the resolver reports it */
    (void)asks;
    PyObject *this_turn = GA(player, s_this_turn);
    NEED(this_turn && PyList_CheckExact(this_turn));
    if (agora_size) {
        completers = GA(state, s_agora_completers);
        NEED(completers && PyList_CheckExact(completers));
    }
    PyObject *spend_o = GA(options, s_resources);
    NEED(spend_o && PyUnicode_CheckExact(spend_o));

    /* ---- kernel._cross: from here on the table changes */
    Ctx ctx = {state, player, players, crossed_all, vp_d, capped, eq(resolution, v_simultaneous), cap, seat};
    if (income && eq(when, v_when_chosen)) coins = gained(capped, cap, coins, income);
    paid = owed + paid_extra;
    if (cost && eq(spend_o, v_spent)) {
        if (set_long(player, s_resources_spent, spent + (cost < resources ? cost : resources)) < 0) goto error;
    }
    coins -= owed;
    if (income && eq(when, v_after_paying)) coins = gained(capped, cap, coins, income);
    if (set_long(player, s_coins, coins) < 0) goto error;
    if (crossed == NULL) {
        PyObject *fresh = keep(&refs, PySet_New(NULL));
        if (fresh == NULL || PyDict_SetItem(crossed_all, building, fresh) < 0) goto error;
        crossed = fresh;
    }
    if (PySet_Add(crossed, space) < 0) goto error;
    PyObject *done_pair = keep(&refs, PyTuple_Pack(2, building, space));
    if (done_pair == NULL || PyList_Append(this_turn, done_pair) < 0) goto error;
    for (int g = 0; g < 2; g++) {
        if (g) {
            /* the Agora's completion, then the bonus slot (engine._Action._cross, _take_bonus) */
            if (agora_size && (long)PySet_GET_SIZE(crossed) == agora_size) {
                if (PyList_Append(completers, seat_o) < 0) goto error;
            }
            if (slot_effects == NULL) break;
            if (PyList_SetItem(bonuses, slot, Py_NewRef(Py_True)) < 0) goto error;
        }
        PyObject *group = g ? slot_effects : effects, *cat = g ? v_bonus : category, *where = g ? Py_None : building;
        Py_ssize_t count = g ? n_slot : n_effects;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *e = PyTuple_GET_ITEM(group, i);
            if (here[g][i] == 2) continue;  /* an extra action skipped, a crossing skipped or lapsed: nothing */
            if (here[g][i] == 3) {  /* engine._Action._cross of the spaces an effect crosses, or of an extra action's */
                for (int c = cross_i[g][i]; c < cross_i[g][i] + cross_n[g][i]; c++) {  /* in the order crossed */
                    PyObject *b2 = cross_b[c], *x2 = cross_x[c], *plan2 = cross_plan[c];
                    long now, income2 = cross_income[c];  /* an extra action's die's income (_do_action) */
                    if (!as_long(GA(player, s_coins), &now)) {
                        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "coins are not a small int");
                        goto error;
                    }
                    if (income2 && eq(when, v_when_chosen)) now = gained(capped, cap, now, income2);
                    if (cross_spent[c]) {
                        long sp;
                        if (!as_long(GA(player, s_resources_spent), &sp)) {
                            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "resources spent are not a small int");
                            goto error;
                        }
                        if (set_long(player, s_resources_spent, sp + cross_spent[c]) < 0) goto error;
                    }
                    now -= cross_owed[c];
                    if (income2 && eq(when, v_after_paying)) now = gained(capped, cap, now, income2);
                    if (set_long(player, s_coins, now) < 0) goto error;
                    PyObject *set2 = PyDict_GetItemWithError(crossed_all, b2);
                    if (set2 == NULL) {
                        if (PyErr_Occurred()) goto error;
                        set2 = keep(&refs, PySet_New(NULL));
                        if (set2 == NULL || PyDict_SetItem(crossed_all, b2, set2) < 0) goto error;
                    }
                    if (PySet_Add(set2, x2) < 0) goto error;
                    PyObject *pair2 = keep(&refs, PyTuple_Pack(2, b2, x2));
                    if (pair2 == NULL || PyList_Append(this_turn, pair2) < 0) goto error;
                    PyObject *effects2 = PyTuple_GET_ITEM(plan2, 2), *cat2 = PyTuple_GET_ITEM(plan2, 3);
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(effects2); j++) {
                        PyObject *e2 = PyTuple_GET_ITEM(effects2, j);
                        PyObject *t2 = GA(e2, s_type);
                        if (t2 == NULL) goto error;
                        long v;
                        if (eq(t2, v_vp)) {
                            long held = 0;
                            if (!as_long(GA(e2, s_vp), &v)) goto vp_error;
                            PyObject *cur = PyDict_GetItemWithError(vp_d, cat2);
                            if (cur == NULL && PyErr_Occurred()) goto error;
                            if (cur != NULL && !as_long(cur, &held)) goto vp_error;
                            PyObject *sum = PyLong_FromLong(held + v);
                            if (sum == NULL) goto error;
                            int rc = PyDict_SetItem(vp_d, cat2, sum);
                            Py_DECREF(sum);
                            if (rc < 0) goto error;
                        } else if (apply_one(&ctx, &refs, e2, t2, cat2, b2, &v) < 0) {
                            goto error;
                        }
                        vp += v;
                    }
                    long agora2;
                    if (as_long(PyTuple_GET_ITEM(plan2, 8), &agora2) && agora2 && (long)PySet_GET_SIZE(set2) == agora2) {
                        if (PyList_Append(completers, seat_o) < 0) goto error;
                    }
                    if (income2 && eq(when, v_after_action)) {
                        if (!as_long(GA(player, s_coins), &now)) {
                            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "coins are not a small int");
                            goto error;
                        }
                        if (set_long(player, s_coins, gained(capped, cap, now, income2)) < 0) goto error;
                    }
                }
                continue;
            }
            if (here[g][i]) {
                long now = 0;
                PyObject *cur = PyDict_GetItemWithError(vp_d, cat);
                if (cur == NULL && PyErr_Occurred()) goto error;
                if (cur != NULL && !as_long(cur, &now)) {
                    PyErr_SetString(PyExc_TypeError, "VP held are not a small int");
                    goto error;
                }
                PyObject *sum = PyLong_FromLong(now + effect_vp[g][i]);
                if (sum == NULL) goto error;
                int rc = PyDict_SetItem(vp_d, cat, sum);
                Py_DECREF(sum);
                if (rc < 0) goto error;
                vp += effect_vp[g][i];
            } else {
                long v;
                if (apply_one(&ctx, &refs, e, types[g][i], cat, where, &v) < 0) goto error;
                vp += v;
            }
        }
    }
    if (income && eq(when, v_after_action)) {
        long now;
        if (!as_long(GA(player, s_coins), &now)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "coins are not a small int");
            goto error;
        }
        if (set_long(player, s_coins, gained(capped, cap, now, income)) < 0) goto error;
    }

done:
    /* ---- projector._done */
    {
        PyObject *acted_set = GA(state, s_acted);
        if (acted_set == NULL || !PySet_CheckExact(acted_set)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "acted is not a set");
            goto error;
        }
        if (PySet_Add(acted_set, seat_o) < 0) goto error;
        long nxt = n;
        for (long s = 0; s < n; s++) {
            PyObject *so = keep(&refs, PyLong_FromLong(s));
            if (so == NULL) goto error;
            int in = PySet_Contains(acted_set, so);
            if (in < 0) goto error;
            if (!in) {
                nxt = s;
                break;
            }
        }
        if (set_long(state, s_next_seat, nxt) < 0) goto error;
        if ((long)PySet_GET_SIZE(acted_set) == n && PyObject_SetAttr(state, s_phase, v_swaps) < 0) goto error;
    }
    /* ---- the claims: all right (the usual case), or for the Python code to report */
    {
        PyObject *claims = PyDict_GetItemWithError(p, k_claims);
        if (claims == NULL && PyErr_Occurred()) goto error;
        int truth = claims == NULL ? 0 : PyObject_IsTrue(claims);
        if (truth < 0) goto error;
        if (truth && PyDict_CheckExact(claims)) {
            long now, c;
            PyObject *cp = PyDict_GetItemWithError(claims, k_paid);
            PyObject *cv = PyDict_GetItemWithError(claims, s_vp);
            PyObject *cc = PyDict_GetItemWithError(claims, s_coins);
            if (PyErr_Occurred()) goto error;
            int right = (cp == NULL || cp == Py_None || (as_long(cp, &c) && c == paid))
                        && (cv == NULL || cv == Py_None || (as_long(cv, &c) && c == vp));
            if (right && cc != NULL && cc != Py_None)
                right = as_long(GA(player, s_coins), &now) && as_long(cc, &c) && c == now;
            if (PyErr_Occurred()) goto error;
            truth = !right;
        }
        if (truth) {
            result = Py_BuildValue("(ll)", paid, vp);
        } else {
            result = PyList_New(0);
        }
    }
    release(&refs);
    return result;

decline:
    return declined(&refs);

vp_error:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a VP count that is not a small int");
error:
    return failed(&refs);
}

/* ------------------------------------------------------------------ roll */

static PyObject *roll(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "roll(state, payload)")) return NULL;
    PyObject *state = args[0], *p = args[1];
    Refs refs;
    refs_empty(&refs);
    long turn, state_turn;
    PyObject *phase = GA(state, s_phase);
    NEED(phase && eq(phase, v_roll));
    NEED(PyDict_CheckExact(p));
    PyObject *turn_o = PyDict_GetItemWithError(p, s_turn);
    NEED(as_long(turn_o, &turn) && as_long(GA(state, s_turn), &state_turn) && SMALL(state_turn) && turn == state_turn + 1);
    PyObject *dice = PyDict_GetItemWithError(p, k_dice);
    NEED(dice && PyList_CheckExact(dice));
    PyObject *forum = GA(state, s_forum);
    NEED(forum && PyDict_CheckExact(forum) && PyDict_GET_SIZE(forum) == PyList_GET_SIZE(dice));
    PyObject *rules = GA(state, s_rules);
    NEED(rules);
    PyObject *start = GA(rules, s_start);
    NEED(start);
    PyObject *sections = GA(start, s_forum_sections);
    NEED(sections && PyTuple_CheckExact(sections));
    Py_ssize_t n_sections = PyTuple_GET_SIZE(sections);
    PyObject *all_faces = GA(rules, s_faces);
    NEED(all_faces && PyDict_CheckExact(all_faces));
    PyObject *rolled = keep(&refs, PyDict_New());
    NEED(rolled);
    Py_ssize_t pos = 0, i = 0;
    PyObject *id, *colour;
    while (PyDict_Next(forum, &pos, &id, &colour)) {  /* the dice rolled in the Forum's order */
        PyObject *d = PyList_GET_ITEM(dice, i++);
        NEED(PyDict_CheckExact(d));
        PyObject *did = PyDict_GetItemWithError(d, k_id), *dcolour = PyDict_GetItemWithError(d, k_colour);
        PyObject *face = PyDict_GetItemWithError(d, k_face), *section = PyDict_GetItemWithError(d, k_section);
        NEED(did && dcolour && face && section);
        NEED(eq(did, id) && PyUnicode_CheckExact(id) && eq(dcolour, colour) && PyUnicode_CheckExact(face));
        long s;
        NEED(as_long(section, &s) && 0 <= s && s < n_sections);
        PyObject *faces = PyDict_GetItemWithError(all_faces, colour);
        NEED(faces && PyDict_CheckExact(faces));
        NEED(PyDict_Contains(faces, face) == 1);
        PyObject *shown = keep(&refs, PyTuple_Pack(2, face, section));
        NEED(shown && PyDict_SetItem(rolled, id, shown) == 0);
    }
    PyObject *players = GA(state, s_players);
    NEED(players && PyList_CheckExact(players));
    PyObject *follow_ups = GA(state, s_follow_ups), *pending = GA(state, s_pending);
    NEED(follow_ups && pending && PyDict_CheckExact(follow_ups) && PyDict_CheckExact(pending));
    Py_ssize_t n = PyList_GET_SIZE(players);
    PyObject *turns[64];
    NEED(n <= 64);
    for (Py_ssize_t j = 0; j < n; j++) {
        turns[j] = GA(PyList_GET_ITEM(players, j), s_this_turn);
        NEED(turns[j] && PyList_CheckExact(turns[j]));
    }
    /* ---- projector._start_turn: from here on the table changes */
    {
        PyObject *acted = keep(&refs, PySet_New(NULL)), *completers = keep(&refs, PyList_New(0));
        PyObject *zero = keep(&refs, PyLong_FromLong(0));
        if (acted == NULL || completers == NULL || zero == NULL) goto error;
        if (PyObject_SetAttr(state, s_roll, rolled) < 0 || PyObject_SetAttr(state, s_turn, turn_o) < 0
            || PyObject_SetAttr(state, s_phase, v_actions) < 0 || PyObject_SetAttr(state, s_next_seat, zero) < 0
            || PyObject_SetAttr(state, s_acted, acted) < 0 || PyObject_SetAttr(state, s_agora_completers, completers) < 0)
            goto error;
        PyDict_Clear(follow_ups);
        PyDict_Clear(pending);
        for (Py_ssize_t j = 0; j < n; j++)
            if (PyList_SetSlice(turns[j], 0, PyList_GET_SIZE(turns[j]), NULL) < 0) goto error;
    }
    release(&refs);
    Py_RETURN_TRUE;

decline:
    return declined(&refs);

error:
    return failed(&refs);
}

/* ------------------------------------------------------------------ position */

static PyObject *positions = NULL; /* rules._POSITIONS, set by setup() */
static PyObject *s_action_taken;

/* position(event_type, payload): the cached Position of (turn, seat), or None for the Python code
 * (rules.position) to make (an odd value, a pair not cached yet). */
static PyObject *position(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "position(event_type, payload)")) return NULL;
    PyObject *type = args[0], *p = args[1];
    if (positions == NULL || !PyDict_CheckExact(p)) Py_RETURN_NONE;
    PyObject *turn = PyDict_GetItemWithError(p, s_turn);
    if (turn == NULL || !PyLong_CheckExact(turn)) goto odd;
    PyObject *seat = Py_None;
    if (eq(type, s_action_taken)) {
        seat = PyDict_GetItemWithError(p, k_player);
        if (seat == NULL || !PyLong_CheckExact(seat)) goto odd;
    }
    PyObject *key = PyTuple_Pack(2, turn, seat);
    if (key == NULL) return NULL;
    PyObject *found = PyDict_GetItemWithError(positions, key);
    Py_DECREF(key);
    if (found != NULL) return Py_NewRef(found);
odd:
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ setup */

static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyCallable_Check(args[1]) || !PyDict_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "setup(SpacePlan._fields, apply_effect, positions)");
        return NULL;
    }
    PyObject *expected = Py_BuildValue("(sssssssss)", "before", "cost", "effects", "category", "locked", "guild", "asks",
                                       "bonus_size", "agora_size");
    if (expected == NULL) return NULL;
    int same = PyObject_RichCompareBool(args[0], expected, Py_EQ);
    Py_DECREF(expected);
    if (same < 0) return NULL;
    if (!same) {
        PyErr_SetString(PyExc_ImportError, "SpacePlan's fields are not the ones the compiled kernel reads");
        return NULL;
    }
    Py_XSETREF(apply_effect, Py_NewRef(args[1]));
    Py_XSETREF(positions, Py_NewRef(args[2]));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL, "setup(SpacePlan._fields, apply_effect, positions)"},
    {"position", (PyCFunction)(void (*)(void))position, METH_FASTCALL,
     "position(event_type, payload): the cached Position of (turn, seat), or None"},
    {"action", (PyCFunction)(void (*)(void))action, METH_FASTCALL,
     "action(state, payload): a one-step action applied (the claims' verdict), or None, nothing changed"},
    {"roll", (PyCFunction)(void (*)(void))roll, METH_FASTCALL,
     "roll(state, payload): True, the roll applied, or None, nothing changed"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ckernel",
                                    "The compiled fast path of the 7 Wonders Dice fold (see compiled.py).", -1, methods};

#define INTERN(var, text) if (((var) = PyUnicode_InternFromString(text)) == NULL) return NULL

PyMODINIT_FUNC PyInit__ckernel(void) {
    INTERN(s_phase, "phase"); INTERN(s_pending, "pending"); INTERN(s_options, "options");
    INTERN(s_resolution, "resolution"); INTERN(s_players, "players"); INTERN(s_next_seat, "next_seat");
    INTERN(s_turn, "turn"); INTERN(s_coins, "coins"); INTERN(s_board, "board"); INTERN(s_rules, "rules");
    INTERN(s_compiled, "compiled"); INTERN(s_plans, "plans"); INTERN(s_forum, "forum"); INTERN(s_roll, "roll");
    INTERN(s_start, "start"); INTERN(s_special, "special"); INTERN(s_unlocked, "unlocked");
    INTERN(s_reaches, "reaches"); INTERN(s_free_colours, "free_colours"); INTERN(s_forum_sections, "forum_sections");
    INTERN(s_discount_all, "discount_all"); INTERN(s_discount, "discount"); INTERN(s_producers, "producers");
    INTERN(s_crossed, "crossed"); INTERN(s_resources_spent, "resources_spent"); INTERN(s_bonuses, "bonuses");
    INTERN(s_income, "income"); INTERN(s_coin_cap, "coin_cap"); INTERN(s_resources, "resources");
    INTERN(s_this_turn, "this_turn"); INTERN(s_agora_completers, "agora_completers"); INTERN(s_acted, "acted");
    INTERN(s_vp, "vp"); INTERN(s_type, "type"); INTERN(s_pass_coins, "pass_coins"); INTERN(s_faces, "faces");
    INTERN(s_follow_ups, "follow_ups"); INTERN(s_action_taken, "action_taken");
    INTERN(k_player, "player"); INTERN(k_steps, "steps"); INTERN(k_kind, "kind"); INTERN(k_building, "building");
    INTERN(k_lane, "lane"); INTERN(k_space, "space"); INTERN(k_die, "die"); INTERN(k_claims, "claims");
    INTERN(k_paid, "paid"); INTERN(k_dice, "dice"); INTERN(k_id, "id"); INTERN(k_colour, "colour");
    INTERN(k_face, "face"); INTERN(k_section, "section");
    INTERN(v_actions, "actions"); INTERN(v_two_phase, "two_phase"); INTERN(v_pass, "pass"); INTERN(v_build, "build");
    INTERN(v_wonder, "wonder"); INTERN(v_when_chosen, "when_chosen"); INTERN(v_after_paying, "after_paying");
    INTERN(v_after_action, "after_action"); INTERN(v_spent, "spent"); INTERN(v_swaps, "swaps"); INTERN(v_roll, "roll");
    INTERN(v_vp, "vp");
    INTERN(s_barracks, "barracks"); INTERN(s_bonus_slots, "bonus_slots"); INTERN(s_slots, "slots");
    INTERN(k_slot, "slot"); INTERN(v_bonus, "bonus"); INTERN(v_one_building, "one_building");
    INTERN(v_barracks_, "barracks_"); INTERN(v_cross, "cross"); INTERN(v_extra_action, "extra_action"); INTERN(v_skip, "skip");
    INTERN(v_attack, "attack"); INTERN(v_resource, "resource"); INTERN(v_shield, "shield");
    INTERN(v_vp_per_leader_end, "vp_per_leader_end"); INTERN(v_die_discount, "die_discount"); INTERN(v_die_free, "die_free");
    INTERN(v_income, "income"); INTERN(v_leaders, "leaders"); INTERN(v_barracks_west, "barracks_west");
    INTERN(v_barracks_east, "barracks_east"); INTERN(v_simultaneous, "simultaneous"); INTERN(s_amount, "amount");
    INTERN(s_colours, "colours"); INTERN(s_die, "die"); INTERN(s_end_effects, "end_effects");
    INTERN(s_pending_swaps, "pending_swaps"); INTERN(s_shield_spaces, "shield_spaces"); INTERN(s_seat, "seat");
    INTERN(v_purple, "purple"); INTERN(s_compare, "compare"); INTERN(s_compare_groups, "compare_groups");
    INTERN(s_lanes, "lanes"); INTERN(s_symbol, "symbol"); INTERN(s_spaces, "spaces"); INTERN(s_ordered, "ordered");
    INTERN(s_cross_mandatory, "cross_mandatory");
    INTERN(s_free_die, "free_die"); INTERN(s_free_action_wonder, "free_action_wonder");
    INTERN(s_count, "count"); INTERN(s_buildings, "buildings"); INTERN(v_per_space, "per_space"); INTERN(v_unlock, "unlock");
    return PyModule_Create(&module);
}
