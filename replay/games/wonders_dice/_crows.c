/* The 7 Wonders Dice projection's rows in C (optional: see rows_compiled.py).
 *
 * Five functions, each the exact equivalent of a piece of analytics.py (the last of state.py), which stays the
 * reference and the fallback (tests/test_wd_rows_compiled.py compares both on many games, clean and disputed),
 * the observer's glue, and ``setup(PlayerState, PackPart, defence)``:
 *
 *   action_before(state, payload, game_id, seq) -> tuple, or None
 *       analytics._action_before: an action described from the table before it.
 *   action_after(state, payload, before) -> tuple, or None
 *       analytics._action_after: the actions row, completed from the table after it.
 *   dice_rows(out, game_id, turn, forum, roll) -> bool
 *       the dice rows of a roll appended to ``out`` (True), or nothing appended (False: the Python's).
 *   turn_rows(out, state, game_id, turn, buildings, fallback) -> None
 *       the turn_states rows of a turn's end appended to ``out``, one a player, in seat order: each made
 *       here (the end effects' VP counted as analytics._vp counts them), or by ``fallback(player)`` (the
 *       Python row) for a player this file does not do (a board whose buildings are not ``buildings``).
 *   state_data(state) -> dict, or None
 *       GameState.to_dict: the table as data, whose canonical JSON is the final state's digest.
 *
 * They do the usual case only: exact dicts, lists, tuples, ints and strs as the fold leaves them, a
 * state.PlayerState (whose resources are counted as the property counts them: _resources.h). Anything else gives None (the action functions) or the fallback's row, with no
 * error set, and the Python code does what it always did, raising what it always raised: so an odd
 * value is never wrong here, only slower. The defender's shields, read for the rare printed attack, are
 * engine.defence's own (set by setup's caller through ``defence``).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "_attrs.h"     /* get_attr: the state's slots and pack parts read cheaply, as the kernel reads them */
#include "_resources.h" /* count_produced: PlayerState.resources */
#include "_shields.h"   /* count_shields: PlayerState.shields, as the kernel counts them */
#include "_end_rates.h" /* end_rates: scoring.end_rates, as the kernel reads them */

static PyObject *player_type = NULL; /* state.PlayerState, set by setup() */
static PyObject *defence = NULL;     /* engine.defence, set by setup() */
static PyObject *s_players, *s_board, *s_space, *s_cost, *s_effects, *s_type, *s_vp, *s_forum, *s_roll, *s_rules,
    *s_start, *s_forum_sections, *s_free_colours, *s_discount_all, *s_discount, *s_seat, *s_name, *s_city, *s_coins,
    *s_this_turn, *s_producers, *s_crossed, *s_resources_spent, *s_end_effects, *s_bonuses, *s_unlocked;
static PyObject *k_player, *k_steps, *k_kind, *k_building, *k_lane, *k_space, *k_die, *k_turn, *k_claims, *k_paid,
    *k_slot;
static PyObject *v_build, *v_wonder, *v_attack, *v_bonus, *v_leaders, *v_gallery, *v_max, *s_options, *s_per_space_vp,
    *s_spaces, *s_leader, *v_barracks_west, *v_barracks_east, *s_resolution, *v_simultaneous, *s_shield_spaces;
#define BUILDINGS_MAX 64 /* the columns' buildings (analytics.BUILDINGS: 9) */

/* The references a call holds, let go together at its end. */
#define HELD 32
typedef struct {
    PyObject *o[HELD];
    int n;
} Held;

/* ``o`` kept in ``h`` (NULL passes through: the caller's error). */
static PyObject *hold(Held *h, PyObject *o) {
    if (o != NULL) {
        if (h->n == HELD) {
            Py_DECREF(o);
            PyErr_SetString(PyExc_SystemError, "_crows: too many held references");
            return NULL;
        }
        h->o[h->n++] = o;
    }
    return o;
}

static void let_go(Held *h) {
    while (h->n > 0) Py_DECREF(h->o[--h->n]);
}

/* An attribute, held: NULL with an error. */
static PyObject *attr(Held *h, PyObject *obj, PyObject *name) {
    return hold(h, get_attr(obj, name));
}

/* d[key] of an exact dict, borrowed: NULL with no error set when d is not one or has no such key. */
static PyObject *item(PyObject *d, PyObject *key) {
    if (!PyDict_CheckExact(d)) return NULL;
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL) PyErr_Clear(); /* an exact str key cannot fail to hash: only a missing key is left */
    return v;
}

/* An exact int that fits a long into *out: 1, or 0 (anything else; no error set). */
static int small_int(PyObject *o, long *out) {
    if (o == NULL || !PyLong_CheckExact(o)) return 0;
    int overflow;
    *out = PyLong_AsLongAndOverflow(o, &overflow);
    return !overflow && !(*out == -1 && PyErr_Occurred());
}

/* sum(d.values()) of an exact dict of small ints: 1, or 0 (anything else). */
static int sum_values(PyObject *d, long *out) {
    if (d == NULL || !PyDict_CheckExact(d)) return 0;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    long total = 0, x;
    while (PyDict_Next(d, &pos, &k, &v)) {
        if (!small_int(v, &x) || (x > 0 && total > LONG_MAX - x) || (x < 0 && total < LONG_MIN - x)) return 0;
        total += x;
    }
    *out = total;
    return 1;
}

/* The player of a payload, borrowed (an exact int seat in range): NULL when not, no error set. */
static PyObject *player_of(Held *h, PyObject *state, PyObject *payload, Py_ssize_t *n) {
    long seat;
    PyObject *players = attr(h, state, s_players);
    if (players == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (!PyList_CheckExact(players) || !small_int(item(payload, k_player), &seat) || seat < 0
        || seat >= PyList_GET_SIZE(players))
        return NULL;
    *n = PyList_GET_SIZE(players);
    return PyList_GET_ITEM(players, seat);
}

/* The player's resources as PlayerState.resources gives them: 1, or 0 (another type, odd values). */
static int resources_of(Held *h, PyObject *player, long *out) {
    long spent;
    if (player_type == NULL || (PyObject *)Py_TYPE(player) != player_type) return 0;
    PyObject *producers = attr(h, player, s_producers), *crossed = attr(h, player, s_crossed),
             *spent_o = attr(h, player, s_resources_spent);
    if (producers == NULL || crossed == NULL || spent_o == NULL) return -1;
    if (!small_int(spent_o, &spent)) return 0;
    return count_produced(producers, crossed, spent, out);
}

/* A borrowed value as a new reference, None where it is NULL (a missing key's ``dict.get``). */
static PyObject *or_none(PyObject *o) {
    return o == NULL ? Py_NewRef(Py_None) : Py_NewRef(o);
}

/* A tuple of ``n`` new references, which it takes (all of them, even on failure); NULL with an error
 * when one is NULL (its maker's error) or the tuple cannot be made. */
static PyObject *tuple_of(Py_ssize_t n, PyObject **items) {
    PyObject *t = PyTuple_New(n);
    int bad = t == NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (items[i] == NULL) bad = 1;
        else if (t != NULL) PyTuple_SET_ITEM(t, i, items[i]);
        else Py_DECREF(items[i]);
    }
    if (bad) Py_XDECREF(t); /* a NULL item leaves a NULL slot, which tuple dealloc skips */
    return bad ? NULL : t;
}

/* engine.defence: the shields of the city attacked from ``barracks`` by ``seat`` (West faces the left
 * neighbour), in its facing Barracks, before this turn unless actions resolve one after another.
 * 1, 0 (odd: the Python's), -1. */
