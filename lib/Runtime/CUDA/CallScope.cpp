//===- CallScope.cpp - calls, streams and their error reports ---*- C++ -*-===//
//
// See CallScope.h.
//
//===----------------------------------------------------------------------===//

#include "CallScope.h"

#include "nd-c/CudaRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>

using namespace nd::cuda;

namespace {

thread_local CallState state;
/// The host form's stream of this thread.
thread_local CUstream ownStreamHandle = nullptr;
/// CU_STREAM_PER_THREAD is a stream per thread: its state is the thread's.
thread_local StreamState *perThreadState = nullptr;

/// -1 until read from ND_CUDA_SYNCHRONOUS.
std::atomic<int> synchronousMode{-1};

/// What the process shares: the states of the streams, the buffers nd
/// allocated (and the stream each was allocated on).
struct Registry {
  std::mutex mutex;
  std::unordered_map<CUstream, std::unique_ptr<StreamState>> streams;
  std::unordered_map<void *, CUstream> buffers;
};

Registry &registry() {
  static Registry *instance = new Registry();
  return *instance;
}

/// Scratch and records are handed out in units of this many bytes.
constexpr size_t kScratchAlignment = 256;
/// An arena grows to a multiple of this.
constexpr size_t kArenaGranule = size_t(1) << 16;
/// Words of a stream's first error record: a function with fewer checked
/// ops never makes it grow.
constexpr int64_t kFirstRecordWords = 1024;

size_t roundUp(size_t value, size_t unit) {
  return (value + unit - 1) / unit * unit;
}

/// A device buffer of the runtime's own (a record, an arena), in stream
/// order where the pool allows; 0 and recorded on failure.
CUdeviceptr allocateRaw(Driver &d, size_t bytes, CUstream stream) {
  CUdeviceptr pointer = 0;
  CUresult result;
  const char *call;
  if (d.pools) {
    result = d.p_cuMemAllocAsync(&pointer, bytes, stream);
    call = "cuMemAllocAsync";
  } else {
    result = d.p_cuMemAlloc(&pointer, bytes);
    call = "cuMemAlloc";
  }
  count(counters().allocations);
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    fail(ND_CUDA_ERROR_OUT_OF_MEMORY,
         "cannot allocate " + std::to_string(bytes) + " bytes on the GPU (" +
             call + ": out of memory)");
    return 0;
  }
  return check(result, call) ? pointer : 0;
}

/// Frees a buffer of allocateRaw after the work queued on `stream`. A
/// failure to free is not the failure of a call.
void releaseRaw(Driver &d, CUdeviceptr pointer, CUstream stream) {
  if (!pointer)
    return;
  count(counters().frees);
  if (d.pools)
    d.p_cuMemFreeAsync(pointer, stream);
  else
    d.p_cuMemFree(pointer);
}

//===----------------------------------------------------------------------===//
// Error records
//===----------------------------------------------------------------------===//

/// Clears the record of `ss` in stream order (the mark, word 3, stays):
/// the calls queued before no longer report.
CUresult clearRecord(Driver &d, StreamState &ss) {
  ++ss.generation;
  count(counters().memsets);
  CUresult result = d.p_cuMemsetD32Async(ss.record, 0, 6, ss.stream);
  if (result != CUDA_SUCCESS || ss.recordWords <= kHeaderWords)
    return result;
  count(counters().memsets);
  return d.p_cuMemsetD32Async(ss.record + 8 * kHeaderWords, 0,
                              2 * (ss.recordWords - kHeaderWords), ss.stream);
}

