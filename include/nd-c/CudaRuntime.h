/*===- CudaRuntime.h - calling code that nd-to-gpu built ----------*- C -*-===*\
|*                                                                            *|
|* The C interface of libnd_cuda_runtime.so, the run-time library of the GPU  *|
|* code nd's `nd-to-gpu` pipeline generates. No MLIR, LLVM or CUDA toolkit is *|
|* needed to use it, and none to load it: the library finds the CUDA driver   *|
|* (libcuda.so.1) at run time, and reports its absence as an error status.    *|
|* It also exports the functions of nd-c/Runtime.h that need no call          *|
|* (nd_status_string, nd_dtype_name, nd_dtype_size, nd_runtime_version,       *|
|* nd_runtime_abi_version, nd_set_threads, nd_tensor_free).                   *|
|*                                                                            *|
|* A call of a compiled function runs between nd_cuda_begin and nd_cuda_end,  *|
|* on one thread:                                                             *|
|*                                                                            *|
|*   char message[512];                                                       *|
|*   if (nd_cuda_begin(stream) == ND_CUDA_OK)   (a CUstream; NULL: the legacy *|
|*     _mlir_ciface_NAME(&result, &arg0, &arg1); default stream)              *|
|*   if (nd_cuda_end(message, sizeof message) != ND_CUDA_OK)                  *|
|*     fprintf(stderr, "%s\n", message);                                      *|
|*   ...                                                                      *|
|*   nd_cuda_free(result.allocated, stream);  (a fresh result nd allocated)   *|
|*                                                                            *|
|* Streams, as CUDA libraries (cuBLAS, cuDNN) have them. Every GPU operation  *|
|* of the call (launches, copies, sets, allocations from the stream-ordered   *|
|* pool, frees) goes to exactly the stream given to nd_cuda_begin, in order:  *|
|* NULL is the legacy default stream, CU_STREAM_LEGACY and                    *|
|* CU_STREAM_PER_THREAD are the driver's; nd never substitutes a stream of    *|
|* its own. The call returns once its work is queued, without waiting for the *|
|* GPU: order later work on the stream (or wait for it) as for any kernel.    *|
|* Calls on one stream from several threads are serialized by nd.             *|
|*                                                                            *|
|* Errors. A failed driver call, or a failed check the host can see (the      *|
|* driver missing, an allocation), makes nd_cuda_end return its status with   *|
|* the message; the later operations of the call do nothing. A failed         *|
|* run-time check of the kernels (an index out of range, a dynamic shape      *|
|* mismatch) is found on the GPU, after the call has returned: it is reported *|
|* - by the next nd_cuda_begin on the same stream that finds it (the          *|
|*   "next call"): begin returns ND_CUDA_ERROR_CHECK_FAILED, the call runs    *|
|*   nothing and its nd_cuda_end returns the same status with nd's message    *|
|*   (the op, its location, the operand, the value, the dim);                 *|
|* - or by nd_cuda_synchronize(stream), which waits for the stream;           *|
|* - or, in synchronous mode (nd_cuda_set_synchronous(1), or the environment  *|
|*   variable ND_CUDA_SYNCHRONOUS=1), by the failing call's own nd_cuda_end,  *|
|*   which then waits for the stream.                                         *|
|* The op whose check failed writes nothing, and neither does any kernel of   *|
|* nd queued on that stream after it until the failure is reported: the      *|
|* results of those calls are unspecified. Each failure is reported once;     *|
|* the call after the report runs normally. Nothing exits or aborts the       *|
|* process.                                                                   *|
|*                                                                            *|
|* Buffers: inputs are the caller's device buffers (a CUdeviceptr, or any     *|
|* pointer the driver's unified addressing accepts); a function's fresh       *|
|* results are allocated by nd from the device's stream-ordered memory pool   *|
|* on the call's stream and released with nd_cuda_free; a result that is a   *|
|* donated input is that input's buffer (nd_cuda_free ignores buffers nd did  *|
|* not allocate). Scratch comes from a buffer nd keeps per stream.            *|
|*                                                                            *|
|* The library also defines the `mgpu*` functions that MLIR's gpu-to-llvm     *|
|* lowering calls, what nd's host code calls (nd-c/RuntimeABI.h) and         *|
|* `nd_report_error`, the error report of nd's kernels run on the host.       *|
|*                                                                            *|
|* Libraries that `nd-compile --target=cuda` builds                           *|
|* ------------------------------------------------                           *|
|* export the entry NAME in two forms and its description NAME_signature      *|
|* (the nd_signature of nd-c/Runtime.h), and need this library alone:         *|
|*                                                                            *|
|*   NAME(&context, stream, inputs, 2, outputs, 1)       (nd_cuda_entry_fn)   *|
|*   NAME_host(&context, inputs, 2, outputs, 1)          (nd_entry_fn)        *|
|*   ...                                                                      *|
|*   nd_cuda_tensor_free(&outputs[0]);                                        *|
|*                                                                            *|
|* Both take nd_tensor inputs and outputs and an nd_context, check them       *|
|* against the signature and return an nd_status with nd's message (the op,   *|
|* its location, the operand, the value, the dim) as a CPU entry does         *|
|* (nd-c/Runtime.h): outputs are the caller's buffers (`data` set; the result *|
|* is copied into them after its shape is checked) or nd's (`data` NULL;      *|
|* `owner` set, released by one call of nd_cuda_tensor_free); a donated input *|
|* may be updated in place and be an output's buffer; nothing exits. What     *|
|* differs from a CPU entry:                                                  *|
|*                                                                            *|
|* - The device form's buffers, inputs and outputs, are device memory (a      *|
|*   CUdeviceptr, or a pointer unified addressing accepts), and the fresh     *|
|*   outputs it allocates are too (from the stream-ordered pool, on           *|
|*   `stream`). Its work, the copies into the caller's output buffers         *|
|*   included, is queued on `stream` (as nd_cuda_begin takes it) and the call *|
|*   returns without waiting. Its failed checks are reported asynchronously,  *|
|*   as above: by the next call on `stream` (of any entry, returning          *|
|*   ND_ERROR_CHECK_FAILED without running) or by nd_cuda_synchronize; the    *|
|*   call that failed returns ND_OK and its outputs are unspecified. In       *|
|*   synchronous mode the call waits for `stream` before it hands its outputs *|
|*   over, and a failed check is its own status (no output written). Strided  *|
|*   inputs and outputs are copied a row at a time.                           *|
|* - The host form takes host buffers: it copies the inputs to the device on  *|
|*   a stream of nd's per thread, runs the device form's work there, queues   *|
|*   the copies of the results back into the caller's buffers, into donated   *|
|*   inputs (the output that is a donated input's buffer is that host buffer) *|
|*   or into host buffers nd allocates, and waits for the stream once; its    *|
|*   failed checks are its own status, and a failed call writes no output.    *|
|* - `nd_context.threads` and `nd_signature.threads` mean nothing.            *|
|* - ND_ERROR_DRIVER: the driver is missing (the message starts "no CUDA      *|
|*   driver"), has no device, or a driver call failed. Without a driver a     *|
|*   call returns it after the checks that need no device (the counts; for    *|
|*   the host form, the caller's output buffers too), and so do later calls.  *|
|* - A device output nd allocated is released by nd_cuda_tensor_free after    *|
|*   the work queued on the stream of the call that made it.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ND_C_CUDARUNTIME_H
#define ND_C_CUDARUNTIME_H

#include "nd-c/Runtime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ND_CUDA_EXPORT __attribute__((visibility("default")))
#else
#define ND_CUDA_EXPORT
#endif

/* Statuses (the numbers of nd-c/Runtime.h where they mean the same). */
#define ND_CUDA_OK 0
/* A run-time check of the compiled code failed. */
#define ND_CUDA_ERROR_CHECK_FAILED 2
/* A device buffer could not be allocated. */
#define ND_CUDA_ERROR_OUT_OF_MEMORY 3
/* The CUDA driver is missing, has no device, or a driver call failed (the
   message names the call and the driver's error). */
