/*===- Runtime.h - calling code that nd-compile built -------------*- C -*-===*\
|*                                                                            *|
|* The C interface of libnd_runtime.so and of every library (or object) that  *|
|* `nd-compile` builds. No MLIR or LLVM is needed to use it.                  *|
|*                                                                            *|
|* A compiled model exports two symbols: its entry, a function of type        *|
|* `nd_entry_fn` named by `nd-compile --entry NAME`, and `NAME_signature`, an *|
|* `nd_signature` describing the entry's inputs and outputs, which a host can *|
|* read at run time without a header.                                         *|
|*                                                                            *|
|*   nd_tensor inputs[2] = {...};                                             *|
|*   nd_tensor outputs[1] = {{0}};        (data NULL: nd allocates it)        *|
|*   char message[512];                                                       *|
|*   nd_context context = {0};                                                *|
|*   context.message = message;                                               *|
|*   context.message_size = sizeof message;                                   *|
|*   if (NAME(&context, inputs, 2, outputs, 1) != ND_OK)                      *|
|*     fprintf(stderr, "%s\n", message);   (the call changed nothing else)    *|
|*   ...                                                                      *|
|*   nd_tensor_free(&outputs[0]);                                             *|
|*                                                                            *|
|* Ownership, in one rule: the caller owns every buffer it passes in; an      *|
|* output whose `owner` nd set after a successful call is the caller's to     *|
|* release, with nd_tensor_free, and nothing else is. In detail:              *|
|*                                                                            *|
|* - Inputs are read only, except those the signature marks `donated`        *|
|*   (`nd-compile --donate I`): the call may update a donated input's buffer  *|
|*   in place and return it as an output (`nd_tensor_type.alias`).           *|
|* - An output with `data == NULL` is allocated by nd: after a successful     *|
|*   call its `data`, `shape`, `dtype`, `rank` and `owner` are set (`strides` *|
|*   NULL: contiguous, row-major), and nd_tensor_free releases it. An output  *|
|*   that is a donated input's buffer gets that buffer (nd_tensor_free then   *|
|*   releases only the shape).                                                *|
|* - An output with `data != NULL` is the caller's buffer: `dtype`, `rank`,   *|
|*   `shape` (and `strides`, or NULL for row-major) describe it, and the call *|
|*   checks them against the signature before it runs and against the shape  *|
|*   it computed before it writes anything: a buffer of another shape is an   *|
|*   ND_ERROR_INVALID_ARGUMENT and nothing is written past it. The result is  *|
|*   computed into the buffer itself where the library can (a library of      *|
|*   `nd-compile` for the CPU, `nd_signature.destinations`; a row-major       *|
|*   buffer aligned to its element size, sharing no memory with an input or   *|
|*   another output's buffer), else computed into nd's memory and copied      *|
|*   into it (`nd_context.copied_outputs` counts those). `owner` stays NULL.  *|
|* - A failed call hands no output over and allocates nothing that outlives   *|
|*   it; inputs that are not donated are untouched. An op whose run-time      *|
|*   check fails writes nothing, but ops before it in the same call may       *|
|*   already have updated a donated input or a caller's output buffer that    *|
|*   the call computes into (the copy of `data` a scatter starts with         *|
|*   included). One exception: a call whose compiled code cannot allocate a   *|
|*   buffer (ND_ERROR_OUT_OF_MEMORY, "cannot allocate N bytes") ends there    *|
|*   and does not release the buffers it allocated before.                    *|
|* - Dims that the signature names alike (`nd_tensor_type.dim_names`: an      *|
|*   ONNX model's symbolic dims, such as `N` of data[N, 5] and idx[N, 4])     *|
|*   must have one size in a call, in the inputs and in the caller's output   *|
|*   buffers: another is an ND_ERROR_INVALID_ARGUMENT naming both.            *|
|*                                                                            *|
|* Calls are independent: several threads may call one entry (or several     *|
|* libraries) at once, each with its own context, and each gets its own      *|
|* status and message. No call exits or aborts the process.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ND_C_RUNTIME_H
#define ND_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ND_RUNTIME_EXPORT __attribute__((visibility("default")))
#else
#define ND_RUNTIME_EXPORT
#endif

/* The version of this interface: the layouts below and the rules above. A
   compiled library records the version it was built for in its signature
   (`abi_version`); the runtime refuses calls of another version. */
#define ND_ABI_VERSION 2

/* A dim known at run time only, in `nd_tensor_type.dims`. */
#define ND_DYNAMIC (-1)

/* Element types, numbered in the order of nd's table of element types
   (nd/Runner/DTypes.def): ND_DTYPE_Bool 0 (one byte per element),
   ND_DTYPE_I8 1, ND_DTYPE_I16 2, ND_DTYPE_I32 3, ND_DTYPE_I64 4, ND_DTYPE_U8 5,
   ND_DTYPE_U16 6, ND_DTYPE_U32 7, ND_DTYPE_U64 8, ND_DTYPE_F16 9,
   ND_DTYPE_BF16 10, ND_DTYPE_F32 11, ND_DTYPE_F64 12, ND_DTYPE_Complex64 13,
   ND_DTYPE_Complex128 14. Tensors of MLIR type `index` are ND_DTYPE_I64.
   nd_dtype_name and nd_dtype_size describe each. */
typedef enum nd_dtype {
#define ND_DTYPE(ENUM, ...) ND_DTYPE_##ENUM,
#include "nd/Runner/DTypes.def"
  ND_DTYPE_COUNT
} nd_dtype;

