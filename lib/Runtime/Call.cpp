//===- Call.cpp - one call of a compiled entry ------------------*- C++ -*-===//
//
// See Call.h. The descriptors follow MLIR's memref calling convention with
// identity layouts (nd-to-llvm bufferizes function boundaries that way):
// each input is (allocated, aligned, offset, sizes..., strides...) with
// row-major strides, so a strided input is copied first; each result comes
// back the same way, its buffer either fresh (from nd's allocator, Memory.h),
// or, as the signature declares (`alias`), a donated input's own, or the
// caller's output buffer that the call gave the entry as the result's
// destination (`destinations`, see nd-c/RuntimeABI.h).
//
//===----------------------------------------------------------------------===//

#include "Call.h"

#include "Memory.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace nd::runtime;

namespace {
/// An element type of the table nd-c/Runtime.h numbers.
struct DTypeInfo {
  const char *name;
  size_t bytes;
};

constexpr DTypeInfo kDTypes[] = {
#define ND_DTYPE(ENUM, NAME, BYTES, ...) {NAME, BYTES},
#include "nd/Runner/DTypes.def"
};
constexpr int32_t kNumDTypes = sizeof(kDTypes) / sizeof(kDTypes[0]);
static_assert(kNumDTypes == ND_DTYPE_COUNT, "one nd_dtype per row");

/// The allocated pointer MLIR gives descriptors of global memrefs, which is
/// never freed.
constexpr intptr_t kGlobalAllocatedPointer = 0xdeadbeef;

/// Whether a result's buffer is a fresh one of the call's, which the call
/// hands over or releases (not a donated input's, not a global's).
bool isFresh(const nd_tensor_type &type, intptr_t allocated) {
  return type.alias < 0 && allocated && allocated != kGlobalAllocatedPointer;
}

/// An output nd allocated: `owner` of its nd_tensor. `buffer` is what to
/// release into `memory` (null for a donated input's buffer); the shape
/// follows.
struct OwnedTensor {
  const Memory *memory;
  void *buffer;
  int64_t shape[1];
};

std::string formatString(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

std::string formatString(const char *format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text;
  if (size > 0) {
    text.resize(static_cast<size_t>(size) + 1);
    std::vsnprintf(text.data(), text.size(), format, args);
    text.resize(static_cast<size_t>(size));
  }
  va_end(args);
  return text;
}

std::string formatShape(const int64_t *shape, int32_t rank) {
  std::string text = "[";
  for (int32_t d = 0; d < rank; ++d) {
    if (d)
      text += ", ";
    text +=
        shape[d] == ND_DYNAMIC ? std::string("?") : std::to_string(shape[d]);
  }
  return text + "]";
}

/// "input #1 ('indices')" or "output #0".
std::string describe(const char *what, size_t position,
                     const nd_tensor_type &type) {
  std::string text = formatString("%s #%zu", what, position);
  if (type.name && *type.name)
    text += formatString(" ('%s')", type.name);
  return text;
}

} // namespace

size_t nd::runtime::getElementSize(int32_t dtype) {
  return dtype >= 0 && dtype < kNumDTypes ? kDTypes[dtype].bytes : 0;
}

const char *nd::runtime::getDTypeName(int32_t dtype) {
  return dtype >= 0 && dtype < kNumDTypes ? kDTypes[dtype].name : nullptr;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

static void copyHost(void *dst, const void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
}

const Memory &nd::runtime::getHostMemory() {
  static const Memory host = {allocate, release, copyHost};
  return host;
}

int64_t nd::runtime::countElements(const int64_t *shape, int32_t rank) {
  int64_t count = 1;
  for (int32_t d = 0; d < rank; ++d) {
    if (shape[d] == 0)
      return 0;
  }
  for (int32_t d = 0; d < rank; ++d) {
    if (__builtin_mul_overflow(count, shape[d], &count))
      return -1;
  }
  return count;
}

void nd::runtime::rowMajorStrides(const int64_t *shape, int32_t rank,
                                  int64_t *strides) {
  int64_t stride = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= std::max<int64_t>(shape[d], 1);
  }
}

/// Dims of size 1 may have any stride.
bool nd::runtime::isRowMajor(const int64_t *shape, const int64_t *strides,
                             int32_t rank) {
  if (!strides)
    return true;
  int64_t expected = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != expected)
      return false;
    expected *= shape[d];
  }
  return true;
}

