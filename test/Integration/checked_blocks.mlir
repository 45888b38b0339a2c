// Scatters into a fresh result check their indices a block of entries at a
// time (512 entries, then the block's updates while its indices are in
// cache); index tuples are checked 8 entries at a time, the entries of a
// block past the last full step one by one. These programs have more than one block: the results are those of
// the serial order, and a bad index in any block stops the program before
// anything is printed with the message of the first bad index in row-major
// order, whichever block holds it and however the work is split.
//
// RUN: nd-opt %s --nd-to-llvm | env OMP_NUM_THREADS=1 mlir-runner -e valid -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 mlir-runner -e valid -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm | env OMP_NUM_THREADS=1 not mlir-runner -e nd_later_block -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.nd1.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ND-LATER < %t.nd1.err
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 not mlir-runner -e nd_later_block -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.nd3.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ND-LATER < %t.nd3.err
// RUN: nd-opt %s --nd-to-llvm | env OMP_NUM_THREADS=1 not mlir-runner -e nd_two_blocks -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.two.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ND-TWO < %t.two.err
// RUN: nd-opt %s --nd-to-llvm | env OMP_NUM_THREADS=1 not mlir-runner -e elements_later_block -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.el1.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=EL-LATER < %t.el1.err
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 not mlir-runner -e elements_later_block -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.el3.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=EL-LATER < %t.el3.err
// RUN: nd-opt %s --nd-to-llvm | env OMP_NUM_THREADS=1 not mlir-runner -e tuples_last_tail -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.tail1.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=TAIL < %t.tail1.err
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 not mlir-runner -e tuples_last_tail -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.tail3.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=TAIL < %t.tail3.err
// RUN: nd-opt %s --nd-to-llvm | env OMP_NUM_THREADS=1 not mlir-runner -e tuples_two_blocks -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.tuples1.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=TUPLES < %t.tuples1.err
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 not mlir-runner -e tuples_two_blocks -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.tuples3.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=TUPLES < %t.tuples3.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e elements_empty_at_run_time -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.empty.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=EMPTY < %t.empty.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// 1500 index values of 5 with `values` set at the rows `where`.
func.func @indices_1500(%where: tensor<2x1xi64>, %values: tensor<2x1xi64>) -> tensor<1500x1xi64> {
  %base = arith.constant dense<5> : tensor<1500x1xi64>
  %i = nd.scatter_nd %base[%where], %values : tensor<1500x1xi64>, tensor<2x1xi64>, tensor<2x1xi64>
  return %i : tensor<1500x1xi64>
}

// 1500 index tuples (1, 1) with `values` set at the components `where`.
func.func @tuples_1500(%where: tensor<2x2xi64>, %values: tensor<2xi64>) -> tensor<1500x2xi64> {
  %base = arith.constant dense<1> : tensor<1500x2xi64>
  %i = nd.scatter_nd %base[%where], %values : tensor<1500x2xi64>, tensor<2x2xi64>, tensor<2xi64>
  return %i : tensor<1500x2xi64>
}

// [4, 600] index values of 1 with `values` set at the positions `where`.
func.func @indices_4x600(%where: tensor<2x2xi64>, %values: tensor<2xi64>) -> tensor<4x600xi64> {
  %base = arith.constant dense<1> : tensor<4x600xi64>
  %i = nd.scatter_nd %base[%where], %values : tensor<4x600xi64>, tensor<2x2xi64>, tensor<2xi64>
  return %i : tensor<4x600xi64>
}