static int shields_against(Held *h, PyObject *state, PyObject *players, long seat, PyObject *barracks, long *out) {
    long n = (long)PyList_GET_SIZE(players);
    int west = PyUnicode_Compare(barracks, v_barracks_west) == 0;
    long defender = (((west ? seat + 1 : seat - 1) % n) + n) % n; /* Python's modulo: the left or right neighbour */
    PyObject *facing = west ? v_barracks_east : v_barracks_west;
    PyObject *p = PyList_GET_ITEM(players, defender);
    PyObject *board = attr(h, p, s_board), *options = attr(h, state, s_options);
    PyObject *resolution = options == NULL ? NULL : attr(h, options, s_resolution);
    if (board == NULL || resolution == NULL) return -1;
    if (!PyUnicode_CheckExact(resolution)) return 0;
    PyObject *b = item(board, facing);
    *out = 0;
    if (b == NULL) return PyDict_CheckExact(board); /* no such Barracks: no shields */
    PyObject *shield_spaces = attr(h, b, s_shield_spaces), *crossed = attr(h, p, s_crossed),
             *this_turn = attr(h, p, s_this_turn);
    if (shield_spaces == NULL || crossed == NULL || this_turn == NULL) return -1;
    int simultaneous = PyUnicode_Compare(resolution, v_simultaneous) == 0; /* shields_before_turn */
    return count_shields(shield_spaces, crossed, simultaneous ? this_turn : NULL, facing, out);
}

/* The build or Wonder part of _action_before: space, coins, die and the first attack printed, into
 * vals[0..6] (colour, section, forum, die_cost, coins, attack, shields; new references). 1, 0, -1. */
static int build_values(Held *h, PyObject *state, PyObject *player, PyObject *main, int build, PyObject **vals) {
    long cost, resources, section, forum, discount_all, discount = 0, die_cost = 0;
    PyObject *building = item(main, k_building), *space_id = item(main, k_space);
    PyObject *board = attr(h, player, s_board);
    if (board == NULL) return -1;
    if (building == NULL || space_id == NULL || !PyUnicode_CheckExact(building) || !PyUnicode_CheckExact(space_id))
        return 0;
    PyObject *b = item(board, building);
    if (b == NULL) return 0;
    PyObject *spaces = attr(h, b, s_space);
    if (spaces == NULL) return -1;
    PyObject *space = item(spaces, space_id);
    if (space == NULL) return 0;
    PyObject *cost_o = attr(h, space, s_cost), *effects = attr(h, space, s_effects);
    if (cost_o == NULL || effects == NULL) return -1;
    if (!small_int(cost_o, &cost) || !PyTuple_CheckExact(effects)) return 0;
    long coins = 0;
    if (cost != 0) { /* construction_coins: nothing to pay counts no resources */
        int ok = resources_of(h, player, &resources);
        if (ok <= 0) return ok;
        coins = cost - (resources > 0 ? resources : 0);
        if (coins < 0) coins = 0;
    }
    if (build) {
        PyObject *die = item(main, k_die);
        PyObject *forum_d = attr(h, state, s_forum), *roll = attr(h, state, s_roll), *rules = attr(h, state, s_rules);
        if (forum_d == NULL || roll == NULL || rules == NULL) return -1;
        if (die == NULL || !PyUnicode_CheckExact(die)) return 0;
        PyObject *colour = item(forum_d, die), *rolled = item(roll, die);
        if (colour == NULL || !PyUnicode_CheckExact(colour) || rolled == NULL || !PyTuple_CheckExact(rolled)
            || PyTuple_GET_SIZE(rolled) != 2 || !small_int(PyTuple_GET_ITEM(rolled, 1), &section))
            return 0;
        PyObject *start = attr(h, rules, s_start);
        PyObject *sections = start == NULL ? NULL : attr(h, start, s_forum_sections);
        if (sections == NULL) return -1;
        if (!PyTuple_CheckExact(sections) || section < 0 || section >= PyTuple_GET_SIZE(sections)
            || !small_int(PyTuple_GET_ITEM(sections, section), &forum))
            return 0;
        PyObject *free = attr(h, player, s_free_colours), *all = attr(h, player, s_discount_all),
                 *by_colour = attr(h, player, s_discount);
        if (free == NULL || all == NULL || by_colour == NULL) return -1;
        if (!PyAnySet_CheckExact(free) || !small_int(all, &discount_all) || !PyDict_CheckExact(by_colour)) return 0;
        int is_free = PySet_Contains(free, colour);
        if (is_free < 0) return -1;
        PyObject *off = item(by_colour, colour);
        if (off != NULL && !small_int(off, &discount)) return 0;
        if (!is_free) {
            die_cost = forum - discount_all - discount;
            if (die_cost < 0) die_cost = 0;
        }
        vals[0] = Py_NewRef(colour);
        vals[1] = Py_NewRef(PyTuple_GET_ITEM(rolled, 1));
        vals[2] = Py_NewRef(PyTuple_GET_ITEM(sections, section));
        if ((vals[3] = PyLong_FromLong(die_cost)) == NULL) return -1;
    }
    if ((vals[4] = PyLong_FromLong(coins)) == NULL) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(effects); i++) { /* the first attack printed */
        PyObject *e = PyTuple_GET_ITEM(effects, i), *t = get_attr(e, s_type);
        if (t == NULL) return -1;
        int is = PyUnicode_CheckExact(t) ? PyUnicode_Compare(t, v_attack) == 0 : -1;
        Py_DECREF(t);
        if (is < 0) return 0;
        if (is) {
            if ((vals[5] = get_attr(e, s_vp)) == NULL) return -1;
            break;
        }
    }
    if (vals[5] != NULL && vals[5] != Py_None) {
        PyObject *seat_o = attr(h, player, s_seat), *players = attr(h, state, s_players);
        long seat, shields;
        if (seat_o == NULL || players == NULL) return -1;
        int ok = small_int(seat_o, &seat) && PyList_CheckExact(players) && PyList_GET_SIZE(players) > 0
                 ? shields_against(h, state, players, seat, building, &shields) : 0;
        if (ok < 0) return -1;
        vals[6] = ok ? PyLong_FromLong(shields) : PyObject_CallFunctionObjArgs(defence, state, seat_o, building, NULL);
        if (vals[6] == NULL) return -1;
    }
    return 1;
}