/* What a call returns (and stores in `nd_context.status`). */
typedef enum nd_status {
  ND_OK = 0,
  /* The inputs or outputs do not fit the signature (count, dtype, rank, a
     static dim, two sizes of one named dim, a caller's output buffer of
     another shape), or an argument is NULL where it may not be. */
  ND_ERROR_INVALID_ARGUMENT = 1,
  /* A run-time check of the compiled code failed: an index out of range, a
     dynamic shape mismatch. The message names the op, its location in the
     model, the operand, the value and the dim. */
  ND_ERROR_CHECK_FAILED = 2,
  /* A buffer could not be allocated. */
  ND_ERROR_OUT_OF_MEMORY = 3,
  /* The library was built for another ND_ABI_VERSION than the runtime's. */
  ND_ERROR_ABI_MISMATCH = 4,
  /* (Libraries built with `nd-compile --target=cuda`) The CUDA driver is
     missing, has no device, or a driver call failed: the message names the
     call and the driver's error. */
  ND_ERROR_DRIVER = 5
} nd_status;

/* A tensor passed to or returned from a call. */
typedef struct nd_tensor {
  /* The first element (a tensor without elements may pass NULL as input). */
  void *data;
  /* `rank` sizes. */
  int64_t *shape;
  /* `rank` strides, in elements, or NULL: contiguous and row-major. A strided
     input is copied before the call (a donated input must be contiguous). */
  int64_t *strides;
  /* An nd_dtype. */
  int32_t dtype;
  int32_t rank;
  /* Set by nd on outputs it allocated: what nd_tensor_free releases. */
  void *owner;
} nd_tensor;

/* The per-call context. A NULL context means: default thread count, no
   message. */
typedef struct nd_context {
  /* In: the threads this call may use; 0: the library's default
     (`nd_signature.threads`), and if that is 0 too, the OpenMP runtime's
     (OMP_NUM_THREADS, or every core). */
  int32_t threads;
  /* Out: the call's status, as returned. */
  int32_t status;
  /* In: a buffer for the message of a failed call (NUL-terminated, truncated
     to `message_size`), or NULL; a successful call leaves "" in it. */
  char *message;
  size_t message_size;
  /* Out: the length of the full message (0 after a successful call); the
     message was truncated if it is at least `message_size`. */
  size_t message_length;
  /* Out: the number of the caller's output buffers (`data != NULL`) that the
     result was copied into after the call rather than computed into (see the
     ownership rules above); 0 when every one received its result in place. */
  int32_t copied_outputs;
} nd_context;

/* One input or output of an entry. */
typedef struct nd_tensor_type {
  /* An nd_dtype. */
  int32_t dtype;
  int32_t rank;
  /* `rank` dims: a size, or ND_DYNAMIC. */
  const int64_t *dims;
  /* The model's name of the input ("" when it has none; outputs: ""). */
  const char *name;
  /* Inputs: 1 if the call may update this input's buffer in place. */
  int32_t donated;
  /* Outputs: the position of the (donated) input whose buffer this output
     is, updated in place; -1 for a fresh buffer. */
  int32_t alias;
  /* `rank` names of the dims (a model's symbolic dims, such as ONNX's
     `dim_param`), "" for a dim without one, or NULL when no dim has one.
     Dims of one name have one size in a call. */
  const char *const *dim_names;
} nd_tensor_type;

/* The description of an entry that a compiled library exports as
   `<entry>_signature`. Everything but `threads` is constant. */
typedef struct nd_signature {
  /* ND_ABI_VERSION of the library. */
  int32_t abi_version;
  int32_t num_inputs;
  int32_t num_outputs;
  /* The library's default thread count (0: OpenMP's): calls whose context
     says 0 use it. Set it with nd_set_threads. */
  int32_t threads;
  /* The entry's C name. */
  const char *entry;
  const nd_tensor_type *inputs;
  const nd_tensor_type *outputs;
  /* 1 if the entry computes its outputs into the caller's buffers where it
     can (libraries that `nd-compile` builds for the CPU), 0 if it computes
     them into nd's memory, from which they are copied into a caller's
     buffer. */
  int32_t destinations;
} nd_signature;

/* The type of a compiled entry: returns an nd_status. `inputs` holds
   `num_inputs` tensors and `outputs` `num_outputs`, in the order of the
   signature; both counts must be the signature's. */
typedef int32_t (*nd_entry_fn)(nd_context *context, const nd_tensor *inputs,
                               size_t num_inputs, nd_tensor *outputs,
                               size_t num_outputs);

/* Releases an output nd allocated (its buffer unless it is a donated input's,
   and its shape) and clears its `data`, `shape` and `owner`. Does nothing to
   a tensor whose `owner` is NULL. */
ND_RUNTIME_EXPORT void nd_tensor_free(nd_tensor *tensor);

/* Sets the default thread count of the library that exports `signature`
   (0: OpenMP's default). */
ND_RUNTIME_EXPORT void nd_set_threads(nd_signature *signature,
                                      int32_t threads);

/* "ok", "invalid argument", "check failed", "out of memory",
   "ABI mismatch", "driver error", or "unknown status". */
ND_RUNTIME_EXPORT const char *nd_status_string(int32_t status);

/* "bool", "i8", ..., "f32", "complex128", or NULL for an unknown dtype. */
ND_RUNTIME_EXPORT const char *nd_dtype_name(int32_t dtype);

/* Bytes per element (bool: 1), or 0 for an unknown dtype. */
ND_RUNTIME_EXPORT size_t nd_dtype_size(int32_t dtype);

/* nd's version, "MAJOR.MINOR.PATCH". */
ND_RUNTIME_EXPORT const char *nd_runtime_version(void);

/* ND_ABI_VERSION of the runtime. */
ND_RUNTIME_EXPORT int32_t nd_runtime_abi_version(void);

#ifdef __cplusplus
}
#endif

#endif /* ND_C_RUNTIME_H */
