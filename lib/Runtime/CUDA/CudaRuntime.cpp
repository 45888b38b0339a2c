//===- CudaRuntime.cpp - libnd_cuda_runtime.so ------------------*- C++ -*-===//
//
// The run-time library of nd's GPU code (include/nd-c/CudaRuntime.h): the
// `mgpu*` entry points MLIR's gpu-to-llvm lowering calls, nd's error report,
// the call scope a host wraps a call in, and the calls of the entries of
// libraries that `nd-compile --target=cuda` built (nd_cuda_invoke and
// nd_cuda_invoke_host of nd-c/RuntimeABI.h: the host side of a CPU call,
// lib/Runtime/Call.h, on the device's memory).
//
// - The CUDA driver is loaded with dlopen("libcuda.so.1") at first use, so
//   the library builds, links and loads on machines without a driver (only
//   cuda.h's types and prototypes are used at build time). A missing driver
//   or device is an error status with a message, never a crash.
// - Nothing exits or aborts. A failed driver call is recorded as the call's
//   error (the call, the CUresult's name and text); the later GPU operations
//   of the call do nothing; nd_cuda_end returns the status.
// - A call's GPU work runs on one stream: `mgpuStreamCreate` returns the
//   stream given to nd_cuda_begin, and `mgpuStreamDestroy` leaves it alone.
// - Buffers come from the device's stream-ordered memory pool, kept cached
//   (release threshold at its maximum), so that the buffers of a call cost
//   no driver allocation once the pool holds them.
// - Kernels are looked up once per (module, name).
//
// The state of the driver and of the modules is process-wide and never
// destroyed (global destructors of the libraries built on top may still run
// at exit); the call state is per thread.
//
//===----------------------------------------------------------------------===//

#include "nd-c/CudaRuntime.h"
#include "nd-c/RuntimeABI.h"

#include "../Call.h"
#include "../Memory.h"

#include <cuda.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#define ND_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// The driver functions nd uses. cuda.h maps some names to versioned symbols
// (cuMemAlloc -> cuMemAlloc_v2) with macros: the same macros give the
// symbol to look up.
#define ND_CU_REQUIRED(X)                                                      \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpy)                                                                  \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD16Async)                                                          \
  X(cuMemsetD32Async)
// Stream-ordered allocation (CUDA 11.2 drivers on).
#define ND_CU_OPTIONAL(X)                                                      \
  X(cuDeviceGetDefaultMemPool)                                                 \
  X(cuMemPoolSetAttribute)                                                     \
  X(cuMemAllocAsync)                                                           \
  X(cuMemFreeAsync)

#define ND_CU_STRINGIFY_(name) #name
#define ND_CU_SYMBOL(name) ND_CU_STRINGIFY_(name)

struct Driver {
#define ND_CU_MEMBER(name) decltype(&::name) p_##name = nullptr;
  ND_CU_REQUIRED(ND_CU_MEMBER)
  ND_CU_OPTIONAL(ND_CU_MEMBER)
#undef ND_CU_MEMBER
  /// Whether the driver, a device and its primary context are usable.
  bool ok = false;
  /// Why not.
  std::string error;
  CUdevice device = 0;
  CUcontext context = nullptr;
  /// Whether buffers come from the stream-ordered pool.
  bool pools = false;
};

/// The device ordinal mgpuSetDefaultDevice chose before the driver loaded.
int requestedDevice = -1;

std::string describe(const Driver &driver, CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (driver.p_cuGetErrorName)
    driver.p_cuGetErrorName(result, &name);
  if (driver.p_cuGetErrorString)
    driver.p_cuGetErrorString(result, &text);
  std::string out = name ? name : ("CUresult " + std::to_string(result));
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

void loadDriver(Driver &driver) {
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    driver.error = std::string("no CUDA driver: libcuda.so.1 cannot be "
                               "loaded (") +
                   (why ? why : "unknown reason") + ")";
    return;
  }
#define ND_CU_LOAD(name)                                                       \
  driver.p_##name = reinterpret_cast<decltype(driver.p_##name)>(               \
      dlsym(handle, ND_CU_SYMBOL(name)));
  ND_CU_REQUIRED(ND_CU_LOAD)
  ND_CU_OPTIONAL(ND_CU_LOAD)