static PyObject *action_before(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || defence == NULL) {
        PyErr_SetString(PyExc_TypeError, "action_before(state, payload, game_id, seq), after setup()");
        return NULL;
    }
    PyObject *state = args[0], *payload = args[1], *result = NULL;
    PyObject *vals[7] = {NULL};
    Held h = {.n = 0};
    Py_ssize_t n;
    long vp;
    PyObject *player = player_of(&h, state, payload, &n);
    PyObject *steps = player == NULL ? NULL : item(payload, k_steps), *turn = item(payload, k_turn);
    if (player == NULL || steps == NULL || turn == NULL || !PyList_CheckExact(steps) || PyList_GET_SIZE(steps) == 0)
        goto decline;
    PyObject *main = PyList_GET_ITEM(steps, 0), *kind = item(main, k_kind);
    if (kind == NULL || !PyUnicode_CheckExact(kind)) goto decline;
    int build = PyUnicode_Compare(kind, v_build) == 0, wonder = !build && PyUnicode_Compare(kind, v_wonder) == 0;
    if (build || wonder) {
        int ok = build_values(&h, state, player, main, build, vals);
        if (ok < 0) goto done;
        if (ok == 0) goto decline;
    }
    PyObject *seat = attr(&h, player, s_seat), *name = attr(&h, player, s_name), *city = attr(&h, player, s_city),
             *vp_d = attr(&h, player, s_vp), *coins = attr(&h, player, s_coins), *this_turn = attr(&h, player, s_this_turn);
    if (seat == NULL || name == NULL || city == NULL || vp_d == NULL || coins == NULL || this_turn == NULL) goto done;
    if (!sum_values(vp_d, &vp) || !PyList_CheckExact(this_turn)) goto decline;
    for (int i = 0; i < 7; i++)
        if (vals[i] == NULL) vals[i] = Py_NewRef(Py_None);
    PyObject *head[14] = {Py_NewRef(args[2]), Py_NewRef(args[3]), Py_NewRef(turn), Py_NewRef(seat), Py_NewRef(name),
                          Py_NewRef(city), PyLong_FromSsize_t(n), Py_NewRef(kind), or_none(item(main, k_die)),
                          vals[0], vals[1], vals[2], vals[3], vals[4]};
    for (int i = 0; i < 5; i++) vals[i] = NULL; /* the head's now */
    PyObject *described[10] = {tuple_of(14, head), or_none(item(main, k_building)), or_none(item(main, k_lane)),
                               or_none(item(main, k_space)), Py_NewRef(vals[5]), Py_NewRef(vals[6]),
                               PyLong_FromSsize_t(PyList_GET_SIZE(steps)), PyLong_FromLong(vp), Py_NewRef(coins),
                               PyLong_FromSsize_t(PyList_GET_SIZE(this_turn))};
    result = tuple_of(10, described);
    goto done;
decline:
    result = Py_NewRef(Py_None);
done:
    for (int i = 0; i < 7; i++) Py_XDECREF(vals[i]);
    let_go(&h);
    return result;
}

/* [x.type for b, s in this_turn[start:] for x in board[b].space[s].effects] into a new list: NULL with
 * no error set for anything odd. */
static PyObject *effects_crossed(Held *h, PyObject *board, PyObject *this_turn, Py_ssize_t start) {
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = start; i < PyList_GET_SIZE(this_turn); i++) {
        PyObject *pair = PyList_GET_ITEM(this_turn, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) goto odd;
        PyObject *b = item(board, PyTuple_GET_ITEM(pair, 0));
        if (b == NULL || !PyUnicode_CheckExact(PyTuple_GET_ITEM(pair, 0)) || !PyUnicode_CheckExact(PyTuple_GET_ITEM(pair, 1)))
            goto odd;
        PyObject *spaces = attr(h, b, s_space);
        if (spaces == NULL) goto error;
        PyObject *space = item(spaces, PyTuple_GET_ITEM(pair, 1));
        if (space == NULL) goto odd;
        PyObject *effects = attr(h, space, s_effects);
        if (effects == NULL) goto error;
        if (!PyTuple_CheckExact(effects)) goto odd;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(effects); j++) {
            PyObject *t = get_attr(PyTuple_GET_ITEM(effects, j), s_type);
            if (t == NULL) goto error;
            int bad = PyList_Append(out, t);
            Py_DECREF(t);
            if (bad) goto error;
        }
        let_go(h); /* the player's own references were taken before: hold only a crossing's at a time */
    }
    return out;
odd:
    Py_DECREF(out);
    return NULL;
error:
    Py_DECREF(out);
    return NULL;
}

static PyObject *action_after(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "action_after(state, payload, before)");
        return NULL;
    }
    PyObject *state = args[0], *payload = args[1], *before = args[2], *result = NULL, *effects = NULL;
    Held h = {.n = 0}, crossing = {.n = 0};
    Py_ssize_t n;
    long vp, vp_before, coins_before, crossed_before, coins, paid_l;
    if (!PyTuple_CheckExact(before) || PyTuple_GET_SIZE(before) != 10 || !PyTuple_CheckExact(PyTuple_GET_ITEM(before, 0))
        || !small_int(PyTuple_GET_ITEM(before, 7), &vp_before) || !small_int(PyTuple_GET_ITEM(before, 8), &coins_before)
        || !small_int(PyTuple_GET_ITEM(before, 9), &crossed_before) || crossed_before < 0)
        goto decline;
    PyObject *player = player_of(&h, state, payload, &n), *steps = item(payload, k_steps);
    if (player == NULL || steps == NULL || !PyList_CheckExact(steps)) goto decline;
    PyObject *board = attr(&h, player, s_board), *this_turn = attr(&h, player, s_this_turn),
             *vp_d = attr(&h, player, s_vp), *coins_o = attr(&h, player, s_coins);
    if (board == NULL || this_turn == NULL || vp_d == NULL || coins_o == NULL) goto done;
    if (!PyDict_CheckExact(board) || !PyList_CheckExact(this_turn) || !sum_values(vp_d, &vp)) goto decline;
    PyObject *slot = Py_None; /* the first bonus step's slot */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(steps); i++) {
        PyObject *s = PyList_GET_ITEM(steps, i), *kind = item(s, k_kind);
        if (kind == NULL || !PyUnicode_CheckExact(kind)) goto decline;
        if (PyUnicode_Compare(kind, v_bonus) == 0) {
            PyObject *value = item(s, k_slot);
            if (value == NULL) goto decline;
            if (slot == Py_None) slot = value;
        }
    }
    PyObject *claims = PyDict_CheckExact(payload) ? item(payload, k_claims) : NULL, *paid = NULL;
    if (claims != NULL && claims != Py_None) {
        if (!PyDict_CheckExact(claims)) goto decline; /* a falsy non-dict, or .get on another type: the Python */
        paid = item(claims, k_paid);
    }
    if (paid == NULL || paid == Py_None) {
        if (!small_int(coins_o, &coins)) goto decline;
        paid_l = coins_before - coins;
        paid = NULL;
    }
    effects = effects_crossed(&crossing, board, this_turn, crossed_before);
    let_go(&crossing);
    if (effects == NULL) {
        if (PyErr_Occurred()) goto done;
        goto decline;
    }
    PyObject *head = PyTuple_GET_ITEM(before, 0), *row[24];
    Py_ssize_t width = PyTuple_GET_SIZE(head);
    if (width != 14) goto decline;
    for (Py_ssize_t i = 0; i < width; i++) row[i] = Py_NewRef(PyTuple_GET_ITEM(head, i));
    PyObject *tail[10] = {paid != NULL ? Py_NewRef(paid) : PyLong_FromLong(paid_l > 0 ? paid_l : 0),
                          Py_NewRef(PyTuple_GET_ITEM(before, 1)), Py_NewRef(PyTuple_GET_ITEM(before, 2)),
                          Py_NewRef(PyTuple_GET_ITEM(before, 3)), PyLong_FromLong(vp - vp_before),
                          Py_NewRef(PyTuple_GET_ITEM(before, 4)), Py_NewRef(PyTuple_GET_ITEM(before, 5)), effects,
                          Py_NewRef(PyTuple_GET_ITEM(before, 6)), Py_NewRef(slot)};
    effects = NULL; /* the row's now */
    memcpy(row + 14, tail, sizeof tail);
    result = tuple_of(24, row);
    goto done;
decline:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(effects);
    let_go(&h);
    return result;
}

/* How many of the spaces a player crossed in ``building`` count: len(crossed.get(building, ())), or for
 * "leaders" the Gallery's crossed spaces whose space is a leader's (analytics._vp). 1, 0 (odd), -1. */
