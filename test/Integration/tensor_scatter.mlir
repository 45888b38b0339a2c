// RUN: nd-opt %s --convert-tensor-to-nd --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// Upstream tensor.scatter, converted to nd and run: scatter_dims forms of a
// rank-3 dest, rank-reduced and rank-preserving sources, index element
// types, dynamic shapes. dest is D[i][j][k] = 100*i + 10*j + k (2x3x2), the
// source holds negative numbers (dest comes from a call, so that no fold can
// compute a result at compile time); the expected values apply the op's
// documentation by hand: the result is dest with, for every b,
//   result[s with the scatter_dims coordinates = indices[b]] = source[b, s...]

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @dest() -> tensor<2x3x2xf32> {
  %d = arith.constant dense<[[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]],
                             [[100.0, 101.0], [110.0, 111.0], [120.0, 121.0]]]> : tensor<2x3x2xf32>
  return %d : tensor<2x3x2xf32>
}

func.func @dest_1d() -> tensor<4xf32> {
  %d = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  return %d : tensor<4xf32>
}

// scatter_dims([0]), rank-reduced source, i64: D[1] = source[0].
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, 1],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [20, 21]],
// CHECK-NEXT: {{\[\[}}-1, -2],
// CHECK-NEXT: [-3, -4],
// CHECK-NEXT: [-5, -6]]]
func.func @dims_0() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1]]> : tensor<1x1xi64>
  %s = arith.constant dense<[[[-1.0, -2.0], [-3.0, -4.0], [-5.0, -6.0]]]> : tensor<1x3x2xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([0]) unique : (tensor<1x3x2xf32>, tensor<2x3x2xf32>, tensor<1x1xi64>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_dims([1]), rank-preserving source (2x2x1x2), i32:
// D[i, I[b], k] = source[b, i, 0, k]: j = 2 from b = 0, j = 0 from b = 1.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-5, -6],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [-1, -2]],
// CHECK-NEXT: {{\[\[}}-7, -8],
// CHECK-NEXT: [110, 111],
// CHECK-NEXT: [-3, -4]]]
func.func @dims_1() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %s = arith.constant dense<[[[[-1.0, -2.0]], [[-3.0, -4.0]]], [[[-5.0, -6.0]], [[-7.0, -8.0]]]]> : tensor<2x2x1x2xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([1]) unique : (tensor<2x2x1x2xf32>, tensor<2x3x2xf32>, tensor<2x1xi32>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_dims([2]), rank-reduced source (1x2x3), index: D[i, j, 1] = source[0, i, j].
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, -1],
// CHECK-NEXT: [10, -2],
// CHECK-NEXT: [20, -3]],
// CHECK-NEXT: {{\[\[}}100, -4],
// CHECK-NEXT: [110, -5],
// CHECK-NEXT: [120, -6]]]
func.func @dims_2() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1]]> : tensor<1x1xindex>
  %s = arith.constant dense<[[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]]> : tensor<1x2x3xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([2]) unique : (tensor<1x2x3xf32>, tensor<2x3x2xf32>, tensor<1x1xindex>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_dims([0, 1]), rank-reduced source (2x2), i32:
// D[1, 2, :] = source[0], D[0, 0, :] = source[1].
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-3, -4],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [20, 21]],
// CHECK-NEXT: {{\[\[}}100, 101],
// CHECK-NEXT: [110, 111],
// CHECK-NEXT: [-1, -2]]]
func.func @dims_0_1() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1, 2], [0, 0]]> : tensor<2x2xi32>
  %s = arith.constant dense<[[-1.0, -2.0], [-3.0, -4.0]]> : tensor<2x2xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([0, 1]) unique : (tensor<2x2xf32>, tensor<2x3x2xf32>, tensor<2x2xi32>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_dims([0, 2]), rank-reduced source (2x3), i8:
// D[I[b,0], j, I[b,1]] = source[b, j]: D[1, j, 0] from b = 0, D[0, j, 1] from b = 1.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, -4],
// CHECK-NEXT: [10, -5],
// CHECK-NEXT: [20, -6]],
// CHECK-NEXT: {{\[\[}}-1, 101],
// CHECK-NEXT: [-2, 111],
// CHECK-NEXT: [-3, 121]]]
func.func @dims_0_2() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1, 0], [0, 1]]> : tensor<2x2xi8>
  %s = arith.constant dense<[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]> : tensor<2x3xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([0, 2]) unique : (tensor<2x3xf32>, tensor<2x3x2xf32>, tensor<2x2xi8>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_dims([1, 2]), rank-preserving source (1x2x1x1), i16:
// D[i, 1, 1] = source[0, i, 0, 0].
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, 1],
// CHECK-NEXT: [10, -1],
// CHECK-NEXT: [20, 21]],
// CHECK-NEXT: {{\[\[}}100, 101],
// CHECK-NEXT: [110, -2],
// CHECK-NEXT: [120, 121]]]
func.func @dims_1_2() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1, 1]]> : tensor<1x2xi16>
  %s = arith.constant dense<[[[[-1.0]], [[-2.0]]]]> : tensor<1x2x1x1xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([1, 2]) unique : (tensor<1x2x1x1xf32>, tensor<2x3x2xf32>, tensor<1x2xi16>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_dims([0, 1, 2]): single elements, D[0, 2, 1] = -1, D[1, 0, 0] = -2.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, 1],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [20, -1]],
