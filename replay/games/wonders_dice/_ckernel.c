/* The compiled fast path of the 7 Wonders Dice fold (optional: see compiled.py).
 *
 * Functions for the usual case of an event type, over the same Python objects the
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
 *   trusted_action(state, seat, step[, getrandbits, steps]) -> None | (paid, vp)
 *       kernel.direct_action(trusted=True) for the simulation, whose bots' steps are legal: a pass, or
 *       a build or Wonder step that asks nothing further, applied by the same phases without the
 *       checks, an event's claims or the seat's turn done; with a random bot's generator, the questions
 *       the step asks answered as that bot answers them (drawing the same numbers), each answer checked
 *       as a logged step is and appended to ``steps``.
 *   roll(state, payload) -> None | True
 *       projector._roll + _start_turn for a roll of the Forum's dice in the Forum's order.
 *   position(event_type, payload) -> Position | None
 *       rules.position's cached Position of (turn, seat) when both are exact ints.
 *
 * action is written as phases over one Act (what was read and checked): the guards (event_guards,
 * read_player), the plan (find_plan), the die and the space's checks (check_space), the follow-ups
 * answered on a simulated table (follow_ups: answer_cross, answer_extra, answer_bonus; each space they
 * cross recorded by push_crossing), then the changes (pay, apply_effects, turn_done) and the claims'
 * verdict (claims_verdict). Each reading phase returns 0 to decline; each changing one -1 on an error.
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
#include "_attrs.h" /* get_attr, set_attr: the state's slots and pack parts read cheaply */
#include "_resources.h" /* count_produced: PlayerState.resources, as _cbots.c counts it */
#include "_shields.h"   /* count_shields: PlayerState.shields, as _crows.c counts them */
#include "_end_rates.h" /* end_rates: scoring.end_rates, as _crows.c reads them */
#include "_lent.h"      /* the bots' draws and candidate check, lent by _cbots.c: a simulated random bot's answers */
#include <string.h>

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

/* ------------------------------------------------------------------ attribute reads: _attrs.h */


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

/* An attribute read, its reference held by the Refs R (a pointer in scope) until the call ends. */
#define GA(obj, name) keep(R, get_attr((obj), (name)))

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
    int rc = set_attr(obj, name, v);
    Py_DECREF(v);
    return rc;
}