/// Reads the slots of the calls in flight on `ss` that have landed (all of
/// them once the stream was waited for: `completed`), oldest first; the
/// first failure becomes `found` and clears the record.
CUresult pollStream(Driver &d, StreamState &ss, bool completed) {
  CUresult result = CUDA_SUCCESS;
  while (!ss.inFlight.empty()) {
    StreamState::InFlight entry = ss.inFlight.front();
    uint64_t *slot = ss.ring + size_t(entry.slot) * kHeaderWords;
    if (!completed && __atomic_load_n(&slot[3], __ATOMIC_ACQUIRE) != 1)
      break;
    uint64_t code = __atomic_load_n(&slot[0], __ATOMIC_ACQUIRE);
    if (code != 0 && entry.generation == ss.generation && !ss.found) {
      int64_t a =
          static_cast<int64_t>(__atomic_load_n(&slot[1], __ATOMIC_RELAXED));
      int64_t b =
          static_cast<int64_t>(__atomic_load_n(&slot[2], __ATOMIC_RELAXED));
      ss.found = true;
      ss.foundMessage = formatMessage(entry.messages, code, a, b);
      result = clearRecord(d, ss);
    }
    ss.inFlight.pop_front();
  }
  return result;
}

/// A failure found on the call's stream becomes the call's.
void reportFound(StreamState &ss) {
  if (!ss.found)
    return;
  fail(ND_CUDA_ERROR_CHECK_FAILED, ss.foundMessage);
  ss.found = false;
  ss.foundMessage.clear();
}

/// A record of at least `words` words for `ss`, zero but for the mark (a
/// larger one keeps what the smaller held); 0 and recorded on failure.
CUdeviceptr ensureRecord(Driver &d, StreamState &ss, int64_t words) {
  if (ss.recordWords >= words)
    return ss.record;
  int64_t size = std::max<int64_t>(kFirstRecordWords, ss.recordWords);
  while (size < words)
    size *= 2;
  CUdeviceptr fresh = allocateRaw(d, size_t(size) * 8, ss.stream);
  if (!fresh)
    return 0;
  count(counters().memsets);
  if (!check(d.p_cuMemsetD32Async(fresh, 0, size_t(size) * 2, ss.stream),
             "cuMemsetD32Async"))
    return 0;
  if (ss.record) {
    // The old record's words, its mark and any failure included; the old
    // one may still be used by this call's kernels: freed at its end.
    count(counters().copies);
    if (!check(d.p_cuMemcpyAsync(fresh, ss.record, size_t(ss.recordWords) * 8,
                                 ss.stream),
               "cuMemcpyAsync"))
      return 0;
    ss.retired.push_back(ss.record);
  } else {
    count(counters().memsets);
    if (!check(d.p_cuMemsetD32Async(fresh + 8 * 3, 1, 1, ss.stream),
               "cuMemsetD32Async"))
      return 0;
  }
  ss.record = fresh;
  ss.recordWords = size;
  return fresh;
}

/// The pinned slots of `ss`; false and recorded on failure.
bool ensureRing(Driver &d, StreamState &ss) {
  if (ss.ring)
    return true;
  void *ring = nullptr;
  size_t bytes = size_t(kRecordRing) * kHeaderWords * 8;
  count(counters().allocations);
  if (!check(d.p_cuMemAllocHost(&ring, bytes), "cuMemAllocHost"))
    return false;
  std::memset(ring, 0, bytes);
  ss.ring = static_cast<uint64_t *>(ring);
  return true;
}

//===----------------------------------------------------------------------===//
// The scratch arena
//===----------------------------------------------------------------------===//

/// Returns the call's scratch: the buffers of its own freed, the arena
/// grown to what the call needed if it was too small.
void finishScratch(Driver &d, StreamState &ss) {
  bool overflowed = ss.overflowed;
  for (const StreamState::Scratch &scratch : ss.scratch)
    releaseRaw(d, scratch.own, ss.stream);
  if (overflowed) {
    releaseRaw(d, ss.arena, ss.stream);
    ss.arena = 0;
    ss.arenaBytes = 0;
    size_t bytes = roundUp(ss.peak, kArenaGranule);
    CUdeviceptr arena = 0;
    // A failure here is the next call's to meet (its scratch is then
    // allocated piece by piece).
    count(counters().allocations);
    CUresult result = d.pools ? d.p_cuMemAllocAsync(&arena, bytes, ss.stream)
                              : d.p_cuMemAlloc(&arena, bytes);
    if (result == CUDA_SUCCESS) {
      ss.arena = arena;
      ss.arenaBytes = bytes;
    }
  }
  for (CUdeviceptr record : ss.retired)
    releaseRaw(d, record, ss.stream);
  ss.retired.clear();
  ss.scratch.clear();
  ss.top = 0;
  ss.peak = 0;
  ss.overflowed = false;
}

} // namespace

