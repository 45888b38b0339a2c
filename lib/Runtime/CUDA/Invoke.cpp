//===- Invoke.cpp - entries of nd-compile --target=cuda ---------*- C++ -*-===//
//
// The calls of the entries of libraries that `nd-compile --target=cuda`
// built (nd_cuda_invoke and nd_cuda_invoke_host of nd-c/RuntimeABI.h): the
// host side of a CPU call (lib/Runtime/Call.h) on the device's memory, in
// the call scope of CallScope.h.
//
// - The device form runs on the caller's stream and returns once its work
//   is queued; a failed check reaches the caller asynchronously (the next
//   call on the stream or nd_cuda_synchronize), or, in synchronous mode,
//   before the outputs are handed over.
// - The host form stages the inputs on nd's stream of the thread, runs the
//   device form's work, queues the copies of the results back and waits
//   for the stream once. A result bound for a caller's buffer (or a donated
//   input's) goes through host memory of nd's when the call has checks or
//   the buffer is strided, and is copied into place only once the call is
//   known to have succeeded: a failed call writes no output.
//
//===----------------------------------------------------------------------===//

#include "nd-c/CudaRuntime.h"
#include "nd-c/RuntimeABI.h"

#include "../Call.h"
#include "../Memory.h"
#include "CallScope.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#define ND_EXPORT extern "C" __attribute__((visibility("default")))

using namespace nd::cuda;

namespace {

/// The device's memory for nd::runtime::Call, used inside a call scope: on
/// the call's stream, failures recorded as the call's.
void *allocateOnDevice(size_t bytes) {
  if (bytes == 0 || failed())
    return nullptr;
  return allocateBuffer(bytes, callState().stream, /*managed=*/false);
}

void releaseOnDevice(void *buffer) {
  if (buffer)
    releaseBuffer(buffer);
}

void copyOnStream(void *dst, const void *src, size_t bytes) {
  if (failed() || bytes == 0)
    return;
  count(counters().copies);
  check(driver().p_cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), bytes,
                                 callState().stream),
        "cuMemcpyAsync");
}

const nd::runtime::Memory kDeviceMemory = {allocateOnDevice, releaseOnDevice,
                                           copyOnStream};

// A call's status is an nd_status of nd-c/Runtime.h as it is.
static_assert(ND_CUDA_ERROR_CHECK_FAILED == ND_ERROR_CHECK_FAILED &&
                  ND_CUDA_ERROR_OUT_OF_MEMORY == ND_ERROR_OUT_OF_MEMORY &&
                  ND_CUDA_ERROR_DRIVER == ND_ERROR_DRIVER,
              "the CUDA runtime's statuses are nd_status values");

/// Writes a call's status and message into `context`.
int32_t finishCall(nd_context *context, int32_t status,
                   const std::string &text) {
  if (!context)
    return status;
  context->status = status;
  context->message_length = status == ND_OK ? 0 : text.size();
  if (context->message && context->message_size) {
    const std::string &shown = status == ND_OK ? std::string() : text;
    size_t length = std::min(shown.size(), context->message_size - 1);
    std::memcpy(context->message, shown.data(), length);
    context->message[length] = '\0';
  }
  return status;
}

/// The checks that come before a call scope: the ABI version and the
/// counts.
int32_t checkCall(const nd_signature &signature, const nd_tensor *inputs,
                  size_t numInputs, nd_tensor *outputs, size_t numOutputs,
                  std::string &text) {
  if (signature.abi_version != ND_ABI_VERSION) {
    text = "the library was compiled for nd's ABI version " +
           std::to_string(signature.abi_version) +
           ", the runtime has version " + std::to_string(ND_ABI_VERSION);
    return ND_ERROR_ABI_MISMATCH;
  }
  if (numInputs != static_cast<size_t>(signature.num_inputs) ||
      numOutputs != static_cast<size_t>(signature.num_outputs)) {
    text = std::string(signature.entry) + " takes " +
           std::to_string(signature.num_inputs) + " input(s) and " +
           std::to_string(signature.num_outputs) + " output(s), got " +
           std::to_string(numInputs) + " and " + std::to_string(numOutputs);
    return ND_ERROR_INVALID_ARGUMENT;
  }
  if ((numInputs && !inputs) || (numOutputs && !outputs)) {
    text = "the inputs or outputs array is NULL";
    return ND_ERROR_INVALID_ARGUMENT;
  }
  return ND_OK;
}