/* PlayerState.resources (_resources.h's count); 0 on failure or an unusual value (declined: no error left). */
static int player_resources(PyObject *producers, PyObject *crossed_all, long spent, long *out) {
    int counted = count_produced(producers, crossed_all, spent, out);
    if (counted < 0) PyErr_Clear();
    return counted > 0;
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

/* dict[key] += amount for a dict of exact small ints (a discount or an income by colour, VP by
 * category); the values are checked before anything changes, so *odd (the TypeError's words) is
 * only for a table changed behind the kernel's back. */
static int add_to(PyObject *d, PyObject *key, long amount, const char *odd) {
    long held = 0;
    PyObject *cur = PyDict_GetItemWithError(d, key);
    if (cur == NULL && PyErr_Occurred()) return -1;
    if (cur != NULL && !as_long(cur, &held)) {
        PyErr_SetString(PyExc_TypeError, odd);
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
 * player at seat (_shields.h's count): _shields, as engine.defence reads it; -1 for an odd value (for
 * the Python code) or an error (set). */
static long shields_of(Ctx *c, Refs *r, long seat, PyObject *barracks) {
    PyObject *p = PyList_GET_ITEM(c->players, seat);
    PyObject *board = keep(r, get_attr(p, s_board));
    if (board == NULL || !PyDict_CheckExact(board)) return -1;
    PyObject *b = PyDict_GetItemWithError(board, barracks);
    if (b == NULL) return PyErr_Occurred() ? -1 : 0;  /* no such Barracks on that board: no shields */
    PyObject *shields = keep(r, get_attr(b, s_shield_spaces)), *crossed_all = keep(r, get_attr(p, s_crossed));
    PyObject *this_turn = c->simultaneous ? keep(r, get_attr(p, s_this_turn)) : NULL;
    long count;
    if (shields == NULL || crossed_all == NULL || (c->simultaneous && this_turn == NULL)) return -1;
    return count_shields(shields, crossed_all, this_turn, barracks, &count) == 1 ? count : -1;
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
#define GE(obj, name) keep(&r, get_attr((obj), (name)))
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
                if (add_to(d, PyTuple_GET_ITEM(colours, i), amount, "a discount or income is not a small int") < 0) goto error;
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
    PyObject *crossed_all = keep(r, get_attr(p, s_crossed));
    PyObject *this_turn = before_turn ? keep(r, get_attr(p, s_this_turn)) : NULL;
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
    PyObject *faces = keep(r, get_attr(rules, s_faces));
    PyObject *groups = keep(r, get_attr(rules, s_compare_groups));
    if (faces == NULL || !PyDict_CheckExact(faces) || groups == NULL || !PyDict_CheckExact(groups)) return 0;
    PyObject *by_face = PyDict_GetItemWithError(faces, colour);
    if (by_face == NULL || !PyDict_CheckExact(by_face)) return 0;
    PyObject *f = PyDict_GetItemWithError(by_face, face);
    if (f == NULL) return 0;
    PyObject *compare = keep(r, get_attr(f, s_compare));
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
        PyObject *lanes = keep(r, get_attr(b, s_lanes));
        if (lanes == NULL || !PyTuple_CheckExact(lanes)) return -1;
        for (Py_ssize_t l = 0; l < PyTuple_GET_SIZE(lanes); l++) {
            PyObject *lane = PyTuple_GET_ITEM(lanes, l);
            PyObject *symbol = keep(r, get_attr(lane, s_symbol)), *spaces = keep(r, get_attr(lane, s_spaces));
            PyObject *ordered = keep(r, get_attr(lane, s_ordered));
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

/* ------------------------------------------------------------------ action: the pieces */

#define CHECK(cond) do { if (!(cond)) return 0; } while (0)

/* Whether (building, space) produces a resource on this board (PlayerState.producers); -1 if odd. */
static int produces(PyObject *producers, PyObject *building, PyObject *space) {
    if (!PyTuple_CheckExact(producers) || !PyUnicode_CheckExact(space)) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(producers); i++) {
        PyObject *pair = PyTuple_GET_ITEM(producers, i), *spaces;
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return -1;
        if (!eq(PyTuple_GET_ITEM(pair, 0), building)) continue;
        if (!PyTuple_CheckExact(spaces = PyTuple_GET_ITEM(pair, 1))) return -1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(spaces); j++)
            if (eq(PyTuple_GET_ITEM(spaces, j), space)) return 1;
        return 0;
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
        PyObject *t = keep(r, get_attr(e, s_type));
        if (t == NULL || !PyUnicode_CheckExact(t)) return 0;
        if (eq(t, s_coins) || eq(t, v_per_space) || eq(t, v_unlock)) *dirty = 1;
        if (eq(t, v_die_discount) || eq(t, v_die_free) || eq(t, v_income)) *costly = 1;
        if (eq(t, v_vp)) {
            long held, v;
            if (!as_long(keep(r, get_attr(e, s_vp)), &v) || !SMALL(v)) return 0;
            PyObject *cur = PyDict_GetItemWithError(vp_d, category);
            if (cur == NULL && PyErr_Occurred()) return 0;
            if (cur != NULL && (!as_long(cur, &held) || !SMALL(held))) return 0;
        }
    }
    return 1;
}

/* A SpacePlan read once: before, cost, effects, category, locked, guild, asks, bonus_size, agora_size. */
typedef struct {
    PyObject *before, *effects, *category, *locked;
    long cost, bonus_size, agora_size;
    int guild, asks;
} Plan;

/* plans[(building, lane, space)] into *out, its fields of the types the kernel reads; 0 if absent or odd. */
static int read_plan(Refs *r, PyObject *plans, PyObject *building, PyObject *lane, PyObject *space, Plan *out) {
    PyObject *key = keep(r, PyTuple_Pack(3, building, lane, space));
    CHECK(key);
    PyObject *plan = PyDict_GetItemWithError(plans, key);
    CHECK(plan && PyTuple_Check(plan) && PyTuple_GET_SIZE(plan) == 9);
    out->before = PyTuple_GET_ITEM(plan, 0);
    out->effects = PyTuple_GET_ITEM(plan, 2);
    out->category = PyTuple_GET_ITEM(plan, 3);
    out->locked = PyTuple_GET_ITEM(plan, 4);
    CHECK(PyTuple_CheckExact(out->before) && PyTuple_CheckExact(out->effects));
    CHECK(as_long(PyTuple_GET_ITEM(plan, 1), &out->cost) && SMALL(out->cost));
    out->guild = PyTuple_GET_ITEM(plan, 5) == Py_True;
    CHECK(out->guild || PyTuple_GET_ITEM(plan, 5) == Py_False);
    out->asks = PyTuple_GET_ITEM(plan, 6) == Py_True;
    CHECK(out->asks || PyTuple_GET_ITEM(plan, 6) == Py_False);
    return as_long(PyTuple_GET_ITEM(plan, 7), &out->bonus_size) && as_long(PyTuple_GET_ITEM(plan, 8), &out->agora_size);
}

/* One space an effect crosses (a "cross" effect's, or an extra action's), as checked on the simulated
 * table: what it costs and what the action applies for it later, in the order crossed. */
typedef struct {
    PyObject *b, *x;
    Plan plan;
    long owed, spent, income;  /* coins paid, resources spent, an extra action's die's income (0 for a crossing) */
} Crossing;

/* The spaces an action's effects cross beyond its own, and what they cost: pushed as each is checked. */
typedef struct {
    Crossing at[MAXCROSS];
    int n, n_extra;  /* n_extra: how many are an extra action's */
    long paid;
    Made made;  /* the action's own space, then each crossed (for the checks after it) */
} Crossings;

/* A checked crossing recorded (room was checked: n < MAXCROSS); its index. */
static int push_crossing(Crossings *cs, PyObject *b, PyObject *x, const Plan *plan, long owed, long spent, long income) {
    Crossing *c = &cs->at[cs->n];
    c->b = b;
    c->x = x;
    c->plan = *plan;
    c->owed = owed;
    c->spent = spent;
    c->income = income;
    cs->made.b[cs->made.n] = b;
    cs->made.x[cs->made.n++] = x;
    cs->paid += owed;
    return cs->n++;
}

/* What the kernel does with each effect of the space (group 0) or of its bonus slot (group 1). */
enum { VIA_APPLY = 0, VP_HERE = 1, NOTHING = 2, CROSSES = 3 };

/* One action, read and checked, then applied: everything the phases below share. */
typedef struct {
    Refs refs;
    int trusted;  /* the simulation's entry: the step is legal (its checks left out, no claims) */
    int answers;  /* whether a question may be answered: by the next logged step, or by the bot (getrandbits) */
    /* a simulated random bot answering the questions (trusted_action's five arguments): its getrandbits (NULL:
     * the answers are the logged steps), where its generator's state lies, and a copy taken before the
     * first answer's draws, put back when the action is declined */
    PyObject *getrandbits;
    void *draws_at;
    size_t draws_size;
    int draws_kept;
    unsigned char draws_copy[DRAWS_STATE_MAX];
    /* the table and the player */
    PyObject *state, *options, *resolution, *players, *player, *seat_o, *rules, *start;
    long seat, n, coins, cap;
    int capped;
    /* the step's space and die (kernel._found, _space_ok) */
    PyObject *building, *lane, *space, *board, *tables, *plans, *crossed_all, *crossed, *unlocked, *colour;
    PyObject *bonuses, *slot_effects, *when, *income_d, *vp_d, *this_turn, *completers, *spend_o;
    Plan plan;
    long n_crossed, extra, resources, spent, income, owed, slot;
    int wonder, to_choose;
    /* the table as the action will have left it when an effect asks its question */
    long coins_sim, made_sim, spent_sim;
    int simulated, spending, dirty, costly;
    PyObject *producers_o;
    /* the effects: what is done with each (here), its type, a "vp" effect's value, the crossings it made */
    Py_ssize_t count[2];
    int here[2][MAXEFFECTS], cross_i[2][MAXEFFECTS], cross_n[2][MAXEFFECTS];
    long effect_vp[2][MAXEFFECTS];
    PyObject *types[2][MAXEFFECTS];
    Crossings cs;
    long paid, vp;
} Act;

#define R (&a->refs)

/* projector._direct_action's guards on an event's payload: the actions' phase, nothing pending, not
 * two-phase, this seat's turn; the steps (1 to MAXSTEPS) into *steps. */
static int event_guards(Act *a, PyObject *state, PyObject *p, PyObject **steps) {
    long next_seat, turn, state_turn;
    PyObject *phase = GA(state, s_phase);
    CHECK(phase && eq(phase, v_actions));
    PyObject *pending = GA(state, s_pending);
    CHECK(pending && PyDict_CheckExact(pending) && PyDict_GET_SIZE(pending) == 0);
    a->options = GA(state, s_options);
    CHECK(a->options);
    a->resolution = GA(a->options, s_resolution);
    CHECK(a->resolution && PyUnicode_CheckExact(a->resolution) && !eq(a->resolution, v_two_phase));
    CHECK(PyDict_CheckExact(p));
    a->seat_o = PyDict_GetItemWithError(p, k_player);
    CHECK(as_long(a->seat_o, &a->seat));
    CHECK(as_long(GA(state, s_next_seat), &next_seat) && a->seat == next_seat);
    a->players = GA(state, s_players);
    CHECK(a->players && PyList_CheckExact(a->players));
    a->n = (long)PyList_GET_SIZE(a->players);
    CHECK(0 <= a->seat && a->seat < a->n);
    CHECK(as_long(PyDict_GetItemWithError(p, s_turn), &turn));
    CHECK(as_long(GA(state, s_turn), &state_turn) && turn == state_turn);
    *steps = PyDict_GetItemWithError(p, k_steps);
    return *steps && PyList_CheckExact(*steps) && PyList_GET_SIZE(*steps) >= 1 && PyList_GET_SIZE(*steps) <= MAXSTEPS;
}

/* The acting player (whose p.seat must be its index: the resolver reads p.seat), the rules, the coins
 * and the coin cap. */
static int read_player(Act *a) {
    long own_seat;
    a->player = PyList_GET_ITEM(a->players, a->seat);
    CHECK(as_long(GA(a->player, s_seat), &own_seat) && own_seat == a->seat);
    a->rules = GA(a->state, s_rules);
    CHECK(a->rules);
    a->start = GA(a->rules, s_start);
    CHECK(a->start);
    CHECK(as_long(GA(a->player, s_coins), &a->coins) && SMALL(a->coins));
    PyObject *cap_o = GA(a->options, s_coin_cap);
    CHECK(cap_o);
    a->capped = cap_o != Py_None;
    if (a->capped) CHECK(as_long(cap_o, &a->cap) && SMALL(a->cap));
    return 1;
}

/* kernel._found's plan: the step's space on the player's board, its plan, the building's crossed
 * spaces, and whether this crossing completes the building with a bonus slot still to choose
 * (answered by a logged step or by the bot; declined when nothing answers, as kernel.direct_action declines it). */
static int find_plan(Act *a, PyObject *step) {
    a->building = PyDict_GetItemWithError(step, k_building);
    a->lane = PyDict_GetItemWithError(step, k_lane);
    a->space = PyDict_GetItemWithError(step, k_space);
    CHECK(a->building && a->lane && a->space && PyUnicode_CheckExact(a->building) && PyUnicode_CheckExact(a->lane)
          && PyUnicode_CheckExact(a->space));
    a->board = GA(a->player, s_board);
    PyObject *compiled = GA(a->rules, s_compiled);
    CHECK(a->board && compiled && PyDict_CheckExact(compiled));
    PyObject *board_id = keep(R, PyLong_FromVoidPtr(a->board));
    CHECK(board_id);
    a->tables = PyDict_GetItemWithError(compiled, board_id);
    CHECK(a->tables);
    PyObject *tables_board = GA(a->tables, s_board);
    CHECK(tables_board == a->board);  /* the board the cache entry was made for (board_tables checks the same) */
    a->plans = GA(a->tables, s_plans);
    CHECK(a->plans && PyDict_CheckExact(a->plans));
    Plan *plan = &a->plan;
    CHECK(read_plan(R, a->plans, a->building, a->lane, a->space, plan));
    CHECK(!(plan->guild && a->wonder));  /* the Wonder is never the Guild Court (the resolver would look for the purple die) */
    CHECK(a->answers || !plan->asks);  /* the event's follow-ups or the bot answer a question; else the resolver */
    a->crossed_all = GA(a->player, s_crossed);
    CHECK(a->crossed_all && PyDict_CheckExact(a->crossed_all));
    a->crossed = PyDict_GetItemWithError(a->crossed_all, a->building);  /* borrowed; NULL: none crossed yet */
    CHECK(a->crossed || !PyErr_Occurred());
    CHECK(a->crossed == NULL || PySet_CheckExact(a->crossed));
    a->n_crossed = a->crossed ? (long)PySet_GET_SIZE(a->crossed) : 0;
    if (plan->bonus_size && a->n_crossed + 1 >= plan->bonus_size) {
        a->bonuses = GA(a->player, s_bonuses);
        CHECK(a->bonuses && PyList_CheckExact(a->bonuses));
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(a->bonuses); i++) {
            PyObject *b = PyList_GET_ITEM(a->bonuses, i);
            CHECK(b == Py_True || b == Py_False);
            if (b == Py_False) a->to_choose = 1;
        }
    }
    if (a->to_choose) {
        /* engine._Action._cross then _take_bonus: this crossing completes the building (the
         * arrow's last open space: len(crossed) + 1 == its size; the space is checked open below),
         * and the logged step after the space's own questions takes a free slot (_bonus_problem);
         * the Barracks counted as one building are the resolver's. */
        CHECK(a->answers && a->n_crossed + 1 == plan->bonus_size);
        PyObject *barracks = GA(a->options, s_barracks);
        CHECK(barracks && PyUnicode_CheckExact(barracks));
        if (eq(barracks, v_one_building)) CHECK(PyUnicode_Tailmatch(a->building, v_barracks_, 0, PY_SSIZE_T_MAX, -1) == 0);
    }
    a->unlocked = GA(a->player, s_unlocked);
    return a->unlocked && PySet_CheckExact(a->unlocked);
}

/* A step's die (die_cost): its colour (*colour) and face (*face) in the Forum, in the player's hands
 * and reaching the lane (unless trusted), and the coins it costs (*extra: its section's, less the
 * discounts; nothing for a free colour, or with free_die). */
static int die_cost(Act *a, PyObject *die, PyObject *building, PyObject *lane, int free_die, int trusted,
                    PyObject **colour, PyObject **face, long *extra) {
    CHECK(die && PyUnicode_CheckExact(die));
    PyObject *forum = GA(a->state, s_forum), *roll = GA(a->state, s_roll);
    CHECK(forum && roll && PyDict_CheckExact(forum) && PyDict_CheckExact(roll));
    *colour = PyDict_GetItemWithError(forum, die);
    CHECK(*colour && PyUnicode_CheckExact(*colour));
    PyObject *shown = PyDict_GetItemWithError(roll, die);
    CHECK(shown && PyTuple_CheckExact(shown) && PyTuple_GET_SIZE(shown) == 2);
    *face = PyTuple_GET_ITEM(shown, 0);
    long section;
    CHECK(PyUnicode_CheckExact(*face) && as_long(PyTuple_GET_ITEM(shown, 1), &section));
    if (!trusted) {
        PyObject *special = GA(a->start, s_special);
        CHECK(special && PyTuple_CheckExact(special));
        int is_special = PySequence_Contains(special, *colour);
        CHECK(is_special >= 0);
        if (is_special) CHECK(PySet_Contains(a->unlocked, *colour) == 1);
        PyObject *reaches = GA(a->tables, s_reaches);
        CHECK(reaches && PyDict_CheckExact(reaches));
        PyObject *by_face = PyDict_GetItemWithError(reaches, *colour);
        CHECK(by_face && PyDict_CheckExact(by_face));
        PyObject *reach = PyDict_GetItemWithError(by_face, *face);
        CHECK(reach && PyFrozenSet_CheckExact(reach));
        PyObject *pair = keep(R, PyTuple_Pack(2, building, lane));
        CHECK(pair && PySet_Contains(reach, pair) == 1);
    }
    PyObject *free = GA(a->player, s_free_colours);
    CHECK(free && PySet_CheckExact(free));
    int is_free = PySet_Contains(free, *colour);
    CHECK(is_free >= 0);
    *extra = 0;
    if (!free_die && !is_free) {
        PyObject *sections = GA(a->start, s_forum_sections);
        CHECK(sections && PyTuple_CheckExact(sections) && 0 <= section && section < PyTuple_GET_SIZE(sections));
        long base, all, one = 0;
        CHECK(as_long(PyTuple_GET_ITEM(sections, section), &base) && SMALL(base));
        CHECK(as_long(GA(a->player, s_discount_all), &all) && SMALL(all));
        PyObject *discount = GA(a->player, s_discount);
        CHECK(discount && PyDict_CheckExact(discount));
        PyObject *d = PyDict_GetItemWithError(discount, *colour);
        CHECK(d || !PyErr_Occurred());
        if (d) CHECK(as_long(d, &one) && SMALL(one));
        *extra = base - all - one;
        if (*extra < 0) *extra = 0;
    }
    return 1;
}

/* The income of a die's colour (0 for none, or the Wonder) into *income. */
static int income_of(Act *a, PyObject *colour, long *income) {
    *income = 0;
    if (colour == NULL) return 1;
    PyObject *i = PyDict_GetItemWithError(a->income_d, colour);
    CHECK(i || !PyErr_Occurred());
    if (i) CHECK(as_long(i, income) && SMALL(*income));
    return 1;
}

/* The step's die (or the Wonder: no die), the Guild Court's condition, then kernel._space_ok: the
 * space unlocked, open, next on its arrow, and the payment (the die's coins and the missing
 * resources, *owed) against the coins held, with income when the die is chosen if that is the option.
 * Trusted: only what paying reads (the die's cost, the resources, the income). */
static int check_space(Act *a, PyObject *step) {
    Plan *plan = &a->plan;
    if (a->wonder) {
        CHECK(eq(a->building, v_wonder));
    } else {
        PyObject *face;
        CHECK(die_cost(a, PyDict_GetItemWithError(step, k_die), a->building, a->lane, 0, a->trusted, &a->colour, &face,
                       &a->extra));
        if (plan->guild && !a->trusted)
            CHECK(guild_holds(R, a->rules, a->players, a->colour, face, a->seat, eq(a->resolution, v_simultaneous)));
    }
    CHECK(as_long(GA(a->player, s_resources_spent), &a->spent) && SMALL(a->spent));
    if (plan->cost) {
        PyObject *producers = GA(a->player, s_producers);
        CHECK(producers && player_resources(producers, a->crossed_all, a->spent, &a->resources));
        if (a->resources < 0) a->resources = 0;
    }
    if (!a->trusted) {
        if (plan->locked != Py_None) CHECK(PySet_Contains(a->unlocked, plan->locked) == 1);
        Py_ssize_t n_before = PyTuple_GET_SIZE(plan->before);
        if (a->n_crossed) {
            CHECK(PySet_Contains(a->crossed, a->space) == 0);
            for (Py_ssize_t i = 0; i < n_before; i++) CHECK(PySet_Contains(a->crossed, PyTuple_GET_ITEM(plan->before, i)) == 1);
        } else {
            CHECK(n_before == 0);
        }
    }
    a->when = GA(a->options, s_income);
    CHECK(a->when && PyUnicode_CheckExact(a->when));
    a->income_d = GA(a->player, s_income);
    CHECK(a->income_d && PyDict_CheckExact(a->income_d));
    CHECK(income_of(a, a->colour, &a->income));
    a->owed = a->extra + (plan->cost > a->resources ? plan->cost - a->resources : 0);
    long credit = eq(a->when, v_when_chosen) ? a->income : 0;
    return a->trusted || a->owed <= (credit ? gained(a->capped, a->cap, a->coins, credit) : a->coins);
}

/* The table as the action will have left it when an effect asks its question (coins, resources
 * made and spent), started from the action's own space once, and kept up by each step after it. */
static int simulate(Act *a) {
    if (a->simulated) return 1;
    PyObject *producers = GA(a->player, s_producers), *spend_c = GA(a->options, s_resources);
    long raw;
    CHECK(producers && spend_c && PyUnicode_CheckExact(spend_c) && player_resources(producers, a->crossed_all, a->spent, &raw));
    int own = produces(producers, a->building, a->space);
    CHECK(own >= 0);
    a->spending = eq(spend_c, v_spent);
    a->made_sim = raw + a->spent + own;
    long held_res = raw > 0 ? raw : 0;
    a->spent_sim = a->spent + (a->plan.cost && a->spending ? (a->plan.cost < held_res ? a->plan.cost : held_res) : 0);
    a->coins_sim = a->coins;
    if (a->income && eq(a->when, v_when_chosen)) a->coins_sim = gained(a->capped, a->cap, a->coins_sim, a->income);
    a->coins_sim -= a->owed;
    if (a->income && eq(a->when, v_after_paying)) a->coins_sim = gained(a->capped, a->cap, a->coins_sim, a->income);
    a->producers_o = producers;
    a->simulated = 1;
    return 1;
}

/* The space an effect crosses, or an extra action builds, checked as _space_problem checks its payment
 * on the simulated table (the die's coins *extra, its income by the option) and kept in it: its cost,
 * the resources it spends and makes, what its effects change for the checks after it. Recorded. */
static int simulate_space(Act *a, PyObject *b, PyObject *x, const Plan *plan, long extra, long income, int *index) {
    long res = a->made_sim - a->spent_sim;
    if (res < 0) res = 0;
    long owed = extra + (plan->cost > res ? plan->cost - res : 0);
    long credit = eq(a->when, v_when_chosen) ? income : 0;
    CHECK(owed <= (credit ? gained(a->capped, a->cap, a->coins_sim, credit) : a->coins_sim));
    long delta = a->spending ? (plan->cost < res ? plan->cost : res) : 0;
    int own = produces(a->producers_o, b, x);
    CHECK(own >= 0);
    if (income && eq(a->when, v_when_chosen)) a->coins_sim = gained(a->capped, a->cap, a->coins_sim, income);
    a->coins_sim -= owed;
    if (income && eq(a->when, v_after_paying)) a->coins_sim = gained(a->capped, a->cap, a->coins_sim, income);
    a->spent_sim += delta;
    a->made_sim += own;
    CHECK(simulated_effects(R, plan->effects, a->vp_d, plan->category, &a->dirty, &a->costly));  /* none asks (checked) */
    if (income && eq(a->when, v_after_action)) a->dirty = 1;  /* income after the action: coins, kept simple */
    if (plan->agora_size) {
        a->completers = GA(a->state, s_agora_completers);
        CHECK(a->completers && PyList_CheckExact(a->completers));
    }
    *index = push_crossing(&a->cs, b, x, plan, owed, delta, income);
    return 1;
}

/* A space an effect crosses or an extra action builds: on the board, no Guild Court, asking nothing,
 * unlocked, open and next on its arrow counting what the action crossed, not completing its building. */
static int other_space(Act *a, PyObject *b, PyObject *l, PyObject *x, Plan *plan) {
    CHECK(read_plan(R, a->plans, b, l, x, plan));
    CHECK(PyTuple_GET_SIZE(plan->effects) <= MAXEFFECTS && plan->cost >= 0 && !plan->guild && !plan->asks);
    if (plan->locked != Py_None) CHECK(PySet_Contains(a->unlocked, plan->locked) == 1);
    long n = count_made(a->crossed_all, &a->cs.made, b);
    CHECK(n >= 0);
    CHECK(!(plan->bonus_size && n + 1 >= plan->bonus_size));  /* it may complete its building: a bonus slot, the resolver's */
    CHECK(taken(a->crossed_all, &a->cs.made, b, x) == 0);
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(plan->before); j++)
        CHECK(taken(a->crossed_all, &a->cs.made, b, PyTuple_GET_ITEM(plan->before, j)) == 1);
    return 1;
}

/* ------------------------------------------------------------------ a simulated random bot's answers
 *
 * trusted_action's five-argument form answers the questions a random bot's step asks as bots.RandomBot
 * answers them through engine._DirectAction (extra, cross, bonus): the same candidates in the same order
 * (listed from the board's tables, counting what the action has crossed), shuffled by the same draws,
 * the first that engine.candidate_ok finds legal (the bots' own check, lent), judged on the table as the
 * action will have left it when the question is asked (simulate); each answer's step dict appended to the event's steps, then
 * checked by answer_cross, answer_extra or answer_bonus as a logged step is. A candidate it cannot judge
 * (a Guild Court's condition, a table left unsure by an effect before it) declines the whole action: the
 * generator's state is put back and the resolver does it, drawing the same numbers. */

static const Lent *lent = NULL; /* what _cbots.c lends, linked by link_bots(); NULL: the bot's questions are the resolver's */
static PyObject *s_wonder_keys, *s_keys, *s_die_keys, *s_cross_keys, *s_cross_lanes, *s_extra_action_pass;

/* The generator's state copied before the first draw of the action's answers (put back if it is declined). */
static void keep_draws(Act *a) {
    if (a->draws_kept) return;
    memcpy(a->draws_copy, a->draws_at, a->draws_size);
    a->draws_kept = 1;
}

/* A step dict ({"kind", "die", "building", "lane", "space", "slot"}: simulate._step_dict) of six fields,
 * appended to steps; 0 on failure. */
static int append_step(PyObject *steps, PyObject *const *f) {
    PyObject *d = PyDict_New();
    if (d == NULL) return 0;
    if (PyDict_SetItem(d, k_kind, f[0]) < 0 || PyDict_SetItem(d, k_die, f[1]) < 0 || PyDict_SetItem(d, k_building, f[2]) < 0
        || PyDict_SetItem(d, k_lane, f[3]) < 0 || PyDict_SetItem(d, k_space, f[4]) < 0 || PyDict_SetItem(d, k_slot, f[5]) < 0
        || PyList_Append(steps, d) < 0) {
        Py_DECREF(d);
        return 0;
    }
    Py_DECREF(d);
    return 1;
}

/* engine._open_steps over the board tables' lanes ((building, ordered, spaces, keys) tuples), counting what
 * the action has crossed: on an arrow its next open space, on an unordered lane every open one; each
 * space's step (a StepKey) appended to out. */
static int open_keys(Act *a, PyObject *lanes, PyObject *out) {
    CHECK(lanes && PyTuple_CheckExact(lanes));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lanes); i++) {
        PyObject *lane = PyTuple_GET_ITEM(lanes, i);
        CHECK(PyTuple_CheckExact(lane) && PyTuple_GET_SIZE(lane) == 4);
        PyObject *b = PyTuple_GET_ITEM(lane, 0), *ordered = PyTuple_GET_ITEM(lane, 1), *spaces = PyTuple_GET_ITEM(lane, 2),
                 *keys = PyTuple_GET_ITEM(lane, 3);
        CHECK((ordered == Py_True || ordered == Py_False) && PyTuple_CheckExact(spaces) && PyTuple_CheckExact(keys)
              && PyTuple_GET_SIZE(spaces) == PyTuple_GET_SIZE(keys));
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(spaces); j++) {
            int in = taken(a->crossed_all, &a->cs.made, b, PyTuple_GET_ITEM(spaces, j));
            CHECK(in >= 0);
            if (in) continue;
            CHECK(PyList_Append(out, PyTuple_GET_ITEM(keys, j)) == 0);
            if (ordered == Py_True) break;
        }
    }
    return 1;
}

