/*===- RuntimeABI.h - nd's run-time ABI, one home -----------------*- C -*-===*\
|*                                                                            *|
|* Every name that nd's generated code and its hosts share, and the           *|
|* signatures behind them. The compiler side (the lowering, the LLVM stage of *|
|* nd-to-llvm, nd-compile, JitFunction) spells these names only through this  *|
|* header; the hosts (libnd_runtime.so, libnd_runner_utils.so, JitFunction)   *|
|* define or resolve the functions through it. MLIR-free and LLVM-free, C and *|
|* C++. Not an application interface: applications use nd-c/Runtime.h.       *|
|*                                                                            *|
|* A function that a host defines is named once, by a macro: the declaration  *|
|* below uses the macro, the host defines the function through the macro, and *|
|* ND_ABI_NAME gives the string the compiler emits and a JIT resolves, so the *|
|* three cannot drift apart.                                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ND_C_RUNTIMEABI_H
#define ND_C_RUNTIMEABI_H

#include "nd-c/Runtime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ND_ABI_STRINGIFY_(symbol) #symbol
/* The name of a symbol given by one of the macros below, as a string. */
#define ND_ABI_NAME(symbol) ND_ABI_STRINGIFY_(symbol)

/* What --lower-scatter and --convert-nd-to-gpu leave for the LLVM stage
   (reports of failed checks, sites, the thread count, store fences, the GPU
   error record) are the ops of nd's run-time dialect, `nd_rt`
   (include/nd/Dialect/NdRuntime): they have no names of their own. */

/*===----------------------------------------------------------------------===*
 * The messages of failed checks in generated code
 *
 * Private constant globals of the generated code: one per message of a
 * report outside shared functions, and for the sites of shared functions one
 * table of pointers into one array of texts "<location>: <op>: <text>".
 *===----------------------------------------------------------------------===*/

#define ND_ABI_MESSAGE_GLOBAL "__nd_msg"
#define ND_ABI_SITE_TEXT_GLOBAL "__nd_site_text"
#define ND_ABI_SITE_TABLE_GLOBAL "__nd_sites"
/* On the GPU's host schedule: the messages of a function's error record. */
#define ND_ABI_GPU_MESSAGES_GLOBAL "__nd_gpu_messages"

/*===----------------------------------------------------------------------===*
 * Error reports
 *===----------------------------------------------------------------------===*/

/* The state of one call, which a host creates for each call of a compiled
   entry. Opaque to generated code: it passes the pointer it was given (its
   entry's last argument, see --nd-call-state) to every report, and NULL where
   no host gave one (code run by mlir-runner). */
typedef struct nd_call_state nd_call_state;

/* A failed run-time check: `format` is the full message, a printf format
   with two `%lld` (the offending value and the size or dim it was checked
   against). Called from any thread of the call, possibly several at once;
   the first message of a call is the one to keep. Never exits in
   libnd_runtime.so and JitFunction (the op that failed writes nothing and the
   call runs to its end); libnd_runner_utils.so, for mlir-runner, prints
   "error: <message>" and exits with status 1. */
#define ND_ABI_REPORT_ERROR nd_report_error
void ND_ABI_REPORT_ERROR(nd_call_state *state, const char *format, int64_t a,
                         int64_t b);

/* An allocation of the generated code failed (--nd-check-allocations):
   `format` names the location and has one `%lld`, the bytes asked for
   (`bytes`; `unused` is 0). Reported and kept as nd_report_error's, except
   that the call's status is ND_ERROR_OUT_OF_MEMORY; the generated code then
   returns from the entry without touching the buffer (the buffers the call
   had allocated before are not released). libnd_runner_utils.so prints the
   message and exits with status 1. */
#define ND_ABI_REPORT_OUT_OF_MEMORY nd_report_out_of_memory
void ND_ABI_REPORT_OUT_OF_MEMORY(nd_call_state *state, const char *format,
                                 int64_t bytes, int64_t unused);

/*===----------------------------------------------------------------------===*
 * Buffers
 *
 * With nd-to-llvm's `runtime-allocator`, every buffer of generated code comes
 * from these (upstream's names: finalize-memref-to-llvm with
 * use-generic-functions); hosts back them with nd's allocator.
 *===----------------------------------------------------------------------===*/

#define ND_ABI_ALLOC _mlir_memref_to_llvm_alloc
#define ND_ABI_ALIGNED_ALLOC _mlir_memref_to_llvm_aligned_alloc
#define ND_ABI_FREE _mlir_memref_to_llvm_free
void *ND_ABI_ALLOC(size_t size);
void *ND_ABI_ALIGNED_ALLOC(size_t alignment, size_t size);
void ND_ABI_FREE(void *buffer);

/*===----------------------------------------------------------------------===*
 * Conversions that code generation calls
 *
 * For a CPU without bfloat16 conversion instructions (x86-64-v3, nd-compile's
 * default), LLVM's x86-64 code generator calls compiler-rt's conversions to
 * bfloat16, which the C library's support library of GCC 12 (libgcc) lacks.
 * libnd_runtime.so and JitFunction provide them, rounding to nearest even
 * and keeping NaNs NaN. LLVM takes a bfloat16 result in the low 16 bits of
 * XMM0, where a function returning `float` leaves its bits: they return the
 * bfloat16 bits as the low half of a float's.
 *===----------------------------------------------------------------------===*/

#define ND_ABI_TRUNC_F32_TO_BF16 __truncsfbf2
#define ND_ABI_TRUNC_F64_TO_BF16 __truncdfbf2
float ND_ABI_TRUNC_F32_TO_BF16(float value);
float ND_ABI_TRUNC_F64_TO_BF16(double value);

/*===----------------------------------------------------------------------===*
 * Threads: LLVM's OpenMP runtime
 *===----------------------------------------------------------------------===*/

