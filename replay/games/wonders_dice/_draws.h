/* The standard generator's draws, as _cbots.c makes them, lent to _ckernel.c (a capsule: cbots.py's
 * DRAWS, passed to the kernel by compiled.py), so that the kernel can answer a simulated random bot's
 * follow-up questions with exactly the draws bots.RandomBot makes (its shuffles).
 *
 *   randbelow(getrandbits, n)  random.Random._randbelow_with_getrandbits(n); -1 on an error.
 *   shuffle(getrandbits, list) random.Random.shuffle(list), the same draws and order; -1 on an error.
 *   state(getrandbits, &size)  where the generator's state lies when the draws read it directly (its
 *                              index and words: size bytes to save and put back), or NULL when every
 *                              draw calls getrandbits back (then nothing drawn can be taken back).
 */
#ifndef REPLAY_WD_DRAWS_H
#define REPLAY_WD_DRAWS_H

#include <Python.h>

#define DRAWS_CAPSULE "replay.games.wonders_dice._cbots.DRAWS"
#define DRAWS_STATE_MAX 2600 /* bytes: CPython's Mersenne Twister, an int and 624 words */

typedef struct {
    Py_ssize_t (*randbelow)(PyObject *getrandbits, Py_ssize_t n);
    int (*shuffle)(PyObject *getrandbits, PyObject *list);
    void *(*state)(PyObject *getrandbits, size_t *size);
} Draws;

#endif