/* engine.candidate_ok for a listed step (a StepKey building with a die, on the Wonder, or crossing), the die
 * free or not, on the simulated table: the bots' own check (first_ok's, lent by _cbots.c) with the coins and
 * resources the action will have left. 1 legal, 0 not, -1 declined (a Guild Court, whose condition is the
 * resolver's; odd values). */
static int simulated_ok(Act *a, PyObject *key, int free_die) {
    return lent->judged(a->state, a->player, key, free_die, a->coins_sim, a->made_sim - a->spent_sim);
}

/* bots.RandomBot._first_answer on the simulated table: ``list`` (the candidates listed) and skip (None, when
 * it may be chosen) shuffled by the bot's draws, then the first legal candidate before skip, else skip; the
 * answer's step dict appended to steps. */
static int first_answer(Act *a, PyObject *list, int can_skip, int free_die, PyObject *steps) {
    CHECK(!can_skip || PyList_Append(list, Py_None) == 0);
    keep_draws(a);
    CHECK(lent->shuffle(a->getrandbits, list) == 0);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *c = PyList_GET_ITEM(list, i);
        if (c == Py_None) break;
        int ok = simulated_ok(a, c, free_die);
        CHECK(ok >= 0);
        if (ok) return append_step(steps, &PyTuple_GET_ITEM(c, 0));
    }
    CHECK(can_skip);
    PyObject *skip[6] = {v_skip, Py_None, Py_None, Py_None, Py_None, Py_None};
    return append_step(steps, skip);
}

/* The bot's answer to a "cross" effect's question (bots.RandomBot.cross): the open spaces of the buildings
 * named (engine.cross_candidates: the tables' cross_lanes), skip unless crossing is mandatory. Asked only
 * when one may be crossed (answer_cross's cross_open, as _DirectAction._ask_cross asks first_legal). */
static int choose_cross(Act *a, PyObject *targets, PyObject *steps) {
    PyObject *cross_keys = GA(a->tables, s_cross_keys), *mandatory = GA(a->options, s_cross_mandatory);
    CHECK(cross_keys && PyDict_CheckExact(cross_keys) && (mandatory == Py_True || mandatory == Py_False));
    PyObject *lanes = PyDict_GetItemWithError(cross_keys, targets);
    if (lanes == NULL) {
        CHECK(!PyErr_Occurred());
        lanes = keep(R, PyObject_CallMethodOneArg(a->tables, s_cross_lanes, targets));
    }
    PyObject *list = keep(R, PyList_New(0));
    CHECK(list && open_keys(a, lanes, list));
    return first_answer(a, list, mandatory == Py_False, 0, steps);
}

/* The bot's answer to an extra action's question (bots.RandomBot.extra): engine.action_candidates of the
 * kinds _extra_allowed allows (the Wonder's open spaces unless the die is free without free_action_wonder,
 * then each Forum die's; a pass among them, extra_action_pass, is the resolver's), or skip. The table must
 * be sure: nothing before the question changed a lock, the coins unsurely, or what a die costs. */
static int choose_extra(Act *a, PyObject *e, PyObject *steps) {
    CHECK(!a->dirty && !a->costly && simulate(a));
    PyObject *free_o = GA(e, s_free_die), *wonder_too = GA(a->options, s_free_action_wonder);
    PyObject *pass_too = GA(a->options, s_extra_action_pass);
    CHECK((free_o == Py_True || free_o == Py_False) && (wonder_too == Py_True || wonder_too == Py_False));
    CHECK(pass_too == Py_False || (pass_too == Py_True && free_o == Py_True));
    PyObject *list = keep(R, PyList_New(0));
    CHECK(list);
    if (free_o == Py_False || wonder_too == Py_True) CHECK(open_keys(a, GA(a->tables, s_wonder_keys), list));
    PyObject *forum = GA(a->state, s_forum), *roll = GA(a->state, s_roll), *made = GA(a->tables, s_keys);
    CHECK(forum && roll && made && PyDict_CheckExact(forum) && PyDict_CheckExact(roll) && PyDict_CheckExact(made));
    Py_ssize_t pos = 0;
    PyObject *die, *colour;
    while (PyDict_Next(forum, &pos, &die, &colour)) {
        PyObject *shown = PyDict_GetItemWithError(roll, die);
        CHECK(shown && PyTuple_CheckExact(shown) && PyTuple_GET_SIZE(shown) == 2);
        PyObject *key = keep(R, PyTuple_Pack(3, die, colour, PyTuple_GET_ITEM(shown, 0)));
        CHECK(key);
        PyObject *lanes = PyDict_GetItemWithError(made, key);
        if (lanes == NULL) {  /* made on first use, as the tables make them */
            CHECK(!PyErr_Occurred());
            lanes = keep(R, PyObject_CallMethodObjArgs(a->tables, s_die_keys, die, colour, PyTuple_GET_ITEM(shown, 0), NULL));
        }
        CHECK(open_keys(a, lanes, list));
    }
    return first_answer(a, list, 1, free_o == Py_True, steps);
}

