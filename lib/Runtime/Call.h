//===- Call.h - one call of a compiled entry --------------------*- C++ -*-===//
//
// The host side of a call of compiled code, shared by libnd_runtime.so (the
// entries of libraries built by nd-compile) and JitFunction: checking the
// caller's tensors against the entry's signature, packing their memref
// descriptors, the per-call error state that the generated code reports
// into, the thread count, and handing the results over under the ownership
// rules of nd-c/Runtime.h. MLIR-free and LLVM-free. The buffers of a call are
// host memory by default; libnd_cuda_runtime.so runs the same steps on a
// GPU's memory (`Memory`).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_RUNTIME_CALL_H
#define ND_LIB_RUNTIME_CALL_H

#include "nd-c/RuntimeABI.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

/// The error state of one call (opaque to generated code, which passes a
/// pointer to it to every report): the first report's message and status
/// (ND_ERROR_CHECK_FAILED, or ND_ERROR_OUT_OF_MEMORY for an allocation of the
/// generated code).
struct nd_call_state {
  std::atomic<bool> failed{false};
  int32_t status = 0;
  std::string message;
};

namespace nd::runtime {

/// Records a failed check in `state` (the first one of a call wins; reports
/// from several threads at once are safe). Without a state (code whose host
/// passed none), prints the message to stderr. Never exits.
void reportError(nd_call_state *state, const char *format, int64_t a,
                 int64_t b);

/// Records a failed allocation of the generated code in `state` as
/// reportError does, with the status ND_ERROR_OUT_OF_MEMORY.
void reportOutOfMemory(nd_call_state *state, const char *format,
                       int64_t bytes, int64_t unused);

/// Where the buffers of a call live: what allocates, releases and copies
/// them. `copy` copies `bytes` between two buffers of that memory, ordered
/// before the later work of the call.
struct Memory {
  void *(*allocate)(size_t bytes);
  void (*release)(void *buffer);
  void (*copy)(void *dst, const void *src, size_t bytes);
};

/// Host memory: nd's allocator (Memory.h) and memcpy.
const Memory &getHostMemory();

/// How a call sets its thread count: the OpenMP runtime's functions, or null
/// where the code runs without it.
struct ThreadControl {
  int (*getMaxThreads)() = nullptr;
  void (*setNumThreads)(int) = nullptr;
};

/// The storage of a call's descriptors and bookkeeping. A host that makes
/// call after call on one thread keeps one and lends it to each `Call`: its
/// vectors keep their capacity, and a call allocates nothing of its own.
struct CallStorage {
  /// The fields of every descriptor the entry takes (inputs, destinations),
  /// then the storage of its results' descriptors.
  std::vector<int64_t> fields;
  /// Where each result's descriptor starts in `fields`.
  std::vector<size_t> resultOffsets;
  std::vector<void *> arguments;
  /// Contiguous copies of strided inputs.
  std::vector<void *> scratch;
  /// The caller's output buffers (null where nd allocates).
  std::vector<void *> given;
  /// Bookkeeping of `finish`.
  std::vector<intptr_t> handedOver;
  std::vector<intptr_t> released;
  std::vector<void *> owners;
  std::vector<int64_t> strides;
  /// Whether a Call holds it.
  bool inUse = false;
};

/// One call of the entry `packed` whose signature is `signature`: `prepare`
/// checks and packs the tensors, `run` calls the entry (as often as wanted:
/// a benchmark times `run` alone), `finish` hands the results of the last
/// run over to the outputs. Each step returns an nd_status; `getMessage`
/// says what failed. Results of a run that are not handed over are released
/// by the next run, by `releaseResults` or by the destructor. The caller's
/// buffers (inputs, and outputs it gives) are never released. `storage`, if
/// given and free, holds the call's bookkeeping (see CallStorage).
class Call {
public:
  Call(const nd_signature &signature, nd_packed_fn packed,
       const Memory &memory = getHostMemory(), CallStorage *storage = nullptr);
  ~Call();
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  int32_t prepare(const nd_tensor *inputs, size_t numInputs, nd_tensor *outputs,
                  size_t numOutputs);
  /// Runs the entry on `threads` threads (0: the control's default).
  int32_t run(int32_t threads, const ThreadControl &control);
  int32_t finish();
  void releaseResults();

