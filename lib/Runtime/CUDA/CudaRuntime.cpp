//===- CudaRuntime.cpp - libnd_cuda_runtime.so ------------------*- C++ -*-===//
//
// The run-time library of nd's GPU code (include/nd-c/CudaRuntime.h): the
// call scope a host wraps a call in and the helpers of hosts without a CUDA
// library of their own, the `mgpu*` entry points MLIR's gpu-to-llvm lowering
// calls, and what nd's generated code calls (nd-c/RuntimeABI.h: the error
// records and scratch of nd-gpu-call-stream, nd's error report). The calls
// of the entries of libraries that `nd-compile --target=cuda` built are in
// Invoke.cpp; calls, streams, records and the arena in CallScope.cpp; the
// driver in Driver.cpp.
//
// - Nothing exits or aborts. A failed driver call is recorded as the call's
//   error (the call, the CUresult's name and text); the later GPU operations
//   of the call do nothing; nd_cuda_end returns the status.
// - A call's GPU work runs on the stream given to nd_cuda_begin:
//   `mgpuStreamCreate` returns it, and `mgpuStreamDestroy` leaves it alone.
// - Kernels are looked up once per module, when it is loaded (drivers of
//   CUDA 12.4 on list a module's kernels; older ones are asked once per
//   kernel, at its first launch).
//
//===----------------------------------------------------------------------===//

#include "nd-c/CudaRuntime.h"
#include "nd-c/RuntimeABI.h"

#include "../Call.h"
#include "CallScope.h"
#include "Driver.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#define ND_EXPORT extern "C" __attribute__((visibility("default")))

using namespace nd::cuda;

namespace {

/// The kernels of a loaded module: by name (listed at load), and by the
/// address of the name the generated code passes (one hash of a pointer per
/// launch).
struct ModuleTable {
  std::unordered_map<std::string, CUfunction> byName;
  std::unordered_map<const char *, CUfunction> byAddress;
};

/// What the process shares about modules: their kernels, and why the last
/// one failed to load.
struct Modules {
  std::mutex mutex;
  std::string loadError;
  std::unordered_map<CUmodule, ModuleTable> tables;
};

Modules &modules() {
  static Modules *instance = new Modules();
  return *instance;
}

void copyMessage(const std::string &text, char *message, size_t size) {
  if (!message || size == 0)
    return;
  size_t length = std::min(text.size(), size - 1);
  std::memcpy(message, text.data(), length);
  message[length] = '\0';
}

/// A 1-D memref descriptor (MLIR's C interface).
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

void describeBuffer(MemRef1D *result, CUdeviceptr pointer, int64_t size) {
  void *buffer = reinterpret_cast<void *>(pointer);
  *result = MemRef1D{buffer, buffer, 0, pointer ? size : 0, 1};
}

/// The kernels of `module`, by name (drivers that can list them).
void listKernels(Driver &d, CUmodule module, ModuleTable &table) {
  if (!d.enumerates)
    return;
  unsigned count = 0;
  if (d.p_cuModuleGetFunctionCount(&count, module) != CUDA_SUCCESS)
    return;
  std::vector<CUfunction> functions(count);
  if (count && d.p_cuModuleEnumerateFunctions(functions.data(), count,
                                              module) != CUDA_SUCCESS)
    return;
  for (CUfunction function : functions) {
    const char *name = nullptr;
    if (d.p_cuFuncGetName(&name, function) == CUDA_SUCCESS && name)
      table.byName.emplace(name, function);
  }
}

/// Registers a loaded module and lists its kernels.
CUmodule registerModule(Driver &d, CUresult result, CUmodule module,
                        const char *call) {
  Modules &m = modules();
  std::lock_guard<std::mutex> lock(m.mutex);
  if (result != CUDA_SUCCESS) {
    m.loadError = std::string(call) + " failed: " + describe(d, result);
    return nullptr;
  }
  listKernels(d, module, m.tables[module]);
  return module;
}

} // namespace