static int counted_spaces(Held *h, PyObject *crossed, PyObject *board, PyObject *counted, long *out) {
    int leaders = PyUnicode_Compare(counted, v_leaders) == 0;
    PyObject *spaces = item(crossed, leaders ? v_gallery : counted);
    *out = 0;
    if (spaces == NULL) return 1;
    if (!PyAnySet_CheckExact(spaces) && !PyList_CheckExact(spaces)) return 0;
    if (!leaders) {
        *out = (long)PyObject_Size(spaces);
        return 1;
    }
    PyObject *gallery = item(board, v_gallery);
    if (gallery == NULL) return 1; /* no Gallery on the board: no leaders */
    PyObject *by_id = attr(h, gallery, s_space);
    if (by_id == NULL) return -1;
    PyObject *it = PyObject_GetIter(spaces), *x;
    if (it == NULL) return -1;
    int ok = 1;
    while (ok == 1 && (x = PyIter_Next(it)) != NULL) {
        PyObject *space = PyUnicode_CheckExact(x) ? item(by_id, x) : NULL;
        Py_DECREF(x);
        if (space == NULL) {
            ok = 0; /* the Python raises what it raises */
            break;
        }
        PyObject *leader = get_attr(space, s_leader);
        int is = leader == NULL ? -1 : PyObject_IsTrue(leader);
        Py_XDECREF(leader);
        if (is < 0) ok = -1;
        else *out += is;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : ok;
}

/* analytics._vp for a player with end effects: sum(vp.values()) plus each (category, counted) rate of
 * scoring.end_rates times the spaces it counts, into *total. 1, 0 (odd: the Python's), -1. */
static int end_vp(Held *h, PyObject *state, PyObject *end, PyObject *crossed, PyObject *board, long *total) {
    PyObject *options = attr(h, state, s_options);
    PyObject *per = options == NULL ? NULL : attr(h, options, s_per_space_vp);
    if (per == NULL) return -1;
    if (!PyUnicode_CheckExact(per) || !PyDict_CheckExact(board)) return 0;
    EndRates rates;
    if (!end_rates(end, PyUnicode_Compare(per, v_max) == 0, &rates)) return 0;
    for (int k = 0; k < rates.n; k++) {
        long n;
        int ok = counted_spaces(h, crossed, board, rates.counted[k], &n);
        if (ok <= 0) return ok;
        *total += rates.rate[k] * n; /* rates within a million, n a board's spaces: no overflow */
    }
    return 1;
}

/* The number of spaces of each building when the board has exactly ``buildings`` in that order, into
 * sizes (analytics._aligned): 1, 0 (another board: the Python row), -1. */
static int aligned_sizes(Held *h, PyObject *board, PyObject *buildings, long *sizes) {
    Py_ssize_t pos = 0, j = 0;
    PyObject *key, *b;
    if (!PyDict_CheckExact(board) || PyDict_GET_SIZE(board) != PyTuple_GET_SIZE(buildings)) return 0;
    while (PyDict_Next(board, &pos, &key, &b)) {
        PyObject *want = PyTuple_GET_ITEM(buildings, j);
        if (key != want && (!PyUnicode_CheckExact(key) || PyUnicode_Compare(key, want) != 0)) return 0;
        PyObject *spaces = get_attr(b, s_spaces);
        if (spaces == NULL) return -1;
        sizes[j++] = PyTuple_CheckExact(spaces) ? (long)PyTuple_GET_SIZE(spaces) : -1;
        Py_DECREF(spaces);
        if (sizes[j - 1] < 0) return 0;
    }
    return 1;
}

/* One player's turn_states row, or NULL: with an error set (an error), or none (for the fallback). */
static PyObject *turn_row(PyObject *state, PyObject *game_id, PyObject *turn, Py_ssize_t n, PyObject *p,
                          PyObject *buildings) {
    Held h = {.n = 0};
    PyObject *row = NULL, *unlocked_list = NULL, *completed = NULL;
    long resources, vp, bonuses = 0, sizes[BUILDINGS_MAX];
    Py_ssize_t nb = PyTuple_GET_SIZE(buildings);
    PyObject *board = attr(&h, p, s_board);
    if (board == NULL) goto done;
    if (aligned_sizes(&h, board, buildings, sizes) <= 0) goto done; /* not the columns' board: the Python */
    PyObject *end = attr(&h, p, s_end_effects), *crossed = attr(&h, p, s_crossed), *vp_d = attr(&h, p, s_vp),
             *bonus_list = attr(&h, p, s_bonuses), *unlocked = attr(&h, p, s_unlocked), *seat = attr(&h, p, s_seat),
             *name = attr(&h, p, s_name), *coins = attr(&h, p, s_coins);
    if (end == NULL || crossed == NULL || vp_d == NULL || bonus_list == NULL || unlocked == NULL || seat == NULL
        || name == NULL || coins == NULL)
        goto done;
    if (!PyList_CheckExact(end) || !PyDict_CheckExact(crossed) || !PyList_CheckExact(bonus_list)
        || !PyAnySet_CheckExact(unlocked))
        goto done;
    if (!sum_values(vp_d, &vp) || (PyList_GET_SIZE(end) != 0 && end_vp(&h, state, end, crossed, board, &vp) <= 0))
        goto done;
    int ok = resources_of(&h, p, &resources);
    if (ok <= 0) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(bonus_list); i++) { /* sum(bonuses) of bools */
        PyObject *b = PyList_GET_ITEM(bonus_list, i);
        if (!PyBool_Check(b)) goto done;
        bonuses += b == Py_True;
    }
    if ((unlocked_list = PySequence_List(unlocked)) == NULL) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(unlocked_list); i++)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(unlocked_list, i))) goto done; /* strs sort as sorted() sorts them */
    if (PyList_Sort(unlocked_list) < 0 || (completed = PyList_New(0)) == NULL) goto done;
    if ((row = PyTuple_New(11 + nb)) == NULL) goto done;
    for (Py_ssize_t j = 0; j < nb; j++) {
        PyObject *spaces = item(crossed, PyTuple_GET_ITEM(buildings, j));
        Py_ssize_t count = 0;
        if (spaces != NULL) {
            if (!PyAnySet_CheckExact(spaces) && !PyList_CheckExact(spaces)) goto odd;
            count = PyObject_Size(spaces);
        }
        if (count == sizes[j] && PyList_Append(completed, PyTuple_GET_ITEM(buildings, j)) < 0) goto odd;
        PyObject *c = PyLong_FromSsize_t(count);
        if (c == NULL) goto odd;
        PyTuple_SET_ITEM(row, 11 + j, c);
    }
    PyObject *values[11] = {game_id, turn, seat, name, NULL, coins, NULL, NULL, NULL, unlocked_list, completed};
    long numbers[11] = {0, 0, 0, 0, (long)n, 0, resources > 0 ? resources : 0, vp, bonuses, 0, 0};
    for (int i = 0; i < 11; i++) {
        PyObject *v = values[i] != NULL ? Py_NewRef(values[i]) : PyLong_FromLong(numbers[i]);
        if (v == NULL) goto odd;
        PyTuple_SET_ITEM(row, i, v);
    }
    goto done;
odd:
    Py_CLEAR(row);
done:
    Py_XDECREF(unlocked_list);
    Py_XDECREF(completed);
    let_go(&h);
    return row;
}

/* A player's row the Python makes: fallback(player), or with ``four`` fallback(state, game_id, turn, player). */
static PyObject *fallback_row(PyObject *fallback, int four, PyObject *state, PyObject *game_id, PyObject *turn, PyObject *p) {
    if (!four) return PyObject_CallOneArg(fallback, p);
    PyObject *call[4] = {state, game_id, turn, p};
    return PyObject_Vectorcall(fallback, call, 4, NULL);
}