#undef ND_CU_LOAD
#define ND_CU_CHECK_LOADED(name)                                               \
  if (!driver.p_##name) {                                                      \
    driver.error = "the CUDA driver lacks " ND_CU_SYMBOL(name);                \
    return;                                                                    \
  }
  ND_CU_REQUIRED(ND_CU_CHECK_LOADED)
#undef ND_CU_CHECK_LOADED
  CUresult result = driver.p_cuInit(0);
  if (result != CUDA_SUCCESS) {
    driver.error =
        "the CUDA driver cannot be initialized: " + describe(driver, result);
    return;
  }
  int count = 0;
  result = driver.p_cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    driver.error = "no CUDA device";
    return;
  }
  int ordinal = requestedDevice;
  if (ordinal < 0) {
    const char *env = std::getenv("ND_CUDA_DEVICE");
    ordinal = env ? std::atoi(env) : 0;
  }
  if (ordinal < 0 || ordinal >= count) {
    driver.error = "CUDA device " + std::to_string(ordinal) +
                   " does not exist (" + std::to_string(count) + " devices)";
    return;
  }
  result = driver.p_cuDeviceGet(&driver.device, ordinal);
  if (result == CUDA_SUCCESS)
    result = driver.p_cuDevicePrimaryCtxRetain(&driver.context, driver.device);
  if (result != CUDA_SUCCESS) {
    driver.error =
        "the CUDA device's context cannot be made: " + describe(driver, result);
    return;
  }
  driver.p_cuCtxSetCurrent(driver.context);
  int pools = 0;
  driver.p_cuDeviceGetAttribute(
      &pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, driver.device);
  if (pools && driver.p_cuDeviceGetDefaultMemPool &&
      driver.p_cuMemPoolSetAttribute && driver.p_cuMemAllocAsync &&
      driver.p_cuMemFreeAsync) {
    CUmemoryPool pool;
    if (driver.p_cuDeviceGetDefaultMemPool(&pool, driver.device) ==
        CUDA_SUCCESS) {
      cuuint64_t keep = ~cuuint64_t(0);
      driver.p_cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                     &keep);
      driver.pools = true;
    }
  }
  driver.ok = true;
}

Driver &driver() {
  static Driver *instance = [] {
    auto *d = new Driver();
    loadDriver(*d);
    return d;
  }();
  return *instance;
}

/// What the process shares: modules that failed to load, the kernels looked
/// up, the buffers nd allocated.
struct Shared {
  std::mutex mutex;
  std::string loadError;
  std::unordered_map<std::string, CUfunction> kernels;
  std::unordered_set<void *> buffers;
};

Shared &shared() {
  static Shared *instance = new Shared();
  return *instance;
}

/// The call in progress on a thread.
struct CallState {
  bool active = false;
  CUstream stream = nullptr;
  /// The thread's own stream (for calls given none).
  CUstream own = nullptr;
  int32_t status = ND_CUDA_OK;
  std::string message;
  /// The last failure of a runtime function outside a call's status.
  std::string last;
};

thread_local CallState state;

void fail(int32_t status, const std::string &message) {
  state.last = message;
  if (state.status != ND_CUDA_OK)
    return;
  state.status = status;
  state.message = message;
}

bool failed() { return state.status != ND_CUDA_OK; }

/// Records a failed driver call; returns whether it succeeded.
bool check(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  int32_t status = result == CUDA_ERROR_OUT_OF_MEMORY
                       ? ND_CUDA_ERROR_OUT_OF_MEMORY
                       : ND_CUDA_ERROR_DRIVER;
  fail(status, std::string("CUDA driver call ") + call +
                   " failed: " + describe(driver(), result));
  return false;
}

/// The driver, if usable, with the device's context current on this thread;
/// otherwise records why and returns null.
Driver *ready() {
  Driver &d = driver();
  if (!d.ok) {
    fail(ND_CUDA_ERROR_DRIVER, d.error);
    return nullptr;
  }
  d.p_cuCtxSetCurrent(d.context);
  return &d;
}