void nd::runtime::copyStrided(const Memory &memory, uint8_t *dst,
                              const int64_t *dstStrides, const uint8_t *src,
                              const int64_t *srcStrides, const int64_t *shape,
                              int32_t rank, size_t elementSize) {
  if (rank == 0) {
    memory.copy(dst, src, elementSize);
    return;
  }
  int64_t count = countElements(shape, rank);
  if (count <= 0)
    return;
  int32_t last = rank - 1;
  bool rows = dstStrides[last] == 1 && srcStrides[last] == 1;
  int64_t rowLength = rows ? shape[last] : 1;
  std::vector<int64_t> position(static_cast<size_t>(rank), 0);
  for (int64_t done = 0; done < count; done += rowLength) {
    int64_t dstOffset = 0, srcOffset = 0;
    for (int32_t d = 0; d < rank; ++d) {
      dstOffset += position[d] * dstStrides[d];
      srcOffset += position[d] * srcStrides[d];
    }
    memory.copy(dst + dstOffset * static_cast<int64_t>(elementSize),
                src + srcOffset * static_cast<int64_t>(elementSize),
                static_cast<size_t>(rowLength) * elementSize);
    for (int32_t d = rows ? last - 1 : last; d >= 0; --d) {
      if (++position[d] < shape[d])
        break;
      position[d] = 0;
    }
  }
}
//===----------------------------------------------------------------------===//
// Error reports
//===----------------------------------------------------------------------===//

/// Records the first report of a call with its status.
static void report(nd_call_state *state, int32_t status, const char *format,
                   int64_t a, int64_t b) {
  auto lla = static_cast<long long>(a);
  auto llb = static_cast<long long>(b);
  if (!state) {
    std::fputs("nd: error: ", stderr);
    std::fprintf(stderr, format, lla, llb);
    std::fputc('\n', stderr);
    return;
  }
  if (state->failed.exchange(true))
    return;
  state->status = status;
  int size = std::snprintf(nullptr, 0, format, lla, llb);
  if (size < 0) {
    state->message = format;
    return;
  }
  state->message.resize(static_cast<size_t>(size) + 1);
  std::snprintf(state->message.data(), state->message.size(), format, lla, llb);
  state->message.resize(static_cast<size_t>(size));
}

void nd::runtime::reportError(nd_call_state *state, const char *format,
                              int64_t a, int64_t b) {
  report(state, ND_ERROR_CHECK_FAILED, format, a, b);
}

void nd::runtime::reportOutOfMemory(nd_call_state *state, const char *format,
                                    int64_t bytes, int64_t unused) {
  report(state, ND_ERROR_OUT_OF_MEMORY, format, bytes, unused);
}

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

Call::Call(const nd_signature &signature, nd_packed_fn packed,
           const Memory &memory, CallStorage *lent)
    : signature(signature), packed(packed), memory(memory),
      storage(lent && !lent->inUse ? *lent : own) {
  storage.inUse = true;
  storage.scratch.clear();
  storage.given.clear();
}

Call::~Call() {
  releaseResults();
  for (void *buffer : storage.scratch)
    memory.release(buffer);
  storage.scratch.clear();
  storage.inUse = false;
}

int32_t Call::fail(int32_t status, std::string text) {
  message = std::move(text);
  return status;
}

