/* What _cbots.c lends _ckernel.c (a capsule: cbots.py's BUILT_LENT, passed to the kernel by compiled.py), so
 * that the kernel can answer a simulated random bot's follow-up questions exactly as bots.RandomBot answers
 * them: with the bot's draws (its shuffles) and the bots' own check of a listed candidate.
 *
 *   randbelow(getrandbits, n)  random.Random._randbelow_with_getrandbits(n); -1 on an error.
 *   shuffle(getrandbits, list) random.Random.shuffle(list), the same draws and order; -1 on an error.
 *   state(getrandbits, &size)  where the generator's state lies when the draws read it directly (its
 *                              index and words: size bytes to save and put back), or NULL when every
 *                              draw calls getrandbits back (then nothing drawn can be taken back).
 *   judged(state, p, step, free, coins, resources)
 *                              engine.candidate_ok for a listed step (first_ok's verdict) on the table with
 *                              the player's coins and resources as given (the table as an action will have
 *                              left it when a question is asked): 1 legal, 0 not, -1 not decided there (a
 *                              Guild Court's condition, an unusual value; no error left set).
 */
#ifndef REPLAY_WD_LENT_H
#define REPLAY_WD_LENT_H

#include <Python.h>

#define LENT_CAPSULE "replay.games.wonders_dice._cbots.LENT"
#define DRAWS_STATE_MAX 2600 /* bytes: CPython's Mersenne Twister, an int and 624 words */

typedef struct {
    Py_ssize_t (*randbelow)(PyObject *getrandbits, Py_ssize_t n);
    int (*shuffle)(PyObject *getrandbits, PyObject *list);
    void *(*state)(PyObject *getrandbits, size_t *size);
    int (*judged)(PyObject *state, PyObject *p, PyObject *step, int free, long coins, long resources);
} Lent;

#endif
