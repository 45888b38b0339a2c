// RUN: nd-opt %s --pass-pipeline="builtin.module(convert-tosa-to-nd,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),nd-to-llvm)" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// TOSA programs whose tosa.gather / tosa.scatter go through nd, and whose
// other TOSA ops (tosa.const, tosa.const_shape, tosa.reshape, tosa.add) go
// through upstream's TOSA conversions, then nd-to-llvm. The values come from
// calls, so that no fold can compute a result at compile time. values is
// V[n][k][c] = 100*n + 10*k + c (2x3x2); the expected values apply the TOSA
// specification's GATHER and SCATTER by hand:
//   gather:  output[n, w, c] = values[n, indices[n, w], c]
//   scatter: values_out = values_in, then values_out[n, indices[n, w], c] = input[n, w, c]

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @values() -> tensor<2x3x2xf32> {
  %v = "tosa.const"() {values = dense<[[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]],
                                       [[100.0, 101.0], [110.0, 111.0], [120.0, 121.0]]]> : tensor<2x3x2xf32>} : () -> tensor<2x3x2xf32>
  return %v : tensor<2x3x2xf32>
}

// V[0] alone (N = 1).
func.func @values_1() -> tensor<1x3x2xf32> {
  %v = "tosa.const"() {values = dense<[[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  return %v : tensor<1x3x2xf32>
}

// N = 2, W = 2, i32: n = 0 takes k = 2, 0; n = 1 takes k = 1 twice.
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}20, 21],
// CHECK-NEXT: [0, 1]],
// CHECK-NEXT: {{\[\[}}110, 111],
// CHECK-NEXT: [110, 111]]]
func.func @gather() {
  %v = call @values() : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {values = dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %g = tosa.gather %v, %i : (tensor<2x3x2xf32>, tensor<2x2xi32>) -> tensor<2x2x2xf32>
  %u = tensor.cast %g : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// N = 1, W = 3, i64 (TOSA's EXT_INT64).
// CHECK: Unranked Memref {{.*}} sizes = [1, 3, 2]
// CHECK-NEXT: {{\[\[\[}}10, 11],
// CHECK-NEXT: [20, 21],
// CHECK-NEXT: [10, 11]]]
func.func @gather_i64() {
  %v = call @values_1() : () -> tensor<1x3x2xf32>
  %i = "tosa.const"() {values = dense<[[1, 2, 1]]> : tensor<1x3xi64>} : () -> tensor<1x3xi64>
  %g = tosa.gather %v, %i : (tensor<1x3x2xf32>, tensor<1x3xi64>) -> tensor<1x3x2xf32>
  %u = tensor.cast %g : tensor<1x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Every dim dynamic, with the declared result static (nd checks it at run
// time): the same values as @gather.
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}20, 21],
// CHECK-NEXT: [0, 1]],
// CHECK-NEXT: {{\[\[}}110, 111],
// CHECK-NEXT: [110, 111]]]
func.func @gather_dynamic_values(%v: tensor<?x?x?xf32>, %i: tensor<?x?xi32>) -> tensor<2x2x2xf32> {
  %g = tosa.gather %v, %i : (tensor<?x?x?xf32>, tensor<?x?xi32>) -> tensor<2x2x2xf32>
  return %g : tensor<2x2x2xf32>
}

func.func @gather_dynamic() {
  %v = call @values() : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {values = dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %vd = tensor.cast %v : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  %id = tensor.cast %i : tensor<2x2xi32> to tensor<?x?xi32>
  %g = call @gather_dynamic_values(%vd, %id) : (tensor<?x?x?xf32>, tensor<?x?xi32>) -> tensor<2x2x2xf32>
  %u = tensor.cast %g : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// N = 2, W = 2, i32: n = 0 writes k = 2, 0; n = 1 writes k = 1, 0.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-3, -4],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [-1, -2]],
// CHECK-NEXT: {{\[\[}}-7, -8],
// CHECK-NEXT: [-5, -6],
// CHECK-NEXT: [120, 121]]]
func.func @scatter() {
  %v = call @values() : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {values = dense<[[2, 0], [1, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %in = "tosa.const"() {values = dense<[[[-1.0, -2.0], [-3.0, -4.0]], [[-5.0, -6.0], [-7.0, -8.0]]]> : tensor<2x2x2xf32>} : () -> tensor<2x2x2xf32>
  %s = tosa.scatter %v, %i, %in : (tensor<2x3x2xf32>, tensor<2x2xi32>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
  %u = tensor.cast %s : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// N = 1 (the reshaped form), i64.
// CHECK: Unranked Memref {{.*}} sizes = [1, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-3, -4],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [-1, -2]]]
func.func @scatter_one_batch() {
  %v = call @values_1() : () -> tensor<1x3x2xf32>
  %i = "tosa.const"() {values = dense<[[2, 0]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
  %in = "tosa.const"() {values = dense<[[[-1.0, -2.0], [-3.0, -4.0]]]> : tensor<1x2x2xf32>} : () -> tensor<1x2x2xf32>
  %s = tosa.scatter %v, %i, %in : (tensor<1x3x2xf32>, tensor<1x2xi64>, tensor<1x2x2xf32>) -> tensor<1x3x2xf32>
  %u = tensor.cast %s : tensor<1x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Every dim dynamic (i64 tuples): the same values as @scatter.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-3, -4],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [-1, -2]],
// CHECK-NEXT: {{\[\[}}-7, -8],
// CHECK-NEXT: [-5, -6],
// CHECK-NEXT: [120, 121]]]
func.func @scatter_dynamic_values(%v: tensor<?x?x?xf32>, %i: tensor<?x?xi32>, %in: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %s = tosa.scatter %v, %i, %in : (tensor<?x?x?xf32>, tensor<?x?xi32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %s : tensor<?x?x?xf32>
}

func.func @scatter_dynamic() {
  %v = call @values() : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {values = dense<[[2, 0], [1, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %in = "tosa.const"() {values = dense<[[[-1.0, -2.0], [-3.0, -4.0]], [[-5.0, -6.0], [-7.0, -8.0]]]> : tensor<2x2x2xf32>} : () -> tensor<2x2x2xf32>
  %vd = tensor.cast %v : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  %id = tensor.cast %i : tensor<2x2xi32> to tensor<?x?xi32>
  %ind = tensor.cast %in : tensor<2x2x2xf32> to tensor<?x?x?xf32>
  %s = call @scatter_dynamic_values(%vd, %id, %ind) : (tensor<?x?x?xf32>, tensor<?x?xi32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %u = tensor.cast %s : tensor<?x?x?xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// A TOSA program around the gather: reshape a constant to [1,3,2], gather
// k = 2, 0 and add the result to itself.
// CHECK: Unranked Memref {{.*}} sizes = [1, 2, 2]
// CHECK-NEXT: {{\[\[\[}}40, 42],
// CHECK-NEXT: [0, 2]]]
func.func @program() {
  %flat = "tosa.const"() {values = dense<[0.0, 1.0, 10.0, 11.0, 20.0, 21.0]> : tensor<6xf32>} : () -> tensor<6xf32>
  %shape = tosa.const_shape {values = dense<[1, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v = tosa.reshape %flat, %shape : (tensor<6xf32>, !tosa.shape<3>) -> tensor<1x3x2xf32>
  %i = "tosa.const"() {values = dense<[[2, 0]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  %g = tosa.gather %v, %i : (tensor<1x3x2xf32>, tensor<1x2xi32>) -> tensor<1x2x2xf32>
  %s = tosa.add %g, %g : (tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %u = tensor.cast %s : tensor<1x2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Where a program breaks TOSA's rules, nd's apply (docs/Rationale.md): a
// repeated index in a scatter leaves the last update (k = 0 gets -3, not
// -1), a negative index counts from the end (-1 is k = 2).
// CHECK: Unranked Memref {{.*}} sizes = [1, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-3, -4],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [-5, -6]]]
func.func @nd_rules() {
  %v = call @values_1() : () -> tensor<1x3x2xf32>
  %i = "tosa.const"() {values = dense<[[0, 0, -1]]> : tensor<1x3xi32>} : () -> tensor<1x3xi32>
  %in = "tosa.const"() {values = dense<[[[-1.0, -2.0], [-3.0, -4.0], [-5.0, -6.0]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  %s = tosa.scatter %v, %i, %in : (tensor<1x3x2xf32>, tensor<1x3xi32>, tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  %u = tensor.cast %s : tensor<1x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @gather() : () -> ()
  call @gather_i64() : () -> ()
  call @gather_dynamic() : () -> ()
  call @scatter() : () -> ()
  call @scatter_one_batch() : () -> ()
  call @scatter_dynamic() : () -> ()
  call @program() : () -> ()
  call @nd_rules() : () -> ()
  return
}