  const std::string &getMessage() const { return message; }
  /// The caller's output buffers that the last `finish` copied a result
  /// into (nd_context.copied_outputs).
  int32_t getCopiedOutputs() const { return copiedOutputs; }

private:
  int32_t fail(int32_t status, std::string text);
  int32_t checkInput(size_t position, const nd_tensor &tensor);
  int32_t checkOutput(size_t position, const nd_tensor &tensor);
  /// Checks that dims of one name have one size (nd_tensor_type.dim_names).
  int32_t checkNamedDims();
  /// Appends the descriptor of input `position` (`data`: what the entry
  /// reads) to the fields.
  void addDescriptor(const nd_tensor_type &type, const nd_tensor &tensor,
                     void *data);
  /// Appends the destination of output `position`: the caller's buffer
  /// where the entry may compute into it, else zeros.
  void addDestination(size_t position);
  bool mayComputeInto(size_t position) const;
  void buildArguments(size_t numDescriptorFields);
  int32_t checkComputedShapes();
  int32_t takeOwnership(size_t numOwners);
  void handOver();
  void releaseUntaken();
  /// The fields of result `position`'s descriptor.
  const int64_t *resultFields(size_t position) const;
  /// Whether `pointer` is a buffer of the caller's (an input's or an output's
  /// it gave), which nd never releases.
  bool isCallerBuffer(intptr_t pointer) const;

  const nd_signature &signature;
  nd_packed_fn packed;
  const Memory &memory;
  CallStorage own;
  CallStorage &storage;
  const nd_tensor *inputs = nullptr;
  nd_tensor *outputs = nullptr;
  size_t resultStart = 0;
  void *resultPointer = nullptr;
  nd_call_state state;
  nd_call_state *statePointer = &state;
  bool holdsResults = false;
  int32_t copiedOutputs = 0;
  std::string message;
};

/// prepare, run and finish, with the context's thread count (or the
/// signature's default) and status and message written to the context.
int32_t invoke(const nd_signature &signature, nd_packed_fn packed,
               nd_context *context, const nd_tensor *inputs, size_t numInputs,
               nd_tensor *outputs, size_t numOutputs,
               const ThreadControl &control);

/// Checks a caller's output buffer (`data` set) against output `position`
/// of `signature`: its dtype, rank and static dims. Returns an nd_status and
/// sets `message` on failure.
int32_t checkOutputBuffer(const nd_signature &signature, size_t position,
                          const nd_tensor &tensor, std::string &message);

/// The number of elements of `shape`, or -1 if it does not fit in int64.
int64_t countElements(const int64_t *shape, int32_t rank);

/// Whether `strides` (in elements; null: row-major) lay `shape` out
/// contiguously in row-major order.
bool isRowMajor(const int64_t *shape, const int64_t *strides, int32_t rank);

/// Row-major strides of `shape`, in elements.
void rowMajorStrides(const int64_t *shape, int32_t rank, int64_t *strides);

/// Copies the elements of `shape` from `src` (strides `srcStrides`, in
/// elements) to `dst` (`dstStrides`) with `memory`'s copy, a row of
/// contiguous elements at a time.
void copyStrided(const Memory &memory, uint8_t *dst, const int64_t *dstStrides,
                 const uint8_t *src, const int64_t *srcStrides,
                 const int64_t *shape, int32_t rank, size_t elementSize);

/// Bytes per element of `dtype`, 0 if unknown.
size_t getElementSize(int32_t dtype);
/// nd's name of `dtype`, null if unknown.
const char *getDTypeName(int32_t dtype);

/// Makes `tensor` an output nd allocated, as `Call::finish` does: `data`,
/// a copy of `shape`, `dtype`, `rank` and an owner that releases `buffer`
/// (null: nothing but the shape) into `memory`. False when out of memory.
bool ownTensor(nd_tensor &tensor, const Memory &memory, void *buffer,
               void *data, const int64_t *shape, int32_t dtype, int32_t rank);

/// Releases an output that `Call::finish` allocated (nd_tensor_free), into
/// the memory of the call that allocated it.
void releaseTensor(nd_tensor &tensor);

} // namespace nd::runtime

#endif // ND_LIB_RUNTIME_CALL_H