//===----------------------------------------------------------------------===//
// The call scope and host helpers (nd-c/CudaRuntime.h)
//===----------------------------------------------------------------------===//

ND_EXPORT int32_t nd_cuda_begin(void *stream) {
  return beginCall(static_cast<CUstream>(stream), /*hostForm=*/false);
}

ND_EXPORT int32_t nd_cuda_end(char *message, size_t message_size) {
  std::string text;
  int32_t status = endCall(text);
  copyMessage(text, message, message_size);
  return status;
}

ND_EXPORT int32_t nd_cuda_synchronize(void *stream, char *message,
                                      size_t message_size) {
  std::string text;
  int32_t status = synchronizeStream(static_cast<CUstream>(stream), text);
  copyMessage(text, message, message_size);
  if (status != ND_CUDA_OK)
    callState().last = text;
  return status;
}

ND_EXPORT int32_t nd_cuda_set_synchronous(int32_t synchronous) {
  bool previous = isSynchronous();
  setSynchronous(synchronous != 0);
  return previous ? 1 : 0;
}

ND_EXPORT int32_t nd_cuda_available(char *message, size_t message_size) {
  Driver &d = driver();
  copyMessage(d.ok ? std::string() : d.error, message, message_size);
  if (!d.ok)
    callState().last = d.error;
  return d.ok ? ND_CUDA_OK : ND_CUDA_ERROR_DRIVER;
}

/// Runs `body` outside any call's status: a failure it records is returned
/// and becomes the thread's last message only.
template <typename Body> static int32_t asHelper(Body body) {
  CallState &state = callState();
  int32_t status = state.status;
  std::string message = state.message;
  state.status = ND_CUDA_OK;
  body();
  int32_t result = state.status;
  state.status = status;
  state.message = message;
  return result;
}

ND_EXPORT void *nd_cuda_alloc(size_t bytes) {
  if (bytes == 0)
    return nullptr;
  void *buffer = nullptr;
  asHelper([&] {
    // On the legacy stream, waited for: usable on any stream at once.
    buffer = allocateBuffer(bytes, nullptr, /*managed=*/false);
    if (buffer && driver().pools) {
      count(counters().synchronizations);
      check(driver().p_cuStreamSynchronize(nullptr), "cuStreamSynchronize");
    }
  });
  return buffer;
}

ND_EXPORT void nd_cuda_free(void *buffer, void *stream) {
  if (buffer)
    releaseBufferOn(buffer, static_cast<CUstream>(stream));
}

/// Queues a copy of `bytes` from `src` to `dst` on `stream`, counted;
/// whether the driver took it.
static bool queueCopy(Driver *d, void *dst, const void *src, size_t bytes,
                      CUstream stream) {
  count(counters().copies);
  return check(d->p_cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                  reinterpret_cast<CUdeviceptr>(src), bytes,
                                  stream),
               "cuMemcpyAsync");
}

ND_EXPORT int32_t nd_cuda_copy_async(void *dst, const void *src, size_t bytes,
                                     void *stream) {
  if (bytes == 0)
    return ND_CUDA_OK;
  return asHelper([&] {
    if (Driver *d = ready())
      queueCopy(d, dst, src, bytes, static_cast<CUstream>(stream));
  });
}