/* What `nd_rt.max_threads` becomes: the team size of the next parallel region
   of the calling thread. */
#define ND_ABI_OMP_MAX_THREADS omp_get_max_threads
int ND_ABI_OMP_MAX_THREADS(void);
/* What a host calls around a call to give it a thread count: the setting
   belongs to the calling thread only. */
#define ND_ABI_OMP_SET_THREADS omp_set_num_threads
void ND_ABI_OMP_SET_THREADS(int threads);

/*===----------------------------------------------------------------------===*
 * Entries of compiled code
 *
 * After --nd-return-through-pointer and --nd-call-state, an entry with inputs
 * I_0..I_n-1 (each an expanded memref descriptor: allocated pointer, aligned
 * pointer, offset, `rank` sizes, `rank` strides) and at least one result
 * takes (I_0 fields..., I_n-1 fields..., results, state): `results` points to
 * the results' descriptors laid out one after the other (8-byte fields, no
 * padding), `state` is the call's nd_call_state. Without results, the
 * `results` argument is absent.
 *
 * An entry that --nd-result-destinations rewrote (its signature says
 * `destinations`) takes one more descriptor per result, D_0..D_m-1, after the
 * inputs' and of the results' types: (I_0 fields..., I_n-1 fields..., D_0
 * fields..., D_m-1 fields..., results, state). A destination with a non-null
 * aligned pointer and the sizes the result turns out to have receives the
 * result, and the result's descriptor is then that destination's; any other
 * (the host passes zeros for "none") is left alone.
 *===----------------------------------------------------------------------===*/

/* An entry called with its arguments packed: `arguments[i]` points to the
   value of argument i (the layout of MLIR's ExecutionEngine wrappers, and of
   the wrapper --nd-export-entry generates). */
typedef void (*nd_packed_fn)(void **arguments);

/* What an exported entry of a compiled library calls (see
   --nd-export-entry): checks the tensors against `signature`, calls `packed`
   with their descriptors, the results' storage and a fresh call state, and
   hands the results over as nd-c/Runtime.h says. */
#define ND_ABI_INVOKE nd_runtime_invoke
ND_RUNTIME_EXPORT int32_t ND_ABI_INVOKE(const nd_signature *signature,
                                        nd_packed_fn packed,
                                        nd_context *context,
                                        const nd_tensor *inputs,
                                        size_t num_inputs,
                                        nd_tensor *outputs,
                                        size_t num_outputs);

/* The exported signature of entry NAME is NAME followed by this. */
#define ND_ABI_SIGNATURE_SUFFIX "_signature"

/* What the entries of a library that `nd-compile --target=cuda` built call
   (libnd_cuda_runtime.so, see nd-c/CudaRuntime.h): the device form, NAME,
   runs `packed` on the caller's device tensors and `stream` (a CUstream);
   the host form, NAME followed by ND_ABI_HOST_ENTRY_SUFFIX, copies host
   tensors to the device and the results back. Both check the tensors and
   hand the results over as `nd_runtime_invoke` does. */
#define ND_ABI_CUDA_INVOKE nd_cuda_invoke
#define ND_ABI_CUDA_INVOKE_HOST nd_cuda_invoke_host
#define ND_ABI_HOST_ENTRY_SUFFIX "_host"
ND_RUNTIME_EXPORT int32_t ND_ABI_CUDA_INVOKE(
    const nd_signature *signature, nd_packed_fn packed, nd_context *context,
    void *stream, const nd_tensor *inputs, size_t num_inputs,
    nd_tensor *outputs, size_t num_outputs);
ND_RUNTIME_EXPORT int32_t ND_ABI_CUDA_INVOKE_HOST(
    const nd_signature *signature, nd_packed_fn packed, nd_context *context,
    const nd_tensor *inputs, size_t num_inputs, nd_tensor *outputs,
    size_t num_outputs);

/*===----------------------------------------------------------------------===*
 * What the host code of nd-to-gpu calls in libnd_cuda_runtime.so
 *
 * Besides upstream's `mgpu*` entry points: functions with MLIR's C interface
 * (`llvm.emit_c_interface` declarations; the library defines the
 * ND_ABI_CIFACE name, whose first argument receives the result's memref
 * descriptor), all inside the call scope of nd-c/CudaRuntime.h:
 *
 * - ND_ABI_CUDA_ERROR_RECORD(i64 words) : memref<?xi64>: the error record of
 *   the call's stream (at least `words` words, zero unless a failure of an
 *   earlier call has not been reported yet);
 * - ND_ABI_CUDA_ERROR_RECORD_END(memref<?xi64> record, memref<?xi8>
 *   messages): the function's checks are queued: the runtime reports a code
 *   the record holds once it has run, with the code-th message of
 *   `messages` (NUL-terminated texts one after the other, an empty text
 *   after the last);
 * - ND_ABI_CUDA_SCRATCH(i64 bytes) : memref<?xi8>: a buffer of the call's
 *   scratch arena, valid until the call's end (freeing it is harmless and
 *   not needed): buffers the host code frees before it returns.
 *===----------------------------------------------------------------------===*/

#define ND_ABI_CIFACE_(symbol) _mlir_ciface_##symbol
/* The C name of the function that an `llvm.emit_c_interface` declaration
   named `symbol` calls. */
#define ND_ABI_CIFACE(symbol) ND_ABI_CIFACE_(symbol)

#define ND_ABI_CUDA_ERROR_RECORD nd_cuda_error_record
#define ND_ABI_CUDA_ERROR_RECORD_END nd_cuda_error_record_end
#define ND_ABI_CUDA_SCRATCH nd_cuda_scratch

#ifdef __cplusplus
}
#endif

#endif /* ND_C_RUNTIMEABI_H */