/// The call's failure, if any, as (status, text); keeps `status` otherwise.
int32_t takeFailure(int32_t status, std::string &text) {
  if (status != ND_OK || !failed())
    return status;
  text = callState().message;
  return callState().status;
}

/// Runs `call` (prepared) in the call scope: the status of the run, the
/// driver's failures included, with `text` its message. With `settle`, the
/// stream is waited for and the run's failed checks are known.
int32_t runInScope(nd::runtime::Call &call, bool settle, std::string &text) {
  int32_t status = call.run(/*threads=*/0, nd::runtime::ThreadControl());
  if (settle && !failed())
    settleCall();
  if (failed()) {
    // A driver failure, or a failed check.
    call.releaseResults();
    text = callState().message;
    return callState().status;
  }
  if (status != ND_OK)
    text = call.getMessage();
  return status;
}

/// Leaves the call scope; a failure of the work still queued (the last
/// copies) becomes the call's if none came before.
int32_t endScope(int32_t status, std::string &text) {
  status = takeFailure(status, text);
  std::string ignored;
  endCall(ignored);
  return status;
}

/// Prepares, runs and finishes `call` on `inputs` and `outputs`.
int32_t runCall(nd::runtime::Call &call, const nd_tensor *inputs,
                size_t numInputs, nd_tensor *outputs, size_t numOutputs,
                bool settle, std::string &text) {
  int32_t status = call.prepare(inputs, numInputs, outputs, numOutputs);
  if (status != ND_OK) {
    text = failed() ? callState().message : call.getMessage();
    return failed() ? callState().status : status;
  }
  status = runInScope(call, settle, text);
  if (status != ND_OK)
    return status;
  status = call.finish();
  if (status != ND_OK)
    text = call.getMessage();
  return status;
}

} // namespace

ND_EXPORT int32_t ND_ABI_CUDA_INVOKE(const nd_signature *signature,
                                     nd_packed_fn packed, nd_context *context,
                                     void *stream, const nd_tensor *inputs,
                                     size_t numInputs, nd_tensor *outputs,
                                     size_t numOutputs) {
  std::string text;
  int32_t status =
      checkCall(*signature, inputs, numInputs, outputs, numOutputs, text);
  if (status != ND_OK)
    return finishCall(context, status, text);
  if (beginCall(static_cast<CUstream>(stream), /*hostForm=*/false) !=
      ND_CUDA_OK) {
    status = endCall(text);
    return finishCall(context, status, text);
  }
  {
    nd::runtime::Call call(*signature, packed, kDeviceMemory);
    status = runCall(call, inputs, numInputs, outputs, numOutputs,
                     /*settle=*/isSynchronous(), text);
  }
  status = endScope(status, text);
  return finishCall(context, status, text);
}

//===----------------------------------------------------------------------===//
// The host form
//===----------------------------------------------------------------------===//

