/* Attribute reads and writes for the 7 Wonders Dice extensions (_ckernel.c, _cbots.c): each includes
 * this file and has its own caches; pack_part is set by the module's setup().
 *
 * Both make dozens of attribute reads an action. A generic read (PyObject_GetAttr) looks the name up
 * in the type's MRO, then in the object (a pydantic model's through its __getattr__ hook), about 100
 * instructions for a slot and 400 for a pack part. get_attr knows two cheaper cases, found once per
 * (type, name) and trusted while the type's version tag is unchanged (CPython gives a type a new tag
 * whenever the class is modified, and never reuses one):
 *
 *   AT_SLOT: the state's dataclasses are slotted (state.py), so the attribute is a pointer at a fixed
 *            offset in the object, found through the type's member descriptor; for a type that keeps
 *            the generic get and set (no __getattribute__, __getattr__ or __setattr__ of its own).
 *   AT_PACK: a pack part (replay.packs.PackPart, a frozen pydantic model: tests/test_packs.py holds
 *            every subclass to it) never changes once made, so its attribute read is kept by
 *            (object, name) in `kept`, which holds a reference to the object (its address cannot be
 *            reused while kept) and to the value; an entry is replaced when another pair hashes to it.
 *
 * Anything else (a named tuple, an empty slot, which must raise) goes through PyObject_GetAttr, and
 * so does every first read: the value is always the one the generic read gives. Names must be
 * interned strings the module keeps for its lifetime (the caches compare them by address). */
#ifndef REPLAY_WD_ATTRS_H
#define REPLAY_WD_ATTRS_H

#include <Python.h>
#include <structmember.h> /* T_OBJECT_EX, READONLY: the slots' member descriptors */
#include <stdint.h>

enum { AT_GENERIC, AT_SLOT, AT_PACK };
#define TYPE_CACHE 1024 /* powers of two; the kernel reads about 80 (type, name) pairs */
#define KEPT_CACHE 4096
typedef struct {
    PyTypeObject *type;
    PyObject *name;
    unsigned int version;
    int at;
    Py_ssize_t offset; /* AT_SLOT: where the slot is */
    int writable;      /* AT_SLOT: set_attr may write it directly */
} TypeAt;
typedef struct {
    PyObject *obj, *name, *value;
} Kept;
static TypeAt type_at[TYPE_CACHE];
static Kept kept[KEPT_CACHE];
static PyObject *pack_part = NULL; /* replay.packs.PackPart, set by the module's setup() */

static inline uint64_t pair_hash(const void *a, const void *b) {
    return ((uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15u) ^ ((uint64_t)(uintptr_t)b * 0xC2B2AE3D27D4EB4Fu);
}

static TypeAt *type_of(PyObject *obj, PyObject *name) {
    PyTypeObject *t = Py_TYPE(obj);
    TypeAt *e = &type_at[(pair_hash(t, name) >> 32) & (TYPE_CACHE - 1)];
    if (e->type == t && e->name == name && e->version == t->tp_version_tag && e->version != 0) return e;
    PyObject *d = _PyType_Lookup(t, name); /* borrowed; gives the type its version tag */
    e->type = t;
    e->name = name;
    e->version = t->tp_version_tag;
    e->at = AT_GENERIC;
    e->offset = 0;
    e->writable = 0;
    if (d != NULL && Py_IS_TYPE(d, &PyMemberDescr_Type) && t->tp_getattro == PyObject_GenericGetAttr) {
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type == T_OBJECT_EX && m->offset > 0) {
            e->at = AT_SLOT;
            e->offset = m->offset;
            e->writable = !(m->flags & READONLY) && t->tp_setattro == PyObject_GenericSetAttr;
        }
    } else if (pack_part != NULL && PyType_IsSubtype(t, (PyTypeObject *)pack_part)) {
        e->at = AT_PACK;
    }
    return e;
}

/* PyObject_GetAttr(obj, name), through the cheaper cases above (a new reference; NULL with an error). */
static PyObject *get_attr(PyObject *obj, PyObject *name) {
    TypeAt *e = type_of(obj, name);
    if (e->at == AT_SLOT) {
        PyObject *v = *(PyObject **)((char *)obj + e->offset);
        if (v != NULL) return Py_NewRef(v);
    } else if (e->at == AT_PACK) {
        Kept *k = &kept[(pair_hash(obj, name) >> 32) & (KEPT_CACHE - 1)];
        if (k->obj == obj && k->name == name) return Py_NewRef(k->value);
        PyObject *v = PyObject_GetAttr(obj, name);
        if (v == NULL) return NULL;
        PyObject *old_obj = k->obj, *old_value = k->value;
        k->obj = Py_NewRef(obj);
        k->name = name; /* interned, held by the module */
        k->value = Py_NewRef(v);
        Py_XDECREF(old_obj);
        Py_XDECREF(old_value);
        return v;
    }
    return PyObject_GetAttr(obj, name);
}

/* PyObject_SetAttr(obj, name, v), a slot written directly; 0, or -1 with an error set. */
static int set_attr(PyObject *obj, PyObject *name, PyObject *v) {
    TypeAt *e = type_of(obj, name);
    if (!e->writable) return PyObject_SetAttr(obj, name, v);
    Py_XSETREF(*(PyObject **)((char *)obj + e->offset), Py_NewRef(v));
    return 0;
}

#endif