ND_EXPORT int32_t nd_cuda_copy(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return ND_CUDA_OK;
  return asHelper([&] {
    Driver *d = ready();
    if (!d || !queueCopy(d, dst, src, bytes, nullptr))
      return;
    count(counters().synchronizations);
    check(d->p_cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  });
}

ND_EXPORT const char *nd_cuda_last_message(void) {
  return callState().last.c_str();
}

ND_EXPORT void nd_cuda_driver_calls(nd_cuda_call_counts *out) {
  if (!out)
    return;
  Counters &c = counters();
  out->launches = c.launches.load(std::memory_order_relaxed);
  out->copies = c.copies.load(std::memory_order_relaxed);
  out->memsets = c.memsets.load(std::memory_order_relaxed);
  out->synchronizations = c.synchronizations.load(std::memory_order_relaxed);
  out->allocations = c.allocations.load(std::memory_order_relaxed);
  out->frees = c.frees.load(std::memory_order_relaxed);
  out->lookups = c.lookups.load(std::memory_order_relaxed);
}

//===----------------------------------------------------------------------===//
// What the generated code calls (nd-c/RuntimeABI.h)
//===----------------------------------------------------------------------===//

/// A failed run-time check of code that reports on the host (the kernels
/// run on the host: nd-gpu-run-on-host): the first message of the call is
/// kept (nd_cuda_end returns it), and in the call's state where the code
/// was given one.
ND_EXPORT void ND_ABI_REPORT_ERROR(nd_call_state *callState, const char *format,
                                   int64_t a, int64_t b) {
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, format, static_cast<long long>(a),
                static_cast<long long>(b));
  fail(ND_CUDA_ERROR_CHECK_FAILED, buffer);
  if (callState)
    nd::runtime::reportError(callState, format, a, b);
}

ND_EXPORT void ND_ABI_CIFACE(ND_ABI_CUDA_ERROR_RECORD)(MemRef1D *result,
                                                       int64_t words) {
  describeBuffer(result, errorRecord(words), words);
}

ND_EXPORT void ND_ABI_CIFACE(ND_ABI_CUDA_ERROR_RECORD_END)(MemRef1D *record,
                                                           MemRef1D *messages) {
  (void)record;
  endChecks(static_cast<const char *>(messages->aligned) + messages->offset);
}

ND_EXPORT void ND_ABI_CIFACE(ND_ABI_CUDA_SCRATCH)(MemRef1D *result,
                                                  int64_t bytes) {
  describeBuffer(result, takeScratch(static_cast<size_t>(bytes)), bytes);
}

/// A host buffer that nd-to-llvm's code could not allocate
/// (--nd-check-allocations; nd's GPU check loads the CPU library of its
/// cases beside this runtime): reported as a failed check is, with the
/// status ND_ERROR_OUT_OF_MEMORY.
ND_EXPORT void ND_ABI_REPORT_OUT_OF_MEMORY(nd_call_state *callState,
                                           const char *format, int64_t bytes,
                                           int64_t unused) {
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, format, static_cast<long long>(bytes),
                static_cast<long long>(unused));
  fail(ND_CUDA_ERROR_OUT_OF_MEMORY, buffer);
  if (callState)
    nd::runtime::reportOutOfMemory(callState, format, bytes, unused);
}

//===----------------------------------------------------------------------===//
// The entry points of MLIR's gpu-to-llvm lowering
//===----------------------------------------------------------------------===//

ND_EXPORT void mgpuSetDefaultDevice(int32_t device) { requestDevice(device); }

ND_EXPORT CUmodule mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  Driver &d = driver();
  if (!d.ok) {
    std::lock_guard<std::mutex> lock(modules().mutex);
    modules().loadError = d.error;
    return nullptr;
  }
  d.p_cuCtxSetCurrent(d.context);
  CUmodule module = nullptr;
  CUresult result = d.p_cuModuleLoadData(&module, data);
  return registerModule(d, result, module, "cuModuleLoadData");
}

ND_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  Driver &d = driver();
  if (!d.ok) {
    std::lock_guard<std::mutex> lock(modules().mutex);
    modules().loadError = d.error;
    return nullptr;
  }
  d.p_cuCtxSetCurrent(d.context);
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUmodule module = nullptr;
  CUresult result = d.p_cuModuleLoadDataEx(&module, data, 1, options, values);
  return registerModule(d, result, module, "cuModuleLoadDataEx");
}

ND_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (!module)
    return;
  Driver &d = driver();
  if (!d.ok)
    return;
  {
    std::lock_guard<std::mutex> lock(modules().mutex);
    modules().tables.erase(module);
  }
  // At exit the driver may be shutting down already: its answer is moot.
  d.p_cuModuleUnload(module);
}

