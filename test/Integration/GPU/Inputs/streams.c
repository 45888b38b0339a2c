/* The entry nd-compile --target=cuda built from kv_update.mlir (input 0
   donated) on the stand-in driver of fake_cuda_driver.c (streams.test),
   whose ledger shows every driver call of a call and the stream it names:
   - the device form on the legacy default stream (NULL), CU_STREAM_LEGACY,
     CU_STREAM_PER_THREAD and a stream of the caller's: every call of the
     call on that stream, no synchronization, no kernel looked up;
   - the host form: nd's stream for the thread, one synchronization;
   - a failed check of the device form (the stand-in makes the record say
     so) reported by the next call on the stream, which runs nothing, or by
     nd_cuda_synchronize, or in synchronous mode by the call itself; the
     call after each report runs;
   - a failed check of the host form: its own status, no output written;
   - a call begun (nd_cuda_begin) and never ended is ended by the thread's
     next nd_cuda_begin: another thread's call on that stream then runs.
   The kernels do not run: the values are not checked. */

#define _GNU_SOURCE
#include "kv.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

static long (*ledgerLength)(void);
static const char *(*ledgerCall)(long);
static uintptr_t (*ledgerStream)(long);
static void (*failNextCheck)(int64_t, int64_t, int64_t);
static int (*createStream)(void **, unsigned);

static float cache[12];
static int64_t cache_shape[2] = {4, 3};
static float values[3] = {100, 101, 102};
static int64_t rows[1] = {2};
static int64_t ids[2] = {2, 0};
static int64_t rows_shape[2] = {1, 1}, values_shape[2] = {1, 3};
static int64_t ids_shape[1] = {2};

static char message[512];
static nd_context context = {0, 0, message, sizeof message, 0, 0};

/* The calls since `start`: how many, how many not on `stream`, how many
   synchronizations, lookups and launches. */
static void summarize(const char *what, long start, uintptr_t stream) {
  long strays = 0, syncs = 0, lookups = 0, launches = 0;
  long end = ledgerLength();
  for (long i = start; i < end; ++i) {
    const char *call = ledgerCall(i);
    strays += ledgerStream(i) != stream;
    syncs += !strcmp(call, "cuStreamSynchronize");
    lookups += !strcmp(call, "cuModuleGetFunction");
    launches += !strcmp(call, "cuLaunchKernel");
  }
  printf("%s: %ld calls, %ld not on the stream, %ld launches, %ld "
         "synchronizations, %ld lookups\n",
         what, end - start, strays, launches, syncs, lookups);
}

/* Device copies of the inputs (nd_cuda_alloc: the stand-in's memory is host
   memory, so a plain copy fills them). */
static void deviceInputs(nd_tensor inputs[4]) {
  void *buffers[4] = {cache, rows, values, ids};
  size_t bytes[4] = {sizeof cache, sizeof rows, sizeof values, sizeof ids};
  int64_t *shapes[4] = {cache_shape, rows_shape, values_shape, ids_shape};
  int32_t dtypes[4] = {ND_DTYPE_F32, ND_DTYPE_I64, ND_DTYPE_F32,
                       ND_DTYPE_I64};
  int32_t ranks[4] = {2, 2, 2, 1};
  for (int i = 0; i < 4; ++i) {
    void *device = nd_cuda_alloc(bytes[i]);
    memcpy(device, buffers[i], bytes[i]);
    nd_tensor tensor = {device, shapes[i], NULL, dtypes[i], ranks[i], NULL};
    inputs[i] = tensor;
  }
}

static int32_t callDevice(nd_tensor inputs[4], void *stream) {
  nd_tensor outputs[2] = {{0}, {0}};
  int32_t status = kv(&context, stream, inputs, 4, outputs, 2);
  nd_cuda_tensor_free(&outputs[0]);
  nd_cuda_tensor_free(&outputs[1]);
  return status;
}

static void streams(nd_tensor inputs[4]) {
  void *created = NULL;
  createStream(&created, 1);
  void *handles[4] = {NULL, (void *)1, (void *)2, created};
  const char *names[4] = {"NULL", "legacy", "per-thread", "created"};
  for (int s = 0; s < 4; ++s) {
    callDevice(inputs, handles[s]);
    long start = ledgerLength();
    int32_t status = callDevice(inputs, handles[s]);
    char what[64];
    snprintf(what, sizeof what, "device on %s (status %d)", names[s], status);
    summarize(what, start, (uintptr_t)handles[s]);
  }
}

