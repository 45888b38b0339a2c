/*===- CudaRuntime.h - calling code that nd-to-gpu built ----------*- C -*-===*\
|*                                                                            *|
|* The C interface of libnd_cuda_runtime.so, the run-time library of the GPU  *|
|* code nd's `nd-to-gpu` pipeline generates. No MLIR, LLVM or CUDA toolkit is *|
|* needed to use it, and none to load it: the library finds the CUDA driver   *|
|* (libcuda.so.1) at run time, and reports its absence as an error status.    *|
|*                                                                            *|
|* A call of a compiled function runs between nd_cuda_begin and nd_cuda_end,  *|
|* on one thread:                                                             *|
|*                                                                            *|
|*   char message[512];                                                       *|
|*   nd_cuda_begin(stream);           (a CUstream, or NULL: nd's own stream)  *|
|*   _mlir_ciface_NAME(&result, &arg0, &arg1);   (memref descriptors of       *|
|*                                                device buffers)             *|
|*   if (nd_cuda_end(message, sizeof message) != ND_CUDA_OK)                  *|
|*     fprintf(stderr, "%s\n", message);                                      *|
|*   ...                                                                      *|
|*   nd_cuda_free(result.allocated);  (a fresh result nd allocated)           *|
|*                                                                            *|
|* Every GPU operation of the call runs on the stream given to nd_cuda_begin, *|
|* in order; the call returns once they have run (it reads the device's error *|
|* record). A failed run-time check (an index out of range, a dynamic shape   *|
|* mismatch) or a failed driver call makes nd_cuda_end return an error status *|
|* with the message; the operations after a failed one do nothing. Nothing    *|
|* exits or aborts the process. A later call starts afresh.                   *|
|*                                                                            *|
|* Buffers: inputs are the caller's device buffers (a CUdeviceptr, or any     *|
|* pointer the driver's unified addressing accepts); a function's fresh       *|
|* results are allocated by nd from the device's stream-ordered memory pool   *|
|* and released with nd_cuda_free; a result that is a donated input is that   *|
|* input's buffer (nd_cuda_free ignores buffers nd did not allocate).         *|
|*                                                                            *|
|* The library also defines the `mgpu*` functions that MLIR's gpu-to-llvm     *|
|* lowering calls, and `nd_report_error`, the error report of nd's generated  *|
|* code, which records the message of the call in progress.                   *|
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
|*   outputs it allocates are too (from the stream-ordered pool). Its work    *|
|*   runs on `stream` (a CUstream; NULL: nd's stream of the thread) and the   *|
|*   call returns once the kernels have run (it reads their error record);    *|
|*   the copies into the caller's output buffers are queued on `stream`       *|
|*   behind them. Strided inputs and outputs are copied a row at a time.      *|
|* - The host form takes host buffers: it copies the inputs to the device,    *|
|*   runs the device form's work on nd's stream, and copies the results back  *|
|*   into the caller's buffers, into donated inputs (the output that is a     *|
|*   donated input's buffer is that host buffer) or into host buffers nd      *|
|*   allocates; it returns when they are there.                               *|
|* - `nd_context.threads` and `nd_signature.threads` mean nothing.            *|
|* - ND_ERROR_DRIVER: the driver is missing (the message starts "no CUDA      *|
|*   driver"), has no device, or a driver call failed. Without a driver a     *|
|*   call returns it after the checks that need no device (the counts; for    *|
|*   the host form, the caller's output buffers too), and so do later calls.  *|
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
   `stream` (a CUstream; NULL: a stream nd creates for the thread). Returns
   ND_CUDA_OK, or the status of a driver that cannot be used (the call then
   runs nothing, and nd_cuda_end returns that status with its message). */
ND_CUDA_EXPORT int32_t nd_cuda_begin(void *stream);

/* Ends the call of the calling thread: returns its status and writes its
   message (NUL-terminated, truncated to `message_size`; "" after success)
   into `message` unless NULL. */
ND_CUDA_EXPORT int32_t nd_cuda_end(char *message, size_t message_size);

/* Whether a CUDA device can be used; if not, writes why into `message`. */
ND_CUDA_EXPORT int32_t nd_cuda_available(char *message, size_t message_size);

/* Device buffers for hosts without a CUDA library of their own (the host
   form of a call): allocates `bytes` (NULL for 0 bytes or on failure, with
   the reason in the thread's last message), frees a buffer nd allocated
   (after the work queued on `stream` that uses it; NULL: nd's stream of the
   thread), copies between host and device memory (synchronous). */
ND_CUDA_EXPORT void *nd_cuda_alloc(size_t bytes);
ND_CUDA_EXPORT void nd_cuda_free(void *buffer, void *stream);
ND_CUDA_EXPORT int32_t nd_cuda_copy(void *dst, const void *src, size_t bytes);

/* The message of the last failed runtime function of the calling thread
   (nd_cuda_alloc, nd_cuda_copy, nd_cuda_available). */
ND_CUDA_EXPORT const char *nd_cuda_last_message(void);

/* The device form of an entry of a library that nd-compile --target=cuda
   built; its host form is an nd_entry_fn (nd-c/Runtime.h). */
typedef int32_t (*nd_cuda_entry_fn)(nd_context *context, void *stream,
                                    const nd_tensor *inputs, size_t num_inputs,
                                    nd_tensor *outputs, size_t num_outputs);

/* Releases an output that an entry of such a library allocated (a device
   buffer for the device form, a host buffer for the host form, and its
   shape) and clears its `data`, `shape` and `owner`. Does nothing to a
   tensor whose `owner` is NULL. A device buffer is released after the work
   queued on nd's stream of the thread. */
ND_CUDA_EXPORT void nd_cuda_tensor_free(nd_tensor *tensor);

#ifdef __cplusplus
}
#endif

#endif /* ND_C_CUDARUNTIME_H */