/// The thread's own stream, made at first use.
CUstream ownStream(Driver &d) {
  if (!state.own)
    check(d.p_cuStreamCreate(&state.own, CU_STREAM_NON_BLOCKING),
          "cuStreamCreate");
  return state.own;
}

void *allocate(Driver &d, size_t bytes, CUstream stream, bool managed) {
  CUdeviceptr pointer = 0;
  CUresult result;
  const char *call;
  if (managed) {
    result = d.p_cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL);
    call = "cuMemAllocManaged";
  } else if (d.pools) {
    result = d.p_cuMemAllocAsync(&pointer, bytes, stream);
    call = "cuMemAllocAsync";
  } else {
    result = d.p_cuMemAlloc(&pointer, bytes);
    call = "cuMemAlloc";
  }
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    fail(ND_CUDA_ERROR_OUT_OF_MEMORY,
         "cannot allocate " + std::to_string(bytes) + " bytes on the GPU (" +
             call + ": out of memory)");
    return nullptr;
  }
  if (!check(result, call))
    return nullptr;
  void *buffer = reinterpret_cast<void *>(pointer);
  std::lock_guard<std::mutex> lock(shared().mutex);
  shared().buffers.insert(buffer);
  return buffer;
}

/// Frees `buffer` if nd allocated it; returns whether it did.
bool release(Driver &d, void *buffer, CUstream stream) {
  {
    std::lock_guard<std::mutex> lock(shared().mutex);
    if (!shared().buffers.erase(buffer))
      return false;
  }
  auto pointer = reinterpret_cast<CUdeviceptr>(buffer);
  if (d.pools)
    check(d.p_cuMemFreeAsync(pointer, stream), "cuMemFreeAsync");
  else
    check(d.p_cuMemFree(pointer), "cuMemFree");
  return true;
}

void copyMessage(const std::string &text, char *message, size_t size) {
  if (!message || size == 0)
    return;
  size_t length = std::min(text.size(), size - 1);
  std::memcpy(message, text.data(), length);
  message[length] = '\0';
}

} // namespace

//===----------------------------------------------------------------------===//
// The call scope and host helpers (nd-c/CudaRuntime.h)
//===----------------------------------------------------------------------===//

ND_EXPORT int32_t nd_cuda_begin(void *stream) {
  CUstream own = state.own;
  std::string last = state.last;
  state = CallState();
  state.own = own;
  state.last = last;
  state.active = true;
  Driver *d = ready();
  if (!d)
    return state.status;
  state.stream = stream ? static_cast<CUstream>(stream) : ownStream(*d);
  return state.status;
}

ND_EXPORT int32_t nd_cuda_end(char *message, size_t message_size) {
  int32_t status = state.status;
  copyMessage(status == ND_CUDA_OK ? std::string() : state.message, message,
              message_size);
  state.active = false;
  state.stream = nullptr;
  state.status = ND_CUDA_OK;
  state.message.clear();
  return status;
}

ND_EXPORT int32_t nd_cuda_available(char *message, size_t message_size) {
  Driver &d = driver();
  copyMessage(d.ok ? std::string() : d.error, message, message_size);
  if (!d.ok)
    state.last = d.error;
  return d.ok ? ND_CUDA_OK : ND_CUDA_ERROR_DRIVER;
}

ND_EXPORT void *nd_cuda_alloc(size_t bytes) {
  if (bytes == 0)
    return nullptr;
  CallState saved = std::move(state);
  state = CallState();
  state.own = saved.own;
  void *buffer = nullptr;
  if (Driver *d = ready()) {
    buffer = allocate(*d, bytes, ownStream(*d), /*managed=*/false);
    if (buffer && d->pools)
      check(d->p_cuStreamSynchronize(state.own), "cuStreamSynchronize");
  }
  std::string last = state.message;
  saved.own = state.own;
  state = std::move(saved);
  if (!buffer)
    state.last = last;
  return buffer;
}