int32_t Call::checkInput(size_t position, const nd_tensor &tensor) {
  const nd_tensor_type &type = signature.inputs[position];
  // The message names the input only when a check fails: a call that
  // passes formats nothing.
  auto what = [&] { return describe("input", position, type); };
  if (tensor.dtype != type.dtype) {
    const char *got = getDTypeName(tensor.dtype);
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s: expected element type %s, got %s",
                             what().c_str(), getDTypeName(type.dtype),
                             got ? got : "an unknown dtype"));
  }
  if (tensor.rank != type.rank)
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s: expected rank %d, got %d", what().c_str(),
                             type.rank, tensor.rank));
  if (type.rank > 0 && !tensor.shape)
    return fail(ND_ERROR_INVALID_ARGUMENT, what() + ": its shape is NULL");
  for (int32_t d = 0; d < type.rank; ++d) {
    if (tensor.shape[d] < 0)
      return fail(ND_ERROR_INVALID_ARGUMENT,
                  formatString("%s: dim %d is negative (%lld)", what().c_str(),
                               d, static_cast<long long>(tensor.shape[d])));
    if (type.dims[d] != ND_DYNAMIC && type.dims[d] != tensor.shape[d])
      return fail(ND_ERROR_INVALID_ARGUMENT,
                  formatString("%s: dim %d must be %lld, got %lld (shape %s)",
                               what().c_str(), d,
                               static_cast<long long>(type.dims[d]),
                               static_cast<long long>(tensor.shape[d]),
                               formatShape(tensor.shape, type.rank).c_str()));
  }
  int64_t count = countElements(tensor.shape, type.rank);
  int64_t bytes = 0;
  if (count < 0 ||
      __builtin_mul_overflow(
          count, static_cast<int64_t>(getElementSize(type.dtype)), &bytes))
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s: shape %s has too many elements",
                             what().c_str(),
                             formatShape(tensor.shape, type.rank).c_str()));
  if (!tensor.data && count > 0)
    return fail(ND_ERROR_INVALID_ARGUMENT, what() + ": its data is NULL");

  void *data = tensor.data;
  if (count > 0 && !isRowMajor(tensor.shape, tensor.strides, type.rank)) {
    // The compiled code reads and updates row-major buffers: a donated input
    // must be one, any other is read from a contiguous copy.
    if (type.donated)
      return fail(ND_ERROR_INVALID_ARGUMENT,
                  what() + ": a donated input must be contiguous and row-major "
                           "(its strides are not)");
    data = memory.allocate(static_cast<size_t>(bytes));
    if (!data)
      return fail(ND_ERROR_OUT_OF_MEMORY,
                  formatString("%s: cannot allocate %lld bytes for a "
                               "contiguous copy",
                               what().c_str(), static_cast<long long>(bytes)));
    storage.scratch.push_back(data);
    std::vector<int64_t> &contiguous = storage.strides;
    contiguous.resize(static_cast<size_t>(type.rank));
    rowMajorStrides(tensor.shape, type.rank, contiguous.data());
    copyStrided(memory, static_cast<uint8_t *>(data), contiguous.data(),
                static_cast<const uint8_t *>(tensor.data), tensor.strides,
                tensor.shape, type.rank, getElementSize(type.dtype));
  }
  addDescriptor(type, tensor, data);
  return ND_OK;
}

void Call::addDescriptor(const nd_tensor_type &type, const nd_tensor &tensor,
                         void *data) {
  std::vector<int64_t> &fields = storage.fields;
  auto address = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
  fields.push_back(address);
  fields.push_back(address);
  fields.push_back(0); // offset
  fields.insert(fields.end(), tensor.shape, tensor.shape + type.rank);
  size_t strides = fields.size();
  fields.resize(strides + static_cast<size_t>(type.rank));
  rowMajorStrides(tensor.shape, type.rank, fields.data() + strides);
}

int32_t Call::checkOutput(size_t position, const nd_tensor &tensor) {
  if (!tensor.data)
    return ND_OK; // nd allocates it.
  std::string text;
  int32_t status = checkOutputBuffer(signature, position, tensor, text);
  return status == ND_OK ? ND_OK : fail(status, std::move(text));
}