//===----------------------------------------------------------------------===//
// The call's state and failures
//===----------------------------------------------------------------------===//

CallState &nd::cuda::callState() { return state; }

void nd::cuda::fail(int32_t status, const std::string &message) {
  state.last = message;
  if (state.status != ND_CUDA_OK)
    return;
  state.status = status;
  state.message = message;
}

bool nd::cuda::failed() { return state.status != ND_CUDA_OK; }

bool nd::cuda::check(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  int32_t status = result == CUDA_ERROR_OUT_OF_MEMORY
                       ? ND_CUDA_ERROR_OUT_OF_MEMORY
                       : ND_CUDA_ERROR_DRIVER;
  fail(status, std::string("CUDA driver call ") + call +
                   " failed: " + describe(driver(), result));
  return false;
}

Driver *nd::cuda::ready() {
  Driver &d = driver();
  if (!d.ok) {
    fail(ND_CUDA_ERROR_DRIVER, d.error);
    return nullptr;
  }
  d.p_cuCtxSetCurrent(d.context);
  return &d;
}

CUstream nd::cuda::ownStream() {
  if (!ownStreamHandle) {
    Driver *d = ready();
    if (d)
      check(d->p_cuStreamCreate(&ownStreamHandle, CU_STREAM_NON_BLOCKING),
            "cuStreamCreate");
  }
  return ownStreamHandle;
}

StreamState &nd::cuda::streamState(CUstream stream) {
  if (stream == CU_STREAM_PER_THREAD) {
    if (!perThreadState) {
      perThreadState = new StreamState();
      perThreadState->stream = stream;
    }
    return *perThreadState;
  }
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<StreamState> &slot = r.streams[stream];
  if (!slot) {
    slot = std::make_unique<StreamState>();
    slot->stream = stream;
  }
  return *slot;
}

bool nd::cuda::isSynchronous() {
  int mode = synchronousMode.load(std::memory_order_relaxed);
  if (mode < 0) {
    const char *env = std::getenv("ND_CUDA_SYNCHRONOUS");
    mode = env && env[0] && std::strcmp(env, "0") != 0 ? 1 : 0;
    synchronousMode.store(mode, std::memory_order_relaxed);
  }
  return mode == 1;
}

void nd::cuda::setSynchronous(bool synchronous) {
  synchronousMode.store(synchronous ? 1 : 0, std::memory_order_relaxed);
}

//===----------------------------------------------------------------------===//
// The call scope
//===----------------------------------------------------------------------===//

int32_t nd::cuda::beginCall(CUstream stream, bool hostForm) {
  // A call begun and never ended gives its stream back.
  if (state.active && state.streamState) {
    std::string ignored;
    endCall(ignored);
  }
  std::string last = std::move(state.last);
  state = CallState();
  state.last = std::move(last);
  state.active = true;
  state.hostForm = hostForm;
  state.stream = stream;
  Driver *d = ready();
  if (!d)
    return state.status;
  StreamState &ss = streamState(stream);
  ss.mutex.lock();
  state.streamState = &ss;
  check(pollStream(*d, ss, /*completed=*/false), "cuMemsetD32Async");
  reportFound(ss);
  return state.status;
}

void nd::cuda::settleCall() {
  if (!state.active || state.settled || !state.streamState)
    return;
  state.settled = true;
  Driver &d = driver();
  StreamState &ss = *state.streamState;
  bool waited = false;
  if (!failed()) {
    count(counters().synchronizations);
    waited = check(d.p_cuStreamSynchronize(ss.stream), "cuStreamSynchronize");
  }
  check(pollStream(d, ss, waited), "cuMemsetD32Async");
  reportFound(ss);
}