ND_EXPORT void nd_cuda_free(void *buffer, void *stream) {
  if (!buffer)
    return;
  Driver &d = driver();
  if (!d.ok)
    return;
  d.p_cuCtxSetCurrent(d.context);
  CUstream on = stream ? static_cast<CUstream>(stream) : state.own;
  int32_t status = state.status;
  std::string message = state.message;
  release(d, buffer, on);
  // A failure to free is not the failure of a call.
  state.status = status;
  state.message = message;
}

ND_EXPORT int32_t nd_cuda_copy(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return ND_CUDA_OK;
  Driver &d = driver();
  if (!d.ok) {
    state.last = d.error;
    return ND_CUDA_ERROR_DRIVER;
  }
  d.p_cuCtxSetCurrent(d.context);
  CUresult result = d.p_cuMemcpy(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), bytes);
  if (result == CUDA_SUCCESS)
    return ND_CUDA_OK;
  state.last = "CUDA driver call cuMemcpy failed: " + describe(d, result);
  return ND_CUDA_ERROR_DRIVER;
}

ND_EXPORT const char *nd_cuda_last_message(void) { return state.last.c_str(); }

//===----------------------------------------------------------------------===//
// nd's error report
//===----------------------------------------------------------------------===//

/// A failed run-time check of the generated code: the first message of the
/// call is kept (nd_cuda_end returns it), and in the call's state where the
/// code was given one (the entries of nd-compile's libraries).
ND_EXPORT void ND_ABI_REPORT_ERROR(nd_call_state *callState, const char *format,
                                   int64_t a, int64_t b) {
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, format, static_cast<long long>(a),
                static_cast<long long>(b));
  fail(ND_CUDA_ERROR_CHECK_FAILED, buffer);
  if (callState)
    nd::runtime::reportError(callState, format, a, b);
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

ND_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  requestedDevice = device;
}

ND_EXPORT CUmodule mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  Driver &d = driver();
  std::lock_guard<std::mutex> lock(shared().mutex);
  if (!d.ok) {
    shared().loadError = d.error;
    return nullptr;
  }
  d.p_cuCtxSetCurrent(d.context);
  CUmodule module = nullptr;
  CUresult result = d.p_cuModuleLoadData(&module, data);
  if (result != CUDA_SUCCESS) {
    shared().loadError = "cuModuleLoadData failed: " + describe(d, result);
    return nullptr;
  }
  return module;
}

ND_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  Driver &d = driver();
  std::lock_guard<std::mutex> lock(shared().mutex);
  if (!d.ok) {
    shared().loadError = d.error;
    return nullptr;
  }
  d.p_cuCtxSetCurrent(d.context);
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUmodule module = nullptr;
  CUresult result = d.p_cuModuleLoadDataEx(&module, data, 1, options, values);
  if (result != CUDA_SUCCESS) {
    shared().loadError = "cuModuleLoadDataEx failed: " + describe(d, result);
    return nullptr;
  }
  return module;
}

ND_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (!module)
    return;
  Driver &d = driver();
  if (!d.ok)
    return;
  {
    std::lock_guard<std::mutex> lock(shared().mutex);
    std::string prefix =
        std::to_string(reinterpret_cast<uintptr_t>(module)) + ":";
    for (auto it = shared().kernels.begin(); it != shared().kernels.end();) {
      if (it->first.compare(0, prefix.size(), prefix) == 0)
        it = shared().kernels.erase(it);
      else
        ++it;
    }
  }
  // At exit the driver may be shutting down already: its answer is moot.
  d.p_cuModuleUnload(module);
}