/* The bot's answer to a completion's question (bots.RandomBot.bonus): the free slots, shuffled, the first. */
static int choose_bonus(Act *a, PyObject *steps) {
    PyObject *list = keep(R, PyList_New(0));
    CHECK(list && a->bonuses);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(a->bonuses); i++) {
        if (PyList_GET_ITEM(a->bonuses, i) != Py_False) continue;
        PyObject *slot = PyLong_FromSsize_t(i);
        CHECK(slot);
        int rc = PyList_Append(list, slot);
        Py_DECREF(slot);
        CHECK(rc == 0);
    }
    CHECK(PyList_GET_SIZE(list) > 0);
    keep_draws(a);
    CHECK(lent->shuffle(a->getrandbits, list) == 0);
    PyObject *bonus[6] = {v_bonus, Py_None, Py_None, Py_None, Py_None, PyList_GET_ITEM(list, 0)};
    return append_step(steps, bonus);
}

/* engine._Action._effect_cross: up to count spaces (1 or 2, the second in the building of the first),
 * each asked only if a space of the buildings named may be crossed (else the effect lapses there,
 * without a question); the logged step skips (where the option allows it: the effect ends) or crosses
 * one space. Checked against the table as the action will have left it (simulated: coins, resources,
 * the spaces crossed), which needs every effect before it to leave locks alone. */
static int answer_cross(Act *a, PyObject *e, int g, Py_ssize_t i, PyObject *steps, Py_ssize_t *k) {
    long count;
    CHECK(!a->dirty && as_long(GA(e, s_count), &count) && (count == 1 || count == 2));
    PyObject *targets = GA(e, s_buildings);
    CHECK(targets && PyTuple_CheckExact(targets));
    CHECK(simulate(a));
    a->here[g][i] = NOTHING;  /* unless a space is crossed below */
    a->cross_i[g][i] = a->cs.n;
    a->cross_n[g][i] = 0;
    for (long round = 0; round < count; round++) {
        CHECK(!a->dirty);  /* the first space's effects may have changed what the second's check reads */
        long res_now = a->made_sim - a->spent_sim;
        int open = cross_open(R, a->board, a->plans, a->crossed_all, a->unlocked, &a->cs.made, targets,
                              res_now > 0 ? res_now : 0, a->coins_sim);
        CHECK(open >= 0);
        if (!open) break;  /* it lapses: no question asked, nothing more done */
        if (a->getrandbits && *k == PyList_GET_SIZE(steps)) CHECK(choose_cross(a, targets, steps));
        CHECK(*k < PyList_GET_SIZE(steps));
        PyObject *answer = PyList_GET_ITEM(steps, (*k)++);
        CHECK(PyDict_CheckExact(answer));
        PyObject *akind = PyDict_GetItemWithError(answer, k_kind);
        CHECK(akind);
        if (eq(akind, v_skip)) {  /* Prompt.check: a skip is allowed unless crossing is mandatory */
            CHECK(GA(a->options, s_cross_mandatory) == Py_False);
            break;
        }
        PyObject *b2 = PyDict_GetItemWithError(answer, k_building), *l2 = PyDict_GetItemWithError(answer, k_lane);
        PyObject *x2 = PyDict_GetItemWithError(answer, k_space);
        CHECK(eq(akind, v_cross) && b2 && l2 && x2 && PyUnicode_CheckExact(b2) && PyUnicode_CheckExact(l2)
              && PyUnicode_CheckExact(x2) && a->cs.n < MAXCROSS);
        int named = 0;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(targets); j++) named |= eq(PyTuple_GET_ITEM(targets, j), b2);
        CHECK(named);
        CHECK(!eq(a->cs.made.b[0], b2));  /* the action's own building: its completion is the resolver's */
        Plan plan2;
        int index;
        CHECK(other_space(a, b2, l2, x2, &plan2));
        CHECK(simulate_space(a, b2, x2, &plan2, 0, 0, &index));  /* _space_problem's payment, nothing for a die */
        a->cross_n[g][i]++;
        a->here[g][i] = CROSSES;
        targets = keep(R, PyTuple_Pack(1, b2));  /* "up to two spaces of the building shown" */
        CHECK(targets);
    }
    return 1;
}

/* _ask_effect: another action, which may always be skipped; or a build or Wonder step
 * (_extra_allowed), checked as _action_problem checks it on the simulated table. */
static int answer_extra(Act *a, PyObject *e, int g, Py_ssize_t i, PyObject *steps, Py_ssize_t *k) {
    if (a->getrandbits && *k == PyList_GET_SIZE(steps)) CHECK(choose_extra(a, e, steps));
    CHECK(*k < PyList_GET_SIZE(steps));
    PyObject *answer = PyList_GET_ITEM(steps, (*k)++);
    CHECK(PyDict_CheckExact(answer));
    PyObject *akind = PyDict_GetItemWithError(answer, k_kind);
    CHECK(akind);
    if (eq(akind, v_skip)) {
        a->here[g][i] = NOTHING;
        return 1;
    }
    PyObject *free_die = GA(e, s_free_die);
    CHECK(free_die == Py_True || free_die == Py_False);
    int wonder = eq(akind, v_wonder);
    CHECK(wonder || eq(akind, v_build));  /* a pass (extra_action_pass) or anything else: the resolver's */
    if (wonder && free_die == Py_True) CHECK(GA(a->options, s_free_action_wonder) == Py_True);
    CHECK(!a->dirty && !a->costly && a->cs.n < MAXCROSS && a->cs.n_extra == 0);
    PyObject *b3 = PyDict_GetItemWithError(answer, k_building), *l3 = PyDict_GetItemWithError(answer, k_lane);
    PyObject *x3 = PyDict_GetItemWithError(answer, k_space);
    CHECK(b3 && l3 && x3 && PyUnicode_CheckExact(b3) && PyUnicode_CheckExact(l3) && PyUnicode_CheckExact(x3));
    if (wonder) CHECK(eq(b3, v_wonder));
    for (int j = 0; j < a->cs.made.n; j++) CHECK(!eq(a->cs.made.b[j], b3));  /* a building the action crossed already */
    Plan plan3;
    CHECK(other_space(a, b3, l3, x3, &plan3));
    long extra3 = 0, income3 = 0;
    if (!wonder) {  /* the die: in the Forum, unlocked, reaching the lane; its cost (die_cost) and income */
        PyObject *colour3, *face3;
        CHECK(die_cost(a, PyDict_GetItemWithError(answer, k_die), b3, l3, free_die == Py_True, 0, &colour3, &face3, &extra3));
        CHECK(income_of(a, colour3, &income3));
    }
    CHECK(simulate(a));
    int index;
    CHECK(simulate_space(a, b3, x3, &plan3, extra3, income3, &index));
    a->cs.n_extra++;
    a->cross_i[g][i] = index;
    a->cross_n[g][i] = 1;
    a->here[g][i] = CROSSES;
    return 1;
}

/* The bonus slot a completion asks, answered by the logged step *k: a free slot; its effects. */
static int answer_bonus(Act *a, PyObject *steps, Py_ssize_t *k) {
    if (a->getrandbits && *k == PyList_GET_SIZE(steps)) CHECK(choose_bonus(a, steps));
    CHECK(*k < PyList_GET_SIZE(steps));
    PyObject *bonus_step = PyList_GET_ITEM(steps, (*k)++);
    CHECK(PyDict_CheckExact(bonus_step));
    PyObject *bkind = PyDict_GetItemWithError(bonus_step, k_kind);
    CHECK(bkind && eq(bkind, v_bonus));
    CHECK(as_long(PyDict_GetItemWithError(bonus_step, k_slot), &a->slot));
    CHECK(0 <= a->slot && a->slot < PyList_GET_SIZE(a->bonuses) && PyList_GET_ITEM(a->bonuses, a->slot) == Py_False);
    PyObject *slots_o = GA(a->rules, s_bonus_slots);
    CHECK(slots_o);
    PyObject *slots = GA(slots_o, s_slots);
    CHECK(slots && PyTuple_CheckExact(slots) && a->slot < PyTuple_GET_SIZE(slots));
    a->slot_effects = PyTuple_GET_ITEM(slots, a->slot);
    CHECK(PyTuple_CheckExact(a->slot_effects));
    a->count[1] = PyTuple_GET_SIZE(a->slot_effects);
    return a->count[1] <= MAXEFFECTS;
}

/* Coins an effect gives now ("coins", "per_space": apply_effect's values, checked as effect_in_c checks
 * them), kept in the simulated table for the questions after it. */
static int simulate_coins(Act *a, PyObject *e, PyObject *t) {
    long amount;
    if (eq(t, s_coins)) {
        CHECK(as_long(GA(e, s_amount), &amount) && SMALL(amount));
    } else {
        long each, n_made;
        PyObject *counted = GA(e, k_building);
        CHECK(counted && PyUnicode_CheckExact(counted) && as_long(GA(e, s_coins), &each) && SMALL(each));
        n_made = count_made(a->crossed_all, &a->cs.made, counted);
        CHECK(n_made >= 0 && n_made < 1000);
        amount = each * n_made;
    }
    CHECK(simulate(a));
    a->coins_sim = gained(a->capped, a->cap, a->coins_sim, amount);
    return 1;
}

/* Each effect of the space, then of the bonus slot its completion asks, in the resolver's order: the
 * questions answered by the logged steps after the first (steps[1:]), or by the bot, each checked on
 * the simulated table; what the kernel does with each recorded (here). Every step must answer one. */
static int follow_ups(Act *a, PyObject *steps) {
    Py_ssize_t k = 1;  /* the next logged step to answer a question */
    a->count[0] = PyTuple_GET_SIZE(a->plan.effects);
    CHECK(a->count[0] <= MAXEFFECTS);
    a->vp_d = GA(a->player, s_vp);
    CHECK(a->vp_d && PyDict_CheckExact(a->vp_d));
    for (int g = 0; g < 2; g++) {
        if (g) {
            if (!a->to_choose) break;
            CHECK(steps && answer_bonus(a, steps, &k));
        }
        PyObject *group = g ? a->slot_effects : a->plan.effects, *cat = g ? v_bonus : a->plan.category;
        int held_checked = 0;
        for (Py_ssize_t i = 0; i < a->count[g]; i++) {
            PyObject *e = PyTuple_GET_ITEM(group, i);
            PyObject *t = GA(e, s_type);
            CHECK(t && PyUnicode_CheckExact(t));
            a->types[g][i] = t;
            if (eq(t, v_cross)) {
                CHECK(steps && answer_cross(a, e, g, i, steps, &k));
                continue;
            }
            if (eq(t, v_unlock)) a->dirty = 1;  /* a lock a later step's check reads */
            if (eq(t, v_die_discount) || eq(t, v_die_free) || eq(t, v_income)) a->costly = 1;
            if ((eq(t, s_coins) || eq(t, v_per_space)) && a->answers) CHECK(simulate_coins(a, e, t));
            if (eq(t, v_extra_action)) {
                CHECK(steps && answer_extra(a, e, g, i, steps, &k));
                continue;
            }
            a->here[g][i] = eq(t, v_vp) ? VP_HERE : VIA_APPLY;
            if (a->here[g][i] == VP_HERE) {
                CHECK(as_long(GA(e, s_vp), &a->effect_vp[g][i]) && SMALL(a->effect_vp[g][i]));
                if (!held_checked) {
                    long held;
                    PyObject *cur = PyDict_GetItemWithError(a->vp_d, cat);
                    CHECK(cur || !PyErr_Occurred());
                    if (cur) CHECK(as_long(cur, &held) && SMALL(held));
                    held_checked = 1;
                }
            }
        }
    }
    CHECK(k == (steps ? PyList_GET_SIZE(steps) : 1));  /* a step no question asked for: the resolver reports it */
    /* the last reads before the table changes */
    a->this_turn = GA(a->player, s_this_turn);
    CHECK(a->this_turn && PyList_CheckExact(a->this_turn));
    if (a->plan.agora_size) {
        a->completers = GA(a->state, s_agora_completers);
        CHECK(a->completers && PyList_CheckExact(a->completers));
    }
    a->spend_o = GA(a->options, s_resources);
    return a->spend_o && PyUnicode_CheckExact(a->spend_o);
}

/* ------------------------------------------------------------------ action: the changes (-1: failed, the error set) */

/* The player's coins (an exact small int, as they were checked and kept), into *now. */
static int coins_now(Act *a, long *now) {
    if (as_long(GA(a->player, s_coins), now)) return 0;
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "coins are not a small int");
    return -1;
}

