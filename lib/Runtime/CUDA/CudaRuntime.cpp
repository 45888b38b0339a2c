//===- CudaRuntime.cpp - libnd_cuda_runtime.so ------------------*- C++ -*-===//
//
// The run-time library of nd's GPU code (include/nd-c/CudaRuntime.h): the
// `mgpu*` entry points MLIR's gpu-to-llvm lowering calls, nd's error report,
// and the call scope a host wraps a call in.
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
/// call is kept (nd_cuda_end returns it). The host code runs on the thread
/// that began the call, whose state is thread-local: the generated code's
/// call-state argument (null unless a host passes one) is not needed.
ND_EXPORT void ND_ABI_REPORT_ERROR(nd_call_state *, const char *format,
                                   int64_t a, int64_t b) {
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, format, static_cast<long long>(a),
                static_cast<long long>(b));
  fail(ND_CUDA_ERROR_CHECK_FAILED, buffer);
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
