//===- Driver.h - the CUDA driver, loaded at run time -----------*- C++ -*-===//
//
// Internal to libnd_cuda_runtime.so. The CUDA driver (libcuda.so.1) is
// loaded with dlopen at first use, so the library builds, links and loads
// on machines without a driver: only cuda.h's types and prototypes are used
// at build time. A missing driver or device is an error with a message,
// never a crash. The driver's state is process-wide and never destroyed
// (global destructors of the libraries built on top may still run at exit).
//
// Every driver call the runtime makes in a call goes through the table
// below, and the calls that cost a GPU round trip, a launch or an
// allocation are counted (nd_cuda_driver_calls of nd-c/CudaRuntime.h).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_RUNTIME_CUDA_DRIVER_H
#define ND_LIB_RUNTIME_CUDA_DRIVER_H

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace nd::cuda {

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
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemAllocHost)                                                            \
  X(cuMemFree)                                                                 \
  X(cuMemFreeHost)                                                             \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD16Async)                                                          \
  X(cuMemsetD32Async)
// Stream-ordered allocation (CUDA 11.2 drivers on) and the enumeration of a
// module's kernels (CUDA 12.4 drivers on).
#define ND_CU_OPTIONAL(X)                                                      \
  X(cuDeviceGetDefaultMemPool)                                                 \
  X(cuMemPoolSetAttribute)                                                     \
  X(cuMemAllocAsync)                                                           \
  X(cuMemFreeAsync)                                                            \
  X(cuModuleGetFunctionCount)                                                  \
  X(cuModuleEnumerateFunctions)                                                \
  X(cuFuncGetName)

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
  /// Whether a module's kernels can be listed at load.
  bool enumerates = false;
};

/// The driver, loaded at first use.
Driver &driver();

/// Sets the device ordinal the driver will use, if it is not loaded yet
/// (mgpuSetDefaultDevice); otherwise ND_CUDA_DEVICE, or 0.
void requestDevice(int ordinal);

/// The name and text of a CUresult.
std::string describe(const Driver &driver, CUresult result);

/// What the runtime asked of the driver since the process started.
struct Counters {
  std::atomic<uint64_t> launches{0};
  std::atomic<uint64_t> copies{0};
  std::atomic<uint64_t> memsets{0};
  std::atomic<uint64_t> synchronizations{0};
  std::atomic<uint64_t> allocations{0};
  std::atomic<uint64_t> frees{0};
  std::atomic<uint64_t> lookups{0};
};

Counters &counters();

/// Adds one to `counter`.
inline void count(std::atomic<uint64_t> &counter) {
  counter.fetch_add(1, std::memory_order_relaxed);
}

} // namespace nd::cuda

#endif // ND_LIB_RUNTIME_CUDA_DRIVER_H
