// RUN: nd-opt %s --nd-gpu-call-stream | FileCheck %s

// Every GPU operation of the function runs on one stream, made at its start,
// also inside scf.if; the host waits after a copy into its memory (before
// reading it) and before the return.
// CHECK-LABEL: func.func @call
// CHECK-NEXT: %[[S:.*]] = gpu.wait async
// CHECK: %[[M:.*]], %{{.*}} = gpu.alloc async [%[[S]]] () : memref<4xi32>
// CHECK: gpu.memset async [%[[S]]] %[[M]]
// CHECK: scf.if
// CHECK: gpu.launch_func async [%[[S]]] @kernels::@fill
// CHECK: gpu.memcpy async [%[[S]]] %[[H:.*]], %[[M]]
// CHECK-NEXT: gpu.wait [%[[S]]]
// CHECK-NEXT: memref.load %[[H]]
// CHECK: gpu.dealloc async [%[[S]]] %[[M]]
// CHECK-NEXT: gpu.wait [%[[S]]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<4xi32>) kernel {
      gpu.return
    }
  }
  func.func @call(%cond: i1) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %m = gpu.alloc () : memref<4xi32>
    gpu.memset %m, %zero : memref<4xi32>, i32
    scf.if %cond {
      gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xi32>)
    }
    %h = memref.alloca() : memref<4xi32>
    gpu.memcpy %h, %m : memref<4xi32>, memref<4xi32>
    %v = memref.load %h[%c0] : memref<4xi32>
    gpu.dealloc %m : memref<4xi32>
    return %v : i32
  }
}
