//===- Driver.cpp - the CUDA driver, loaded at run time ---------*- C++ -*-===//
//
// See Driver.h.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace nd::cuda;

#define ND_CU_STRINGIFY_(name) #name
#define ND_CU_SYMBOL(name) ND_CU_STRINGIFY_(name)

namespace {

/// The device ordinal mgpuSetDefaultDevice chose before the driver loaded.
int requestedDevice = -1;

/// Looks the driver's functions up; returns false (with the error set) if
/// the library or a required function is missing.
bool loadFunctions(Driver &driver) {
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    driver.error = std::string("no CUDA driver: libcuda.so.1 cannot be "
                               "loaded (") +
                   (why ? why : "unknown reason") + ")";
    return false;
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
    return false;                                                              \
  }
  ND_CU_REQUIRED(ND_CU_CHECK_LOADED)
#undef ND_CU_CHECK_LOADED
  return true;
}

/// The device and its primary context; returns false with the error set.
bool openDevice(Driver &driver) {
  CUresult result = driver.p_cuInit(0);
  if (result != CUDA_SUCCESS) {
    driver.error =
        "the CUDA driver cannot be initialized: " + describe(driver, result);
    return false;
  }
  int count = 0;
  result = driver.p_cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    driver.error = "no CUDA device";
    return false;
  }
  int ordinal = requestedDevice;
  if (ordinal < 0) {
    const char *env = std::getenv("ND_CUDA_DEVICE");
    ordinal = env ? std::atoi(env) : 0;
  }
  if (ordinal < 0 || ordinal >= count) {
    driver.error = "CUDA device " + std::to_string(ordinal) +
                   " does not exist (" + std::to_string(count) + " devices)";
    return false;
  }
  result = driver.p_cuDeviceGet(&driver.device, ordinal);
  if (result == CUDA_SUCCESS)
    result = driver.p_cuDevicePrimaryCtxRetain(&driver.context, driver.device);
  if (result != CUDA_SUCCESS) {
    driver.error =
        "the CUDA device's context cannot be made: " + describe(driver, result);
    return false;
  }
  driver.p_cuCtxSetCurrent(driver.context);
  return true;
}

/// The stream-ordered pool, kept cached (release threshold at its maximum)
/// so that the buffers of a call cost no driver allocation once the pool
/// holds them.
void usePools(Driver &driver) {
  int pools = 0;
  driver.p_cuDeviceGetAttribute(
      &pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, driver.device);
  if (!pools || !driver.p_cuDeviceGetDefaultMemPool ||
      !driver.p_cuMemPoolSetAttribute || !driver.p_cuMemAllocAsync ||
      !driver.p_cuMemFreeAsync)
    return;
  CUmemoryPool pool;
  if (driver.p_cuDeviceGetDefaultMemPool(&pool, driver.device) != CUDA_SUCCESS)
    return;
  cuuint64_t keep = ~cuuint64_t(0);
  driver.p_cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                 &keep);
  driver.pools = true;
}

void load(Driver &driver) {
  if (!loadFunctions(driver) || !openDevice(driver))
    return;
  usePools(driver);
  driver.enumerates = driver.p_cuModuleGetFunctionCount &&
                      driver.p_cuModuleEnumerateFunctions &&
                      driver.p_cuFuncGetName;
  driver.ok = true;
}

} // namespace

Driver &nd::cuda::driver() {
  static Driver *instance = [] {
    auto *d = new Driver();
    load(*d);
    return d;
  }();
  return *instance;
}

void nd::cuda::requestDevice(int ordinal) { requestedDevice = ordinal; }

std::string nd::cuda::describe(const Driver &driver, CUresult result) {
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

Counters &nd::cuda::counters() {
  static Counters *instance = new Counters();
  return *instance;
}