/* Income after the action (the option after_action): the coins read again, as the effects changed them. */
static int income_after(Act *a, long income) {
    long now;
    if (!income || !eq(a->when, v_after_action)) return 0;
    if (coins_now(a, &now) < 0) return -1;
    return set_long(a->player, s_coins, gained(a->capped, a->cap, now, income));
}

/* building/space added to the player's crossed spaces (a new set for a building not crossed yet) and to
 * this turn's; the building's set into *set. */
static int cross_space(Act *a, PyObject *b, PyObject *x, PyObject *set, PyObject **out) {
    if (set == NULL) {
        set = PyDict_GetItemWithError(a->crossed_all, b);
        if (set == NULL) {
            if (PyErr_Occurred()) return -1;
            set = keep(R, PySet_New(NULL));
            if (set == NULL || PyDict_SetItem(a->crossed_all, b, set) < 0) return -1;
        }
    }
    if (PySet_Add(set, x) < 0) return -1;
    PyObject *pair = keep(R, PyTuple_Pack(2, b, x));
    if (pair == NULL || PyList_Append(a->this_turn, pair) < 0) return -1;
    *out = set;
    return 0;
}

/* kernel._cross's paying and crossing of the action's own space: income when the die is chosen, the
 * die and the missing resources paid, income after paying, the space crossed. */
static int pay(Act *a) {
    long coins = a->coins, cost = a->plan.cost;
    if (a->income && eq(a->when, v_when_chosen)) coins = gained(a->capped, a->cap, coins, a->income);
    a->paid = a->owed + a->cs.paid;
    if (cost && eq(a->spend_o, v_spent)) {
        if (set_long(a->player, s_resources_spent, a->spent + (cost < a->resources ? cost : a->resources)) < 0) return -1;
    }
    coins -= a->owed;
    if (a->income && eq(a->when, v_after_paying)) coins = gained(a->capped, a->cap, coins, a->income);
    if (set_long(a->player, s_coins, coins) < 0) return -1;
    return cross_space(a, a->building, a->space, a->crossed, &a->crossed);
}

/* engine._Action._cross of a space an effect crosses, or of an extra action's (_do_action: its die's
 * income by the option), in the order crossed: paid, crossed, its effects, the Agora's completion. */
static int apply_crossing(Act *a, Ctx *ctx, const Crossing *c) {
    long now, income = c->income;
    if (coins_now(a, &now) < 0) return -1;
    if (income && eq(a->when, v_when_chosen)) now = gained(a->capped, a->cap, now, income);
    if (c->spent) {
        long sp;
        if (!as_long(GA(a->player, s_resources_spent), &sp)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "resources spent are not a small int");
            return -1;
        }
        if (set_long(a->player, s_resources_spent, sp + c->spent) < 0) return -1;
    }
    now -= c->owed;
    if (income && eq(a->when, v_after_paying)) now = gained(a->capped, a->cap, now, income);
    if (set_long(a->player, s_coins, now) < 0) return -1;
    PyObject *set;
    if (cross_space(a, c->b, c->x, NULL, &set) < 0) return -1;
    PyObject *effects = c->plan.effects, *cat = c->plan.category;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(effects); j++) {
        PyObject *e = PyTuple_GET_ITEM(effects, j);
        PyObject *t = GA(e, s_type);
        if (t == NULL) return -1;
        long v;
        if (eq(t, v_vp)) {
            if (!as_long(GA(e, s_vp), &v)) goto vp_error;
            if (add_to(a->vp_d, cat, v, "a VP count that is not a small int") < 0) return -1;
        } else if (apply_one(ctx, R, e, t, cat, c->b, &v) < 0) {
            return -1;
        }
        a->vp += v;
    }
    if (c->plan.agora_size && (long)PySet_GET_SIZE(set) == c->plan.agora_size) {
        if (PyList_Append(a->completers, a->seat_o) < 0) return -1;
    }
    return income_after(a, income);
vp_error:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a VP count that is not a small int");
    return -1;
}

/* The effects as recorded (here), the space's then the bonus slot's, with the Agora's completion
 * between them (engine._Action._cross, _take_bonus), then income after the action. */
static int apply_effects(Act *a) {
    Ctx ctx = {a->state, a->player, a->players, a->crossed_all, a->vp_d, a->capped, eq(a->resolution, v_simultaneous),
               a->cap, a->seat};
    for (int g = 0; g < 2; g++) {
        if (g) {
            if (a->plan.agora_size && (long)PySet_GET_SIZE(a->crossed) == a->plan.agora_size) {
                if (PyList_Append(a->completers, a->seat_o) < 0) return -1;
            }
            if (a->slot_effects == NULL) break;
            if (PyList_SetItem(a->bonuses, a->slot, Py_NewRef(Py_True)) < 0) return -1;
        }
        PyObject *group = g ? a->slot_effects : a->plan.effects, *cat = g ? v_bonus : a->plan.category;
        PyObject *where = g ? Py_None : a->building;
        for (Py_ssize_t i = 0; i < a->count[g]; i++) {
            int here = a->here[g][i];
            if (here == NOTHING) continue;  /* an extra action skipped, a crossing skipped or lapsed */
            if (here == CROSSES) {
                for (int c = a->cross_i[g][i]; c < a->cross_i[g][i] + a->cross_n[g][i]; c++)
                    if (apply_crossing(a, &ctx, &a->cs.at[c]) < 0) return -1;
            } else if (here == VP_HERE) {
                if (add_to(a->vp_d, cat, a->effect_vp[g][i], "VP held are not a small int") < 0) return -1;
                a->vp += a->effect_vp[g][i];
            } else {
                long v;
                if (apply_one(&ctx, R, PyTuple_GET_ITEM(group, i), a->types[g][i], cat, where, &v) < 0) return -1;
                a->vp += v;
            }
        }
    }
    return income_after(a, a->income);
}

/* projector._done: the seat has acted; the next seat not acted yet, the swaps' phase when all have. */
static int turn_done(Act *a) {
    PyObject *acted_set = GA(a->state, s_acted);
    if (acted_set == NULL || !PySet_CheckExact(acted_set)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "acted is not a set");
        return -1;
    }
    if (PySet_Add(acted_set, a->seat_o) < 0) return -1;
    long nxt = a->n;
    for (long s = 0; s < a->n; s++) {
        PyObject *so = keep(R, PyLong_FromLong(s));
        if (so == NULL) return -1;
        int in = PySet_Contains(acted_set, so);
        if (in < 0) return -1;
        if (!in) {
            nxt = s;
            break;
        }
    }
    if (set_long(a->state, s_next_seat, nxt) < 0) return -1;
    if ((long)PySet_GET_SIZE(acted_set) == a->n && set_attr(a->state, s_phase, v_swaps) < 0) return -1;
    return 0;
}

/* The claims' verdict: [] when they are all right (the usual case) or absent, (paid, vp) for the Python
 * code to report them; NULL on an error. */
static PyObject *claims_verdict(Act *a, PyObject *p) {
    PyObject *claims = PyDict_GetItemWithError(p, k_claims);
    if (claims == NULL && PyErr_Occurred()) return NULL;
    int truth = claims == NULL ? 0 : PyObject_IsTrue(claims);
    if (truth < 0) return NULL;
    if (truth && PyDict_CheckExact(claims)) {
        long now, c;
        PyObject *cp = PyDict_GetItemWithError(claims, k_paid);
        PyObject *cv = PyDict_GetItemWithError(claims, s_vp);
        PyObject *cc = PyDict_GetItemWithError(claims, s_coins);
        if (PyErr_Occurred()) return NULL;
        int right = (cp == NULL || cp == Py_None || (as_long(cp, &c) && c == a->paid))
                    && (cv == NULL || cv == Py_None || (as_long(cv, &c) && c == a->vp));
        if (right && cc != NULL && cc != Py_None) right = as_long(GA(a->player, s_coins), &now) && as_long(cc, &c) && c == now;
        if (PyErr_Occurred()) return NULL;
        truth = !right;
    }
    return truth ? Py_BuildValue("(ll)", a->paid, a->vp) : PyList_New(0);
}

/* A pass's coins (rules.start.pass_coins), a small int; the caller adds them, the cap applied. */
static int read_pass(Act *a, long *pass_coins) {
    return as_long(GA(a->start, s_pass_coins), pass_coins) && SMALL(*pass_coins);
}

/* A build or Wonder step read and checked (trusted: only what applying it reads), its follow-ups
 * answered by steps[1:] (or by the bot, who appends its answers to steps); 0 to decline. */
static int read_build(Act *a, PyObject *step, PyObject *kind, PyObject *steps) {
    a->wonder = eq(kind, v_wonder);
    CHECK(a->wonder || eq(kind, v_build));
    CHECK(find_plan(a, step));
    CHECK(check_space(a, step));
    a->cs.made.b[0] = a->building;  /* the action's own space, then the spaces its effects cross */
    a->cs.made.x[0] = a->space;
    a->cs.made.n = 1;
    return follow_ups(a, steps);
}

/* A build or Wonder step applied: paid, crossed, its effects and follow-ups. -1 on an error. */
static int apply_build(Act *a) {
    if (pay(a) < 0) return -1;
    return apply_effects(a);
}

#undef R

/* An Act with nothing read yet (the big arrays are written before they are read). */
static void act_empty(Act *a, PyObject *state, int trusted) {
    refs_empty(&a->refs);
    a->trusted = trusted;
    a->answers = !trusted;
    a->getrandbits = NULL;
    a->draws_kept = 0;
    a->state = state;
    a->colour = a->bonuses = a->slot_effects = a->completers = a->producers_o = NULL;
    a->extra = a->resources = a->spent = a->income = a->owed = a->paid = a->vp = 0;
    a->slot = -1;
    a->wonder = a->to_choose = a->simulated = a->spending = a->dirty = a->costly = 0;
    a->coins_sim = a->made_sim = a->spent_sim = 0;
    a->count[0] = a->count[1] = 0;
    a->cs.n = a->cs.n_extra = 0;
    a->cs.paid = 0;
    a->cs.made.n = 0;
}

/* ------------------------------------------------------------------ action: the entries */

static PyObject *action(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "action(state, payload)")) return NULL;
    PyObject *state = args[0], *p = args[1], *steps;
    Act act, *a = &act;
    act_empty(a, state, 0);
    if (!event_guards(a, state, p, &steps)) return declined(&a->refs);
    Py_ssize_t n_steps = PyList_GET_SIZE(steps);
    PyObject *step = PyList_GET_ITEM(steps, 0);
    PyObject *kind = PyDict_CheckExact(step) ? PyDict_GetItemWithError(step, k_kind) : NULL;
    if (!(kind && PyUnicode_CheckExact(kind)) || !read_player(a)) return declined(&a->refs);
    if (eq(kind, v_pass)) {
        long pass_coins;
        if (n_steps != 1 || !read_pass(a, &pass_coins)) return declined(&a->refs);
        if (set_long(a->player, s_coins, gained(a->capped, a->cap, a->coins, pass_coins)) < 0) return failed(&a->refs);
    } else {
        if (!read_build(a, step, kind, steps)) return declined(&a->refs);
        if (apply_build(a) < 0) return failed(&a->refs);
    }
    if (turn_done(a) < 0) return failed(&a->refs);
    PyObject *result = claims_verdict(a, p);
    if (result == NULL) return failed(&a->refs);
    release(&a->refs);
    return result;
}

/* trusted_action(state, seat, step[, getrandbits, steps]): kernel.direct_action(state, seat, step, trusted=True)
 * for the simulation, whose bots' steps are legal: a pass, or a build or Wonder step that asks nothing
 * further, applied (the die's cost, paying, crossing, the effects, the Agora, income) without an event's
 * claims or the seat's turn done; (paid, vp). None, nothing changed, for anything else (a question, a bonus
 * slot to choose, an odd value): kernel.direct_action then does it.
 * With a random bot's getrandbits (its generator's draws read directly: _lent.h) and ``steps``, the list of
 * the event's steps ([the step's dict]), the questions the step asks are answered as that bot answers them
 * (see "a simulated random bot's answers"), each answer's dict appended to steps; when the action is
 * declined, steps is [the step's dict] again and the generator is as it was. */