namespace {

/// The bytes of a host tensor that passes the checks a Call makes on it
/// (-1 if it does not: the Call then reports what is wrong).
int64_t checkedBytes(const nd_tensor_type &type, const nd_tensor &tensor) {
  size_t elementSize = nd::runtime::getElementSize(tensor.dtype);
  if (tensor.dtype != type.dtype || tensor.rank != type.rank ||
      elementSize == 0 || (type.rank > 0 && !tensor.shape))
    return -1;
  for (int32_t d = 0; d < type.rank; ++d)
    if (tensor.shape[d] < 0)
      return -1;
  int64_t count = nd::runtime::countElements(tensor.shape, type.rank);
  int64_t bytes = 0;
  if (count < 0 ||
      __builtin_mul_overflow(count, static_cast<int64_t>(elementSize), &bytes))
    return -1;
  if (count > 0 && !tensor.data)
    return -1;
  return bytes;
}

/// A result copied into host memory of nd's, to be copied into the
/// caller's buffer `target` (strides `strides`, null: row-major) once the
/// call has succeeded.
struct Staged {
  void *staging;
  void *target;
  std::vector<int64_t> shape;
  const int64_t *strides;
  size_t elementSize;
  size_t bytes;
};

/// The host form's state: the device copies of the inputs, the device
/// outputs, host scratch; released by the destructor (in the call scope).
struct HostCall {
  std::vector<nd_tensor> inputs;
  std::vector<nd_tensor> outputs;
  std::vector<void *> deviceBuffers;
  std::vector<void *> hostBuffers;
  std::vector<Staged> staged;

  ~HostCall() {
    for (nd_tensor &output : outputs)
      nd::runtime::releaseTensor(output);
    for (void *buffer : deviceBuffers)
      releaseOnDevice(buffer);
    for (void *buffer : hostBuffers)
      nd::runtime::release(buffer);
  }

