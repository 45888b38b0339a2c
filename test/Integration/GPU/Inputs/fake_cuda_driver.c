/* A stand-in for the CUDA driver (libcuda.so.1) on machines without a GPU,
   for the tests of nd's CUDA runtime: one device whose memory is host memory
   (allocations are malloc, copies and sets are memmove and loops, streams
   run everything at once), modules that load and list their kernels (the
   names of the `.text.NAME` sections of the first cubin of a fat binary),
   and launches that are recorded, not run.

   The ledger. Every driver call is recorded in order with the stream it
   names (or none) and its bytes; a test reads it through fake_ledger_* to
   see which calls a call of nd made, on which streams. Also
   fake_live_buffers: the device buffers alive (every call must release what
   it allocated).

   Environment:
   - FAKE_CUDA_NO_POOLS: no stream-ordered pool (cuMemAlloc and cuMemFree);
   - FAKE_CUDA_HOLLOW=BYTES: device allocations of at least BYTES bytes get
     addresses without memory (in a reserved range): copies and sets that
     touch them are recorded, not done. For ledgers of large workloads,
     whose data no one reads (kernels do not run).
   - FAKE_CUDA_FAULT_AT=N with FAKE_CUDA_FAULT_ONCE=FILE: unless FILE
     exists, the N-th launch of the process faults (creating FILE) and the
     context is dead from then on: every later launch, copy, set,
     allocation and synchronization fails with CUDA_ERROR_ILLEGAL_ADDRESS,
     as after a kernel's illegal access on a GPU. For the check's recovery.

   fake_fail_next_check(code, a, b) makes the next copy of an error record's
   header into pinned host memory (nd's runtime reads its records so) find
   the record set to (code, a, b), as a kernel whose check failed would have
   left it. */

#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*===----------------------------------------------------------------------===*
 * The ledger
 *===----------------------------------------------------------------------===*/

#define NO_STREAM ((uintptr_t)-1)

typedef struct {
  const char *call;
  uintptr_t stream;
  size_t bytes;
  const char *detail;
} Entry;

static Entry *ledger;
static long ledgerLength, ledgerCapacity;
static long live;

static void note(const char *call, uintptr_t stream, size_t bytes,
                 const char *detail) {
  if (ledgerLength == ledgerCapacity) {
    ledgerCapacity = ledgerCapacity ? 2 * ledgerCapacity : 1024;
    ledger = realloc(ledger, (size_t)ledgerCapacity * sizeof(Entry));
  }
  Entry entry = {call, stream, bytes, detail};
  ledger[ledgerLength++] = entry;
}

long fake_live_buffers(void) { return live; }
long fake_ledger_length(void) { return ledgerLength; }
void fake_ledger_clear(void) { ledgerLength = 0; }
const char *fake_ledger_call(long i) { return ledger[i].call; }
/* The stream entry i names, or (uintptr_t)-1 if the call takes none. */
uintptr_t fake_ledger_stream(long i) { return ledger[i].stream; }
size_t fake_ledger_bytes(long i) { return ledger[i].bytes; }
/* A launch's kernel, or "". */
const char *fake_ledger_detail(long i) {
  return ledger[i].detail ? ledger[i].detail : "";
}

/*===----------------------------------------------------------------------===*
 * Memory
 *===----------------------------------------------------------------------===*/

static size_t hollowFrom = (size_t)-1;
static char *hollowBase, *hollowNext;
static const size_t kHollowBytes = (size_t)1 << 42;
static int poolsOff;

static int isHollow(const void *pointer, size_t bytes) {
  const char *p = pointer;
  return hollowBase && p + bytes > hollowBase && p < hollowBase + kHollowBytes;
}

/* Pinned host buffers (cuMemAllocHost), to tell a record's copy. */
static void *pinned[64];
static size_t pinnedBytes[64];

static int isPinned(const void *pointer) {
  for (int i = 0; i < 64; ++i)
    if (pinned[i] && (const char *)pointer >= (const char *)pinned[i] &&
        (const char *)pointer < (const char *)pinned[i] + pinnedBytes[i])
      return 1;
  return 0;
}

/* A dead context (FAKE_CUDA_FAULT_AT). */
static long launches, faultAt;
static int dead;

#define ALIVE_OR_FAIL()                                                        \
  do {                                                                         \
    if (dead)                                                                  \
      return CUDA_ERROR_ILLEGAL_ADDRESS;                                       \
  } while (0)

static int64_t failure[3];
static int failNext;

void fake_fail_next_check(int64_t code, int64_t a, int64_t b) {
  failure[0] = code, failure[1] = a, failure[2] = b;
  failNext = 1;
}

static CUresult allocate(CUdeviceptr *pointer, size_t bytes) {
  if (bytes >= hollowFrom && hollowBase) {
    *pointer = (CUdeviceptr)(uintptr_t)hollowNext;
    hollowNext += (bytes + 255) / 256 * 256;
    ++live;
    return CUDA_SUCCESS;
  }
  void *buffer = malloc(bytes ? bytes : 1);
  if (!buffer)
    return CUDA_ERROR_OUT_OF_MEMORY;
  /* Poisoned: a result read before it is written shows. */
  memset(buffer, 0x7f, bytes);
  ++live;
  *pointer = (CUdeviceptr)(uintptr_t)buffer;
  return CUDA_SUCCESS;
}