int32_t nd::runtime::checkOutputBuffer(const nd_signature &signature,
                                       size_t position, const nd_tensor &tensor,
                                       std::string &message) {
  auto fail = [&](int32_t status, std::string text) {
    message = std::move(text);
    return status;
  };
  const nd_tensor_type &type = signature.outputs[position];
  auto what = [&] { return describe("output", position, type); };
  if (tensor.dtype != type.dtype) {
    const char *got = getDTypeName(tensor.dtype);
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s: the buffer has element type %s, the "
                             "output is %s",
                             what().c_str(), got ? got : "(unknown)",
                             getDTypeName(type.dtype)));
  }
  if (tensor.rank != type.rank)
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s: the buffer has rank %d, the output %d",
                             what().c_str(), tensor.rank, type.rank));
  if (type.rank > 0 && !tensor.shape)
    return fail(ND_ERROR_INVALID_ARGUMENT,
                what() + ": the buffer's shape is NULL");
  for (int32_t d = 0; d < type.rank; ++d) {
    if (type.dims[d] != ND_DYNAMIC && type.dims[d] != tensor.shape[d])
      return fail(ND_ERROR_INVALID_ARGUMENT,
                  formatString("%s: dim %d of the buffer is %lld, the "
                               "output's is %lld",
                               what().c_str(), d,
                               static_cast<long long>(tensor.shape[d]),
                               static_cast<long long>(type.dims[d])));
  }
  return ND_OK;
}

namespace {
/// A dim of a call's tensors that the signature names.
struct NamedDim {
  const char *what;
  size_t position;
  const nd_tensor_type *type;
  int32_t dim;
  int64_t size;
};
} // namespace

/// "input #1 ('idx') dim 0 (N) is 2".
static std::string describeNamedDim(const NamedDim &dim) {
  return formatString("%s dim %d (%s) is %lld",
                      describe(dim.what, dim.position, *dim.type).c_str(),
                      dim.dim, dim.type->dim_names[dim.dim],
                      static_cast<long long>(dim.size));
}

int32_t Call::checkNamedDims() {
  // The first dim of each name, in the order inputs then outputs, is the
  // one the others are held to.
  std::vector<NamedDim> seen;
  auto visit = [&](const char *what, size_t position,
                   const nd_tensor_type &type,
                   const nd_tensor &tensor) -> int32_t {
    for (int32_t d = 0; d < type.rank; ++d) {
      const char *name = type.dim_names[d];
      if (!name || !*name)
        continue;
      NamedDim here{what, position, &type, d, tensor.shape[d]};
      auto first =
          std::find_if(seen.begin(), seen.end(), [&](const NamedDim &n) {
            return std::strcmp(n.type->dim_names[n.dim], name) == 0;
          });
      if (first == seen.end()) {
        seen.push_back(here);
        continue;
      }
      if (first->size != here.size)
        return fail(ND_ERROR_INVALID_ARGUMENT, describeNamedDim(here) +
                                                   " but " +
                                                   describeNamedDim(*first));
    }
    return ND_OK;
  };
  for (int32_t i = 0; i < signature.num_inputs; ++i)
    if (signature.inputs[i].dim_names)
      if (int32_t status = visit("input", static_cast<size_t>(i),
                                 signature.inputs[i], inputs[i]))
        return status;
  for (int32_t k = 0; k < signature.num_outputs; ++k)
    if (signature.outputs[k].dim_names && outputs[k].data)
      if (int32_t status = visit("output", static_cast<size_t>(k),
                                 signature.outputs[k], outputs[k]))
        return status;
  return ND_OK;
}

/// [low, high) of the bytes that `tensor` (of elements of `elementSize`
/// bytes, at least one) spans; all of memory where that does not fit in 64
/// bits, so that it overlaps anything.
static std::pair<uintptr_t, uintptr_t> byteExtent(const nd_tensor &tensor,
                                                  size_t elementSize) {
  const std::pair<uintptr_t, uintptr_t> everything = {0, UINTPTR_MAX};
  auto low = reinterpret_cast<uintptr_t>(tensor.data);
  uintptr_t high = low;
  int64_t rowMajor = 1;
  for (int32_t d = tensor.rank - 1; d >= 0; --d) {
    int64_t stride = tensor.strides ? tensor.strides[d] : rowMajor;
    int64_t span = 0;
    if (__builtin_mul_overflow(tensor.shape[d] - 1, stride, &span) ||
        __builtin_mul_overflow(span, static_cast<int64_t>(elementSize),
                               &span) ||
        __builtin_mul_overflow(rowMajor, tensor.shape[d], &rowMajor))
      return everything;
    if (span < 0)
      low += static_cast<uintptr_t>(span);
    else
      high += static_cast<uintptr_t>(span);
  }
  return {low, high + elementSize};
}