static PyObject *trusted_action(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 && !(nargs == 5 && PyList_CheckExact(args[4]) && PyList_GET_SIZE(args[4]) == 1)) {
        PyErr_SetString(PyExc_TypeError, "trusted_action(state, seat, step[, getrandbits, steps]): steps a list of one step");
        return NULL;
    }
    PyObject *state = args[0], *step = args[2], *steps = nargs == 5 ? args[4] : NULL;
    Act act, *a = &act;
    act_empty(a, state, 1);
    if (steps != NULL && lent != NULL && (a->draws_at = lent->state(args[3], &a->draws_size)) != NULL) {
        a->getrandbits = args[3];
        a->answers = 1;
    } else {
        steps = NULL;
    }
    a->seat_o = args[1];
    Refs *refs = &a->refs;
    a->options = keep(refs, get_attr(state, s_options));
    a->resolution = a->options ? keep(refs, get_attr(a->options, s_resolution)) : NULL;
    a->players = keep(refs, get_attr(state, s_players));
    if (!a->resolution || !PyUnicode_CheckExact(a->resolution) || !a->players || !PyList_CheckExact(a->players)
        || !as_long(a->seat_o, &a->seat))
        return declined(refs);
    a->n = (long)PyList_GET_SIZE(a->players);
    PyObject *kind = PyDict_CheckExact(step) ? PyDict_GetItemWithError(step, k_kind) : NULL;
    if (!(0 <= a->seat && a->seat < a->n) || !(kind && PyUnicode_CheckExact(kind)) || !read_player(a)) return declined(refs);
    if (eq(kind, v_pass)) {
        long pass_coins;
        if (!read_pass(a, &pass_coins)) return declined(refs);
        if (set_long(a->player, s_coins, gained(a->capped, a->cap, a->coins, pass_coins)) < 0) return failed(refs);
    } else {
        if (!read_build(a, step, kind, steps)) {  /* the bot's answers taken back, and their draws */
            if (a->draws_kept) memcpy(a->draws_at, a->draws_copy, a->draws_size);
            if (steps != NULL && PyList_GET_SIZE(steps) > 1 && PyList_SetSlice(steps, 1, PyList_GET_SIZE(steps), NULL) < 0)
                return failed(refs);
            return declined(refs);
        }
        if (apply_build(a) < 0) return failed(refs);
    }
    release(refs);
    return Py_BuildValue("(ll)", a->paid, a->vp);
}

/* link_bots(capsule): what _cbots.c lends (its LENT capsule: the draws and the candidates' check), with which
 * trusted_action answers a random bot's questions; None: not (the resolver answers them). */
static PyObject *link_bots(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1 || (args[0] != Py_None && !PyCapsule_IsValid(args[0], LENT_CAPSULE))) {
        PyErr_SetString(PyExc_TypeError, "link_bots(capsule): the compiled bots' LENT, or None");
        return NULL;
    }
    lent = args[0] == Py_None ? NULL : (const Lent *)PyCapsule_GetPointer(args[0], LENT_CAPSULE);
    Py_RETURN_NONE;
}

#undef CHECK
#define NEED(cond) do { if (!(cond)) goto decline; } while (0)

/* ------------------------------------------------------------------ roll */

/* projector._start_turn: the rolled dice (``rolled``, die -> (face, section)) and the turn, the next seat
 * the first, nobody acted or completed the Agora, no follow-up or pending action, nothing crossed this
 * turn. 1 done; 0 declined (a table of other types: nothing changed); -1 on an error (the error set). */
static int start_turn(Refs *refs, PyObject *state, PyObject *rolled, PyObject *turn_o) {
#define R refs
#define CHECK(cond) do { if (!(cond)) return 0; } while (0)
    PyObject *players = GA(state, s_players);
    CHECK(players && PyList_CheckExact(players));
    PyObject *follow_ups = GA(state, s_follow_ups), *pending = GA(state, s_pending);
    CHECK(follow_ups && pending && PyDict_CheckExact(follow_ups) && PyDict_CheckExact(pending));
    Py_ssize_t n = PyList_GET_SIZE(players);
    PyObject *turns[64];
    CHECK(n <= 64);
    for (Py_ssize_t j = 0; j < n; j++) {
        turns[j] = GA(PyList_GET_ITEM(players, j), s_this_turn);
        CHECK(turns[j] && PyList_CheckExact(turns[j]));
    }
    /* ---- from here on the table changes */
    PyObject *acted = keep(refs, PySet_New(NULL)), *completers = keep(refs, PyList_New(0));
    PyObject *zero = keep(refs, PyLong_FromLong(0));
    if (acted == NULL || completers == NULL || zero == NULL) return -1;
    if (set_attr(state, s_roll, rolled) < 0 || set_attr(state, s_turn, turn_o) < 0
        || set_attr(state, s_phase, v_actions) < 0 || set_attr(state, s_next_seat, zero) < 0
        || set_attr(state, s_acted, acted) < 0 || set_attr(state, s_agora_completers, completers) < 0)
        return -1;
    PyDict_Clear(follow_ups);
    PyDict_Clear(pending);
    for (Py_ssize_t j = 0; j < n; j++)
        if (PyList_SetSlice(turns[j], 0, PyList_GET_SIZE(turns[j]), NULL) < 0) return -1;
    return 1;
#undef CHECK
#undef R
}

static PyObject *roll(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "roll(state, payload)")) return NULL;
    PyObject *state = args[0], *p = args[1];
    Refs refs;
    refs_empty(&refs);
#define R (&refs)
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
    int started = start_turn(&refs, state, rolled, turn_o);
    if (started < 0) goto error;
    NEED(started);
    release(&refs);
    Py_RETURN_TRUE;

decline:
    return declined(&refs);

error:
    return failed(&refs);
#undef R
}

/* start_turn(state, roll, turn): projector._start_turn for the simulation, whose roll dict (die -> (face,
 * section)) it made itself from the faces it drew: nothing checked but the table's types. True, or None
 * (declined, nothing changed). */
static PyObject *start_turn_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "start_turn(state, roll, turn)");
        return NULL;
    }
    Refs refs;
    refs_empty(&refs);
    int started = PyDict_CheckExact(args[1]) && PyLong_CheckExact(args[2]) ? start_turn(&refs, args[0], args[1], args[2]) : 0;
    if (started < 0) return failed(&refs);
    if (!started) return declined(&refs);
    release(&refs);
    Py_RETURN_TRUE;
}

/* ------------------------------------------------------------------ position */

static PyObject *positions = NULL; /* rules._POSITIONS, set by setup() */
static PyObject *s_action_taken;

/* The positions found in rules._POSITIONS, by turn and seat + 1 (0: no seat), kept here too: looking
 * a (turn, seat) pair up there makes a tuple and hashes it, ~500 instructions an event. A Position is
 * immutable, and rules.position makes one per pair and never drops it. */
#define KNOWN_TURNS 128
#define KNOWN_SEATS 16
static PyObject *known[KNOWN_TURNS][KNOWN_SEATS];

/* The cached Position of (turn, seat) (seat None: no seat), or None for the Python code (rules.position) to make
 * (a pair not cached yet). */
static PyObject *cached_position(PyObject *turn, PyObject *seat) {
    long t, k = -1; /* no seat */
    int small = as_long(turn, &t) && 0 <= t && t < KNOWN_TURNS
                && (seat == Py_None || (as_long(seat, &k) && 0 <= k && k < KNOWN_SEATS - 1));
    if (small && known[t][k + 1] != NULL) return Py_NewRef(known[t][k + 1]);
    PyObject *key = PyTuple_Pack(2, turn, seat);
    if (key == NULL) return NULL;
    PyObject *found = PyDict_GetItemWithError(positions, key);
    Py_DECREF(key);
    if (found != NULL) {
        if (small) known[t][k + 1] = Py_NewRef(found);
        return Py_NewRef(found);
    }
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

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
    return cached_position(turn, seat);
odd:
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

/* The game's end's cached Position: rules.position's (the table's turn, where the payload names none; no seat),
 * or None. */
static PyObject *end_position(PyObject *state, PyObject *p) {
    if (positions == NULL || !PyDict_CheckExact(p)) Py_RETURN_NONE;
    PyObject *turn = PyDict_GetItemWithError(p, s_turn);
    if (turn != NULL) return PyLong_CheckExact(turn) ? cached_position(turn, Py_None) : Py_NewRef(Py_None);
    if (PyErr_Occurred()) return NULL;
    PyObject *now = get_attr(state, s_turn);
    if (now == NULL) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *out = PyLong_CheckExact(now) ? cached_position(now, Py_None) : Py_NewRef(Py_None);
    Py_DECREF(now);
    return out;
}

/* ------------------------------------------------------------------ turn end */

static PyObject *s_seq, *s_dice_rolled, *s_turn_ended, *s_agora_first_done, *s_final_turn, *s_bonuses_to_end, *v_over;

/* projector._turn_end for a turn that ends as it should: in the swaps phase, the turn's own end,
 * no swap waiting, and no Agora to settle (settled already, or nobody completed it: the Python code
 * settles it, once a game); the final turn set when a player has the bonuses that end the game, then
 * the phase. True, or None (declined, nothing changed). */
static PyObject *turn_end(PyObject *state, PyObject *p) {
    Refs refs;
    refs_empty(&refs);
#define R (&refs)
    long turn, state_turn, final_turn = 0, to_end;
    PyObject *phase = GA(state, s_phase);
    NEED(phase && eq(phase, v_swaps) && PyDict_CheckExact(p));
    NEED(as_long(PyDict_GetItemWithError(p, s_turn), &turn) && as_long(GA(state, s_turn), &state_turn));
    NEED(turn == state_turn && SMALL(state_turn));
    PyObject *swaps = GA(state, s_pending_swaps);
    NEED(swaps && PyList_CheckExact(swaps) && PyList_GET_SIZE(swaps) == 0);
    PyObject *completers = GA(state, s_agora_completers), *first_done = GA(state, s_agora_first_done);
    NEED(completers && PyList_CheckExact(completers) && first_done && PyBool_Check(first_done));
    NEED(first_done == Py_True || PyList_GET_SIZE(completers) == 0);
    PyObject *final = GA(state, s_final_turn);
    NEED(final && (final == Py_None || as_long(final, &final_turn)));
    int has_final = final != Py_None, new_final = 0;
    if (!has_final) { /* any(sum(pl.bonuses) >= start.bonuses_to_end for pl in players) */
        PyObject *rules = GA(state, s_rules), *start = rules ? GA(rules, s_start) : NULL;
        NEED(start && as_long(GA(start, s_bonuses_to_end), &to_end));
        PyObject *players = GA(state, s_players);
        NEED(players && PyList_CheckExact(players));
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(players) && !new_final; j++) {
            PyObject *bonuses = GA(PyList_GET_ITEM(players, j), s_bonuses);
            NEED(bonuses && PyList_CheckExact(bonuses));
            long held = 0;
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(bonuses); k++) {
                PyObject *b = PyList_GET_ITEM(bonuses, k);
                NEED(PyBool_Check(b));
                held += b == Py_True;
            }
            new_final = held >= to_end;
        }
    }
    /* ---- from here on the table changes */
    if (new_final) {
        final_turn = state_turn + 1;
        has_final = 1;
        if (set_long(state, s_final_turn, final_turn) < 0) goto error;
    }
    if (set_attr(state, s_phase, has_final && final_turn == state_turn ? v_over : v_roll) < 0) goto error;
    release(&refs);
    Py_RETURN_TRUE;

decline:
    return declined(&refs);

error:
    return failed(&refs);
#undef R
}

/* turn_end(state, payload): turn_end's entry for the simulation, which applies the turn's end it makes
 * without a position (apply_trusted's turn_ended): True, or None (declined, nothing changed). */
static PyObject *turn_end_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "turn_end(state, payload)")) return NULL;
    return turn_end(args[0], args[1]);
}

/* ------------------------------------------------------------------ a special die swapped in */

static PyObject *k_replaces, *v_grey, *s_special_die_swapped;

/* projector._swap for a swap as it should be: in the swaps phase, the die waiting to enter, a grey die of the
 * Forum replaced. The Forum rebuilt in its order with the special die in the grey one's place, the die no longer
 * waiting: True; or None (declined, nothing changed: the Python then reports what is wrong). */