static void release(CUdeviceptr pointer) {
  if (!isHollow((void *)(uintptr_t)pointer, 1))
    free((void *)(uintptr_t)pointer);
  --live;
}

static void copy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  void *to = (void *)(uintptr_t)dst;
  const void *from = (const void *)(uintptr_t)src;
  if (isHollow(to, bytes) || isHollow(from, bytes))
    return;
  if (failNext && bytes == 32 && isPinned(to) && !isPinned(from)) {
    memcpy((void *)from, failure, sizeof failure);
    failNext = 0;
  }
  memmove(to, from, bytes);
}

/*===----------------------------------------------------------------------===*
 * The device, errors, contexts
 *===----------------------------------------------------------------------===*/

CUresult cuInit(unsigned flags) {
  (void)flags;
  const char *hollow = getenv("FAKE_CUDA_HOLLOW");
  if (hollow && !hollowBase) {
    hollowFrom = strtoull(hollow, NULL, 10);
    void *range = mmap(NULL, kHollowBytes, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range != MAP_FAILED)
      hollowBase = hollowNext = range;
  }
  poolsOff = getenv("FAKE_CUDA_NO_POOLS") != NULL;
  const char *faultAtText = getenv("FAKE_CUDA_FAULT_AT");
  const char *faultOnce = getenv("FAKE_CUDA_FAULT_ONCE");
  if (faultAtText && faultOnce && access(faultOnce, F_OK) != 0)
    faultAt = strtol(faultAtText, NULL, 10);
  note("cuInit", NO_STREAM, 0, NULL);
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == CUDA_ERROR_NOT_SUPPORTED     ? "CUDA_ERROR_NOT_SUPPORTED"
          : error == CUDA_ERROR_NOT_FOUND       ? "CUDA_ERROR_NOT_FOUND"
          : error == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                                                : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == CUDA_ERROR_NOT_FOUND ? "named symbol not found"
          : error == CUDA_ERROR_ILLEGAL_ADDRESS
              ? "an illegal memory access was encountered"
              : "the stand-in driver cannot do this";
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) { *count = 1; return CUDA_SUCCESS; }

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice device) {
  (void)device;
  *value = attribute == CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED && !poolsOff;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = (CUcontext)(uintptr_t)1;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  (void)context;
  return CUDA_SUCCESS;
}

/*===----------------------------------------------------------------------===*
 * Modules and launches
 *===----------------------------------------------------------------------===*/

typedef struct Function {
  char name[128];
} Function;

typedef struct Module {
  Function functions[256];
  unsigned count;
} Module;

/* The kernels of the first ELF image in `image`: its `.text.NAME`
   sections. */
static void listKernels(const unsigned char *image, Module *module) {
  const unsigned char *elf = NULL;
  uint32_t magic;
  memcpy(&magic, image, 4);
  if (magic == 0xBA55ED50u) {
    /* A fat binary: a header (its size at 6, the size of what follows at
       8), then images. */
    uint16_t header;
    uint64_t size;
    memcpy(&header, image + 6, 2);
    memcpy(&size, image + 8, 8);
    for (uint64_t i = header; i + 5 <= header + size && !elf; ++i)
      if (!memcmp(image + i, "\177ELF\2", 5))
        elf = image + i;
  } else if (!memcmp(image, "\177ELF\2", 5)) {
    elf = image;
  }
  if (!elf)
    return;
  uint64_t shoff;
  uint16_t shentsize, shnum, shstrndx;
  memcpy(&shoff, elf + 0x28, 8);
  memcpy(&shentsize, elf + 0x3a, 2);
  memcpy(&shnum, elf + 0x3c, 2);
  memcpy(&shstrndx, elf + 0x3e, 2);
  uint64_t strings;
  memcpy(&strings, elf + shoff + (uint64_t)shstrndx * shentsize + 0x18, 8);
  for (uint16_t s = 0; s < shnum && module->count < 256; ++s) {
    uint32_t name;
    memcpy(&name, elf + shoff + (uint64_t)s * shentsize, 4);
    const char *section = (const char *)elf + strings + name;
    if (strncmp(section, ".text.", 6) != 0)
      continue;
    strncpy(module->functions[module->count].name, section + 6, 127);
    ++module->count;
  }
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  note("cuModuleLoadData", NO_STREAM, 0, NULL);
  Module *loaded = calloc(1, sizeof(Module));
  listKernels(image, loaded);
  *module = (CUmodule)loaded;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned count, CUjit_option *options,
                            void **values) {
  (void)count, (void)options, (void)values;
  return cuModuleLoadData(module, image);
}