int32_t nd::cuda::endCall(std::string &message) {
  if (state.active && state.streamState) {
    StreamState &ss = *state.streamState;
    finishScratch(driver(), ss);
    if (isSynchronous() && !state.hostForm)
      settleCall();
    ss.mutex.unlock();
  }
  int32_t status = state.status;
  message = status == ND_CUDA_OK ? std::string() : state.message;
  std::string last = std::move(state.last);
  state = CallState();
  state.last = std::move(last);
  return status;
}

int32_t nd::cuda::synchronizeStream(CUstream stream, std::string &message) {
  Driver &d = driver();
  if (!d.ok) {
    message = d.error;
    return ND_CUDA_ERROR_DRIVER;
  }
  d.p_cuCtxSetCurrent(d.context);
  StreamState &ss = streamState(stream);
  std::lock_guard<std::recursive_mutex> lock(ss.mutex);
  count(counters().synchronizations);
  CUresult result = d.p_cuStreamSynchronize(stream);
  if (result != CUDA_SUCCESS) {
    message =
        "CUDA driver call cuStreamSynchronize failed: " + describe(d, result);
    return result == CUDA_ERROR_OUT_OF_MEMORY ? ND_CUDA_ERROR_OUT_OF_MEMORY
                                              : ND_CUDA_ERROR_DRIVER;
  }
  result = pollStream(d, ss, /*completed=*/true);
  if (ss.found) {
    message = ss.foundMessage;
    ss.found = false;
    ss.foundMessage.clear();
    return ND_CUDA_ERROR_CHECK_FAILED;
  }
  if (result != CUDA_SUCCESS) {
    message =
        "CUDA driver call cuMemsetD32Async failed: " + describe(d, result);
    return ND_CUDA_ERROR_DRIVER;
  }
  message.clear();
  return ND_CUDA_OK;
}

//===----------------------------------------------------------------------===//
// Records and scratch of the generated code
//===----------------------------------------------------------------------===//

/// The stream state generated code uses: the call's, or outside a scope
/// the thread's own stream's.
static StreamState *currentStreamState() {
  if (state.streamState)
    return state.streamState;
  CUstream own = ownStream();
  return own ? &streamState(own) : nullptr;
}

CUdeviceptr nd::cuda::errorRecord(int64_t words) {
  if (failed())
    return 0;
  Driver *d = ready();
  StreamState *ss = d ? currentStreamState() : nullptr;
  if (!ss)
    return 0;
  std::lock_guard<std::recursive_mutex> lock(ss->mutex);
  return ensureRecord(*d, *ss, words);
}

void nd::cuda::endChecks(const char *messages) {
  if (failed())
    return;
  Driver &d = driver();
  StreamState *ss = currentStreamState();
  if (!ss)
    return;
  std::lock_guard<std::recursive_mutex> lock(ss->mutex);
  if (!ss->record || !ensureRing(d, *ss))
    return;
  if (ss->inFlight.size() >= kRecordRing) {
    // As many checked calls in flight as slots: wait for them.
    count(counters().synchronizations);
    if (!check(d.p_cuStreamSynchronize(ss->stream), "cuStreamSynchronize"))
      return;
    check(pollStream(d, *ss, /*completed=*/true), "cuMemsetD32Async");
  }
  uint32_t slot =
      ss->inFlight.empty() ? 0 : (ss->inFlight.back().slot + 1) % kRecordRing;
  uint64_t *words = ss->ring + size_t(slot) * kHeaderWords;
  for (uint32_t i = 0; i < kHeaderWords; ++i)
    __atomic_store_n(&words[i], 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  count(counters().copies);
  if (!check(d.p_cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(words), ss->record,
                               kHeaderWords * 8, ss->stream),
             "cuMemcpyAsync"))
    return;
  ss->inFlight.push_back({slot, ss->generation, messages});
  state.checked = true;
}