  /// Host memory released with the call; null and recorded on failure.
  void *hostBuffer(size_t bytes, const char *what) {
    void *buffer = nd::runtime::allocate(bytes);
    if (!buffer) {
      fail(ND_CUDA_ERROR_OUT_OF_MEMORY,
           "cannot allocate " + std::to_string(bytes) + " bytes for " + what);
      return nullptr;
    }
    hostBuffers.push_back(buffer);
    return buffer;
  }
};

/// Copies host input `tensor` (`bytes` long) into a fresh device buffer,
/// through a contiguous host copy if it is strided.
void *stageInput(HostCall &host, const nd_tensor &tensor, int64_t bytes) {
  if (bytes == 0)
    return nullptr;
  const void *source = tensor.data;
  if (!nd::runtime::isRowMajor(tensor.shape, tensor.strides, tensor.rank)) {
    void *contiguous = host.hostBuffer(static_cast<size_t>(bytes),
                                       "a contiguous copy of an input");
    if (!contiguous)
      return nullptr;
    std::vector<int64_t> strides(static_cast<size_t>(tensor.rank));
    nd::runtime::rowMajorStrides(tensor.shape, tensor.rank, strides.data());
    nd::runtime::copyStrided(nd::runtime::getHostMemory(),
                             static_cast<uint8_t *>(contiguous), strides.data(),
                             static_cast<const uint8_t *>(tensor.data),
                             tensor.strides, tensor.shape, tensor.rank,
                             nd::runtime::getElementSize(tensor.dtype));
    source = contiguous;
  }
  void *buffer = allocateOnDevice(static_cast<size_t>(bytes));
  if (!buffer)
    return nullptr;
  host.deviceBuffers.push_back(buffer);
  copyOnStream(buffer, source, static_cast<size_t>(bytes));
  return buffer;
}

/// Queues the copy of device output `device` (`bytes`) into `target`, a
/// caller's buffer with `strides`: through host memory of nd's when the
/// call has checks (the copy must wait for their verdict) or the buffer is
/// strided, directly otherwise.
void queueIntoCaller(HostCall &host, const nd_tensor &device, void *target,
                     const int64_t *strides, int32_t rank, size_t elementSize,
                     size_t bytes) {
  bool rowMajor = nd::runtime::isRowMajor(device.shape, strides, rank);
  if (!callState().checked && rowMajor) {
    copyOnStream(target, device.data, bytes);
    return;
  }
  void *staging = host.hostBuffer(bytes, "a copy of an output");
  if (!staging)
    return;
  host.staged.push_back(Staged{
      staging, target, std::vector<int64_t>(device.shape, device.shape + rank),
      rowMajor ? nullptr : strides, elementSize, bytes});
  copyOnStream(staging, device.data, bytes);
}

/// Hands device output `k` of the host form over to the caller's output:
/// queued for the caller's buffer, the donated input's buffer it is, or a
/// host buffer nd allocates. Returns an nd_status.
int32_t takeOutput(const nd_signature &signature, size_t k,
                   const nd_tensor *inputs, HostCall &host, nd_tensor &output,
                   std::string &text) {
  const nd_tensor &device = host.outputs[k];
  const nd_tensor_type &type = signature.outputs[k];
  size_t elementSize = nd::runtime::getElementSize(type.dtype);
  int64_t count = nd::runtime::countElements(device.shape, type.rank);
  size_t bytes = static_cast<size_t>(count) * elementSize;
  void *owned = nullptr;
  if (output.data || type.alias >= 0) {
    void *target = output.data ? output.data : inputs[type.alias].data;
    if (bytes > 0)
      queueIntoCaller(host, device, target,
                      output.data ? output.strides : nullptr, type.rank,
                      elementSize, bytes);
    if (output.data)
      return ND_OK;
  } else if (bytes > 0) {
    owned = nd::runtime::allocate(bytes);
    if (!owned) {
      text = "cannot allocate " + std::to_string(bytes) +
             " bytes for output #" + std::to_string(k);
      return ND_ERROR_OUT_OF_MEMORY;
    }
    copyOnStream(owned, device.data, bytes);
  }
  void *data = owned;
  if (!data && type.alias >= 0)
    data = inputs[type.alias].data;
  if (!nd::runtime::ownTensor(output, nd::runtime::getHostMemory(), owned, data,
                              device.shape, type.dtype, type.rank)) {
    nd::runtime::release(owned);
    text = "cannot allocate output #" + std::to_string(k);
    return ND_ERROR_OUT_OF_MEMORY;
  }
  return ND_OK;
}

/// Copies the staged results into the caller's buffers.
void deliverStaged(const HostCall &host) {
  for (const Staged &staged : host.staged) {
    if (!staged.strides) {
      std::memcpy(staged.target, staged.staging, staged.bytes);
      continue;
    }
    auto rank = static_cast<int32_t>(staged.shape.size());
    std::vector<int64_t> strides(staged.shape.size());
    nd::runtime::rowMajorStrides(staged.shape.data(), rank, strides.data());
    nd::runtime::copyStrided(
        nd::runtime::getHostMemory(), static_cast<uint8_t *>(staged.target),
        staged.strides, static_cast<const uint8_t *>(staged.staging),
        strides.data(), staged.shape.data(), rank, staged.elementSize);
  }
}

std::string formatShape(const int64_t *shape, int32_t rank) {
  std::string text = "[";
  for (int32_t d = 0; d < rank; ++d)
    text += (d ? ", " : "") + std::to_string(shape[d]);
  return text + "]";
}

/// Checks the caller's host output buffers against the signature and, once
/// the shapes are known, against the shapes the call computed.
int32_t checkHostOutputs(const nd_signature &signature, nd_tensor *outputs,
                         const std::vector<nd_tensor> *computed,
                         std::string &text) {
  for (size_t k = 0; k < static_cast<size_t>(signature.num_outputs); ++k) {
    const nd_tensor &output = outputs[k];
    if (!output.data)
      continue;
    if (!computed) {
      if (int32_t status =
              nd::runtime::checkOutputBuffer(signature, k, output, text))
        return status;
      continue;
    }
    const nd_tensor &device = (*computed)[k];
    if (!std::equal(device.shape, device.shape + device.rank, output.shape)) {
      text = "output #" + std::to_string(k) + ": the call computed shape " +
             formatShape(device.shape, device.rank) +
             ", the buffer has shape " + formatShape(output.shape, device.rank);
      return ND_ERROR_INVALID_ARGUMENT;
    }
  }
  return ND_OK;
}

/// The checks of the host form before its call scope: the counts, the
/// caller's output buffers, donated inputs contiguous.
int32_t checkHostCall(const nd_signature &signature, const nd_tensor *inputs,
                      size_t numInputs, nd_tensor *outputs, size_t numOutputs,
                      std::string &text) {
  int32_t status =
      checkCall(signature, inputs, numInputs, outputs, numOutputs, text);
  if (status == ND_OK)
    status = checkHostOutputs(signature, outputs, nullptr, text);
  for (size_t i = 0; status == ND_OK && i < numInputs; ++i) {
    // (A NULL shape is the Call's to report.)
    if (signature.inputs[i].donated && inputs[i].shape &&
        !nd::runtime::isRowMajor(inputs[i].shape, inputs[i].strides,
                                 inputs[i].rank)) {
      text = "input #" + std::to_string(i) +
             ": a donated input must be contiguous and row-major (its "
             "strides are not)";
      status = ND_ERROR_INVALID_ARGUMENT;
    }
  }
  return status;
}

/// The host form's call in its scope: inputs staged, the entry run, the
/// results queued back, one wait; returns an nd_status.
int32_t runHostCall(const nd_signature &signature, nd_packed_fn packed,
                    const nd_tensor *inputs, size_t numInputs,
                    nd_tensor *outputs, size_t numOutputs, std::string &text) {
  HostCall host;
  host.inputs.assign(inputs, inputs + numInputs);
  host.outputs.assign(numOutputs, nd_tensor{});
  // Inputs that fail the Call's checks go to it as they are: it reports
  // them before it reads any data.
  for (size_t i = 0; i < numInputs && !failed(); ++i) {
    int64_t bytes = checkedBytes(signature.inputs[i], inputs[i]);
    if (bytes < 0)
      continue;
    host.inputs[i].data = stageInput(host, inputs[i], bytes);
    host.inputs[i].strides = nullptr;
  }
  nd::runtime::Call call(signature, packed, kDeviceMemory);
  int32_t status = takeFailure(ND_OK, text);
  if (status == ND_OK)
    status = runCall(call, host.inputs.data(), numInputs, host.outputs.data(),
                     numOutputs, /*settle=*/false, text);
  if (status == ND_OK)
    status = checkHostOutputs(signature, outputs, &host.outputs, text);
  // The outputs nd allocates are made only once every copy is queued; a
  // failure after some were made releases them.
  std::vector<nd_tensor> taken(outputs, outputs + numOutputs);
  for (size_t k = 0; status == ND_OK && k < numOutputs; ++k)
    status = takeOutput(signature, k, inputs, host, taken[k], text);
  settleCall();
  status = takeFailure(status, text);
  if (status == ND_OK) {
    deliverStaged(host);
    std::copy(taken.begin(), taken.end(), outputs);
    return ND_OK;
  }
  for (size_t k = 0; k < numOutputs; ++k)
    if (taken[k].owner != outputs[k].owner)
      nd::runtime::releaseTensor(taken[k]);
  return status;
}

} // namespace

ND_EXPORT int32_t ND_ABI_CUDA_INVOKE_HOST(const nd_signature *signature,
                                          nd_packed_fn packed,
                                          nd_context *context,
                                          const nd_tensor *inputs,
                                          size_t numInputs, nd_tensor *outputs,
                                          size_t numOutputs) {
  std::string text;
  int32_t status =
      checkHostCall(*signature, inputs, numInputs, outputs, numOutputs, text);
  if (status != ND_OK)
    return finishCall(context, status, text);
  CUstream stream = ownStream();
  if (beginCall(stream, /*hostForm=*/true) != ND_CUDA_OK) {
    status = endCall(text);
    return finishCall(context, status, text);
  }
  status = runHostCall(*signature, packed, inputs, numInputs, outputs,
                       numOutputs, text);
  status = endScope(status, text);
  return finishCall(context, status, text);
}

ND_EXPORT void nd_cuda_tensor_free(nd_tensor *tensor) {
  if (tensor)
    nd::runtime::releaseTensor(*tensor);
}