#define ND_CUDA_ERROR_DRIVER 5

/* Begins a call on the calling thread: the generated code's GPU work goes to
   `stream` (a CUstream; NULL: the legacy default stream). Returns
   ND_CUDA_OK; the status of a driver that cannot be used; or the failed
   check of an earlier call on `stream` that nd has found since it was last
   asked (ND_CUDA_ERROR_CHECK_FAILED). After an error the call runs nothing,
   and nd_cuda_end returns that status with its message. A call the thread
   began and did not end is ended first. */
ND_CUDA_EXPORT int32_t nd_cuda_begin(void *stream);

/* Ends the call of the calling thread: returns its status and writes its
   message (NUL-terminated, truncated to `message_size`; "" after success)
   into `message` unless NULL. In synchronous mode it first waits for the
   call's stream and reports the call's own failed check. */
ND_CUDA_EXPORT int32_t nd_cuda_end(char *message, size_t message_size);

/* Waits for `stream` (NULL: the legacy default stream) and returns the first
   failed check of nd's calls on it that was not reported yet
   (ND_CUDA_ERROR_CHECK_FAILED, with its message), the driver's error, or
   ND_CUDA_OK. */
ND_CUDA_EXPORT int32_t nd_cuda_synchronize(void *stream, char *message,
                                           size_t message_size);