// Histogram of 1500 entries (three blocks) into 8 bins: 1498 in bin 5, one
// each in bins 7 (entry 513, second block) and 0 (entry 1499, written as -8,
// the last entry of the third block).
// numpy: i = np.full(1500, 5); i[513] = 7; i[1499] = -8; np.bincount(i % 8, minlength=8)
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 0, 0, 0, 0, 1498, 0, 1]
// The same rows through scatter_elements (fibers of 600 along axis 1,
// blocks [0, 512) and [512, 600) of each row): every element of row r of
// the result is 2 + r except element 1, which takes the 600 updates of its
// row under add (600 * (r + 1)); element [2, 599] is set by the update at
// [2, 550] (index 599) and element [3, 0] by the update at [3, 10] (index
// -600).
// numpy: d = np.tile((2. + np.arange(4))[:, None], 600); i = np.ones((4, 600), int); i[2, 550] = 599; i[3, 10] = -600
//        u = np.tile((1. + np.arange(4))[:, None], 600); np.add.at(d, (np.arange(4)[:, None], i % 600), u); d[:, [0, 1, 2, 599]]
// Tuples: 1500 entries (1, 1) but entry 3, (2, 1), and entry 1499, (1, -1),
// the last entry, past the last full step of 8 in its block.
// numpy: d = np.zeros((4, 3)); t = np.ones((1500, 2), int); t[3, 0] = 2; t[1499, 1] = -1
//        np.add.at(d, (t[:, 0], t[:, 1]), 1); d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0, 0, 0],
// CHECK-NEXT: [0, 1498, 1],
// CHECK-NEXT: [0, 1, 0],
// CHECK-NEXT: [0, 0, 0]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}2, 602, 2, 2],
// CHECK-NEXT: [3, 1203, 3, 3],
// CHECK-NEXT: [4, 1801, 4, 7],
// CHECK-NEXT: [9, 2401, 5, 5]]
func.func @valid() {
  %data = arith.constant dense<0.0> : tensor<8xf32>
  %where = arith.constant dense<[[513], [1499]]> : tensor<2x1xi64>
  %values = arith.constant dense<[[7], [-8]]> : tensor<2x1xi64>
  %indices = call @indices_1500(%where, %values) : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<1500x1xi64>
  %updates = arith.constant dense<1.0> : tensor<1500xf32>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<8xf32>, tensor<1500x1xi64>, tensor<1500xf32>
  %c = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()

  %tdata = arith.constant dense<0.0> : tensor<4x3xf32>
  %twhere = arith.constant dense<[[3, 0], [1499, 1]]> : tensor<2x2xi64>
  %tvalues = arith.constant dense<[2, -1]> : tensor<2xi64>
  %tuples = call @tuples_1500(%twhere, %tvalues) : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<1500x2xi64>
  %tupdates = arith.constant dense<1.0> : tensor<1500xf32>
  %tr = nd.scatter_nd %tdata[%tuples], %tupdates reduction<add> : tensor<4x3xf32>, tensor<1500x2xi64>, tensor<1500xf32>
  %tc = tensor.cast %tr : tensor<4x3xf32> to tensor<*xf32>
  call @print(%tc) : (tensor<*xf32>) -> ()

  %rows = arith.constant dense<[[2.0], [3.0], [4.0], [5.0]]> : tensor<4x1xf32>
  %zeros = arith.constant dense<0> : tensor<4x600xi64>
  %d2 = nd.gather_elements %rows[%zeros] axis(1) : tensor<4x1xf32>, tensor<4x600xi64> -> tensor<4x600xf32>
  %ewhere = arith.constant dense<[[2, 550], [3, 10]]> : tensor<2x2xi64>
  %evalues = arith.constant dense<[599, -600]> : tensor<2xi64>
  %eindices = call @indices_4x600(%ewhere, %evalues) : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<4x600xi64>
  %urows = arith.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %u2 = nd.gather_elements %urows[%zeros] axis(1) : tensor<4x1xf32>, tensor<4x600xi64> -> tensor<4x600xf32>
  %r2 = nd.scatter_elements %d2[%eindices], %u2 axis(1) reduction<add> : tensor<4x600xf32>, tensor<4x600xi64>, tensor<4x600xf32>
  %cols = arith.constant dense<[[0, 1, 2, 599], [0, 1, 2, 599], [0, 1, 2, 599], [0, 1, 2, 599]]> : tensor<4x4xi64>
  %picked = nd.gather_elements %r2[%cols] axis(1) : tensor<4x600xf32>, tensor<4x4xi64> -> tensor<4x4xf32>
  %c2 = tensor.cast %picked : tensor<4x4xf32> to tensor<*xf32>
  call @print(%c2) : (tensor<*xf32>) -> ()
  return
}

