// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=check-bounds=false | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// oob<skip> and oob<clamp> on the four ops (docs/Rationale.md, "Out-of-bounds
// modes"), static and dynamic shapes, values worked by hand: values in
// [-d, d-1] keep their meaning (negative ones count from the end); under
// skip a scatter drops the write of an entry with a component out of range
// (the whole slice for scatter_nd) and a gather reads zeros for it; under
// clamp a value below -d addresses 0 and one above d-1 addresses d-1; an
// empty dim makes every entry behave as under skip. No index value is an
// error, with or without bounds checking. The second run partitions even
// these small tensors (grain=1) on 3 threads.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @print_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}

// The ops take their operands as arguments of @run, so that nothing
// folds them and the lowering computes every result.
func.func @main() {
  %gd = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %gi = arith.constant dense<[[0], [3], [-1], [-4], [7]]> : tensor<5x1xi64>
  %pd = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %pi = arith.constant dense<[[1, 2], [2, 0], [-1, -3], [0, 5], [-3, 1]]> : tensor<5x2xi32>
  %ed = arith.constant dense<> : tensor<0x2xf32>
  %ei = arith.constant dense<[[0], [-1], [5]]> : tensor<3x1xi64>
  %ed2 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %ei2 = arith.constant dense<[[0, 3, -1], [-4, 2, -3]]> : tensor<2x3xi64>
  %sd = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %si = arith.constant dense<[[0], [5], [-1], [-7], [2]]> : tensor<5x1xi64>
  %su = arith.constant dense<[10, 20, 30, 40, 50]> : tensor<5xi32>
  %rd = arith.constant dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]> : tensor<3x2xf32>
  %ri = arith.constant dense<[[4], [1], [-4]]> : tensor<3x1xi32>
  %ru = arith.constant dense<[[7.0, 7.0], [8.0, 8.0], [9.0, 9.0]]> : tensor<3x2xf32>
  %ru0 = arith.constant dense<[[7.0, 7.0], [8.0, 8.0], [9.0, 9.0]]> : tensor<3x2xf32>
  %xi = arith.constant dense<[[3, 0], [-4, -1]]> : tensor<2x2xi64>
  %xu = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %yd = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %yi = arith.constant dense<[4, -5, 1, 1]> : tensor<4xi32>
  %yu = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %zd = arith.constant dense<> : tensor<0x2xf32>
  %zi = arith.constant dense<[[0, 1], [-1, 5], [2, 0]]> : tensor<3x2xi64>
  %zu = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  call @run(%gd, %gi, %pd, %pi, %ed, %ei, %ed2, %ei2, %sd, %si, %su, %rd, %ri, %ru, %ru0, %xi, %xu, %yd, %yi, %yu, %zd, %zi, %zu) : (tensor<3x2xf32>, tensor<5x1xi64>, tensor<2x3xi32>, tensor<5x2xi32>, tensor<0x2xf32>, tensor<3x1xi64>, tensor<2x3xf32>, tensor<2x3xi64>, tensor<4xi32>, tensor<5x1xi64>, tensor<5xi32>, tensor<3x2xf32>, tensor<3x1xi32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x2xi64>, tensor<2x2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<0x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> ()
  return
}