/* Whether every call waits for its stream and returns its own failed check
   (1), or returns once its work is queued (0, the default unless the
   environment variable ND_CUDA_SYNCHRONOUS is set to 1). For the whole
   process; returns the previous setting. */
ND_CUDA_EXPORT int32_t nd_cuda_set_synchronous(int32_t synchronous);

/* Whether a CUDA device can be used; if not, writes why into `message`. */
ND_CUDA_EXPORT int32_t nd_cuda_available(char *message, size_t message_size);

/* Device buffers for hosts without a CUDA library of their own: allocates
   `bytes` (from the pool, usable on any stream at return; NULL for 0 bytes
   or on failure, with the reason in the thread's last message); frees a
   buffer nd allocated after the work queued on `stream` (NULL: the legacy
   default stream); copies `bytes` between host and device memory on the
   legacy default stream and waits (nd_cuda_copy), or queues the copy on
   `stream` (nd_cuda_copy_async; from pageable host memory the driver may
   return only once the copy is done). */
ND_CUDA_EXPORT void *nd_cuda_alloc(size_t bytes);
ND_CUDA_EXPORT void nd_cuda_free(void *buffer, void *stream);
ND_CUDA_EXPORT int32_t nd_cuda_copy(void *dst, const void *src, size_t bytes);
ND_CUDA_EXPORT int32_t nd_cuda_copy_async(void *dst, const void *src,
                                          size_t bytes, void *stream);

/* The message of the last failed runtime function of the calling thread
   (nd_cuda_alloc, nd_cuda_copy, nd_cuda_available, nd_cuda_synchronize). */
ND_CUDA_EXPORT const char *nd_cuda_last_message(void);

/* What the runtime has asked of the driver since the process started, for
   hosts that measure a call's cost: kernel launches, copies, memory sets,
   waits for a stream or event, allocations (device, pinned host), frees,
   and lookups of a kernel by name. */
typedef struct nd_cuda_call_counts {
  uint64_t launches;
  uint64_t copies;
  uint64_t memsets;
  uint64_t synchronizations;
  uint64_t allocations;
  uint64_t frees;
  uint64_t lookups;
} nd_cuda_call_counts;
ND_CUDA_EXPORT void nd_cuda_driver_calls(nd_cuda_call_counts *counts);

/* The device form of an entry of a library that nd-compile --target=cuda
   built; its host form is an nd_entry_fn (nd-c/Runtime.h). */
typedef int32_t (*nd_cuda_entry_fn)(nd_context *context, void *stream,
                                    const nd_tensor *inputs, size_t num_inputs,
                                    nd_tensor *outputs, size_t num_outputs);

/* Releases an output that an entry of such a library allocated (a device
   buffer for the device form, after the work queued on the stream of its
   call; a host buffer for the host form; and its shape) and clears its
   `data`, `shape` and `owner`. Does nothing to a tensor whose `owner` is
   NULL. */
ND_CUDA_EXPORT void nd_cuda_tensor_free(nd_tensor *tensor);

#ifdef __cplusplus
}
#endif

#endif /* ND_C_CUDARUNTIME_H */
