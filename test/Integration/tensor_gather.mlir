// RUN: nd-opt %s --convert-tensor-to-nd --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// Upstream tensor.gather, converted to nd and run: every gather_dims form of
// a rank-3 source, rank-reduced and rank-preserving results, each index
// element type, dynamic shapes. The source is S[i][j][k] = 100*i + 10*j + k
// (shape 2x3x2), so each value names the source element it came from (it
// comes from a call, so that no fold can compute a result at compile time); the
// expected values apply the op's documentation by hand:
//   result[b..., s...] = S[s with the gather_dims coordinates = indices[b...]]
// where s runs over the non-gathered dims (and the unit dims left in their
// place by the rank-preserving form).

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @source() -> tensor<2x3x2xf32> {
  %s = arith.constant dense<[[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]],
                             [[100.0, 101.0], [110.0, 111.0], [120.0, 121.0]]]> : tensor<2x3x2xf32>
  return %s : tensor<2x3x2xf32>
}

// gather_dims([0]), rank-reduced, i64: result[b, j, k] = S[I[b], j, k].
// CHECK: Unranked Memref {{.*}} sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[\[}}100, 101],
// CHECK-NEXT: [110, 111],
// CHECK-NEXT: [120, 121]],
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [20, 21]]]
func.func @dims_0() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %g = tensor.gather %s[%i] gather_dims([0]) : (tensor<2x3x2xf32>, tensor<2x1xi64>) -> tensor<2x3x2xf32>
  %u = tensor.cast %g : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// gather_dims([1]), rank-preserving, i32: result[b, i, 0, k] = S[i, I[b], k].
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 1, 2]
// CHECK-NEXT: {{\[\[\[\[}}20, 21]],
// CHECK-NEXT: {{\[\[}}120, 121]]],
// CHECK-NEXT: {{\[\[\[}}0, 1]],
// CHECK-NEXT: {{\[\[}}100, 101]]]]
func.func @dims_1() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %g = tensor.gather %s[%i] gather_dims([1]) : (tensor<2x3x2xf32>, tensor<2x1xi32>) -> tensor<2x2x1x2xf32>
  %u = tensor.cast %g : tensor<2x2x1x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// gather_dims([2]), rank-reduced, index: result[b, i, j] = S[i, j, I[b]].
// CHECK: Unranked Memref {{.*}} sizes = [3, 2, 3]
// CHECK-NEXT: {{\[\[\[}}1, 11, 21],
// CHECK-NEXT: [101, 111, 121]],
// CHECK-NEXT: {{\[\[}}0, 10, 20],
// CHECK-NEXT: [100, 110, 120]],
// CHECK-NEXT: {{\[\[}}1, 11, 21],
// CHECK-NEXT: [101, 111, 121]]]
func.func @dims_2() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1], [0], [1]]> : tensor<3x1xindex>
  %g = tensor.gather %s[%i] gather_dims([2]) : (tensor<2x3x2xf32>, tensor<3x1xindex>) -> tensor<3x2x3xf32>
  %u = tensor.cast %g : tensor<3x2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// gather_dims([0, 1]), rank-reduced, i8: result[b, k] = S[I[b,0], I[b,1], k].
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}120, 121],
// CHECK-NEXT: [10, 11]]
func.func @dims_0_1() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1, 2], [0, 1]]> : tensor<2x2xi8>
  %g = tensor.gather %s[%i] gather_dims([0, 1]) : (tensor<2x3x2xf32>, tensor<2x2xi8>) -> tensor<2x2xf32>
  %u = tensor.cast %g : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// gather_dims([0, 2]), rank-preserving, i16:
// result[b, 0, j, 0] = S[I[b,0], j, I[b,1]].
// CHECK: Unranked Memref {{.*}} sizes = [3, 1, 3, 1]
// CHECK-NEXT: {{\[\[\[\[}}100],
// CHECK-NEXT: [110],
// CHECK-NEXT: [120]]],
// CHECK-NEXT: {{\[\[\[}}1],
// CHECK-NEXT: [11],
// CHECK-NEXT: [21]]],
// CHECK-NEXT: {{\[\[\[}}101],
// CHECK-NEXT: [111],
// CHECK-NEXT: [121]]]]
func.func @dims_0_2() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[1, 0], [0, 1], [1, 1]]> : tensor<3x2xi16>
  %g = tensor.gather %s[%i] gather_dims([0, 2]) : (tensor<2x3x2xf32>, tensor<3x2xi16>) -> tensor<3x1x3x1xf32>
  %u = tensor.cast %g : tensor<3x1x3x1xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// gather_dims([1, 2]), rank-reduced, i64: result[b, i] = S[i, I[b,0], I[b,1]].
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}21, 121],
// CHECK-NEXT: [0, 100]]
func.func @dims_1_2() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>
  %g = tensor.gather %s[%i] gather_dims([1, 2]) : (tensor<2x3x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %u = tensor.cast %g : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// gather_dims([0, 1, 2]) with 2x2 coordinate triples (i32), rank-reduced and
// rank-preserving (the first example of the op's documentation).
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}121, 0],
// CHECK-NEXT: [11, 101]]
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 1, 1, 1]
// CHECK-NEXT: {{\[\[\[\[\[}}121]]],
// CHECK-NEXT: {{\[\[\[}}0]]]],
// CHECK-NEXT: {{\[\[\[\[}}11]]],
// CHECK-NEXT: {{\[\[\[}}101]]]]]
func.func @dims_0_1_2() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[[1, 2, 1], [0, 0, 0]], [[0, 1, 1], [1, 0, 1]]]> : tensor<2x2x3xi32>
  %g = tensor.gather %s[%i] gather_dims([0, 1, 2]) : (tensor<2x3x2xf32>, tensor<2x2x3xi32>) -> tensor<2x2xf32>
  %u = tensor.cast %g : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  %h = tensor.gather %s[%i] gather_dims([0, 1, 2]) unique : (tensor<2x3x2xf32>, tensor<2x2x3xi32>) -> tensor<2x2x1x1x1xf32>
  %v = tensor.cast %h : tensor<2x2x1x1x1xf32> to tensor<*xf32>
  call @print(%v) : (tensor<*xf32>) -> ()
  return
}

// A source with a leading unit dim (S[0]): gathering dim 1 moves only the
// unit dim, a reshape. result[b, 0, 0, k] = S[0, I[b], k].
// CHECK: Unranked Memref {{.*}} sizes = [2, 1, 1, 2]
// CHECK-NEXT: {{\[\[\[\[}}20, 21]]],
// CHECK-NEXT: {{\[\[\[}}10, 11]]]]
func.func @unit_dim_moved() {
  %s2 = call @source() : () -> tensor<2x3x2xf32>
  %s = tensor.extract_slice %s2[0, 0, 0] [1, 3, 2] [1, 1, 1] : tensor<2x3x2xf32> to tensor<1x3x2xf32>
  %i = arith.constant dense<[[2], [1]]> : tensor<2x1xi64>
  %g = tensor.gather %s[%i] gather_dims([1]) : (tensor<1x3x2xf32>, tensor<2x1xi64>) -> tensor<2x1x1x2xf32>
  %u = tensor.cast %g : tensor<2x1x1x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Every dim dynamic: gather_dims([1]) as in @dims_1, rank-reduced.
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}20, 21],
// CHECK-NEXT: [120, 121]],
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [100, 101]]]
func.func @gather_dynamic(%s: tensor<?x?x?xf32>, %i: tensor<?x1xi32>) -> tensor<?x?x?xf32> {
  %g = tensor.gather %s[%i] gather_dims([1]) : (tensor<?x?x?xf32>, tensor<?x1xi32>) -> tensor<?x?x?xf32>
  return %g : tensor<?x?x?xf32>
}

func.func @dynamic() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %sd = tensor.cast %s : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  %id = tensor.cast %i : tensor<2x1xi32> to tensor<?x1xi32>
  %g = call @gather_dynamic(%sd, %id) : (tensor<?x?x?xf32>, tensor<?x1xi32>) -> tensor<?x?x?xf32>
  %u = tensor.cast %g : tensor<?x?x?xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Where the op's behaviour is undefined, nd's rules apply (docs/Rationale.md):
// a negative coordinate in [-d, -1] counts from the end (-1 is j = 2, -3 is
// j = 0), and narrow indices are sign-extended (i1 true is -1).
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}20, 21],
// CHECK-NEXT: [120, 121]],
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [100, 101]]]
// CHECK: Unranked Memref {{.*}} sizes = [2, 2, 2]
// CHECK-NEXT: {{\[\[\[}}20, 21],
// CHECK-NEXT: [120, 121]],
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [100, 101]]]
func.func @nd_rules() {
  %s = call @source() : () -> tensor<2x3x2xf32>
  %i = arith.constant dense<[[-1], [-3]]> : tensor<2x1xi64>
  %g = tensor.gather %s[%i] gather_dims([1]) : (tensor<2x3x2xf32>, tensor<2x1xi64>) -> tensor<2x2x2xf32>
  %u = tensor.cast %g : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  %b = arith.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %h = tensor.gather %s[%b] gather_dims([1]) : (tensor<2x3x2xf32>, tensor<2x1xi1>) -> tensor<2x2x2xf32>
  %v = tensor.cast %h : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%v) : (tensor<*xf32>) -> ()
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
  call @unit_dim_moved() : () -> ()
  call @dynamic() : () -> ()
  call @nd_rules() : () -> ()
  return
}