CUresult cuModuleUnload(CUmodule module) {
  free(module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunctionCount(unsigned *count, CUmodule module) {
  note("cuModuleGetFunctionCount", NO_STREAM, 0, NULL);
  *count = ((Module *)module)->count;
  return CUDA_SUCCESS;
}

CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned count,
                                    CUmodule module) {
  note("cuModuleEnumerateFunctions", NO_STREAM, 0, NULL);
  Module *m = (Module *)module;
  for (unsigned i = 0; i < count && i < m->count; ++i)
    functions[i] = (CUfunction)&m->functions[i];
  return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char **name, CUfunction function) {
  *name = ((Function *)function)->name;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  note("cuModuleGetFunction", NO_STREAM, 0, NULL);
  Module *m = (Module *)module;
  for (unsigned i = 0; i < m->count; ++i)
    if (!strcmp(m->functions[i].name, name)) {
      *function = (CUfunction)&m->functions[i];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        CUstream stream, void **params, void **extra) {
  (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)shared, (void)params, (void)extra;
  note("cuLaunchKernel", (uintptr_t)stream, 0, ((Function *)f)->name);
  ALIVE_OR_FAIL();
  if (++launches == faultAt) {
    FILE *marker = fopen(getenv("FAKE_CUDA_FAULT_ONCE"), "w");
    if (marker)
      fclose(marker);
    dead = 1;
  }
  return CUDA_SUCCESS;
}

/*===----------------------------------------------------------------------===*
 * Streams and events
 *===----------------------------------------------------------------------===*/

static uintptr_t nextStream = 0x1000;

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  (void)flags;
  note("cuStreamCreate", NO_STREAM, 0, NULL);
  *stream = (CUstream)(nextStream += 0x10);
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  note("cuStreamSynchronize", (uintptr_t)stream, 0, NULL);
  ALIVE_OR_FAIL();
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
  (void)event, (void)flags;
  note("cuStreamWaitEvent", (uintptr_t)stream, 0, NULL);
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  (void)flags;
  note("cuEventCreate", NO_STREAM, 0, NULL);
  *event = (CUevent)(uintptr_t)3;
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  (void)event;
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  (void)event;
  note("cuEventRecord", (uintptr_t)stream, 0, NULL);
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) {
  (void)event;
  note("cuEventSynchronize", NO_STREAM, 0, NULL);
  return CUDA_SUCCESS;
}

/*===----------------------------------------------------------------------===*
 * Allocations, copies, sets
 *===----------------------------------------------------------------------===*/

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice device) {
  (void)device;
  *pool = (CUmemoryPool)(uintptr_t)4;
  return CUDA_SUCCESS;
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                               void *value) {
  (void)pool, (void)attr, (void)value;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  note("cuMemAlloc", NO_STREAM, bytes, NULL);
  ALIVE_OR_FAIL();
  return allocate(pointer, bytes);
}

CUresult cuMemAllocAsync(CUdeviceptr *pointer, size_t bytes, CUstream stream) {
  note("cuMemAllocAsync", (uintptr_t)stream, bytes, NULL);
  ALIVE_OR_FAIL();
  return allocate(pointer, bytes);
}

CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes,
                           unsigned flags) {
  (void)flags;
  note("cuMemAllocManaged", NO_STREAM, bytes, NULL);
  return allocate(pointer, bytes);
}

CUresult cuMemAllocHost(void **pointer, size_t bytes) {
  note("cuMemAllocHost", NO_STREAM, bytes, NULL);
  *pointer = calloc(1, bytes ? bytes : 1);
  for (int i = 0; i < 64; ++i)
    if (!pinned[i]) {
      pinned[i] = *pointer;
      pinnedBytes[i] = bytes;
      break;
    }
  return *pointer ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *pointer) {
  note("cuMemFreeHost", NO_STREAM, 0, NULL);
  for (int i = 0; i < 64; ++i)
    if (pinned[i] == pointer)
      pinned[i] = NULL;
  free(pointer);
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr pointer) {
  note("cuMemFree", NO_STREAM, 0, NULL);
  release(pointer);
  return CUDA_SUCCESS;
}

CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  note("cuMemFreeAsync", (uintptr_t)stream, 0, NULL);
  release(pointer);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream stream) {
  note("cuMemcpyAsync", (uintptr_t)stream, bytes, NULL);
  ALIVE_OR_FAIL();
  copy(dst, src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream stream) {
  note("cuMemsetD16Async", (uintptr_t)stream, 2 * count, NULL);
  ALIVE_OR_FAIL();
  unsigned short *p = (unsigned short *)(uintptr_t)dst;
  if (!isHollow(p, 2 * count))
    for (size_t i = 0; i < count; ++i)
      p[i] = value;
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream stream) {
  note("cuMemsetD32Async", (uintptr_t)stream, 4 * count, NULL);
  ALIVE_OR_FAIL();
  unsigned *p = (unsigned *)(uintptr_t)dst;
  if (!isHollow(p, 4 * count))
    for (size_t i = 0; i < count; ++i)
      p[i] = value;
  return CUDA_SUCCESS;
}
