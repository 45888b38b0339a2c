//===- CallScope.h - calls, streams and their error reports -----*- C++ -*-===//
//
// Internal to libnd_cuda_runtime.so: the state behind nd-c/CudaRuntime.h's
// call scope.
//
// - A call runs on one thread between nd_cuda_begin(stream) and
//   nd_cuda_end, on exactly the stream it was given (NULL: the legacy
//   default stream; CU_STREAM_LEGACY and CU_STREAM_PER_THREAD as the driver
//   reads them): every driver call of the call names that stream. The host
//   form runs on a stream of nd's own per thread, created non-blocking: its
//   inputs and outputs are host memory, and it waits for the stream once.
// - Each stream the runtime has seen has a StreamState, shared by the
//   threads that use the stream (a call holds its lock from begin to end,
//   so calls on one stream from several threads do not interleave): the
//   error record of the checks of nd's GPU code (ErrorRecord.h of the
//   NdToGPU library), the calls whose checks are in flight, and the scratch
//   arena.
// - The error record is zero when a call starts: a call that leaves it set
//   has failed, and the runtime clears it when it reports that failure. At
//   the end of each checked call the record's header is copied into a slot
//   of a ring of pinned host memory, on the stream; the runtime reads the
//   slots that have landed (word 3, a constant 1, arrives last) at the next
//   call on the stream and after a synchronization, and reports the first
//   failure it finds: the next nd_cuda_begin on the stream returns it (and
//   the call runs nothing), or nd_cuda_synchronize does. The kernels of the
//   calls queued between a failed call and that report see the record set
//   and write nothing. In synchronous mode (nd_cuda_set_synchronous) a call
//   waits for its stream and returns its own failure.
// - Scratch buffers of a call come from the stream's arena, a buffer reused
//   call after call (the stream orders the calls): a call whose scratch
//   does not fit gets buffers of its own, and at its end the arena grows to
//   what it needed (freed and allocated in stream order).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_RUNTIME_CUDA_CALLSCOPE_H
#define ND_LIB_RUNTIME_CUDA_CALLSCOPE_H

#include "Driver.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace nd::cuda {

/// Slots of host memory the headers of error records are copied into per
/// stream: at most this many checked calls in flight on a stream before
/// the host waits for the oldest.
inline constexpr uint32_t kRecordRing = 1024;
/// Words of a record's header (ErrorRecord.h): code, two values, the mark.
inline constexpr uint32_t kHeaderWords = 4;

struct StreamState {
  /// Held by the call in progress on the stream.
  std::recursive_mutex mutex;
  CUstream stream = nullptr;

  /// The device error record and its size in words; records it outgrew,
  /// freed at the end of the call (whose kernels may still use them).
  CUdeviceptr record = 0;
  int64_t recordWords = 0;
  std::vector<CUdeviceptr> retired;
  /// kRecordRing slots of kHeaderWords words, pinned.
  uint64_t *ring = nullptr;
  /// A checked call whose record header is on its way to `slot`.
  struct InFlight {
    uint32_t slot;
    uint32_t generation;
    const char *messages;
  };
  std::deque<InFlight> inFlight;
  /// Bumped when the record is cleared: calls queued before do not report.
  uint32_t generation = 0;
  /// A failure found and not reported yet.
  bool found = false;
  std::string foundMessage;

  /// The scratch arena; what the current call took from it (a stack).
  CUdeviceptr arena = 0;
  size_t arenaBytes = 0;
  struct Scratch {
    size_t offset;
    size_t bytes;
    CUdeviceptr own; // a buffer of its own where the arena was too small
    bool freed;
  };
  std::vector<Scratch> scratch;
  size_t top = 0;
  size_t peak = 0;
  /// Whether the arena was too small for the current call.
  bool overflowed = false;
};

/// The call in progress on a thread (or, outside a scope, the thread's
/// state for the runtime's helpers).
struct CallState {
  bool active = false;
  CUstream stream = nullptr;
  StreamState *streamState = nullptr;
  /// A host form: the caller of the scope waits for the stream itself.
  bool hostForm = false;
  /// Whether the call's failures are all known (the stream was waited for).
  bool settled = false;
  /// Whether the call queued checks (an error record end).
  bool checked = false;
  int32_t status = 0;
  std::string message;
  /// The last failure of a runtime function outside a call's status.
  std::string last;
};

CallState &callState();

/// Records `message` as the call's failure (the first one is kept) and as
/// the thread's last message.
void fail(int32_t status, const std::string &message);
bool failed();
/// Records a failed driver call; returns whether it succeeded.
bool check(CUresult result, const char *call);
/// The driver, with the device's context current on this thread; otherwise
/// records why and returns null.
Driver *ready();

/// The thread's own stream (non-blocking), made at first use; null if it
/// cannot be made (recorded).
CUstream ownStream();
/// The state of `stream` (made at first use; never destroyed).
StreamState &streamState(CUstream stream);

/// Begins a call on `stream` (nd_cuda_begin): the state of the stream
/// locked, the failures found on it so far reported as the call's.
int32_t beginCall(CUstream stream, bool hostForm);
/// Waits for the call's stream and reports the failures found (once per
/// call).
void settleCall();
/// Ends the call: its scratch returned, in synchronous mode the stream
/// waited for; returns its status and message.
int32_t endCall(std::string &message);

/// Whether calls wait for their stream (nd_cuda_set_synchronous).
bool isSynchronous();
void setSynchronous(bool synchronous);

/// Waits for `stream` and returns the first unreported failure of the
/// calls on it (status and message), the driver's failure, or 0.
int32_t synchronizeStream(CUstream stream, std::string &message);

/// The error record of the call's stream, at least `words` words (null
/// after a failure).
CUdeviceptr errorRecord(int64_t words);
/// The call's checks are queued with the messages `messages`.
void endChecks(const char *messages);

/// `bytes` of the call's scratch (null after a failure).
CUdeviceptr takeScratch(size_t bytes);
/// Releases `pointer` if it is the call's scratch; returns whether it was.
bool releaseScratch(CUdeviceptr pointer);

/// Buffers allocated by nd (from the pool on `stream`); null and recorded
/// on failure.
void *allocateBuffer(size_t bytes, CUstream stream, bool managed);
/// Frees `buffer` if nd allocated it, after the work queued on the stream
/// it was allocated on; returns whether it did.
bool releaseBuffer(void *buffer);
/// Frees `buffer` if nd allocated it, after the work queued on `stream`.
bool releaseBufferOn(void *buffer, CUstream stream);

/// The message of `messages` (ND_ABI_CUDA_ERROR_RECORD_END's table) for
/// `code`, with its two values.
std::string formatMessage(const char *messages, uint64_t code, int64_t a,
                          int64_t b);

} // namespace nd::cuda

#endif // ND_LIB_RUNTIME_CUDA_CALLSCOPE_H
