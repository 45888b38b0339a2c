// RUN: nd-opt %s --split-input-file --nd-gpu-host-memory --verify-diagnostics | FileCheck %s

// Allocations, frees and copies of host functions become GPU operations: a
// copy between contiguous buffers a gpu.memcpy, any other a kernel.
// CHECK-LABEL: func.func @buffers
// CHECK: %[[A:.*]] = gpu.alloc (%{{.*}}) : memref<?x4xf32>
// CHECK: gpu.memcpy %[[A]], %{{.*}} : memref<?x4xf32>, memref<?x4xf32>
// CHECK: %[[B:.*]] = gpu.alloc () : memref<2x4xf32>
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<2x4xf32, strided<[4, 1], offset: 4>>
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: gpu.dealloc %[[B]]
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
func.func @buffers(%arg: memref<?x4xf32>) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %arg, %c0 : memref<?x4xf32>
  %a = memref.alloc(%n) : memref<?x4xf32>
  memref.copy %arg, %a : memref<?x4xf32> to memref<?x4xf32>
  %view = memref.subview %arg[1, 0] [2, 4] [1, 1] : memref<?x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 4>>
  %b = memref.alloc() : memref<2x4xf32>
  memref.copy %view, %b : memref<2x4xf32, strided<[4, 1], offset: 4>> to memref<2x4xf32>
  memref.dealloc %b : memref<2x4xf32>
  return %a : memref<?x4xf32>
}

// -----

// A constant lives in host memory: it is copied to a fresh device buffer
// where it is taken, freed before the return.
memref.global "private" constant @ids : memref<3xi64> = dense<[2, 0, 1]>
// CHECK-LABEL: func.func @constant
// CHECK: %[[HOST:.*]] = memref.get_global @ids
// CHECK: %[[DEVICE:.*]] = gpu.alloc () : memref<3xi64>
// CHECK: gpu.memcpy %[[DEVICE]], %[[HOST]]
// CHECK: call @use(%[[DEVICE]])
// CHECK: gpu.dealloc %[[DEVICE]]
// CHECK-NEXT: return
func.func private @use(memref<3xi64>)
func.func @constant() {
  %ids = memref.get_global @ids : memref<3xi64>
  call @use(%ids) : (memref<3xi64>) -> ()
  return
}

// -----

// Host code must not touch device memory.
func.func @host_load(%arg: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.load' op reads or writes a device buffer on the host}}
  %v = memref.load %arg[%c0] : memref<4xf32>
  return %v : f32
}
