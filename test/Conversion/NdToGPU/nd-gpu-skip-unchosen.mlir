// RUN: nd-opt %s --pass-pipeline='builtin.module(gpu.module(nd-gpu-skip-unchosen))' | FileCheck %s

// A kernel whose guard is marked returns where the guard fails, before its
// first barrier; the phases keep their own guards; the mark goes.
// CHECK-LABEL: gpu.func @guarded(
// CHECK: %[[FLAG:.*]] = memref.load %arg0
// CHECK: %[[GUARD:.*]] = arith.cmpi ne, %[[FLAG]], %{{.*}} : i32
// CHECK-NOT: nd.uniform_guard
// CHECK-NEXT: cf.cond_br %[[GUARD]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CHECK: ^[[BODY]]:
// CHECK: scf.if %[[GUARD]]
// CHECK: gpu.barrier
// CHECK: scf.if %[[GUARD]]
// CHECK: gpu.return
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: gpu.return
// A kernel without a marked guard is left as it is.
// CHECK-LABEL: gpu.func @unmarked(
// CHECK-NOT: cf.cond_br
// CHECK: gpu.barrier
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @guarded(%flag: memref<1xi32>, %out: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %chosen = memref.load %flag[%c0] : memref<1xi32>
    %run = arith.cmpi ne, %chosen, %zero {nd.uniform_guard} : i32
    scf.if %run {
      memref.store %one, %out[%c0] : memref<4xi32>
    }
    gpu.barrier
    scf.if %run {
      memref.store %zero, %out[%c0] : memref<4xi32>
    }
    gpu.return
  }
  gpu.func @unmarked(%flag: memref<1xi32>, %out: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    %chosen = memref.load %flag[%c0] : memref<1xi32>
    %run = arith.cmpi ne, %chosen, %zero : i32
    scf.if %run {
      memref.store %zero, %out[%c0] : memref<4xi32>
    }
    gpu.barrier
    gpu.return
  }
}