// One bad index, in the second block (entry 700).
func.func @nd_later_block() {
  %data = arith.constant dense<0.0> : tensor<8xf32>
  %where = arith.constant dense<[[700], [0]]> : tensor<2x1xi64>
  %values = arith.constant dense<[[8], [5]]> : tensor<2x1xi64>
  %indices = call @indices_1500(%where, %values) : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<1500x1xi64>
  %updates = arith.constant dense<1.0> : tensor<1500xf32>
  // ND-LATER: error: {{.*}}checked_blocks.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index 8 in operand 'indices' is out of range for dim 0 of operand 'data' (size 8)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<8xf32>, tensor<1500x1xi64>, tensor<1500xf32>
  %c = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// Bad indices in the third block (entry 1100) and the first (entry 300):
// the report names the first in row-major order.
func.func @nd_two_blocks() {
  %data = arith.constant dense<0.0> : tensor<8xf32>
  %where = arith.constant dense<[[1100], [300]]> : tensor<2x1xi64>
  %values = arith.constant dense<[[-70], [64]]> : tensor<2x1xi64>
  %indices = call @indices_1500(%where, %values) : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<1500x1xi64>
  %updates = arith.constant dense<1.0> : tensor<1500xf32>
  // ND-TWO: error: {{.*}}checked_blocks.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index 64 in operand 'indices' is out of range for dim 0 of operand 'data' (size 8)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<1500x1xi64>, tensor<1500xf32>
  %c = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// Tuples: one bad component, in the last entry (past the last full step).
func.func @tuples_last_tail() {
  %data = arith.constant dense<0.0> : tensor<4x3xf32>
  %where = arith.constant dense<[[1499, 1], [0, 0]]> : tensor<2x2xi64>
  %values = arith.constant dense<[3, 1]> : tensor<2xi64>
  %indices = call @tuples_1500(%where, %values) : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<1500x2xi64>
  %updates = arith.constant dense<1.0> : tensor<1500xf32>
  // TAIL: error: {{.*}}checked_blocks.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index 3 in operand 'indices' is out of range for dim 1 of operand 'data' (size 3)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4x3xf32>, tensor<1500x2xi64>, tensor<1500xf32>
  %c = tensor.cast %r : tensor<4x3xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// Tuples: bad components in entries 1400 (component 1) and 520
// (component 0): the report names entry 520's.
func.func @tuples_two_blocks() {
  %data = arith.constant dense<0.0> : tensor<4x3xf32>
  %where = arith.constant dense<[[1400, 1], [520, 0]]> : tensor<2x2xi64>
  %values = arith.constant dense<[7, -5]> : tensor<2xi64>
  %indices = call @tuples_1500(%where, %values) : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<1500x2xi64>
  %updates = arith.constant dense<1.0> : tensor<1500xf32>
  // TUPLES: error: {{.*}}checked_blocks.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index -5 in operand 'indices' is out of range for dim 0 of operand 'data' (size 4)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<4x3xf32>, tensor<1500x2xi64>, tensor<1500xf32>
  %c = tensor.cast %r : tensor<4x3xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// Bad values in the second block of row 3 ([3, 520]) and the first block of
// row 2 ([2, 10]): the report names [2, 10]'s.
func.func @elements_later_block() {
  %data = arith.constant dense<0.0> : tensor<4x600xf32>
  %where = arith.constant dense<[[3, 520], [2, 10]]> : tensor<2x2xi64>
  %values = arith.constant dense<[600, -601]> : tensor<2xi64>
  %indices = call @indices_4x600(%where, %values) : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<4x600xi64>
  %updates = arith.constant dense<1.0> : tensor<4x600xf32>
  // EL-LATER: error: {{.*}}checked_blocks.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: index -601 in operand 'indices' is out of range for dim 1 of operand 'data' (size 600)
  %r = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<4x600xf32>, tensor<4x600xi64>, tensor<4x600xf32>
  %c = tensor.cast %r : tensor<4x600xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// A destination that is empty only at run time (axis 0 of size 0) has no
// fibers to check its indices: they are checked on their own, and every one
// is out of range.
func.func @elements_empty_at_run_time() {
  %static = arith.constant dense<> : tensor<0x2xf32>
  %data = call @dynamic_rows(%static) : (tensor<0x2xf32>) -> tensor<?x2xf32>
  %indices = arith.constant dense<[[0, 0]]> : tensor<1x2xi64>
  %updates = arith.constant dense<1.0> : tensor<1x2xf32>
  // EMPTY: error: {{.*}}checked_blocks.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: index 0 in operand 'indices' is out of range for dim 0 of operand 'data' (size 0)
  %r = nd.scatter_elements %data[%indices], %updates : tensor<?x2xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %c = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

func.func @dynamic_rows(%t: tensor<0x2xf32>) -> tensor<?x2xf32> {
  %d = tensor.cast %t : tensor<0x2xf32> to tensor<?x2xf32>
  return %d : tensor<?x2xf32>
}