// CHECK-NEXT: {{\[\[}}-2, 101],
// CHECK-NEXT: [110, 111],
// CHECK-NEXT: [120, 121]]]
func.func @dims_0_1_2() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[0, 2, 1], [1, 0, 0]]> : tensor<2x3xi64>
  %s = arith.constant dense<[-1.0, -2.0]> : tensor<2xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([0, 1, 2]) unique : (tensor<2xf32>, tensor<2x3x2xf32>, tensor<2x3xi64>) -> tensor<2x3x2xf32>
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Every dim dynamic: scatter_dims([1]) as in @dims_1, rank-reduced source.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}-5, -6],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [-1, -2]],
// CHECK-NEXT: {{\[\[}}-7, -8],
// CHECK-NEXT: [110, 111],
// CHECK-NEXT: [-3, -4]]]
func.func @scatter_dynamic(%s: tensor<?x?x?xf32>, %d: tensor<?x?x?xf32>, %i: tensor<?x1xi32>) -> tensor<?x?x?xf32> {
  %r = tensor.scatter %s into %d[%i] scatter_dims([1]) unique : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x1xi32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @dynamic() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %s = arith.constant dense<[[[-1.0, -2.0], [-3.0, -4.0]], [[-5.0, -6.0], [-7.0, -8.0]]]> : tensor<2x2x2xf32>
  %dd = tensor.cast %d : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  %id = tensor.cast %i : tensor<2x1xi32> to tensor<?x1xi32>
  %sd = tensor.cast %s : tensor<2x2x2xf32> to tensor<?x?x?xf32>
  %r = call @scatter_dynamic(%sd, %dd, %id) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x1xi32>) -> tensor<?x?x?xf32>
  %u = tensor.cast %r : tensor<?x?x?xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// dest is not modified: a scatter has value semantics.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, 1],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [20, 21]],
// CHECK-NEXT: {{\[\[}}100, 101],
// CHECK-NEXT: [110, 111],
// CHECK-NEXT: [120, 121]]]
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}0, 1],
// CHECK-NEXT: [-1, -2],
// CHECK-NEXT: [20, 21]],
func.func @value_semantics() {
  %d = call @dest() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1]]> : tensor<1x1xi64>
  %s = arith.constant dense<[[[-1.0, -2.0], [-3.0, -4.0]]]> : tensor<1x2x2xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([1]) unique : (tensor<1x2x2xf32>, tensor<2x3x2xf32>, tensor<1x1xi64>) -> tensor<2x3x2xf32>
  %ud = tensor.cast %d : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%ud) : (tensor<*xf32>) -> ()
  %u = tensor.cast %r : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Where the op's behaviour is undefined, nd's rules apply (docs/Rationale.md):
// duplicate coordinates despite `unique` leave the last update in row-major
// order of indices (D[2] = -2, not -1), and a negative coordinate counts from
// the end (-1 is 3).
// CHECK: Unranked Memref {{.*}} sizes = [4]
// CHECK-NEXT: [-3, 1, -2, -4]
func.func @nd_rules() {
  %d = call @dest_1d() : () -> tensor<4xf32>
  %i = arith.constant dense<[[2], [2], [0], [-1]]> : tensor<4x1xi64>
  %s = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : tensor<4xf32>
  %r = tensor.scatter %s into %d[%i] scatter_dims([0]) unique : (tensor<4xf32>, tensor<4xf32>, tensor<4x1xi64>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @dims_0() : () -> ()
  call @dims_1() : () -> ()
  call @dims_2() : () -> ()
  call @dims_0_1() : () -> ()
  call @dims_0_2() : () -> ()
  call @dims_1_2() : () -> ()
  call @dims_0_1_2() : () -> ()
  call @dynamic() : () -> ()
  call @value_semantics() : () -> ()
  call @nd_rules() : () -> ()
  return
}