static void hostForm(void) {
  nd_tensor inputs[4] = {{cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {rows, rows_shape, NULL, ND_DTYPE_I64, 2, NULL},
                         {values, values_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {ids, ids_shape, NULL, ND_DTYPE_I64, 1, NULL}};
  float gathered[6] = {-1, -1, -1, -1, -1, -1};
  int64_t gathered_shape[2] = {2, 3};
  nd_tensor outputs[2] = {{0},
                          {gathered, gathered_shape, NULL, ND_DTYPE_F32, 2,
                           NULL}};
  kv_host(&context, inputs, 4, outputs, 2);
  nd_cuda_tensor_free(&outputs[0]);
  long start = ledgerLength();
  int32_t status = kv_host(&context, inputs, 4, outputs, 2);
  nd_cuda_tensor_free(&outputs[0]);
  char what[64];
  snprintf(what, sizeof what, "host (status %d)", status);
  summarize(what, start, ledgerStream(start));
  for (int i = 0; i < 6; ++i)
    gathered[i] = -1;
  float before[12];
  memcpy(before, cache, sizeof cache);
  failNextCheck(2, 7, 4);
  status = kv_host(&context, inputs, 4, outputs, 2);
  printf("host, failed check: %d %s; output 0 %p; the caller's buffer "
         "untouched %d, the donated cache untouched %d\n",
         status, message, outputs[0].data, gathered[0] == -1,
         !memcmp(before, cache, sizeof cache));
}

static void errors(nd_tensor inputs[4]) {
  failNextCheck(2, 7, 4);
  printf("failing call: %d\n", callDevice(inputs, NULL));
  printf("next call: %d %s\n", callDevice(inputs, NULL), message);
  printf("after the report: %d\n", callDevice(inputs, NULL));
  failNextCheck(2, 8, 4);
  printf("failing call: %d\n", callDevice(inputs, NULL));
  printf("synchronize: %d %s\n",
         nd_cuda_synchronize(NULL, message, sizeof message), message);
  printf("after the report: %d\n", callDevice(inputs, NULL));
  printf("synchronous, was %d\n", nd_cuda_set_synchronous(1));
  failNextCheck(2, 9, 4);
  long start = ledgerLength();
  int32_t status = callDevice(inputs, NULL);
  printf("failing call: %d %s\n", status, message);
  summarize("synchronous failing call", start, 0);
  printf("after the report: %d\n", callDevice(inputs, NULL));
  nd_cuda_set_synchronous(0);
}

static void *callOnNull(void *inputs) {
  static int32_t status;
  nd_tensor outputs[2] = {{0}, {0}};
  char own[512];
  nd_context mine = {0, 0, own, sizeof own, 0, 0};
  status = kv(&mine, NULL, (nd_tensor *)inputs, 4, outputs, 2);
  nd_cuda_tensor_free(&outputs[0]);
  nd_cuda_tensor_free(&outputs[1]);
  return &status;
}

/* A call begun twice and ended once, then a call on the same stream from
   another thread: it must not wait for ever on the stream's lock (the
   thread is given 20 s). */
static void unended(nd_tensor inputs[4]) {
  int32_t first = nd_cuda_begin(NULL);
  int32_t second = nd_cuda_begin(NULL);
  int32_t end = nd_cuda_end(NULL, 0);
  pthread_t thread;
  pthread_create(&thread, NULL, callOnNull, inputs);
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 20;
  void *result = NULL;
  if (pthread_timedjoin_np(thread, &result, &deadline) == ETIMEDOUT) {
    printf("unended call: begin %d, begin %d, end %d; another thread's "
           "call is blocked\n", first, second, end);
    fflush(stdout);
    _exit(1);
  }
  printf("unended call: begin %d, begin %d, end %d; another thread's call "
         "%d\n", first, second, end, *(int32_t *)result);
}

int main(void) {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW);
  ledgerLength = (long (*)(void))dlsym(driver, "fake_ledger_length");
  ledgerCall = (const char *(*)(long))dlsym(driver, "fake_ledger_call");
  ledgerStream = (uintptr_t(*)(long))dlsym(driver, "fake_ledger_stream");
  failNextCheck = (void (*)(int64_t, int64_t, int64_t))dlsym(
      driver, "fake_fail_next_check");
  createStream = (int (*)(void **, unsigned))dlsym(driver, "cuStreamCreate");
  nd_tensor inputs[4];
  deviceInputs(inputs);
  streams(inputs);
  hostForm();
  errors(inputs);
  unended(inputs);
  for (int i = 0; i < 4; ++i)
    nd_cuda_free(inputs[i].data, NULL);
  return 0;
}