/* turn_rows' work (0, or -1 with an error set); the observer's glue below calls it with ``four``. */
static int turn_rows_into(PyObject *out, PyObject *state, PyObject *game_id, PyObject *turn, PyObject *buildings,
                          PyObject *fallback, int four) {
    PyObject *players = get_attr(state, s_players);
    if (players == NULL) return -1;
    if (!PyList_CheckExact(players)) { /* the Python's rows, as it iterates them */
        PyObject *rows = PyObject_GetIter(players), *p;
        for (int bad = rows == NULL; !bad && (p = PyIter_Next(rows)) != NULL;) {
            PyObject *row = fallback_row(fallback, four, state, game_id, turn, p);
            Py_DECREF(p);
            bad = row == NULL || PyList_Append(out, row) < 0;
            Py_XDECREF(row);
        }
        Py_XDECREF(rows);
        Py_DECREF(players);
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_ssize_t n = PyList_GET_SIZE(players);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyList_GET_ITEM(players, i);
        PyObject *row = turn_row(state, game_id, turn, n, p, buildings);
        if (row == NULL && !PyErr_Occurred()) row = fallback_row(fallback, four, state, game_id, turn, p);
        int bad = row == NULL || PyList_Append(out, row) < 0;
        Py_XDECREF(row);
        if (bad) {
            Py_DECREF(players);
            return -1;
        }
    }
    Py_DECREF(players);
    return 0;
}

static PyObject *turn_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyList_Check(args[0]) || !PyTuple_CheckExact(args[4])
        || PyTuple_GET_SIZE(args[4]) > BUILDINGS_MAX) {
        PyErr_SetString(PyExc_TypeError, "turn_rows(out, state, game_id, turn, buildings tuple, fallback)");
        return NULL;
    }
    if (turn_rows_into(args[0], args[1], args[2], args[3], args[4], args[5], 0) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *dice_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "dice_rows(out, game_id, turn, forum, roll)");
        return NULL;
    }
    PyObject *out = args[0], *forum = args[3], *roll = args[4], *rows, *die, *rolled;
    if (!PyDict_CheckExact(forum) || !PyDict_CheckExact(roll) || (rows = PyList_New(0)) == NULL) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_FALSE;
    }
    Py_ssize_t pos = 0;
    while (PyDict_Next(roll, &pos, &die, &rolled)) {
        PyObject *colour = PyUnicode_CheckExact(die) ? item(forum, die) : NULL;
        if (colour == NULL || !PyTuple_CheckExact(rolled) || PyTuple_GET_SIZE(rolled) != 2) { /* the Python's error */
            Py_DECREF(rows);
            Py_RETURN_FALSE;
        }
        PyObject *values[6] = {Py_NewRef(args[1]), Py_NewRef(args[2]), Py_NewRef(die), Py_NewRef(colour),
                               Py_NewRef(PyTuple_GET_ITEM(rolled, 0)), Py_NewRef(PyTuple_GET_ITEM(rolled, 1))};
        PyObject *row = tuple_of(6, values);
        int bad = row == NULL || PyList_Append(rows, row) < 0;
        Py_XDECREF(row);
        if (bad) {
            Py_DECREF(rows);
            return NULL;
        }
    }
    int bad = PyList_SetSlice(out, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, rows); /* extend: all the roll's rows or none */
    Py_DECREF(rows);
    if (bad) return NULL;
    Py_RETURN_TRUE;
}

/* ------------------------------------------------------------------ the table as data: GameState.to_dict */

/* The digest of a game's final state (``games.state_hash``, for every projected game) is the canonical JSON of
 * GameState.to_dict, whose comprehensions sorting each player's sets and dicts were four fifths of the
 * digest's cost. state_data makes the same dict (the same keys in the same order, the same values) for the usual table:
 * exact str keys and set members, exact ints where the Python tests a number, tuples of strs and ints for the
 * end effects, no two-phase follow-ups waiting. Anything else gives NULL with no error set, and the caller
 * uses to_dict, the reference (tests/test_wd_rows_compiled.py compares both). */

static PyObject *s_turn, *s_phase, *s_next_seat, *s_pending_swaps, *s_final_turn, *s_agora_first_done, *s_result,
    *s_follow_ups, *s_income, *d_resources, *d_effects, *d_free, *d_end, *v_not_rolled;

/* A new list of ``items`` (an exact set, frozenset or list of exact strs), sorted: NULL with no error set for
 * anything else (or with one). */
static PyObject *sorted_strs(PyObject *items) {
    if (!PyAnySet_CheckExact(items) && !PyList_CheckExact(items)) return NULL;
    PyObject *out = PySequence_List(items);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(out); i++)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(out, i))) {
            Py_DECREF(out);
            return NULL;
        }
    if (PyList_Sort(out) < 0) Py_CLEAR(out);
    return out;
}

enum { EVERY_ITEM, NONZERO_INTS, NONEMPTY_SETS };

/* An exact dict's items in key order (exact str keys), as a new dict: every item (``dict(sorted(d.items()))``),
 * only its non-zero exact ints (``dict(sorted((k, v) for k, v in d.items() if v))``), or only its non-empty sets,
 * each a sorted list (``{k: sorted(s) for k, s in sorted(d.items()) if s}``). NULL with no error set for
 * anything else (or with one). */
static PyObject *sorted_dict(PyObject *d, int which) {
    if (!PyDict_CheckExact(d)) return NULL;
    PyObject *keys = PyDict_Keys(d), *sorted = keys == NULL ? NULL : sorted_strs(keys), *out = NULL;
    Py_XDECREF(keys);
    if (sorted == NULL || (out = PyDict_New()) == NULL) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(sorted); i++) {
        PyObject *k = PyList_GET_ITEM(sorted, i), *v = item(d, k), *put;
        if (v == NULL) goto odd; /* gone: a key's hash cannot change, so never */
        if (which == NONZERO_INTS) {
            if (!PyLong_CheckExact(v)) goto odd;
            if (PyObject_Not(v)) continue; /* an exact int: never raises */
            put = Py_NewRef(v);
        } else if (which == NONEMPTY_SETS) {
            if (!PyAnySet_CheckExact(v)) goto odd;
            if (PySet_GET_SIZE(v) == 0) continue;
            if ((put = sorted_strs(v)) == NULL) goto odd;
        } else {
            put = Py_NewRef(v);
        }
        int bad = PyDict_SetItem(out, k, put) < 0;
        Py_DECREF(put);
        if (bad) goto odd;
    }
    goto done;
odd:
    Py_CLEAR(out);
done:
    Py_XDECREF(sorted);
    return out;
}

/* sorted(list(e) for e in end_effects), for a list of tuples of exact strs and ints: NULL with no error set
 * for anything else (a comparison the Python would make raise: it raises it). */
static PyObject *sorted_ends(PyObject *ends) {
    if (!PyList_CheckExact(ends)) return NULL;
    PyObject *out = PyList_New(PyList_GET_SIZE(ends));
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(ends); i++) {
        PyObject *e = PyList_GET_ITEM(ends, i);
        int plain = PyTuple_CheckExact(e);
        for (Py_ssize_t j = 0; plain && j < PyTuple_GET_SIZE(e); j++)
            plain = PyUnicode_CheckExact(PyTuple_GET_ITEM(e, j)) || PyLong_CheckExact(PyTuple_GET_ITEM(e, j));
        PyObject *as_list = plain ? PySequence_List(e) : NULL;
        if (as_list == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, as_list);
    }
    if (out != NULL && PyList_Sort(out) < 0) {
        Py_CLEAR(out);
        if (PyErr_ExceptionMatches(PyExc_TypeError)) PyErr_Clear(); /* a str against an int: the Python's error */
    }
    return out;
}

