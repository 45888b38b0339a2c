//===- Memory.cpp - buffers of generated code -------------------*- C++ -*-===//
//
// See Memory.h.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace {
/// Buffers of at least this size are mapped with huge pages and cached.
constexpr size_t kLargeBuffer = size_t(1) << 20;
/// Huge page size and mapping alignment.
constexpr size_t kHugePage = size_t(2) << 20;
/// At most this many freed large buffers, and this many bytes, are kept.
constexpr size_t kMaxCachedBuffers = 8;
constexpr size_t kMaxCachedBytes = size_t(4) << 30;

struct Mapping {
  void *base;
  size_t capacity;
};

class LargeBuffers {
public:
  void *allocate(size_t size) {
    size_t capacity = (size + kHugePage - 1) / kHugePage * kHugePage;
    {
      std::lock_guard<std::mutex> lock(mutex);
      // The smallest cached buffer that fits and wastes at most half.
      auto best = cached.end();
      for (auto it = cached.begin(); it != cached.end(); ++it) {
        if (it->capacity >= capacity && it->capacity / 2 <= capacity &&
            (best == cached.end() || it->capacity < best->capacity))
          best = it;
      }
      if (best != cached.end()) {
        Mapping mapping = *best;
        cached.erase(best);
        cachedBytes -= mapping.capacity;
        live[mapping.base] = mapping.capacity;
        return mapping.base;
      }
    }
    void *base = map(capacity);
    if (!base)
      return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    live[base] = capacity;
    return base;
  }

  /// Takes `buffer` back if it is a large one.
  bool release(void *buffer) {
    std::vector<Mapping> evicted;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = live.find(buffer);
      if (it == live.end())
        return false;
      Mapping mapping{it->first, it->second};
      live.erase(it);
      cached.insert(cached.begin(), mapping);
      cachedBytes += mapping.capacity;
      while (cached.size() > kMaxCachedBuffers ||
             cachedBytes > kMaxCachedBytes) {
        evicted.push_back(cached.back());
        cachedBytes -= cached.back().capacity;
        cached.pop_back();
      }
    }
    for (const Mapping &mapping : evicted)
      munmap(mapping.base, mapping.capacity);
    return true;
  }

  void releaseCache() {
    std::vector<Mapping> evicted;
    {
      std::lock_guard<std::mutex> lock(mutex);
      evicted.swap(cached);
      cachedBytes = 0;
    }
    for (const Mapping &mapping : evicted)
      munmap(mapping.base, mapping.capacity);
  }

private:
  /// Maps `capacity` bytes (a multiple of kHugePage) on a kHugePage
  /// boundary and asks for transparent huge pages.
  static void *map(size_t capacity) {
    size_t span = capacity + kHugePage;
    void *raw = mmap(nullptr, span, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
      return nullptr;
    auto start = reinterpret_cast<uintptr_t>(raw);
    uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start)
      munmap(raw, aligned - start);
    uintptr_t end = start + span;
    if (end > aligned + capacity)
      munmap(reinterpret_cast<void *>(aligned + capacity),
             end - (aligned + capacity));
    void *base = reinterpret_cast<void *>(aligned);
#ifdef MADV_HUGEPAGE
    madvise(base, capacity, MADV_HUGEPAGE);
#endif
    return base;
  }

  std::mutex mutex;
  std::unordered_map<void *, size_t> live;
  std::vector<Mapping> cached; // most recently freed first
  size_t cachedBytes = 0;
};

LargeBuffers &largeBuffers() {
  // Never destroyed: buffers may be freed during exit.
  static LargeBuffers *buffers = new LargeBuffers();
  return *buffers;
}
} // namespace

void *nd::runtime::allocate(size_t size) {
  if (size >= kLargeBuffer)
    return largeBuffers().allocate(size);
  return std::malloc(size == 0 ? 1 : size);
}

void *nd::runtime::allocateAligned(size_t alignment, size_t size) {
  if (size >= kLargeBuffer && alignment <= kHugePage)
    return largeBuffers().allocate(size);
  alignment = std::max(alignment, sizeof(void *));
  void *buffer = nullptr;
  if (posix_memalign(&buffer, alignment, size == 0 ? 1 : size))
    return nullptr;
  return buffer;
}

void nd::runtime::release(void *buffer) {
  if (!buffer || largeBuffers().release(buffer))
    return;
  std::free(buffer);
}

void nd::runtime::releaseCache() { largeBuffers().releaseCache(); }