static PyObject *swap(PyObject *state, PyObject *p) {
    Refs refs;
    refs_empty(&refs);
#define R (&refs)
    PyObject *phase = GA(state, s_phase), *forum_now = NULL;
    NEED(phase && eq(phase, v_swaps) && PyDict_CheckExact(p));
    PyObject *die = PyDict_GetItemWithError(p, s_die), *replaces = PyDict_GetItemWithError(p, k_replaces);
    NEED(die && replaces && PyUnicode_CheckExact(die) && PyUnicode_CheckExact(replaces));
    PyObject *waiting = GA(state, s_pending_swaps), *forum = GA(state, s_forum);
    NEED(waiting && PyList_CheckExact(waiting) && forum && PyDict_CheckExact(forum));
    Py_ssize_t at = 0, n = PyList_GET_SIZE(waiting);
    for (; at < n && !eq(PyList_GET_ITEM(waiting, at), die); at++)
        NEED(PyUnicode_CheckExact(PyList_GET_ITEM(waiting, at))); /* list.remove's == on strs only */
    NEED(at < n);
    PyObject *colour = PyDict_GetItemWithError(forum, replaces);
    NEED(colour && eq(colour, v_grey));
    forum_now = keep(R, PyDict_New());
    if (forum_now == NULL) goto error;
    Py_ssize_t pos = 0;
    PyObject *d, *c;
    while (PyDict_Next(forum, &pos, &d, &c)) {
        NEED(PyUnicode_CheckExact(d));
        int here = eq(d, replaces);
        if (PyDict_SetItem(forum_now, here ? die : d, here ? die : c) < 0) goto error;
    }
    /* ---- from here on the table changes */
    if (set_attr(state, s_forum, forum_now) < 0 || PySequence_DelItem(waiting, at) < 0) goto error;
    release(&refs);
    Py_RETURN_TRUE;

decline:
    return declined(&refs);

error:
    return failed(&refs);
#undef R
}

/* ------------------------------------------------------------------ the game's end: final scores */

static PyObject *s_category, *s_leader, *s_per_space_vp, *s_result, *k_scores, *k_winners, *k_tie_break, *k_total,
    *k_categories, *v_gallery, *v_max, *v_none, *v_shared, *v_ended, *s_game_ended;

/* d[key] = value, a new int: 0, or -1 with an error. */
static int set_long_item(PyObject *d, PyObject *key, long value) {
    PyObject *v = PyLong_FromLong(value);
    int rc = v == NULL ? -1 : PyDict_SetItem(d, key, v);
    Py_XDECREF(v);
    return rc;
}

/* None for a declined call, any error a failed read left cleared. */
static PyObject *declined_value(void) {
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
}

/* One player's scoring.player_categories into ``out`` (a copy of the categories at 0, which it takes), its sum
 * into *total: 1, 0 (an odd value: the Python's), -1 (an error). The same insertion order as the Python: the
 * board's categories, then any other the VP held name, then any other an end effect names. */
static int player_categories(Refs *R, PyObject *p, int take_max, PyObject *out, long *total) {
    PyObject *vp = GA(p, s_vp), *board = GA(p, s_board), *crossed = GA(p, s_crossed), *end = GA(p, s_end_effects);
    if (!vp || !board || !crossed || !end || !PyDict_CheckExact(vp) || !PyDict_CheckExact(board)
        || !PyDict_CheckExact(crossed) || !PyList_CheckExact(end))
        return 0;
    Py_ssize_t pos = 0;
    PyObject *cat, *v;
    while (PyDict_Next(vp, &pos, &cat, &v)) { /* out[cat] = out.get(cat, 0) + vp */
        long add, held = 0;
        PyObject *was = PyUnicode_CheckExact(cat) ? PyDict_GetItemWithError(out, cat) : NULL;
        if (!PyUnicode_CheckExact(cat) || !as_long(v, &add) || !SMALL(add) || (was == NULL && PyErr_Occurred())
            || (was != NULL && !as_long(was, &held)))
            return 0;
        if (!SMALL(held + add) || set_long_item(out, cat, held + add) < 0) return !SMALL(held + add) ? 0 : -1;
    }
    long leaders = 0; /* the Gallery's crossed spaces that are leaders, where the board has a Gallery */
    PyObject *gallery = PyDict_GetItemWithError(board, v_gallery);
    if (gallery != NULL) {
        PyObject *spaces = GA(gallery, k_space), *mine = PyDict_GetItemWithError(crossed, v_gallery);
        if (spaces == NULL || !PyDict_CheckExact(spaces) || (mine == NULL && PyErr_Occurred())) return 0;
        if (mine != NULL) {
            if (!PyAnySet_CheckExact(mine)) return 0;
            PyObject *it = PyObject_GetIter(mine), *s;
            if (it == NULL) return -1;
            int bad = 0;
            while (!bad && (s = PyIter_Next(it)) != NULL) {
                PyObject *space = PyDict_GetItemWithError(spaces, s);
                Py_DECREF(s); /* the set holds it */
                PyObject *leader = space == NULL ? NULL : GA(space, s_leader);
                int is = leader == NULL ? -1 : PyObject_IsTrue(leader);
                if (is < 0) bad = 1; /* a space not on the board, an odd leader: the Python raises what it raises */
                else leaders += is;
            }
            Py_DECREF(it);
            if (bad || PyErr_Occurred()) return 0;
        }
    } else if (PyErr_Occurred()) {
        return 0;
    }
    EndRates rates;
    if (!end_rates(end, take_max, &rates)) return 0;
    for (int k = 0; k < rates.n; k++) {
        long n = leaders, held = 0;
        if (!eq(rates.counted[k], v_leaders)) { /* p.count(counted): the spaces crossed in that building */
            PyObject *in = PyDict_GetItemWithError(crossed, rates.counted[k]);
            if (in == NULL && PyErr_Occurred()) return 0;
            n = in == NULL ? 0 : (long)PyObject_Size(in);
            if (n < 0) return -1;
        }
        PyObject *was = PyDict_GetItemWithError(out, rates.category[k]);
        if ((was == NULL && PyErr_Occurred()) || (was != NULL && !as_long(was, &held)) || n > 100000) return 0;
        long long now = (long long)held + (long long)rates.rate[k] * n; /* a C long may be 32 bits */
        if (!SMALL(now)) return 0;
        if (set_long_item(out, rates.category[k], (long)now) < 0) return -1;
    }
    pos = 0;
    long long sum = 0;
    while (PyDict_Next(out, &pos, &cat, &v)) {
        long x;
        if (!as_long(v, &x) || !SMALL(x)) return 0;
        sum += x;
    }
    *total = (long)sum;
    return SMALL(sum);
}

/* The board's categories at 0, in order (scoring._zeroes): a new dict, None (odd) or NULL (an error). */
static PyObject *zeroes(Refs *R, PyObject *board) {
    if (board == NULL || !PyDict_CheckExact(board)) return Py_NewRef(Py_None);
    PyObject *out = PyDict_New(), *zero = PyLong_FromLong(0);
    if (out == NULL || zero == NULL) goto error;
    Py_ssize_t pos = 0;
    PyObject *key, *b;
    while (PyDict_Next(board, &pos, &key, &b)) {
        PyObject *cat = GA(b, s_category);
        if (cat == NULL || !PyUnicode_CheckExact(cat)) {
            Py_DECREF(out);
            Py_DECREF(zero);
            if (PyErr_Occurred()) PyErr_Clear();
            return Py_NewRef(Py_None);
        }
        if (PyDict_SetDefault(out, cat, zero) == NULL) goto error;
    }
    if (PyDict_SetDefault(out, v_bonus, zero) == NULL) goto error;
    Py_DECREF(zero);
    return out;
error:
    Py_XDECREF(out);
    Py_XDECREF(zero);
    return NULL;
}

/* scoring.final_scores' result ({"scores": [{"seat", "total", "coins", "categories"}...], "winners",
 * "tie_break"}), the same dicts in the same order: a new dict, None (declined: an odd value) or NULL. */
#define MAXSEATS 64
static PyObject *scores_of(Refs *R, PyObject *state) {
    PyObject *players = GA(state, s_players), *options = GA(state, s_options);
    PyObject *per = options ? GA(options, s_per_space_vp) : NULL;
    if (!players || !per || !PyList_CheckExact(players) || PyList_GET_SIZE(players) == 0
        || PyList_GET_SIZE(players) > MAXSEATS || !PyUnicode_CheckExact(per))
        return declined_value();
    Py_ssize_t n = PyList_GET_SIZE(players);
    long totals[MAXSEATS], coins[MAXSEATS], best_total = LONG_MIN, best_coins = LONG_MIN;
    int top = 0, won = 0, ok = 1;
    PyObject *scores = NULL, *winners = NULL, *result = NULL;
    PyObject *zero_cats = zeroes(R, GA(PyList_GET_ITEM(players, 0), s_board));
    if (zero_cats == NULL || zero_cats == Py_None) return zero_cats;
    if ((scores = PyList_New(n)) == NULL) ok = -1;
    for (Py_ssize_t i = 0; i < n && ok == 1; i++) { /* scoring.player_categories, each player's score */
        PyObject *p = PyList_GET_ITEM(players, i), *seat = GA(p, s_seat), *coins_o = GA(p, s_coins);
        PyObject *cats = PyDict_Copy(zero_cats), *score = NULL, *total_o = NULL;
        if (cats == NULL) ok = -1;
        else if (!seat || !PyLong_CheckExact(seat) || !as_long(coins_o, &coins[i])) ok = 0;
        else ok = player_categories(R, p, eq(per, v_max), cats, &totals[i]);
        if (ok == 1 && ((total_o = PyLong_FromLong(totals[i])) == NULL || (score = PyDict_New()) == NULL
                        || PyDict_SetItem(score, s_seat, seat) < 0 || PyDict_SetItem(score, k_total, total_o) < 0
                        || PyDict_SetItem(score, s_coins, coins_o) < 0 || PyDict_SetItem(score, k_categories, cats) < 0))
            ok = -1;
        Py_XDECREF(cats);
        Py_XDECREF(total_o);
        if (score != NULL) PyList_SET_ITEM(scores, i, score); /* the list takes it (a NULL slot stays NULL) */
        if (ok == 1 && totals[i] > best_total) best_total = totals[i];
    }
    if (ok == 1) { /* the winners: the best total, then the most coins among them (final_scores' tie-break) */
        for (Py_ssize_t i = 0; i < n; i++)
            if (totals[i] == best_total) {
                top++;
                if (coins[i] > best_coins) best_coins = coins[i];
            }
        if ((winners = PyList_New(0)) == NULL) ok = -1;
        for (Py_ssize_t i = 0; i < n && ok == 1; i++)
            if (totals[i] == best_total && coins[i] == best_coins) {
                won++;
                if (PyList_Append(winners, PyDict_GetItem(PyList_GET_ITEM(scores, i), s_seat)) < 0) ok = -1;
            }
    }
    if (ok == 1 && (result = PyDict_New()) != NULL) {
        PyObject *tie = top == 1 ? v_none : won == 1 ? s_coins : v_shared;
        if (PyDict_SetItem(result, k_scores, scores) < 0 || PyDict_SetItem(result, k_winners, winners) < 0
            || PyDict_SetItem(result, k_tie_break, tie) < 0)
            Py_CLEAR(result);
    }
    Py_DECREF(zero_cats);
    Py_XDECREF(scores);
    Py_XDECREF(winners);
    if (ok == 0) return declined_value();
    return result; /* NULL with the error when ok is -1 or the result could not be made */
}

/* scores(state): scores_of's entry (scoring.final_scores calls it): the result, or None for the Python. */
static PyObject *scores_entry(PyObject *self, PyObject *state) {
    Refs refs;
    refs_empty(&refs);
    PyObject *out = scores_of(&refs, state);
    release(&refs);
    return out;
}

/* Whether two values are equal as == says (0 too when comparing them raises: the Python's to report). */
static int same(PyObject *a, PyObject *b) {
    int r = PyObject_RichCompareBool(a, b, Py_EQ);
    if (r < 0) PyErr_Clear();
    return r > 0;
}

/* projector._game_end's comparison of the claims with the result, for plain claims: 1 when they agree
 * (_normal of both equal: each seat's total, coins and, where claimed, categories; the winners in any
 * order; the tie-break), 0 otherwise or for anything odd (the Python then compares and reports). */
