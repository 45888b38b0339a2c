// RUN: nd-opt %s --split-input-file --nd-gpu-call-stream | FileCheck %s

// Every GPU operation of the function runs on one stream, made at its start,
// also inside scf.if; the host waits after a copy into its memory (before
// reading it), and never at the return: the call queues its work and
// returns. A buffer the function returns stays a gpu.alloc.
// CHECK-LABEL: func.func @call
// CHECK-NEXT: %[[S:.*]] = gpu.wait async
// CHECK: %[[M:.*]], %{{.*}} = gpu.alloc async [%[[S]]] () : memref<4xi32>
// CHECK: gpu.memset async [%[[S]]] %[[M]]
// CHECK: scf.if
// CHECK: gpu.launch_func async [%[[S]]] @kernels::@fill
// CHECK: gpu.memcpy async [%[[S]]] %[[H:.*]], %[[M]]
// CHECK-NEXT: gpu.wait [%[[S]]]
// CHECK-NEXT: memref.load %[[H]]
// CHECK-NOT: gpu.wait
// CHECK: return %{{.*}}, %[[M]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<4xi32>) kernel {
      gpu.return
    }
  }
  func.func @call(%cond: i1) -> (i32, memref<4xi32>) {
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
    return %v, %m : i32, memref<4xi32>
  }
}

// -----

// Scratch: a buffer allocated outside loops and never returned (here through
// a view and an scf.for's iter_args, freed after the loop) is a view of the
// runtime's arena, `bytes` = 4 * n * 8 of an f32 [n, 8]; a buffer allocated
// in a loop, and one that reaches the return through scf.if, stay
// gpu.allocs.
// CHECK: func.func private @nd_cuda_scratch(i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @scratch
// CHECK-SAME: (%[[N:.*]]: index
// CHECK: %[[BYTES:.*]] = arith.muli %[[N]], %{{.*}}
// CHECK: %[[BYTES8:.*]] = arith.muli %[[BYTES]], %{{.*}}
// CHECK: %[[B64:.*]] = arith.index_cast %[[BYTES8]] : index to i64
// CHECK: %[[RAW:.*]] = call @nd_cuda_scratch(%[[B64]]) : (i64) -> memref<?xi8>
// CHECK: memref.view %[[RAW]][%{{.*}}][%[[N]]] : memref<?xi8> to memref<?x8xf32>
// CHECK: scf.for
// CHECK: gpu.alloc async [%{{.*}}] () : memref<16xi8>
// CHECK: scf.if
// CHECK: gpu.alloc async [%{{.*}}] () : memref<2xi64>
// CHECK-NOT: nd_cuda_scratch
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @use(%m: memref<?x8xf32>) kernel {
      gpu.return
    }
  }
  func.func @scratch(%n: index, %cond: i1, %other: memref<2xi64>) -> memref<2xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %s = gpu.alloc (%n) : memref<?x8xf32>
    %view = memref.cast %s : memref<?x8xf32> to memref<?x8xf32>
    %last = scf.for %i = %c0 to %c3 step %c1 iter_args(%b = %view) -> (memref<?x8xf32>) {
      gpu.launch_func @kernels::@use blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?x8xf32>)
      %t = gpu.alloc () : memref<16xi8>
      gpu.dealloc %t : memref<16xi8>
      scf.yield %b : memref<?x8xf32>
    }
    gpu.dealloc %last : memref<?x8xf32>
    %r = scf.if %cond -> memref<2xi64> {
      %fresh = gpu.alloc () : memref<2xi64>
      scf.yield %fresh : memref<2xi64>
    } else {
      scf.yield %other : memref<2xi64>
    }
    return %r : memref<2xi64>
  }
}

// -----

// The error record of convert-nd-to-gpu: the runtime's, through MLIR's C
// interface; the messages of each return in a constant global (each text
// NUL-terminated, an empty one after the last).
// CHECK-DAG: memref.global "private" constant @__nd_gpu_messages : memref<11xi8> = dense<[102, 105, 114, 115, 116, 0, 116, 119, 111, 0, 0]>
// CHECK-DAG: func.func private @nd_cuda_error_record(i64) -> memref<?xi64> attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @nd_cuda_error_record_end(memref<?xi64>, memref<?xi8>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @checked
// CHECK: %[[R:.*]] = call @nd_cuda_error_record(%{{.*}}) : (i64) -> memref<?xi64>
// CHECK: %[[G:.*]] = memref.get_global @__nd_gpu_messages : memref<11xi8>
// CHECK: %[[M:.*]] = memref.cast %[[G]] : memref<11xi8> to memref<?xi8>
// CHECK: call @nd_cuda_error_record_end(%[[R]], %[[M]])
// CHECK-NEXT: return
// CHECK-NOT: nd_rt.gpu_error_record
module {
  func.func @checked() {
    %c6 = arith.constant 6 : i64
    %r = nd_rt.gpu_error_record %c6
    nd_rt.gpu_error_record_end %r ["first", "two"]
    return
  }
}