/* A dict of ``n`` keys (borrowed) and values (new references, taken), made once every value is: NULL when one
 * is NULL (its error set, or none: declined). */
static PyObject *dict_of(Py_ssize_t n, PyObject *const *keys, PyObject **vals) {
    PyObject *d = NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (vals[i] == NULL) goto done;
    if ((d = PyDict_New()) == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyDict_SetItem(d, keys[i], vals[i]) < 0) {
            Py_CLEAR(d);
            break;
        }
done:
    for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(vals[i]);
    return d;
}

/* PlayerState.to_dict, or NULL (an error set, or none: the Python's). */
static PyObject *player_data(PyObject *p) {
    Held h = {.n = 0};
    PyObject *out = NULL;
    long resources;
    if (player_type == NULL || (PyObject *)Py_TYPE(p) != player_type) return NULL;
    PyObject *seat = attr(&h, p, s_seat), *name = attr(&h, p, s_name), *city = attr(&h, p, s_city),
             *coins = attr(&h, p, s_coins), *crossed = attr(&h, p, s_crossed), *vp = attr(&h, p, s_vp),
             *bonuses = attr(&h, p, s_bonuses), *unlocked = attr(&h, p, s_unlocked),
             *discount_all = attr(&h, p, s_discount_all), *discount = attr(&h, p, s_discount),
             *free = attr(&h, p, s_free_colours), *income = attr(&h, p, s_income), *ends = attr(&h, p, s_end_effects);
    if (seat == NULL || name == NULL || city == NULL || coins == NULL || crossed == NULL || vp == NULL || bonuses == NULL
        || unlocked == NULL || discount_all == NULL || discount == NULL || free == NULL || income == NULL || ends == NULL)
        goto done;
    if (!PyList_CheckExact(bonuses) || resources_of(&h, p, &resources) <= 0) goto done;
    /* each value made only once the ones before it were (dict_of takes them all) */
    PyObject *effect_keys[5] = {s_discount_all, s_discount, d_free, s_income, d_end};
    PyObject *effect_vals[5] = {Py_NewRef(discount_all), NULL, NULL, NULL, NULL};
    if ((effect_vals[1] = sorted_dict(discount, EVERY_ITEM)) != NULL && (effect_vals[2] = sorted_strs(free)) != NULL
        && (effect_vals[3] = sorted_dict(income, EVERY_ITEM)) != NULL)
        effect_vals[4] = sorted_ends(ends);
    PyObject *effects = dict_of(5, effect_keys, effect_vals);
    if (effects == NULL) goto done;
    PyObject *keys[10] = {s_seat, s_name, s_city, s_coins, d_resources, s_crossed, s_vp, s_bonuses, s_unlocked, d_effects};
    PyObject *vals[10] = {Py_NewRef(seat), Py_NewRef(name), Py_NewRef(city), Py_NewRef(coins), PyLong_FromLong(resources),
                          NULL, NULL, NULL, NULL, effects};
    if (vals[4] != NULL && (vals[5] = sorted_dict(crossed, NONEMPTY_SETS)) != NULL
        && (vals[6] = sorted_dict(vp, NONZERO_INTS)) != NULL
        && (vals[7] = PyList_GetSlice(bonuses, 0, PyList_GET_SIZE(bonuses))) != NULL)
        vals[8] = sorted_strs(unlocked);
    out = dict_of(10, keys, vals);
done:
    let_go(&h);
    return out;
}

/* {die: f"{face}@{section}" if die in roll else "not rolled" for die in forum}: NULL with no error set for odd values. */
static PyObject *forum_data(PyObject *forum, PyObject *roll) {
    if (!PyDict_CheckExact(forum) || !PyDict_CheckExact(roll)) return NULL;
    PyObject *out = PyDict_New(), *die, *colour;
    Py_ssize_t pos = 0;
    while (out != NULL && PyDict_Next(forum, &pos, &die, &colour)) {
        if (!PyUnicode_CheckExact(die)) {
            Py_CLEAR(out);
            break;
        }
        PyObject *shown = item(roll, die), *text;
        if (shown == NULL) {
            text = Py_NewRef(v_not_rolled);
        } else if (PyTuple_CheckExact(shown) && PyTuple_GET_SIZE(shown) == 2 && PyUnicode_CheckExact(PyTuple_GET_ITEM(shown, 0))
                   && PyLong_CheckExact(PyTuple_GET_ITEM(shown, 1))) {
            text = PyUnicode_FromFormat("%U@%S", PyTuple_GET_ITEM(shown, 0), PyTuple_GET_ITEM(shown, 1));
        } else {
            text = NULL; /* another face or section: the f-string's */
        }
        if (text == NULL || PyDict_SetItem(out, die, text) < 0) Py_CLEAR(out);
        Py_XDECREF(text);
    }
    return out;
}

/* state_data(state): GameState.to_dict's dict, or None (the Python's). */
static PyObject *state_data(PyObject *self, PyObject *state) {
    Held h = {.n = 0};
    PyObject *out = NULL;
    PyObject *turn = attr(&h, state, s_turn), *phase = attr(&h, state, s_phase), *next_seat = attr(&h, state, s_next_seat),
             *forum = attr(&h, state, s_forum), *roll = attr(&h, state, s_roll), *swaps = attr(&h, state, s_pending_swaps),
             *final_turn = attr(&h, state, s_final_turn), *agora = attr(&h, state, s_agora_first_done),
             *players = attr(&h, state, s_players), *result = attr(&h, state, s_result),
             *follow_ups = attr(&h, state, s_follow_ups);
    if (turn == NULL || phase == NULL || next_seat == NULL || forum == NULL || roll == NULL || swaps == NULL
        || final_turn == NULL || agora == NULL || players == NULL || result == NULL || follow_ups == NULL)
        goto done;
    if (!PyList_CheckExact(swaps) || !PyList_CheckExact(players) || !PyDict_CheckExact(follow_ups)
        || PyDict_GET_SIZE(follow_ups) != 0)
        goto declined;
    PyObject *keys[9] = {s_turn, s_phase, s_next_seat, s_forum, s_pending_swaps, s_final_turn, s_agora_first_done,
                         s_players, s_result};
    PyObject *vals[9] = {Py_NewRef(turn), Py_NewRef(phase), Py_NewRef(next_seat), forum_data(forum, roll), NULL,
                         Py_NewRef(final_turn), Py_NewRef(agora), NULL, Py_NewRef(result)};
    if (vals[3] != NULL && (vals[4] = PyList_GetSlice(swaps, 0, PyList_GET_SIZE(swaps))) != NULL
        && (vals[7] = PyList_New(PyList_GET_SIZE(players))) != NULL) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(players); i++) {
            PyObject *made = player_data(PyList_GET_ITEM(players, i));
            if (made == NULL) {
                Py_CLEAR(vals[7]);
                break;
            }
            PyList_SET_ITEM(vals[7], i, made);
        }
    }
    out = dict_of(9, keys, vals);
    if (out != NULL || PyErr_Occurred()) goto done;
declined:
    out = Py_NewRef(Py_None);
done:
    let_go(&h);
    return out;
}

