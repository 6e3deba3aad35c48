/* Two loops over the candidates' preference lists that numpy can only write as whole-array passes with
 * temporaries the size of the lists (JoSAA: 19.4 million ranked rows, 37 million candidate-pool pairs), each
 * made here in one pass with no temporary. Arrays come as buffers (numpy arrays, via the buffer protocol) of
 * the integer types the callers hold; the Python side is solver/data/walks.py; the loops check every index they read.
 *
 *   first_k(table, slots, at, k, out): for each row r, the first k[r] entries of row at[r] of `table` (a
 *       table of `slots` columns), appended to `out` (int32) in order.
 *   skip_full(pi, free, ptr, end, cutoff, lists, place): for each candidate f of `free`, move ptr[f] past
 *       the pairs whose pool's cutoff is a better place than f's on that pool's list (key = place[lists[pool] + f],
 *       or f itself where `lists` is None), stopping at end[f]. Returns how many of `free` were moved. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static int
get_buffer(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: a C-contiguous integer array is needed", name);
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (!strchr("bBhHiIlLqQ", *f) || f[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "%s: integer items are needed, not '%s'", name, view->format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* A buffer's items read as int64: its width and signedness worked out once, not per item. */
typedef struct { const char *buf; int kind; } Items;

static Items
items(const Py_buffer *v)
{
    const char *f = v->format ? v->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    int is_unsigned = strchr("BHILQ", *f) != NULL;
    return (Items){(const char *)v->buf, (int)v->itemsize * 2 + is_unsigned};
}

static inline int64_t
item(Items a, Py_ssize_t i)
{
    switch (a.kind) {
    case 2: return ((const int8_t *)a.buf)[i];
    case 3: return ((const uint8_t *)a.buf)[i];
    case 4: return ((const int16_t *)a.buf)[i];
    case 5: return ((const uint16_t *)a.buf)[i];
    case 8: return ((const int32_t *)a.buf)[i];
    case 9: return ((const uint32_t *)a.buf)[i];
    default: return ((const int64_t *)a.buf)[i];
    }
}

/* first_k's loop over buffers of known item types (TT table, AT cells, KT counts). */
#define FIRST_K(TT, AT, KT) { \
    const TT *tt = (const TT *)t.buf; const AT *aa = (const AT *)a.buf; const KT *cc = (const KT *)c.buf; \
    for (Py_ssize_t r = 0; r < rows; r++) { \
        int64_t base = (int64_t)aa[r] * (int64_t)slots, n = (int64_t)cc[r]; \
        if (n < 0 || n > slots || base < 0 || base + n > cells || done + n > room) { ok = 0; break; } \
        for (int64_t s = 0; s < n; s++) \
            dst[done++] = (int32_t)tt[base + s]; \
    } \
}

static PyObject *
first_k(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_table, *o_at, *o_k, *o_out;
    Py_ssize_t slots;
    if (!PyArg_ParseTuple(args, "OnOOO", &o_table, &slots, &o_at, &o_k, &o_out))
        return NULL;
    Py_buffer table, at, k, out;
    if (get_buffer(o_table, &table, 0, "table") < 0) return NULL;
    if (get_buffer(o_at, &at, 0, "at") < 0) { PyBuffer_Release(&table); return NULL; }
    if (get_buffer(o_k, &k, 0, "k") < 0) { PyBuffer_Release(&table); PyBuffer_Release(&at); return NULL; }
    if (get_buffer(o_out, &out, 1, "out") < 0) {
        PyBuffer_Release(&table); PyBuffer_Release(&at); PyBuffer_Release(&k); return NULL;
    }
    Py_ssize_t rows = at.len / at.itemsize, cells = table.len / table.itemsize, room = out.len / out.itemsize;
    int ok = out.itemsize == 4 && k.len / k.itemsize == rows;
    Py_ssize_t done = 0;
    if (ok) {
        int32_t *dst = (int32_t *)out.buf;
        Items t = items(&table), a = items(&at), c = items(&k);
        Py_BEGIN_ALLOW_THREADS
        /* the callers' types read directly (twice as fast as `item`'s switch per entry), any other through it */
        if (t.kind == 4 && a.kind == 8 && c.kind == 3)
            FIRST_K(int16_t, int32_t, uint8_t)
        else if (t.kind == 4 && a.kind == 16 && c.kind == 3)
            FIRST_K(int16_t, int64_t, uint8_t)
        else if (t.kind == 8 && a.kind == 8 && c.kind == 8)
            FIRST_K(int32_t, int32_t, int32_t)
        else if (t.kind == 8 && a.kind == 8 && c.kind == 3)
            FIRST_K(int32_t, int32_t, uint8_t)
        else {
            for (Py_ssize_t r = 0; r < rows && ok; r++) {
                int64_t base = item(a, r) * (int64_t)slots, n = item(c, r);
                if (n < 0 || n > slots || base < 0 || base + n > cells || done + n > room) { ok = 0; break; }
                for (int64_t s = 0; s < n; s++)
                    dst[done++] = (int32_t)item(t, base + s);
            }
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&table); PyBuffer_Release(&at); PyBuffer_Release(&k); PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "first_k: a row's cell or count falls outside the table, or out is short");
        return NULL;
    }
    return PyLong_FromSsize_t(done);
}