func.func @run(%gd: tensor<3x2xf32>, %gi: tensor<5x1xi64>, %pd: tensor<2x3xi32>, %pi: tensor<5x2xi32>, %ed: tensor<0x2xf32>, %ei: tensor<3x1xi64>, %ed2: tensor<2x3xf32>, %ei2: tensor<2x3xi64>, %sd: tensor<4xi32>, %si: tensor<5x1xi64>, %su: tensor<5xi32>, %rd: tensor<3x2xf32>, %ri: tensor<3x1xi32>, %ru: tensor<3x2xf32>, %ru0: tensor<3x2xf32>, %xi: tensor<2x2xi64>, %xu: tensor<2x2xf32>, %yd: tensor<4xi32>, %yi: tensor<4xi32>, %yu: tensor<4xi32>, %zd: tensor<0x2xf32>, %zi: tensor<3x2xi64>, %zu: tensor<3x2xf32>) {
  //===--------------------------------------------------------------------===//
  // gather_nd
  //===--------------------------------------------------------------------===//
  // Rows of [[1, 2], [3, 4], [5, 6]] at 0, 3, -1, -4, 7.
  // skip: 3, -4 and 7 are out of [-3, 2]: their rows read zeros.
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: {{\[\[}}1, 2],
  // CHECK-NEXT: [0, 0],
  // CHECK-NEXT: [5, 6],
  // CHECK-NEXT: [0, 0],
  // CHECK-NEXT: [0, 0]]
  %g0 = nd.gather_nd %gd[%gi] oob<skip> : tensor<3x2xf32>, tensor<5x1xi64> -> tensor<5x2xf32>
  %p0 = tensor.cast %g0 : tensor<5x2xf32> to tensor<*xf32>
  call @print(%p0) : (tensor<*xf32>) -> ()
  // clamp: 3 -> 2, -4 -> 0, 7 -> 2.
  // CHECK: sizes = [5, 2]
  // CHECK-NEXT: {{\[\[}}1, 2],
  // CHECK-NEXT: [5, 6],
  // CHECK-NEXT: [5, 6],
  // CHECK-NEXT: [1, 2],
  // CHECK-NEXT: [5, 6]]
  %g1 = nd.gather_nd %gd[%gi] oob<clamp> : tensor<3x2xf32>, tensor<5x1xi64> -> tensor<5x2xf32>
  %p1 = tensor.cast %g1 : tensor<5x2xf32> to tensor<*xf32>
  call @print(%p1) : (tensor<*xf32>) -> ()

  // Points of [[1, 2, 3], [4, 5, 6]] (i32) at (1, 2), (2, 0), (-1, -3),
  // (0, 5), (-3, 1), dynamic dims.
  %pdd = tensor.cast %pd : tensor<2x3xi32> to tensor<?x?xi32>
  %pid = tensor.cast %pi : tensor<5x2xi32> to tensor<?x2xi32>
  // skip: a tuple with one component out of range reads 0.
  // CHECK: [6,  0,  4,  0,  0]
  %g2 = nd.gather_nd %pdd[%pid] oob<skip> : tensor<?x?xi32>, tensor<?x2xi32> -> tensor<?xi32>
  %p2 = tensor.cast %g2 : tensor<?xi32> to tensor<*xi32>
  call @print_i32(%p2) : (tensor<*xi32>) -> ()
  // clamp: (1, 2), (1, 0), (1, 0), (0, 2), (0, 1).
  // CHECK: [6,  4,  4,  3,  2]
  %g3 = nd.gather_nd %pdd[%pid] oob<clamp> : tensor<?x?xi32>, tensor<?x2xi32> -> tensor<?xi32>
  %p3 = tensor.cast %g3 : tensor<?xi32> to tensor<*xi32>
  call @print_i32(%p3) : (tensor<*xi32>) -> ()

  // An empty indexed dim: every tuple is skipped, under clamp as well.
  %edd = tensor.cast %ed : tensor<0x2xf32> to tensor<?x2xf32>
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: {{\[\[}}0, 0],
  // CHECK-NEXT: [0, 0],
  // CHECK-NEXT: [0, 0]]
  %g4 = nd.gather_nd %edd[%ei] oob<clamp> : tensor<?x2xf32>, tensor<3x1xi64> -> tensor<3x2xf32>
  %p4 = tensor.cast %g4 : tensor<3x2xf32> to tensor<*xf32>
  call @print(%p4) : (tensor<*xf32>) -> ()

  //===--------------------------------------------------------------------===//
  // gather_elements
  //===--------------------------------------------------------------------===//
  // Axis 1 of [[1, 2, 3], [4, 5, 6]] with [[0, 3, -1], [-4, 2, -3]].
  // skip: 3 and -4 read 0.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}1, 0, 3],
  // CHECK-NEXT: [0, 6, 4]]
  %g5 = nd.gather_elements %ed2[%ei2] axis(1) oob<skip> : tensor<2x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %p5 = tensor.cast %g5 : tensor<2x3xf32> to tensor<*xf32>
  call @print(%p5) : (tensor<*xf32>) -> ()
  // clamp (dynamic dims): 3 -> 2, -4 -> 0.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}1, 3, 3],
  // CHECK-NEXT: [4, 6, 4]]
  %ed2d = tensor.cast %ed2 : tensor<2x3xf32> to tensor<?x?xf32>
  %ei2d = tensor.cast %ei2 : tensor<2x3xi64> to tensor<?x?xi64>
  %g6 = nd.gather_elements %ed2d[%ei2d] axis(1) oob<clamp> : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  %p6 = tensor.cast %g6 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%p6) : (tensor<*xf32>) -> ()
  // The same with the other shapes: skip dynamic, clamp static.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}1, 0, 3],
  // CHECK-NEXT: [0, 6, 4]]
  %g7 = nd.gather_elements %ed2d[%ei2d] axis(1) oob<skip> : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  %p7 = tensor.cast %g7 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%p7) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}1, 3, 3],
  // CHECK-NEXT: [4, 6, 4]]
  %g8 = nd.gather_elements %ed2[%ei2] axis(1) oob<clamp> : tensor<2x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %p8 = tensor.cast %g8 : tensor<2x3xf32> to tensor<*xf32>
  call @print(%p8) : (tensor<*xf32>) -> ()

  //===--------------------------------------------------------------------===//
  // scatter_nd
  //===--------------------------------------------------------------------===//
  // data [1, 2, 3, 4], indices 0, 5, -1, -7, 2, updates 10 .. 50.
  // skip: 5 and -7 are dropped.
  // CHECK: [10,  2,  50,  30]
  %s0 = nd.scatter_nd %sd[%si], %su oob<skip> : tensor<4xi32>, tensor<5x1xi64>, tensor<5xi32>
  %q0 = tensor.cast %s0 : tensor<4xi32> to tensor<*xi32>
  call @print_i32(%q0) : (tensor<*xi32>) -> ()
  // clamp: 5 -> 3, -7 -> 0; the last write wins.
  // CHECK: [40,  2,  50,  30]
  %s1 = nd.scatter_nd %sd[%si], %su oob<clamp> : tensor<4xi32>, tensor<5x1xi64>, tensor<5xi32>
  %q1 = tensor.cast %s1 : tensor<4xi32> to tensor<*xi32>
  call @print_i32(%q1) : (tensor<*xi32>) -> ()
  // skip, add: 1 + 10, 3 + 50, 4 + 30.
  // CHECK: [11,  2,  53,  34]
  %s2 = nd.scatter_nd %sd[%si], %su reduction<add> oob<skip> : tensor<4xi32>, tensor<5x1xi64>, tensor<5xi32>
  %q2 = tensor.cast %s2 : tensor<4xi32> to tensor<*xi32>
  call @print_i32(%q2) : (tensor<*xi32>) -> ()
  // clamp, add (dynamic): 1 + 10 + 40, 3 + 50, 4 + 20 + 30.
  // CHECK: [51,  2,  53,  54]
  %sdd = tensor.cast %sd : tensor<4xi32> to tensor<?xi32>
  %sid = tensor.cast %si : tensor<5x1xi64> to tensor<?x1xi64>
  %sud = tensor.cast %su : tensor<5xi32> to tensor<?xi32>
  %s3 = nd.scatter_nd %sdd[%sid], %sud reduction<add> oob<clamp> : tensor<?xi32>, tensor<?x1xi64>, tensor<?xi32>
  %q3 = tensor.cast %s3 : tensor<?xi32> to tensor<*xi32>
  call @print_i32(%q3) : (tensor<*xi32>) -> ()

  // Slices: rows 4, 1, -4 of [[1, 1], [2, 2], [3, 3]] (dynamic).
  %rdd = tensor.cast %rd : tensor<3x2xf32> to tensor<?x?xf32>
  %rud = tensor.cast %ru : tensor<3x2xf32> to tensor<?x?xf32>
  // skip: only row 1 is written, whole.
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: {{\[\[}}1, 1],
  // CHECK-NEXT: [8, 8],
  // CHECK-NEXT: [3, 3]]
  %s4 = nd.scatter_nd %rdd[%ri], %rud oob<skip> : tensor<?x?xf32>, tensor<3x1xi32>, tensor<?x?xf32>
  %q4 = tensor.cast %s4 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%q4) : (tensor<*xf32>) -> ()
  // clamp: 4 -> 2, -4 -> 0.
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: {{\[\[}}9, 9],
  // CHECK-NEXT: [8, 8],
  // CHECK-NEXT: [7, 7]]
  %s5 = nd.scatter_nd %rdd[%ri], %rud oob<clamp> : tensor<?x?xf32>, tensor<3x1xi32>, tensor<?x?xf32>
  %q5 = tensor.cast %s5 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%q5) : (tensor<*xf32>) -> ()
  // An empty indexed dim: nothing is written (no error under clamp).
  // CHECK: sizes = [0, 2]
  %s6 = nd.scatter_nd %edd[%ri], %ru0 oob<clamp> : tensor<?x2xf32>, tensor<3x1xi32>, tensor<3x2xf32>
  %q6 = tensor.cast %s6 : tensor<?x2xf32> to tensor<*xf32>
  call @print(%q6) : (tensor<*xf32>) -> ()

  //===--------------------------------------------------------------------===//
  // scatter_elements
  //===--------------------------------------------------------------------===//
  // Axis 1 of [[1, 2, 3], [4, 5, 6]], indices [[3, 0], [-4, -1]], updates
  // [[10, 20], [30, 40]].
  // skip: 3 and -4 are dropped.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}20, 2, 3],
  // CHECK-NEXT: [4, 5, 40]]
  %x0 = nd.scatter_elements %ed2[%xi], %xu axis(1) oob<skip> : tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>
  %r0 = tensor.cast %x0 : tensor<2x3xf32> to tensor<*xf32>
  call @print(%r0) : (tensor<*xf32>) -> ()
  // clamp (dynamic): 3 -> 2, -4 -> 0.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}20, 2, 10],
  // CHECK-NEXT: [30, 5, 40]]
  %xid = tensor.cast %xi : tensor<2x2xi64> to tensor<?x?xi64>
  %xud = tensor.cast %xu : tensor<2x2xf32> to tensor<?x?xf32>
  %x1 = nd.scatter_elements %ed2d[%xid], %xud axis(1) oob<clamp> : tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>
  %r1 = tensor.cast %x1 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%r1) : (tensor<*xf32>) -> ()
  // The same with the other shapes: skip dynamic, clamp static.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}20, 2, 3],
  // CHECK-NEXT: [4, 5, 40]]
  %x2 = nd.scatter_elements %ed2d[%xid], %xud axis(1) oob<skip> : tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>
  %r2 = tensor.cast %x2 : tensor<?x?xf32> to tensor<*xf32>
  call @print(%r2) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}20, 2, 10],
  // CHECK-NEXT: [30, 5, 40]]
  %x3 = nd.scatter_elements %ed2[%xi], %xu axis(1) oob<clamp> : tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>
  %r3 = tensor.cast %x3 : tensor<2x3xf32> to tensor<*xf32>
  call @print(%r3) : (tensor<*xf32>) -> ()

  // Rank 1: data [1, 2, 3, 4], indices [4, -5, 1, 1], updates [10, 20, 30,
  // 40], add.
  // skip: 4 and -5 are dropped: 2 + 30 + 40.
  // CHECK: [1,  72,  3,  4]
  %y0 = nd.scatter_elements %yd[%yi], %yu reduction<add> oob<skip> : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
  %t0 = tensor.cast %y0 : tensor<4xi32> to tensor<*xi32>
  call @print_i32(%t0) : (tensor<*xi32>) -> ()
  // clamp (dynamic): 4 -> 3, -5 -> 0.
  // CHECK: [21,  72,  3,  14]
  %ydd = tensor.cast %yd : tensor<4xi32> to tensor<?xi32>
  %yid = tensor.cast %yi : tensor<4xi32> to tensor<?xi32>
  %yud = tensor.cast %yu : tensor<4xi32> to tensor<?xi32>
  %y1 = nd.scatter_elements %ydd[%yid], %yud reduction<add> oob<clamp> : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
  %t1 = tensor.cast %y1 : tensor<?xi32> to tensor<*xi32>
  call @print_i32(%t1) : (tensor<*xi32>) -> ()
  // A static empty axis: every update is skipped, under clamp as well.
  // CHECK: sizes = [0, 2]
  // CHECK: sizes = [0, 2]
  %z0 = nd.scatter_elements %zd[%zi], %zu reduction<mean> oob<skip> : tensor<0x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %w0 = tensor.cast %z0 : tensor<0x2xf32> to tensor<*xf32>
  call @print(%w0) : (tensor<*xf32>) -> ()
  %z1 = nd.scatter_elements %zd[%zi], %zu oob<clamp> : tensor<0x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %w1 = tensor.cast %z1 : tensor<0x2xf32> to tensor<*xf32>
  call @print(%w1) : (tensor<*xf32>) -> ()
  return
}