static bool overlaps(const nd_tensor &a, size_t aSize, const nd_tensor &b,
                     size_t bSize) {
  if (!a.data || !b.data || countElements(a.shape, a.rank) <= 0 ||
      countElements(b.shape, b.rank) <= 0)
    return false;
  auto [aLow, aHigh] = byteExtent(a, aSize);
  auto [bLow, bHigh] = byteExtent(b, bSize);
  return aLow < bHigh && bLow < aHigh;
}

bool Call::mayComputeInto(size_t position) const {
  const nd_tensor &output = outputs[position];
  const nd_tensor_type &type = signature.outputs[position];
  size_t elementSize = getElementSize(type.dtype);
  if (!output.data || type.alias >= 0 ||
      countElements(output.shape, type.rank) <= 0 ||
      !isRowMajor(output.shape, output.strides, type.rank) ||
      reinterpret_cast<uintptr_t>(output.data) % elementSize != 0)
    return false;
  // The entry reads its inputs while it writes its results, and writes
  // each result on its own: a buffer that shares memory with another gets
  // its result through a copy.
  for (int32_t i = 0; i < signature.num_inputs; ++i)
    if (overlaps(output, elementSize, inputs[i],
                 getElementSize(signature.inputs[i].dtype)))
      return false;
  for (int32_t k = 0; k < signature.num_outputs; ++k)
    if (static_cast<size_t>(k) != position &&
        overlaps(output, elementSize, outputs[k],
                 getElementSize(signature.outputs[k].dtype)))
      return false;
  return true;
}

void Call::addDestination(size_t position) {
  const nd_tensor_type &type = signature.outputs[position];
  if (mayComputeInto(position)) {
    addDescriptor(type, outputs[position], outputs[position].data);
    return;
  }
  storage.fields.resize(storage.fields.size() + 3 +
                        2 * static_cast<size_t>(type.rank));
}

void Call::buildArguments(size_t numDescriptorFields) {
  std::vector<void *> &arguments = storage.arguments;
  arguments.clear();
  for (size_t f = 0; f < numDescriptorFields; ++f)
    arguments.push_back(&storage.fields[f]);
  if (signature.num_outputs)
    arguments.push_back(&resultPointer);
  arguments.push_back(&statePointer);
}

int32_t Call::prepare(const nd_tensor *inputs, size_t numInputs,
                      nd_tensor *outputs, size_t numOutputs) {
  if (signature.abi_version != ND_ABI_VERSION)
    return fail(ND_ERROR_ABI_MISMATCH,
                formatString("the library was compiled for nd's ABI version "
                             "%d, the runtime has version %d",
                             signature.abi_version, ND_ABI_VERSION));
  if (numInputs != static_cast<size_t>(signature.num_inputs) ||
      numOutputs != static_cast<size_t>(signature.num_outputs))
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s takes %d input(s) and %d output(s), got "
                             "%zu and %zu",
                             signature.entry, signature.num_inputs,
                             signature.num_outputs, numInputs, numOutputs));
  if ((numInputs && !inputs) || (numOutputs && !outputs))
    return fail(ND_ERROR_INVALID_ARGUMENT,
                "the inputs or outputs array is NULL");
  this->inputs = inputs;
  this->outputs = outputs;
  std::vector<int64_t> &fields = storage.fields;
  fields.clear();
  for (size_t i = 0; i < numInputs; ++i)
    if (int32_t status = checkInput(i, inputs[i]))
      return status;
  storage.given.clear();
  for (size_t k = 0; k < numOutputs; ++k) {
    if (int32_t status = checkOutput(k, outputs[k]))
      return status;
    storage.given.push_back(outputs[k].data);
  }
  if (int32_t status = checkNamedDims())
    return status;
  if (signature.destinations)
    for (size_t k = 0; k < numOutputs; ++k)
      addDestination(k);

  size_t descriptorFields = fields.size();
  resultStart = descriptorFields;
  storage.resultOffsets.clear();
  for (size_t k = 0; k < numOutputs; ++k) {
    storage.resultOffsets.push_back(fields.size() - resultStart);
    fields.resize(fields.size() + 3 +
                  2 * static_cast<size_t>(signature.outputs[k].rank));
  }
  // `fields` holds its final size: the pointers into it stay valid.
  resultPointer = fields.data() + resultStart;
  buildArguments(descriptorFields);
  return ND_OK;
}