ND_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  if (failed())
    return nullptr;
  if (!module) {
    std::lock_guard<std::mutex> lock(shared().mutex);
    fail(ND_CUDA_ERROR_DRIVER,
         "the GPU code of the library was not loaded: " + shared().loadError);
    return nullptr;
  }
  std::string key =
      std::to_string(reinterpret_cast<uintptr_t>(module)) + ":" + name;
  {
    std::lock_guard<std::mutex> lock(shared().mutex);
    auto it = shared().kernels.find(key);
    if (it != shared().kernels.end())
      return it->second;
  }
  Driver *d = ready();
  if (!d)
    return nullptr;
  CUfunction function = nullptr;
  if (!check(d->p_cuModuleGetFunction(&function, module, name),
             "cuModuleGetFunction"))
    return nullptr;
  std::lock_guard<std::mutex> lock(shared().mutex);
  shared().kernels.emplace(key, function);
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
  check(driver().p_cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                  blockZ, sharedMemory, stream, params, extra),
        "cuLaunchKernel");
}

ND_EXPORT CUstream mgpuStreamCreate() {
  if (state.active && state.stream)
    return state.stream;
  Driver *d = ready();
  if (!d)
    return nullptr;
  return ownStream(*d);
}

ND_EXPORT void mgpuStreamDestroy(CUstream stream) {
  // The call's stream and the thread's own stream outlive the call.
  (void)stream;
}

ND_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  Driver &d = driver();
  if (!d.ok || !stream)
    return;
  check(d.p_cuStreamSynchronize(stream), "cuStreamSynchronize");
}

ND_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (failed() || !event)
    return;
  check(driver().p_cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

ND_EXPORT CUevent mgpuEventCreate() {
  if (failed())
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
  Driver *d = ready();
  if (!d)
    return nullptr;
  return allocate(*d, bytes, stream, isHostShared);
}

ND_EXPORT void mgpuMemFree(void *buffer, CUstream stream) {
  if (!buffer || !driver().ok)
    return;
  release(driver(), buffer, stream);
}

ND_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes, CUstream stream) {
  if (failed() || bytes == 0)
    return;
  check(driver().p_cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), bytes,
                                 stream),
        "cuMemcpyAsync");
}

ND_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                            CUstream stream) {
  if (failed() || count == 0)
    return;
  check(driver().p_cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count, stream),
        "cuMemsetD32Async");
}

ND_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                            CUstream stream) {
  if (failed() || count == 0)
    return;
  check(driver().p_cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count, stream),
        "cuMemsetD16Async");
}

//===----------------------------------------------------------------------===//
// Calls of compiled entries (nd-c/RuntimeABI.h)
//===----------------------------------------------------------------------===//

namespace {

/// The device's memory for nd::runtime::Call, used inside a call scope: on
/// the call's stream, failures recorded as the call's.
void *allocateOnDevice(size_t bytes) {
  if (bytes == 0 || failed())
    return nullptr;
  Driver *d = ready();
  if (!d)
    return nullptr;
  return allocate(*d, bytes, state.stream, /*managed=*/false);
}

void releaseOnDevice(void *buffer) {
  if (!buffer || !driver().ok)
    return;
  release(driver(), buffer, state.active ? state.stream : state.own);
}

void copyOnStream(void *dst, const void *src, size_t bytes) {
  if (failed() || bytes == 0)
    return;
  check(driver().p_cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), bytes,
                                 state.stream),
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
  copyMessage(status == ND_OK ? std::string() : text, context->message,
              context->message_size);
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

/// Runs `call` (prepared) in the call scope: the status of the run, the
/// driver's failures included, with `text` its message.
int32_t runInScope(nd::runtime::Call &call, std::string &text) {
  int32_t status = call.run(/*threads=*/0, nd::runtime::ThreadControl());
  if (failed()) {
    // A driver failure, or a check whose report the run saw too.
    call.releaseResults();
    text = state.message;
    return state.status;
  }
  if (status != ND_OK)
    text = call.getMessage();
  return status;
}

/// Leaves the call scope; a failure of the work still queued (the last
/// copies) becomes the call's if none came before.
int32_t endScope(int32_t status, std::string &text) {
  if (status == ND_OK && failed()) {
    status = state.status;
    text = state.message;
  }
  nd_cuda_end(nullptr, 0);
  return status;
}

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

/// The host form's state: the device copies of the inputs, the device
/// outputs, host scratch; released by the destructor (in the call scope).
struct HostCall {
  std::vector<nd_tensor> inputs;
  std::vector<nd_tensor> outputs;
  std::vector<void *> deviceBuffers;
  std::vector<void *> hostBuffers;