/* ------------------------------------------------------------------ the observer's glue
 *
 * analytics._Rows.before and .after, the observer's two calls an event, in C: each a Python frame
 * around the functions above, a projected game's largest share of Python left (docs/performance.md,
 * "Fourteenth pass"). Glue(event_type, game_id, actions, dice, turns, buildings, slow_before,
 * slow_after, slow_dice, slow_turn_row) keeps what the observer keeps (its game id, its three lists of
 * rows, the action described before it is applied); the observer sets its bound ``before`` and ``after``
 * on itself. Each does what the Python method does, statement for statement: the functions above
 * first, and where they decline, the Python's own (``slow_before(state, event)``: _action_before;
 * ``slow_after(state, event, before)``: _action_after; ``slow_dice(out, game_id, turn, forum, roll)``;
 * ``slow_turn_row(state, game_id, turn, player)``), so every error is the Python's. An event of type
 * ``event_type`` is read by position (the Event named tuple's fields); anything else by name. */

typedef struct {
    PyObject_HEAD
    PyTypeObject *event_type;
    PyObject *game_id, *actions, *dice, *turns, *buildings, *slow_before, *slow_after, *slow_dice, *slow_turn_row;
    PyObject *pending; /* the action described before it (NULL: None) */
} Glue;

static PyObject *s_event, *s_state, *s_refused, *s_payload, *s_game_id, *s_seq, *v_action_taken, *v_dice_rolled,
    *v_turn_ended;

enum { E_GAME_ID = 0, E_SEQ = 1, E_TYPE = 3, E_PAYLOAD = 5 };

/* The event's field (a new reference): by position for the Event type, by name for anything else. */
static PyObject *field(Glue *g, PyObject *event, int at, PyObject *name) {
    if (Py_TYPE(event) == g->event_type && PyTuple_GET_SIZE(event) == 6) return Py_NewRef(PyTuple_GET_ITEM(event, at));
    return PyObject_GetAttr(event, name);
}

static int glue_traverse(Glue *g, visitproc visit, void *arg) {
    Py_VISIT(g->event_type);
    Py_VISIT(g->game_id);
    Py_VISIT(g->actions);
    Py_VISIT(g->dice);
    Py_VISIT(g->turns);
    Py_VISIT(g->buildings);
    Py_VISIT(g->slow_before);
    Py_VISIT(g->slow_after);
    Py_VISIT(g->slow_dice);
    Py_VISIT(g->slow_turn_row);
    Py_VISIT(g->pending);
    return 0;
}

static int glue_clear(Glue *g) {
    Py_CLEAR(g->event_type);
    Py_CLEAR(g->game_id);
    Py_CLEAR(g->actions);
    Py_CLEAR(g->dice);
    Py_CLEAR(g->turns);
    Py_CLEAR(g->buildings);
    Py_CLEAR(g->slow_before);
    Py_CLEAR(g->slow_after);
    Py_CLEAR(g->slow_dice);
    Py_CLEAR(g->slow_turn_row);
    Py_CLEAR(g->pending);
    return 0;
}

static void glue_dealloc(Glue *g) {
    PyObject_GC_UnTrack(g);
    glue_clear(g);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

/* _Rows.before(state, event): the action described from the table before it, or None (an illegal
 * action's KeyError, IndexError or TypeError: the rules refuse it, and it has no row). */
static PyObject *glue_before(Glue *g, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "before(state, event)");
        return NULL;
    }
    PyObject *state = args[0], *event = args[1];
    Py_CLEAR(g->pending);
    PyObject *type = field(g, event, E_TYPE, s_type);
    if (type == NULL) return NULL;
    int action = PyObject_RichCompareBool(type, v_action_taken, Py_EQ);
    Py_DECREF(type);
    if (action <= 0) return action < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *payload = field(g, event, E_PAYLOAD, s_payload), *game_id = NULL, *seq = NULL, *made = NULL;
    if (payload != NULL) game_id = field(g, event, E_GAME_ID, s_game_id);
    if (game_id != NULL) seq = field(g, event, E_SEQ, s_seq);
    if (seq != NULL) {
        PyObject *call[4] = {state, payload, game_id, seq};
        made = action_before(NULL, call, 4);
        if (made == Py_None) { /* declined: the Python's */
            Py_DECREF(made);
            made = PyObject_Vectorcall(g->slow_before, args, 2, NULL);
        }
    }
    Py_XDECREF(payload);
    Py_XDECREF(game_id);
    Py_XDECREF(seq);
    if (made == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError) && !PyErr_ExceptionMatches(PyExc_IndexError)
            && !PyErr_ExceptionMatches(PyExc_TypeError))
            return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (made == Py_None) Py_DECREF(made); /* _action_before gave None: pending None */
    else g->pending = made;
    Py_RETURN_NONE;
}

/* _Rows.after(step): the rows of an action, a roll or a turn's end; nothing for a refused event. */
static PyObject *glue_after(Glue *g, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "after(step)");
        return NULL;
    }
    PyObject *step = args[0], *e = NULL, *state = NULL, *refused = NULL, *kind = NULL, *payload = NULL, *turn = NULL;
    PyObject *result = NULL;
    int is;
    if ((e = PyObject_GetAttr(step, s_event)) == NULL || (state = PyObject_GetAttr(step, s_state)) == NULL
        || (refused = PyObject_GetAttr(step, s_refused)) == NULL || (is = PyObject_IsTrue(refused)) < 0)
        goto done;
    if (is) goto none;
    if ((kind = field(g, e, E_TYPE, s_type)) == NULL) goto done;
    if ((is = PyObject_RichCompareBool(kind, v_action_taken, Py_EQ)) < 0) goto done;
    if (is) {
        if (g->pending == NULL) goto none;
        PyObject *pending = Py_NewRef(g->pending), *row = NULL;
        if ((payload = field(g, e, E_PAYLOAD, s_payload)) != NULL) {
            PyObject *call[3] = {state, payload, pending};
            row = action_after(NULL, call, 3);
            if (row == Py_None) {
                Py_DECREF(row);
                PyObject *slow[3] = {state, e, pending};
                row = PyObject_Vectorcall(g->slow_after, slow, 3, NULL);
            }
        }
        Py_DECREF(pending);
        int bad = row == NULL || PyList_Append(g->actions, row) < 0;
        Py_XDECREF(row);
        if (bad) goto done;
        goto none;
    }
    int roll = PyObject_RichCompareBool(kind, v_dice_rolled, Py_EQ), end = 0;
    if (roll < 0) goto done;
    if (!roll && (end = PyObject_RichCompareBool(kind, v_turn_ended, Py_EQ)) < 0) goto done;
    if (!roll && !end) goto none;
    if ((payload = field(g, e, E_PAYLOAD, s_payload)) == NULL || (turn = PyObject_GetItem(payload, k_turn)) == NULL)
        goto done;
    if (roll) {
        PyObject *forum = PyObject_GetAttr(state, s_forum), *rolled = forum ? PyObject_GetAttr(state, s_roll) : NULL;
        PyObject *made = NULL;
        if (rolled != NULL) {
            PyObject *call[5] = {g->dice, g->game_id, turn, forum, rolled};
            made = dice_rows(NULL, call, 5);
            if (made == Py_False) {
                Py_DECREF(made);
                made = PyObject_Vectorcall(g->slow_dice, call, 5, NULL);
            }
        }
        Py_XDECREF(forum);
        Py_XDECREF(rolled);
        if (made == NULL) goto done;
        Py_DECREF(made);
    } else if (turn_rows_into(g->turns, state, g->game_id, turn, g->buildings, g->slow_turn_row, 1) < 0) {
        goto done;
    }
none:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(e);
    Py_XDECREF(state);
    Py_XDECREF(refused);
    Py_XDECREF(kind);
    Py_XDECREF(payload);
    Py_XDECREF(turn);
    return result;
}

static PyMethodDef glue_methods[] = {
    {"before", (PyCFunction)(void (*)(void))glue_before, METH_FASTCALL, "_Rows.before(state, event)"},
    {"after", (PyCFunction)(void (*)(void))glue_after, METH_FASTCALL, "_Rows.after(step)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GlueType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "replay.games.wonders_dice._crows.Glue",
    .tp_basicsize = sizeof(Glue),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The projection observer's before and after (analytics._Rows) in C.",
    .tp_traverse = (traverseproc)glue_traverse,
    .tp_clear = (inquiry)glue_clear,
    .tp_dealloc = (destructor)glue_dealloc,
    .tp_methods = glue_methods,
};

/* glue(event_type, game_id, actions, dice, turns, buildings, slow_before, slow_after, slow_dice, slow_turn_row) */
static PyObject *glue(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10 || !PyType_Check(args[0]) || !PyType_IsSubtype((PyTypeObject *)args[0], &PyTuple_Type) || !PyList_CheckExact(args[2])
        || !PyList_CheckExact(args[3]) || !PyList_CheckExact(args[4]) || !PyTuple_CheckExact(args[5])
        || PyTuple_GET_SIZE(args[5]) > BUILDINGS_MAX || !PyCallable_Check(args[6]) || !PyCallable_Check(args[7])
        || !PyCallable_Check(args[8]) || !PyCallable_Check(args[9])) {
        PyErr_SetString(PyExc_TypeError, "glue(Event, game_id, actions list, dice list, turns list, buildings tuple, "
                                         "slow_before, slow_after, slow_dice, slow_turn_row)");
        return NULL;
    }
    Glue *g = PyObject_GC_New(Glue, &GlueType);
    if (g == NULL) return NULL;
    g->event_type = (PyTypeObject *)Py_NewRef(args[0]);
    PyObject **fields[9] = {&g->game_id, &g->actions, &g->dice, &g->turns, &g->buildings,
                            &g->slow_before, &g->slow_after, &g->slow_dice, &g->slow_turn_row};
    for (int i = 0; i < 9; i++) *fields[i] = Py_NewRef(args[i + 1]);
    g->pending = NULL;
    PyObject_GC_Track(g);
    return (PyObject *)g;
}

static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyType_Check(args[0]) || !PyType_Check(args[1]) || !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "setup(PlayerState, PackPart, defence): two types and engine.defence");
        return NULL;
    }
    Py_XSETREF(player_type, Py_NewRef(args[0]));
    Py_XSETREF(pack_part, Py_NewRef(args[1]));
    Py_XSETREF(defence, Py_NewRef(args[2]));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"action_before", (PyCFunction)(void (*)(void))action_before, METH_FASTCALL,
     "action_before(state, payload, game_id, seq): analytics._action_before, or None for the Python"},
    {"action_after", (PyCFunction)(void (*)(void))action_after, METH_FASTCALL,
     "action_after(state, payload, before): analytics._action_after, or None for the Python"},
    {"dice_rows", (PyCFunction)(void (*)(void))dice_rows, METH_FASTCALL,
     "dice_rows(out, game_id, turn, forum, roll): a roll's dice rows appended (True), or nothing (False: the Python)"},
    {"turn_rows", (PyCFunction)(void (*)(void))turn_rows, METH_FASTCALL,
     "turn_rows(out, state, game_id, turn, buildings, fallback): a turn's turn_states rows appended"},
    {"glue", (PyCFunction)(void (*)(void))glue, METH_FASTCALL,
     "glue(Event, game_id, actions, dice, turns, buildings, slow_before, slow_after, slow_dice, slow_turn_row): "
     "the observer's before and after in C"},
    {"state_data", (PyCFunction)state_data, METH_O, "state_data(state): GameState.to_dict's dict, or None for the Python"},
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "setup(PlayerState, PackPart, defence): the player type counted here, the pack parts' base, engine.defence"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_crows",
                                    "The 7 Wonders Dice projection's rows in C (see rows_compiled.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

#define INTERN(var, text) if (((var) = PyUnicode_InternFromString(text)) == NULL) return NULL

PyMODINIT_FUNC PyInit__crows(void) {
    INTERN(s_players, "players"); INTERN(s_board, "board"); INTERN(s_space, "space"); INTERN(s_cost, "cost");
    INTERN(s_effects, "effects"); INTERN(s_type, "type"); INTERN(s_vp, "vp"); INTERN(s_forum, "forum");
    INTERN(s_roll, "roll"); INTERN(s_rules, "rules"); INTERN(s_start, "start"); INTERN(s_forum_sections, "forum_sections");
    INTERN(s_free_colours, "free_colours"); INTERN(s_discount_all, "discount_all"); INTERN(s_discount, "discount");
    INTERN(s_seat, "seat"); INTERN(s_name, "name"); INTERN(s_city, "city"); INTERN(s_coins, "coins");
    INTERN(s_this_turn, "this_turn"); INTERN(s_producers, "producers"); INTERN(s_crossed, "crossed");
    INTERN(s_resources_spent, "resources_spent"); INTERN(s_end_effects, "end_effects"); INTERN(s_bonuses, "bonuses");
    INTERN(s_unlocked, "unlocked");
    INTERN(k_player, "player"); INTERN(k_steps, "steps"); INTERN(k_kind, "kind"); INTERN(k_building, "building");
    INTERN(k_lane, "lane"); INTERN(k_space, "space"); INTERN(k_die, "die"); INTERN(k_turn, "turn");
    INTERN(k_claims, "claims"); INTERN(k_paid, "paid"); INTERN(k_slot, "slot");
    INTERN(v_leaders, "leaders"); INTERN(v_gallery, "gallery"); INTERN(v_max, "max"); INTERN(s_options, "options");
    INTERN(s_per_space_vp, "per_space_vp"); INTERN(s_spaces, "spaces"); INTERN(s_leader, "leader");
    INTERN(v_barracks_west, "barracks_west"); INTERN(v_barracks_east, "barracks_east"); INTERN(s_resolution, "resolution");
    INTERN(v_simultaneous, "simultaneous"); INTERN(s_shield_spaces, "shield_spaces");
    INTERN(v_build, "build"); INTERN(v_wonder, "wonder"); INTERN(v_attack, "attack"); INTERN(v_bonus, "bonus");
    INTERN(s_event, "event"); INTERN(s_state, "state"); INTERN(s_refused, "refused"); INTERN(s_payload, "payload");
    INTERN(s_game_id, "game_id"); INTERN(s_seq, "seq"); INTERN(v_action_taken, "action_taken");
    INTERN(v_dice_rolled, "dice_rolled"); INTERN(v_turn_ended, "turn_ended");
    INTERN(s_turn, "turn"); INTERN(s_phase, "phase"); INTERN(s_next_seat, "next_seat");
    INTERN(s_pending_swaps, "pending_swaps"); INTERN(s_final_turn, "final_turn");
    INTERN(s_agora_first_done, "agora_first_done"); INTERN(s_result, "result"); INTERN(s_follow_ups, "follow_ups");
    INTERN(s_income, "income"); INTERN(d_resources, "resources"); INTERN(d_effects, "effects"); INTERN(d_free, "free");
    INTERN(d_end, "end"); INTERN(v_not_rolled, "not rolled");
    if (PyType_Ready(&GlueType) < 0) return NULL;
    return PyModule_Create(&module);
}