const int64_t *Call::resultFields(size_t position) const {
  return storage.fields.data() + resultStart + storage.resultOffsets[position];
}

bool Call::isCallerBuffer(intptr_t pointer) const {
  for (int32_t i = 0; i < signature.num_inputs; ++i)
    if (reinterpret_cast<intptr_t>(inputs[i].data) == pointer)
      return true;
  for (void *buffer : storage.given)
    if (reinterpret_cast<intptr_t>(buffer) == pointer)
      return true;
  return false;
}

void Call::releaseResults() {
  if (!holdsResults)
    return;
  holdsResults = false;
  std::vector<intptr_t> &released = storage.released;
  released.clear();
  for (int32_t k = 0; k < signature.num_outputs; ++k) {
    intptr_t allocated = static_cast<intptr_t>(resultFields(k)[0]);
    // A donated input's buffer and a destination are the caller's; the guard
    // against every buffer of the caller's keeps them safe should a
    // declaration ever be wrong.
    if (!isFresh(signature.outputs[k], allocated) ||
        isCallerBuffer(allocated) ||
        std::find(released.begin(), released.end(), allocated) !=
            released.end())
      continue;
    released.push_back(allocated);
    memory.release(reinterpret_cast<void *>(allocated));
  }
}

int32_t Call::run(int32_t threads, const ThreadControl &control) {
  releaseResults();
  state.failed.store(false, std::memory_order_relaxed);
  state.message.clear();
  std::fill(storage.fields.begin() + static_cast<ptrdiff_t>(resultStart),
            storage.fields.end(), 0);
  if (threads > 0 && control.setNumThreads && control.getMaxThreads) {
    int previous = control.getMaxThreads();
    control.setNumThreads(threads);
    packed(storage.arguments.data());
    control.setNumThreads(previous);
  } else {
    packed(storage.arguments.data());
  }
  holdsResults = signature.num_outputs > 0;
  if (state.failed.load()) {
    releaseResults();
    return fail(state.status, state.message);
  }
  return ND_OK;
}

/// A caller's buffer of another shape than the result fails the call before
/// anything is copied.
int32_t Call::checkComputedShapes() {
  for (int32_t k = 0; k < signature.num_outputs; ++k) {
    const nd_tensor &output = outputs[k];
    const nd_tensor_type &type = signature.outputs[k];
    const int64_t *sizes = resultFields(k) + 3;
    if (!output.data || std::equal(sizes, sizes + type.rank, output.shape))
      continue;
    std::string what = describe("output", static_cast<size_t>(k), type);
    releaseResults();
    return fail(ND_ERROR_INVALID_ARGUMENT,
                formatString("%s: the call computed shape %s, the buffer has "
                             "shape %s",
                             what.c_str(),
                             formatShape(sizes, type.rank).c_str(),
                             formatShape(output.shape, type.rank).c_str()));
  }
  return ND_OK;
}

/// The owner record of an output nd allocates, with room for its shape.
static OwnedTensor *allocateOwner(const Memory &memory, int32_t rank) {
  size_t dims = static_cast<size_t>(rank);
  auto *owner = static_cast<OwnedTensor *>(std::malloc(
      sizeof(OwnedTensor) + sizeof(int64_t) * (dims ? dims - 1 : 0)));
  if (owner) {
    owner->memory = &memory;
    owner->buffer = nullptr;
  }
  return owner;
}