CUdeviceptr nd::cuda::takeScratch(size_t bytes) {
  if (failed())
    return 0;
  Driver *d = ready();
  if (!d)
    return 0;
  if (!state.streamState) {
    // Outside a scope: a buffer of the pool, freed by the code's dealloc.
    return reinterpret_cast<CUdeviceptr>(
        allocateBuffer(std::max<size_t>(bytes, 1), ownStream(), false));
  }
  StreamState &ss = *state.streamState;
  size_t size = roundUp(std::max<size_t>(bytes, 1), kScratchAlignment);
  StreamState::Scratch scratch = {ss.top, size, 0, false};
  CUdeviceptr pointer = ss.arena + ss.top;
  if (ss.top + size > ss.arenaBytes) {
    scratch.own = allocateRaw(*d, size, ss.stream);
    if (!scratch.own)
      return 0;
    pointer = scratch.own;
    ss.overflowed = true;
  }
  ss.scratch.push_back(scratch);
  ss.top += size;
  ss.peak = std::max(ss.peak, ss.top);
  return pointer;
}

bool nd::cuda::releaseScratch(CUdeviceptr pointer) {
  if (!state.streamState)
    return false;
  StreamState &ss = *state.streamState;
  auto it = std::find_if(ss.scratch.rbegin(), ss.scratch.rend(),
                         [&](const StreamState::Scratch &scratch) {
                           CUdeviceptr start = scratch.own
                                                   ? scratch.own
                                                   : ss.arena + scratch.offset;
                           return start == pointer && !scratch.freed;
                         });
  if (it == ss.scratch.rend())
    return false;
  it->freed = true;
  // The stream orders the call's work: what is freed at the top can be
  // handed out again at once.
  while (!ss.scratch.empty() && ss.scratch.back().freed) {
    releaseRaw(driver(), ss.scratch.back().own, ss.stream);
    ss.top = ss.scratch.back().offset;
    ss.scratch.pop_back();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Buffers nd allocates
//===----------------------------------------------------------------------===//

void *nd::cuda::allocateBuffer(size_t bytes, CUstream stream, bool managed) {
  Driver *d = ready();
  if (!d)
    return nullptr;
  CUdeviceptr pointer = 0;
  if (managed) {
    count(counters().allocations);
    CUresult result =
        d->p_cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) {
      fail(ND_CUDA_ERROR_OUT_OF_MEMORY,
           "cannot allocate " + std::to_string(bytes) +
               " bytes on the GPU (cuMemAllocManaged: out of memory)");
      return nullptr;
    }
    if (!check(result, "cuMemAllocManaged"))
      return nullptr;
  } else {
    pointer = allocateRaw(*d, bytes, stream);
    if (!pointer)
      return nullptr;
  }
  void *buffer = reinterpret_cast<void *>(pointer);
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.buffers[buffer] = stream;
  return buffer;
}

bool nd::cuda::releaseBufferOn(void *buffer, CUstream stream) {
  Driver &d = driver();
  if (!buffer || !d.ok)
    return false;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.buffers.erase(buffer))
      return false;
  }
  d.p_cuCtxSetCurrent(d.context);
  releaseRaw(d, reinterpret_cast<CUdeviceptr>(buffer), stream);
  return true;
}

bool nd::cuda::releaseBuffer(void *buffer) {
  CUstream stream;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.buffers.find(buffer);
    if (it == r.buffers.end())
      return false;
    stream = it->second;
  }
  return releaseBufferOn(buffer, stream);
}

std::string nd::cuda::formatMessage(const char *messages, uint64_t code,
                                    int64_t a, int64_t b) {
  const char *text = messages;
  for (uint64_t i = 1; text && *text && i < code; ++i)
    text += std::strlen(text) + 1;
  if (!text || !*text || code == 0)
    return "the GPU code reported check " + std::to_string(code) +
           ", which its library does not describe";
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, text, static_cast<long long>(a),
                static_cast<long long>(b));
  return buffer;
}