  ~HostCall() {
    for (nd_tensor &output : outputs)
      nd::runtime::releaseTensor(output);
    for (void *buffer : deviceBuffers)
      releaseOnDevice(buffer);
    for (void *buffer : hostBuffers)
      nd::runtime::release(buffer);
  }
};

/// Copies host input `tensor` (`bytes` long) into a fresh device buffer,
/// through a contiguous host copy if it is strided.
void *stageInput(HostCall &host, const nd_tensor &tensor, int64_t bytes) {
  if (bytes == 0)
    return nullptr;
  const void *source = tensor.data;
  if (!nd::runtime::isRowMajor(tensor.shape, tensor.strides, tensor.rank)) {
    void *contiguous = nd::runtime::allocate(static_cast<size_t>(bytes));
    if (!contiguous) {
      fail(ND_CUDA_ERROR_OUT_OF_MEMORY,
           "cannot allocate " + std::to_string(bytes) +
               " bytes for a contiguous copy of an input");
      return nullptr;
    }
    host.hostBuffers.push_back(contiguous);
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

/// Hands device output `k` of the host form over to the caller's output:
/// copied into the caller's buffer, into the donated input's buffer it is,
/// or into a host buffer nd allocates. Returns an nd_status.
int32_t takeOutput(const nd_signature &signature, size_t k,
                   const nd_tensor *inputs, const nd_tensor &device,
                   nd_tensor &output, std::string &text) {
  const nd_tensor_type &type = signature.outputs[k];
  size_t elementSize = nd::runtime::getElementSize(type.dtype);
  int64_t count = nd::runtime::countElements(device.shape, type.rank);
  size_t bytes = static_cast<size_t>(count) * elementSize;
  const nd::runtime::Memory &hostMemory = nd::runtime::getHostMemory();
  void *target = output.data;
  void *owned = nullptr;
  if (!target && type.alias >= 0) {
    target = inputs[type.alias].data;
  } else if (!target && bytes > 0) {
    owned = nd::runtime::allocate(bytes);
    if (!owned) {
      text = "cannot allocate " + std::to_string(bytes) +
             " bytes for output #" + std::to_string(k);
      return ND_ERROR_OUT_OF_MEMORY;
    }
    target = owned;
  }
  bool rowMajor =
      nd::runtime::isRowMajor(device.shape, output.strides, type.rank);
  if (output.data && !rowMajor) {
    // Through a contiguous host copy into the caller's strides.
    void *contiguous = nd::runtime::allocate(bytes);
    if (!contiguous) {
      text = "cannot allocate " + std::to_string(bytes) +
             " bytes for a copy of output #" + std::to_string(k);
      return ND_ERROR_OUT_OF_MEMORY;
    }
    copyOnStream(contiguous, device.data, bytes);
    check(driver().p_cuStreamSynchronize(state.stream), "cuStreamSynchronize");
    std::vector<int64_t> strides(static_cast<size_t>(type.rank));
    nd::runtime::rowMajorStrides(device.shape, type.rank, strides.data());
    if (!failed())
      nd::runtime::copyStrided(
          hostMemory, static_cast<uint8_t *>(target), output.strides,
          static_cast<const uint8_t *>(contiguous), strides.data(),
          device.shape, type.rank, elementSize);
    nd::runtime::release(contiguous);
  } else if (bytes > 0) {
    copyOnStream(target, device.data, bytes);
  }
  if (output.data)
    return ND_OK;
  if (!nd::runtime::ownTensor(output, hostMemory, owned, target, device.shape,
                              type.dtype, type.rank)) {
    nd::runtime::release(owned);
    text = "cannot allocate output #" + std::to_string(k);
    return ND_ERROR_OUT_OF_MEMORY;
  }
  return ND_OK;
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
  if (nd_cuda_begin(stream) != ND_CUDA_OK) {
    text = state.message;
    status = state.status;
    nd_cuda_end(nullptr, 0);
    return finishCall(context, status, text);
  }
  {
    nd::runtime::Call call(*signature, packed, kDeviceMemory);
    status = call.prepare(inputs, numInputs, outputs, numOutputs);
    if (status != ND_OK)
      text = failed() ? state.message : call.getMessage();
    if (status == ND_OK)
      status = runInScope(call, text);
    if (status == ND_OK) {
      status = call.finish();
      if (status != ND_OK)
        text = call.getMessage();
    }
  }
  status = endScope(status, text);
  return finishCall(context, status, text);
}

ND_EXPORT int32_t ND_ABI_CUDA_INVOKE_HOST(const nd_signature *signature,
                                          nd_packed_fn packed,
                                          nd_context *context,
                                          const nd_tensor *inputs,
                                          size_t numInputs, nd_tensor *outputs,
                                          size_t numOutputs) {
  std::string text;
  int32_t status =
      checkCall(*signature, inputs, numInputs, outputs, numOutputs, text);
  if (status == ND_OK)
    status = checkHostOutputs(*signature, outputs, nullptr, text);
  for (size_t i = 0; status == ND_OK && i < numInputs; ++i) {
    // (A NULL shape is the Call's to report.)
    if (signature->inputs[i].donated && inputs[i].shape &&
        !nd::runtime::isRowMajor(inputs[i].shape, inputs[i].strides,
                                 inputs[i].rank)) {
      text = "input #" + std::to_string(i) +
             ": a donated input must be contiguous and row-major (its "
             "strides are not)";
      status = ND_ERROR_INVALID_ARGUMENT;
    }
  }
  if (status != ND_OK)
    return finishCall(context, status, text);
  if (nd_cuda_begin(nullptr) != ND_CUDA_OK) {
    text = state.message;
    status = state.status;
    nd_cuda_end(nullptr, 0);
    return finishCall(context, status, text);
  }
  {
    HostCall host;
    host.inputs.assign(inputs, inputs + numInputs);
    host.outputs.assign(numOutputs, nd_tensor{});
    // Inputs that fail the Call's checks go to it as they are: it reports
    // them before it reads any data.
    for (size_t i = 0; i < numInputs && !failed(); ++i) {
      int64_t bytes = checkedBytes(signature->inputs[i], inputs[i]);
      if (bytes < 0)
        continue;
      host.inputs[i].data = stageInput(host, inputs[i], bytes);
      host.inputs[i].strides = nullptr;
    }
    nd::runtime::Call call(*signature, packed, kDeviceMemory);
    if (failed()) {
      status = state.status;
      text = state.message;
    } else {
      status = call.prepare(host.inputs.data(), numInputs, host.outputs.data(),
                            numOutputs);
      if (status != ND_OK)
        text = failed() ? state.message : call.getMessage();
    }
    if (status == ND_OK)
      status = runInScope(call, text);
    if (status == ND_OK) {
      status = call.finish();
      if (status != ND_OK)
        text = call.getMessage();
    }
    if (status == ND_OK)
      status = checkHostOutputs(*signature, outputs, &host.outputs, text);
    // The outputs nd allocates are made only once every copy is queued; a
    // failure after some were made releases them.
    std::vector<nd_tensor> taken(outputs, outputs + numOutputs);
    for (size_t k = 0; status == ND_OK && k < numOutputs; ++k)
      status =
          takeOutput(*signature, k, inputs, host.outputs[k], taken[k], text);
    if (!failed())
      check(driver().p_cuStreamSynchronize(state.stream),
            "cuStreamSynchronize");
    if (status == ND_OK && failed()) {
      status = state.status;
      text = state.message;
    }
    if (status == ND_OK)
      std::copy(taken.begin(), taken.end(), outputs);
    else
      for (size_t k = 0; k < numOutputs; ++k)
        if (taken[k].owner != outputs[k].owner)
          nd::runtime::releaseTensor(taken[k]);
  }
  status = endScope(status, text);
  return finishCall(context, status, text);
}

ND_EXPORT void nd_cuda_tensor_free(nd_tensor *tensor) {
  if (tensor)
    nd::runtime::releaseTensor(*tensor);
}