/// What each output nd allocates gets: an owner record, and a buffer of its
/// own, the result's fresh buffer or, for a buffer that an earlier output
/// took already (a function may return one buffer twice), a copy. All are
/// allocated before any output changes, so that a failure leaves the outputs
/// as they were.
int32_t Call::takeOwnership(size_t numOutputs) {
  std::vector<void *> &owners = storage.owners;
  std::vector<intptr_t> &handedOver = storage.handedOver;
  owners.assign(numOutputs, nullptr);
  handedOver.clear();
  bool outOfMemory = false;
  for (size_t k = 0; k < numOutputs && !outOfMemory; ++k) {
    if (outputs[k].data)
      continue;
    const nd_tensor_type &type = signature.outputs[k];
    const int64_t *fields = resultFields(k);
    OwnedTensor *owner = allocateOwner(memory, type.rank);
    owners[k] = owner;
    if (!owner) {
      outOfMemory = true;
      break;
    }
    intptr_t allocated = static_cast<intptr_t>(fields[0]);
    // The guard against the caller's buffers keeps them safe should a
    // declaration ever be wrong.
    if (!isFresh(type, allocated) || isCallerBuffer(allocated))
      continue;
    if (std::find(handedOver.begin(), handedOver.end(), allocated) ==
        handedOver.end()) {
      owner->buffer = reinterpret_cast<void *>(allocated);
      handedOver.push_back(allocated);
      continue;
    }
    size_t bytes = static_cast<size_t>(countElements(fields + 3, type.rank)) *
                   getElementSize(type.dtype);
    owner->buffer = memory.allocate(bytes);
    if (!owner->buffer)
      outOfMemory = true;
  }
  if (!outOfMemory)
    return ND_OK;
  for (void *record : owners) {
    auto *owner = static_cast<OwnedTensor *>(record);
    if (!owner)
      continue;
    void *buffer = owner->buffer;
    bool copy = buffer && std::find(handedOver.begin(), handedOver.end(),
                                    reinterpret_cast<intptr_t>(buffer)) ==
                              handedOver.end();
    if (copy)
      memory.release(buffer);
    std::free(owner);
  }
  releaseResults();
  return fail(ND_ERROR_OUT_OF_MEMORY, "cannot allocate the outputs");
}

/// Each output gets its result: a caller's buffer the result computed into
/// in place, or a copy into it; an output nd allocates, its owner.
void Call::handOver() {
  copiedOutputs = 0;
  std::vector<int64_t> &contiguous = storage.strides;
  for (int32_t k = 0; k < signature.num_outputs; ++k) {
    nd_tensor &output = outputs[k];
    const nd_tensor_type &type = signature.outputs[k];
    const int64_t *fields = resultFields(k);
    size_t elementSize = getElementSize(type.dtype);
    auto *data = reinterpret_cast<uint8_t *>(static_cast<intptr_t>(fields[1])) +
                 fields[2] * static_cast<int64_t>(elementSize);
    const int64_t *sizes = fields + 3;
    const int64_t *strides = fields + 3 + type.rank;
    contiguous.resize(static_cast<size_t>(type.rank));

    if (output.data) {
      rowMajorStrides(output.shape, type.rank, contiguous.data());
      const int64_t *target =
          output.strides ? output.strides : contiguous.data();
      bool same = output.data == data &&
                  std::equal(target, target + type.rank, strides);
      if (!same && countElements(sizes, type.rank) > 0) {
        copyStrided(memory, static_cast<uint8_t *>(output.data), target, data,
                    strides, sizes, type.rank, elementSize);
        ++copiedOutputs;
      }
      output.owner = nullptr;
      continue;
    }

    auto *owner = static_cast<OwnedTensor *>(storage.owners[k]);
    std::copy(sizes, sizes + type.rank, owner->shape);
    bool copied = owner->buffer && reinterpret_cast<intptr_t>(owner->buffer) !=
                                       static_cast<intptr_t>(fields[0]);
    if (copied) {
      rowMajorStrides(sizes, type.rank, contiguous.data());
      copyStrided(memory, static_cast<uint8_t *>(owner->buffer),
                  contiguous.data(), data, strides, sizes, type.rank,
                  elementSize);
      data = static_cast<uint8_t *>(owner->buffer);
    }
    output.data = data;
    output.shape = owner->shape;
    output.strides = nullptr;
    output.dtype = type.dtype;
    output.rank = type.rank;
    output.owner = owner;
  }
}