ND_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  if (failed())
    return nullptr;
  Modules &m = modules();
  std::unique_lock<std::mutex> lock(m.mutex);
  if (!module) {
    fail(ND_CUDA_ERROR_DRIVER,
         "the GPU code of the library was not loaded: " + m.loadError);
    return nullptr;
  }
  ModuleTable &table = m.tables[module];
  auto known = table.byAddress.find(name);
  if (known != table.byAddress.end())
    return known->second;
  auto listed = table.byName.find(name);
  if (listed != table.byName.end()) {
    table.byAddress.emplace(name, listed->second);
    return listed->second;
  }
  lock.unlock();
  Driver *d = ready();
  if (!d)
    return nullptr;
  CUfunction function = nullptr;
  count(counters().lookups);
  if (!check(d->p_cuModuleGetFunction(&function, module, name),
             "cuModuleGetFunction"))
    return nullptr;
  lock.lock();
  table.byName.emplace(name, function);
  table.byAddress.emplace(name, function);
  return function;
}

ND_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                                intptr_t blockY, intptr_t blockZ,
                                int32_t sharedMemory, CUstream stream,
                                void **params, void **extra,
                                size_t /*paramsCount*/) {
  if (failed() || !function)
    return;
  count(counters().launches);
  check(driver().p_cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                  blockZ, sharedMemory, stream, params, extra),
        "cuLaunchKernel");
}

ND_EXPORT CUstream mgpuStreamCreate() {
  CallState &state = callState();
  if (state.active)
    return state.stream;
  return ownStream();
}

ND_EXPORT void mgpuStreamDestroy(CUstream stream) {
  // The call's stream and the thread's own stream outlive the call.
  (void)stream;
}

ND_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  Driver &d = driver();
  if (!d.ok || failed())
    return;
  count(counters().synchronizations);
  check(d.p_cuStreamSynchronize(stream), "cuStreamSynchronize");
}

ND_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (failed() || !event)
    return;
  check(driver().p_cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

ND_EXPORT CUevent mgpuEventCreate() {
  if (failed() || !ready())
    return nullptr;
  CUevent event = nullptr;
  check(driver().p_cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
        "cuEventCreate");
  return event;
}

ND_EXPORT void mgpuEventDestroy(CUevent event) {
  if (event && driver().ok)
    driver().p_cuEventDestroy(event);
}

ND_EXPORT void mgpuEventSynchronize(CUevent event) {
  if (!event || !driver().ok)
    return;
  count(counters().synchronizations);
  check(driver().p_cuEventSynchronize(event), "cuEventSynchronize");
}

ND_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  if (failed() || !event)
    return;
  check(driver().p_cuEventRecord(event, stream), "cuEventRecord");
}

ND_EXPORT void *mgpuMemAlloc(uint64_t bytes, CUstream stream,
                             bool isHostShared) {
  if (failed() || bytes == 0)
    return nullptr;
  return allocateBuffer(bytes, stream, isHostShared);
}

ND_EXPORT void mgpuMemFree(void *buffer, CUstream stream) {
  if (!buffer)
    return;
  if (releaseScratch(reinterpret_cast<CUdeviceptr>(buffer)))
    return;
  releaseBufferOn(buffer, stream);
}

ND_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (failed() || bytes == 0)
    return;
  count(counters().copies);
  check(driver().p_cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), bytes,
                                 stream),
        "cuMemcpyAsync");
}

ND_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count32,
                            CUstream stream) {
  if (failed() || count32 == 0)
    return;
  count(counters().memsets);
  check(driver().p_cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count32, stream),
        "cuMemsetD32Async");
}

ND_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count16,
                            CUstream stream) {
  if (failed() || count16 == 0)
    return;
  count(counters().memsets);
  check(driver().p_cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count16, stream),
        "cuMemsetD16Async");
}