static PyObject *
skip_full(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_pi, *o_free, *o_ptr, *o_end, *o_cutoff, *o_lists, *o_place;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &o_pi, &o_free, &o_ptr, &o_end, &o_cutoff, &o_lists, &o_place))
        return NULL;
    Py_buffer pi, free_, ptr, end, cutoff, lists, place;
    int several = o_lists != Py_None;
    if (get_buffer(o_pi, &pi, 0, "pi") < 0) return NULL;
    if (get_buffer(o_free, &free_, 0, "free") < 0) { PyBuffer_Release(&pi); return NULL; }
    if (get_buffer(o_ptr, &ptr, 1, "ptr") < 0) { PyBuffer_Release(&pi); PyBuffer_Release(&free_); return NULL; }
    if (get_buffer(o_end, &end, 0, "end") < 0) {
        PyBuffer_Release(&pi); PyBuffer_Release(&free_); PyBuffer_Release(&ptr); return NULL;
    }
    if (get_buffer(o_cutoff, &cutoff, 0, "cutoff") < 0) {
        PyBuffer_Release(&pi); PyBuffer_Release(&free_); PyBuffer_Release(&ptr); PyBuffer_Release(&end); return NULL;
    }
    if (several && get_buffer(o_lists, &lists, 0, "lists") < 0) {
        PyBuffer_Release(&pi); PyBuffer_Release(&free_); PyBuffer_Release(&ptr); PyBuffer_Release(&end);
        PyBuffer_Release(&cutoff); return NULL;
    }
    if (several && get_buffer(o_place, &place, 0, "place") < 0) {
        PyBuffer_Release(&pi); PyBuffer_Release(&free_); PyBuffer_Release(&ptr); PyBuffer_Release(&end);
        PyBuffer_Release(&cutoff); PyBuffer_Release(&lists); return NULL;
    }
    Py_ssize_t n_free = free_.len / free_.itemsize, n_pairs = pi.len / pi.itemsize;
    Py_ssize_t n_who = ptr.len / ptr.itemsize, n_pools = cutoff.len / cutoff.itemsize;
    Py_ssize_t n_place = several ? place.len / place.itemsize : 0;
    int ok = ptr.itemsize == 8 && end.len / end.itemsize == n_who && (!several || lists.len / lists.itemsize == n_pools);
    Py_ssize_t moved = 0;
    if (ok) {
        int64_t *p = (int64_t *)ptr.buf;
        Items P = items(&pi), F = items(&free_), E = items(&end), C = items(&cutoff);
        Items L = several ? items(&lists) : P, Q = several ? items(&place) : P;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t j = 0; j < n_free && ok; j++) {
            int64_t f = item(F, j), stop, at;
            if (f < 0 || f >= n_who) { ok = 0; break; }
            stop = item(E, f);
            if (stop > n_pairs || p[f] < 0) { ok = 0; break; }
            for (at = p[f]; at < stop; at++) {
                int64_t pool = item(P, at), key;
                if (pool < 0 || pool >= n_pools) { ok = 0; break; }
                if (several) {
                    int64_t q = item(L, pool) + f;
                    if (q < 0 || q >= n_place) { ok = 0; break; }
                    key = item(Q, q);
                } else {
                    key = f;
                }
                if (!(item(C, pool) < key))
                    break;
            }
            moved += at != p[f];
            p[f] = at;
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&pi); PyBuffer_Release(&free_); PyBuffer_Release(&ptr); PyBuffer_Release(&end);
    PyBuffer_Release(&cutoff);
    if (several) { PyBuffer_Release(&lists); PyBuffer_Release(&place); }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "skip_full: an index falls outside its array, or ptr is not int64");
        return NULL;
    }
    return PyLong_FromSsize_t(moved);
}

static PyMethodDef methods[] = {
    {"first_k", first_k, METH_VARARGS, "first_k(table, slots, at, k, out): each row's first k table entries."},
    {"skip_full", skip_full, METH_VARARGS,
     "skip_full(pi, free, ptr, end, cutoff, lists, place): move each free candidate past pools that would turn "
     "her away."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__core(void)
{
    return PyModule_Create(&module);
}