/// Releases the fresh buffers no output took.
void Call::releaseUntaken() {
  std::vector<intptr_t> &handedOver = storage.handedOver;
  std::vector<intptr_t> &released = storage.released;
  released.clear();
  for (int32_t k = 0; k < signature.num_outputs; ++k) {
    intptr_t allocated = static_cast<intptr_t>(resultFields(k)[0]);
    if (!isFresh(signature.outputs[k], allocated) ||
        isCallerBuffer(allocated) ||
        std::find(handedOver.begin(), handedOver.end(), allocated) !=
            handedOver.end() ||
        std::find(released.begin(), released.end(), allocated) !=
            released.end())
      continue;
    released.push_back(allocated);
    memory.release(reinterpret_cast<void *>(allocated));
  }
  holdsResults = false;
}

int32_t Call::finish() {
  if (int32_t status = checkComputedShapes())
    return status;
  if (int32_t status =
          takeOwnership(static_cast<size_t>(signature.num_outputs)))
    return status;
  handOver();
  releaseUntaken();
  return ND_OK;
}

bool nd::runtime::ownTensor(nd_tensor &tensor, const Memory &memory,
                            void *buffer, void *data, const int64_t *shape,
                            int32_t dtype, int32_t rank) {
  OwnedTensor *owner = allocateOwner(memory, rank);
  if (!owner)
    return false;
  owner->buffer = buffer;
  std::copy(shape, shape + rank, owner->shape);
  tensor.data = data;
  tensor.shape = owner->shape;
  tensor.strides = nullptr;
  tensor.dtype = dtype;
  tensor.rank = rank;
  tensor.owner = owner;
  return true;
}

void nd::runtime::releaseTensor(nd_tensor &tensor) {
  auto *owner = static_cast<OwnedTensor *>(tensor.owner);
  if (!owner)
    return;
  owner->memory->release(owner->buffer);
  std::free(owner);
  tensor.data = nullptr;
  tensor.shape = nullptr;
  tensor.owner = nullptr;
}

int32_t nd::runtime::invoke(const nd_signature &signature, nd_packed_fn packed,
                            nd_context *context, const nd_tensor *inputs,
                            size_t numInputs, nd_tensor *outputs,
                            size_t numOutputs, const ThreadControl &control) {
  int32_t threads = context ? context->threads : 0;
  if (threads == 0)
    threads = __atomic_load_n(&signature.threads, __ATOMIC_RELAXED);
  // One storage per thread, lent to each call it makes: a call of a
  // compiled library allocates no bookkeeping of its own.
  static thread_local CallStorage storage;
  Call call(signature, packed, getHostMemory(), &storage);
  int32_t status = ND_OK;
  std::string text;
  if (threads < 0) {
    status = ND_ERROR_INVALID_ARGUMENT;
    text = formatString("the thread count is negative (%d)", threads);
  } else {
    status = call.prepare(inputs, numInputs, outputs, numOutputs);
    if (status == ND_OK)
      status = call.run(threads, control);
    if (status == ND_OK)
      status = call.finish();
    if (status != ND_OK)
      text = call.getMessage();
  }
  if (!context)
    return status;
  context->status = status;
  context->copied_outputs = status == ND_OK ? call.getCopiedOutputs() : 0;
  context->message_length = text.size();
  if (context->message && context->message_size) {
    size_t length = std::min(text.size(), context->message_size - 1);
    std::memcpy(context->message, text.data(), length);
    context->message[length] = '\0';
  }
  return status;
}