static int claims_agree(PyObject *result, PyObject *p) {
    PyObject *scores = PyDict_GetItemWithError(p, k_scores), *winners = PyDict_GetItemWithError(p, k_winners);
    PyObject *tie = PyDict_GetItemWithError(p, k_tie_break);
    PyObject *mine = PyDict_GetItem(result, k_scores), *my_winners = PyDict_GetItem(result, k_winners);
    if (PyErr_Occurred()) PyErr_Clear();
    if (!scores || !winners || !tie || !PyList_CheckExact(scores) || !PyList_CheckExact(winners)
        || PyList_GET_SIZE(scores) != PyList_GET_SIZE(mine) || PyList_GET_SIZE(winners) != PyList_GET_SIZE(my_winners)
        || !same(tie, PyDict_GetItem(result, k_tie_break)))
        return 0;
    Py_ssize_t n = PyList_GET_SIZE(mine);
    char seen[MAXSEATS] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyList_GET_ITEM(scores, i);
        if (!PyDict_CheckExact(s)) return 0;
        PyObject *seat = PyDict_GetItemWithError(s, s_seat), *total = PyDict_GetItemWithError(s, k_total);
        PyObject *coins = PyDict_GetItemWithError(s, s_coins), *cats = PyDict_GetItemWithError(s, k_categories);
        if (PyErr_Occurred()) PyErr_Clear();
        if (!seat || !total || !coins || !cats || !PyLong_CheckExact(seat) || !PyDict_CheckExact(cats)) return 0;
        Py_ssize_t j = 0;
        while (j < n && (seen[j] || !same(seat, PyDict_GetItem(PyList_GET_ITEM(mine, j), s_seat)))) j++;
        if (j == n) return 0; /* a seat claimed twice, or not at the table */
        seen[j] = 1;
        PyObject *ours = PyList_GET_ITEM(mine, j);
        if (!same(total, PyDict_GetItem(ours, k_total)) || !same(coins, PyDict_GetItem(ours, s_coins))) return 0;
        if (PyDict_GET_SIZE(cats) == 0) continue; /* totals only: the categories are not a claim */
        Py_ssize_t pos = 0;
        PyObject *key, *v;
        while (PyDict_Next(cats, &pos, &key, &v))
            if (!PyUnicode_CheckExact(key)) return 0; /* keys _normal could not sort as it sorts ours */
        if (!same(cats, PyDict_GetItem(ours, k_categories))) return 0;
    }
    long claimed[MAXSEATS], ours[MAXSEATS];
    Py_ssize_t w = PyList_GET_SIZE(winners);
    if (w > MAXSEATS) return 0;
    for (Py_ssize_t i = 0; i < w; i++)
        if (!as_long(PyList_GET_ITEM(winners, i), &claimed[i]) || !as_long(PyList_GET_ITEM(my_winners, i), &ours[i]))
            return 0;
    char used[MAXSEATS] = {0};
    for (Py_ssize_t i = 0; i < w; i++) { /* sorted(claimed) == sorted(ours): each of ours matched once */
        Py_ssize_t j = 0;
        while (j < w && (used[j] || claimed[j] != ours[i])) j++;
        if (j == w) return 0;
        used[j] = 1;
    }
    return 1;
}

/* projector._game_end for a game that ends as it should: in the phase "over", its claims all right. The
 * result kept, the phase "ended": [] (no problem); None (declined, nothing changed: the Python then does it all,
 * and reports any claim that is wrong). */
static PyObject *game_end(PyObject *state, PyObject *p) {
    Refs refs;
    refs_empty(&refs);
#define R (&refs)
    PyObject *phase = GA(state, s_phase);
    NEED(phase && eq(phase, v_over) && PyDict_CheckExact(p));
    PyObject *result = keep(R, scores_of(R, state));
    if (result == NULL) {
        if (PyErr_Occurred()) goto error;
        goto decline; /* the Refs were full */
    }
    NEED(result != Py_None && claims_agree(result, p));
    /* ---- from here on the table changes */
    if (set_attr(state, s_result, result) < 0 || set_attr(state, s_phase, v_ended) < 0) goto error;
    release(&refs);
    return PyList_New(0);

decline:
    return declined(&refs);

error:
    return failed(&refs);
#undef R
}

/* ------------------------------------------------------------------ step: position and apply */

/* step(state, event): rules.position, then the compiled cases of projector.apply, in one call
 * (rules.apply_at: a fold's calls around the rules cost about as much as the kernel's own work),
 * and the usual case of projector._turn_end (turn_end), _swap (swap) and _game_end (game_end).
 * (position, []) when the event was applied with its claims all right; (position, paid, vp) when
 * the action was applied and its claims are for the Python code to check (it then records the seq);
 * None, nothing changed, for anything else (a position not cached yet, another event type, an action
 * or roll the kernel declines): the Python code then does both, as it always did. The event is an
 * Event named tuple (setup checks its fields): (game_id, seq, kind, type, version, payload). */
static PyObject *step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "step(state, event)")) return NULL;
    PyObject *state = args[0], *event = args[1];
    if (!PyTuple_Check(event) || PyTuple_GET_SIZE(event) != 6) Py_RETURN_NONE;
    PyObject *seq = PyTuple_GET_ITEM(event, 1), *type = PyTuple_GET_ITEM(event, 3);
    PyObject *at[2] = {type, PyTuple_GET_ITEM(event, 5)};
    int is_action = eq(type, s_action_taken), is_roll = !is_action && eq(type, s_dice_rolled);
    int is_swap = !is_action && !is_roll && eq(type, s_special_die_swapped);
    int is_end = !is_action && !is_roll && !is_swap && !eq(type, s_turn_ended);
    if (is_end && !eq(type, s_game_ended)) Py_RETURN_NONE;
    PyObject *where = is_end ? end_position(state, at[1]) : position(self, at, 2);
    if (where == NULL || where == Py_None) return where;
    PyObject *on[2] = {state, at[1]};
    PyObject *done = is_action ? action(self, on, 2) : is_roll ? roll(self, on, 2) : is_swap ? swap(state, at[1])
                     : is_end ? game_end(state, at[1]) : turn_end(state, at[1]), *out = NULL;
    if (done == NULL || done == Py_None) {
        Py_DECREF(where);
        return done;
    }
    if (PyTuple_CheckExact(done)) { /* (paid, vp): the claims for the Python code */
        out = PyTuple_Pack(3, where, PyTuple_GET_ITEM(done, 0), PyTuple_GET_ITEM(done, 1));
    } else if (set_attr(state, s_seq, seq) == 0) {
        PyObject *found = PyList_CheckExact(done) ? Py_NewRef(done) : PyList_New(0); /* a roll or turn end: no problem */
        if (found != NULL) {
            out = PyTuple_Pack(2, where, found);
            Py_DECREF(found);
        }
    }
    Py_DECREF(where);
    Py_DECREF(done);
    return out;
}

/* ------------------------------------------------------------------ apply_at: Rules.apply_at in one call */

static PyObject *slow_apply_at = NULL; /* rules' Python: (state, event) -> (position, problems); set by link() */
static PyObject *check_claims = NULL;  /* projector.checked_claims(state, event, paid, vp) -> problems */

/* apply_at(state, event): WondersDiceRules.apply_at without its Python frame (the driver calls it once an
 * event): step; for what step declines, the Python position and apply (slow_apply_at); for an action
 * whose claims step leaves to the Python, its position and checked_claims' problems. */
static PyObject *apply_at(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!two_args(nargs, "apply_at(state, event)")) return NULL;
    if (slow_apply_at == NULL || check_claims == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "apply_at: link(position_then_apply, checked_claims) was not called");
        return NULL;
    }
    PyObject *done = step(self, args, 2);
    if (done == NULL || (done != Py_None && PyTuple_GET_SIZE(done) == 2)) return done;
    if (done == Py_None) {
        Py_DECREF(done);
        return PyObject_Vectorcall(slow_apply_at, args, 2, NULL);
    }
    PyObject *claims_args[4] = {args[0], args[1], PyTuple_GET_ITEM(done, 1), PyTuple_GET_ITEM(done, 2)};
    PyObject *found = PyObject_Vectorcall(check_claims, claims_args, 4, NULL);
    PyObject *out = found ? PyTuple_Pack(2, PyTuple_GET_ITEM(done, 0), found) : NULL;
    Py_XDECREF(found);
    Py_DECREF(done);
    return out;
}

static PyObject *link_python(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "link(position_then_apply, checked_claims)");
        return NULL;
    }
    Py_XSETREF(slow_apply_at, Py_NewRef(args[0]));
    Py_XSETREF(check_claims, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ setup */

static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyCallable_Check(args[1]) || !PyDict_CheckExact(args[2]) || !PyType_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "setup(SpacePlan._fields, apply_effect, positions, PackPart, Event._fields)");
        return NULL;
    }
    PyObject *envelope = Py_BuildValue("(ssssss)", "game_id", "seq", "kind", "type", "version", "payload");
    if (envelope == NULL) return NULL;
    int same_event = PyObject_RichCompareBool(args[4], envelope, Py_EQ);
    Py_DECREF(envelope);
    if (same_event < 0) return NULL;
    if (!same_event) {
        PyErr_SetString(PyExc_ImportError, "Event's fields are not the ones the compiled kernel reads");
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
    Py_XSETREF(pack_part, Py_NewRef(args[3]));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL, "setup(SpacePlan._fields, apply_effect, positions, PackPart, Event._fields)"},
    {"link", (PyCFunction)(void (*)(void))link_python, METH_FASTCALL,
     "link(position_then_apply, checked_claims): the Python that apply_at calls for what step leaves"},
    {"apply_at", (PyCFunction)(void (*)(void))apply_at, METH_FASTCALL,
     "apply_at(state, event): (position, problems), as WondersDiceRules.apply_at gives them"},
    {"step", (PyCFunction)(void (*)(void))step, METH_FASTCALL,
     "step(state, event): (position, []) or (position, paid, vp), the event applied; or None, nothing changed"},
    {"position", (PyCFunction)(void (*)(void))position, METH_FASTCALL,
     "position(event_type, payload): the cached Position of (turn, seat), or None"},
    {"action", (PyCFunction)(void (*)(void))action, METH_FASTCALL,
     "action(state, payload): a one-step action applied (the claims' verdict), or None, nothing changed"},
    {"trusted_action", (PyCFunction)(void (*)(void))trusted_action, METH_FASTCALL,
     "trusted_action(state, seat, step[, getrandbits, steps]): a legal action applied, (paid, vp), or None, nothing "
     "changed; with a random bot's generator, its questions answered as that bot answers them"},
    {"link_bots", (PyCFunction)(void (*)(void))link_bots, METH_FASTCALL,
     "link_bots(capsule): what the compiled bots lend, with which trusted_action answers a random bot's questions"},
    {"roll", (PyCFunction)(void (*)(void))roll, METH_FASTCALL,
     "roll(state, payload): True, the roll applied, or None, nothing changed"},
    {"start_turn", (PyCFunction)(void (*)(void))start_turn_entry, METH_FASTCALL,
     "start_turn(state, roll, turn): True, the turn started with the dice rolled, or None, nothing changed"},
    {"scores", (PyCFunction)scores_entry, METH_O,
     "scores(state): scoring.final_scores' result, or None (an odd value: the Python's)"},
    {"turn_end", (PyCFunction)(void (*)(void))turn_end_entry, METH_FASTCALL,
     "turn_end(state, payload): True, the turn's usual end applied, or None, nothing changed"},
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
    INTERN(s_seq, "seq"); INTERN(s_dice_rolled, "dice_rolled"); INTERN(s_turn_ended, "turn_ended");
    INTERN(s_agora_first_done, "agora_first_done"); INTERN(s_final_turn, "final_turn");
    INTERN(s_bonuses_to_end, "bonuses_to_end"); INTERN(v_over, "over");
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
    INTERN(s_wonder_keys, "wonder_keys"); INTERN(s_keys, "keys"); INTERN(s_die_keys, "die_keys");
    INTERN(k_replaces, "replaces"); INTERN(v_grey, "grey"); INTERN(s_special_die_swapped, "special_die_swapped");
    INTERN(s_category, "category"); INTERN(s_leader, "leader"); INTERN(s_per_space_vp, "per_space_vp");
    INTERN(s_result, "result"); INTERN(k_scores, "scores"); INTERN(k_winners, "winners"); INTERN(k_tie_break, "tie_break");
    INTERN(k_total, "total"); INTERN(k_categories, "categories"); INTERN(v_gallery, "gallery"); INTERN(v_max, "max");
    INTERN(v_none, "none"); INTERN(v_shared, "shared"); INTERN(v_ended, "ended"); INTERN(s_game_ended, "game_ended");
    INTERN(s_cross_keys, "cross_keys"); INTERN(s_cross_lanes, "cross_lanes"); INTERN(s_extra_action_pass, "extra_action_pass");
    return PyModule_Create(&module);
}
