// RUN: nd-row-model-test %s | FileCheck %s

// The row model of each op (NdRowAddressing.h): its entries, where each dim
// of data takes its coordinate, its shape constraints in the order the
// lowerings check them (those with a dynamic size marked "run time"), and
// with constant indices the data row of every entry. Rows worked out by hand
// from the spec examples named.

// ONNX ScatterND example 1: elements 4, 3, 1, 7 of data.
// CHECK-LABEL: nd.scatter_nd "onnx_scatter_nd_1"
// CHECK-NEXT:    entries: indices[0]
// CHECK-NEXT:    data: (index 0) row from dim 1
// CHECK-NEXT:    rows of updates, written
// CHECK-NEXT:    indices: (entry 0) (component)
// CHECK-NEXT:    index-depth: indices[1] == 1
// CHECK-NEXT:    entry-dim: updates[0] == indices[0]
// CHECK-NEXT:    rows of 1: 4 3 1 7
func.func @scatter_nd(%data: tensor<8xf32>, %updates: tensor<4xf32>) -> tensor<8xf32> {
  %indices = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi64>
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32> loc("onnx_scatter_nd_1")
  return %0 : tensor<8xf32>
}

// ONNX ScatterND example 2: 4x4 slices 0 and 2 of data.
// CHECK-LABEL: nd.scatter_nd "onnx_scatter_nd_2"
// CHECK-NEXT:    entries: indices[0]
// CHECK-NEXT:    data: (index 0) row from dim 1
// CHECK-NEXT:    rows of updates, written
// CHECK-NEXT:    indices: (entry 0) (component)
// CHECK-NEXT:    index-depth: indices[1] == 1
// CHECK-NEXT:    entry-dim: updates[0] == indices[0]
// CHECK-NEXT:    slice-dim: updates[1] == data[1]
// CHECK-NEXT:    slice-dim: updates[2] == data[2]
// CHECK-NEXT:    rows of 16: 0 2
func.func @scatter_nd_slices(%data: tensor<4x4x4xf32>, %updates: tensor<2x4x4xf32>) -> tensor<4x4x4xf32> {
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32> loc("onnx_scatter_nd_2")
  return %0 : tensor<4x4x4xf32>
}

// OpenVINO ScatterNDUpdate's one-element form: element (1, 0), row 2 of 1.
// CHECK-LABEL: nd.scatter_nd "openvino_one_element"
// CHECK-NEXT:    entries:{{$}}
// CHECK-NEXT:    data: (index 0) (index 1) row from dim 2
// CHECK-NEXT:    rows of updates, written
// CHECK-NEXT:    indices: (component)
// CHECK-NEXT:    index-depth: indices[0] == 2
// CHECK-NEXT:    rows of 1: 2
func.func @scatter_nd_one(%data: tensor<2x2xi32>, %updates: tensor<1x1xi32>) -> tensor<2x2xi32> {
  %indices = arith.constant dense<[1, 0]> : tensor<2xi64>
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<2x2xi32>, tensor<2xi64>, tensor<1x1xi32> loc("openvino_one_element")
  return %0 : tensor<2x2xi32>
}

// A dynamic index depth, which the ranks fix to 1: checked at run time, as
// are the entry dims.
// CHECK-LABEL: nd.scatter_nd "dynamic_depth"
// CHECK:         index-depth: indices[1] == 1 (run time)
// CHECK-NEXT:    entry-dim: updates[0] == indices[0] (run time)
// CHECK-NEXT:    slice-dim: updates[1] == data[1]{{$}}
// CHECK-NOT:     rows of
func.func @scatter_nd_dynamic(%data: tensor<4x3xf32>, %indices: tensor<?x?xi64>, %updates: tensor<?x3xf32>) -> tensor<4x3xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x3xf32>, tensor<?x?xi64>, tensor<?x3xf32> loc("dynamic_depth")
  return %0 : tensor<4x3xf32>
}

// ONNX GatherND example 5 (batch_dims 1): rows (0, 1) and (1, 0) of 2.
// CHECK-LABEL: nd.gather_nd "onnx_gather_nd_5"
// CHECK-NEXT:    entries: indices[0]
// CHECK-NEXT:    data: (entry 0) (index 0) row from dim 2
// CHECK-NEXT:    rows of result, read
// CHECK-NEXT:    indices: (entry 0) (component)
// CHECK-NEXT:    index-depth: indices[1] == 1
// CHECK-NEXT:    batch-dim: indices[0] == data[0]
// CHECK-NEXT:    result-dim: indices[0] == result[0]
// CHECK-NEXT:    result-dim: data[2] == result[1]
// CHECK-NEXT:    rows of 2: 1 2
func.func @gather_nd(%data: tensor<2x2x2xi32>) -> tensor<2x2xi32> {
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %0 = nd.gather_nd %data[%indices] batch_dims(1) : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32> loc("onnx_gather_nd_5")
  return %0 : tensor<2x2xi32>
}

// ONNX Gather, axis 1: columns 0 and 2 of each of the 3 rows.
// CHECK-LABEL: nd.gather "onnx_gather_axis_1"
// CHECK-NEXT:    entries: data[0] indices[0] indices[1]
// CHECK-NEXT:    data: (entry 0) (index 0) row from dim 2
// CHECK-NEXT:    rows of result, read
// CHECK-NEXT:    indices: (entry 1) (entry 2)
// CHECK-NEXT:    result-dim: data[0] == result[0]
// CHECK-NEXT:    result-dim: indices[0] == result[1]
// CHECK-NEXT:    result-dim: indices[1] == result[2]
// CHECK-NEXT:    rows of 1: 0 2 3 5 6 8
func.func @gather(%data: tensor<3x3xf32>) -> tensor<3x1x2xf32> {
  %indices = arith.constant dense<[[0, 2]]> : tensor<1x2xi64>
  %0 = nd.gather %data[%indices] axis(1) : tensor<3x3xf32>, tensor<1x2xi64> -> tensor<3x1x2xf32> loc("onnx_gather_axis_1")
  return %0 : tensor<3x1x2xf32>
}

// OpenVINO Gather-8 example 7: indices 3, 10, -20 into 5 elements under
// skip: element 3, then two zeros.
// CHECK-LABEL: nd.gather "openvino_gather_8_7"
// CHECK-NEXT:    entries: indices[0]
// CHECK-NEXT:    data: (index 0) row from dim 1
// CHECK-NEXT:    rows of result, read
// CHECK-NEXT:    indices: (entry 0)
// CHECK-NEXT:    result-dim: indices[0] == result[0]
// CHECK-NEXT:    rows of 1: 3 bad bad
func.func @gather_skip(%data: tensor<5xi32>) -> tensor<3xi32> {
  %indices = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %0 = nd.gather %data[%indices] oob<skip> : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32> loc("openvino_gather_8_7")
  return %0 : tensor<3xi32>
}

// A batched gather (axis 1, batch_dims 1): batch 0 reads elements 0, 4 and
// 4 (-1) of its row, batch 1 elements 1, 2, 3 of its row (rows 5 apart).
// CHECK-LABEL: nd.gather "batched"
// CHECK-NEXT:    entries: data[0] indices[1]
// CHECK-NEXT:    data: (entry 0) (index 0) row from dim 2
// CHECK-NEXT:    rows of result, read
// CHECK-NEXT:    indices: (entry 0) (entry 1)
// CHECK-NEXT:    batch-dim: indices[0] == data[0]
// CHECK-NEXT:    result-dim: data[0] == result[0]
// CHECK-NEXT:    result-dim: indices[1] == result[1]
// CHECK-NEXT:    rows of 1: 0 4 4 6 7 8
func.func @gather_batched(%data: tensor<2x5xi32>) -> tensor<2x3xi32> {
  %indices = arith.constant dense<[[0, 4, -1], [1, 2, 3]]> : tensor<2x3xi32>
  %0 = nd.gather %data[%indices] axis(1) batch_dims(1) : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3xi32> loc("batched")
  return %0 : tensor<2x3xi32>
}

// ONNX GatherElements test_gather_elements_0 (axis 1): elements (0, 0),
// (0, 0), (1, 1), (1, 0) of a 2x2 data.
// CHECK-LABEL: nd.gather_elements "onnx_gather_elements_0"
// CHECK-NEXT:    entries: indices[0] indices[1]
// CHECK-NEXT:    data: (entry 0) (index 0) row from dim 2
// CHECK-NEXT:    rows of result, read
// CHECK-NEXT:    indices: (entry 0) (entry 1)
// CHECK-NEXT:    within-data: indices[0] <= data[0]
// CHECK-NEXT:    result-dim: indices[0] == result[0]
// CHECK-NEXT:    result-dim: indices[1] == result[1]
// CHECK-NEXT:    rows of 1: 0 0 3 2
func.func @gather_elements(%data: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %indices = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %0 = nd.gather_elements %data[%indices] axis(1) : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32> loc("onnx_gather_elements_0")
  return %0 : tensor<2x2xf32>
}

// On buffers a gather's rows go to `into`.
// CHECK-LABEL: nd.gather_elements "on_buffers"
// CHECK:         rows of into, read
// CHECK:         result-dim: indices[1] == result[1] (run time)
func.func @gather_elements_buffers(%data: memref<2x2xf32>, %indices: memref<2x2xi64>, %into: memref<2x?xf32>) {
  nd.gather_elements %data[%indices] into %into axis(1) : memref<2x2xf32>, memref<2x2xi64> into memref<2x?xf32> loc("on_buffers")
  return
}

// ONNX ScatterElements example 1 (axis 0): elements (1, 0), (0, 1), (2, 2),
// (0, 0), (2, 1), (1, 2) of a 3x3 data.
// CHECK-LABEL: nd.scatter_elements "onnx_scatter_elements_1"
// CHECK-NEXT:    entries: indices[0] indices[1]
// CHECK-NEXT:    data: (index 0) (entry 1) row from dim 2
// CHECK-NEXT:    rows of updates, written
// CHECK-NEXT:    indices: (entry 0) (entry 1)
// CHECK-NEXT:    entry-dim: updates[0] == indices[0]
// CHECK-NEXT:    entry-dim: updates[1] == indices[1]
// CHECK-NEXT:    within-data: indices[1] <= data[1]
// CHECK-NEXT:    rows of 1: 3 1 8 0 7 5
func.func @scatter_elements(%data: tensor<3x3xf32>, %updates: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %indices = arith.constant dense<[[1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
  %0 = nd.scatter_elements %data[%indices], %updates : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32> loc("onnx_scatter_elements_1")
  return %0 : tensor<3x3xf32>
}

// Dynamic dims: the checks a lowering emits.
// CHECK-LABEL: nd.scatter_elements "dynamic_dims"
// CHECK:         entry-dim: updates[0] == indices[0]{{$}}
// CHECK-NEXT:    entry-dim: updates[1] == indices[1] (run time)
// CHECK-NEXT:    within-data: indices[0] <= data[0] (run time)
// CHECK-NOT:     rows of
func.func @scatter_elements_dynamic(%data: tensor<?x4xf32>, %indices: tensor<2x?xi64>, %updates: tensor<2x?xf32>) -> tensor<?x4xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<?x4xf32>, tensor<2x?xi64>, tensor<2x?xf32> loc("dynamic_dims")
  return %0 : tensor<?x4xf32>
}

// ONNX test_tensorscatter_circular: batch entry 0 writes positions 1 and 2
// of its 4, batch entry 1 starts at 3 and wraps to 0 (rows 4 apart).
// CHECK-LABEL: nd.tensor_scatter "onnx_tensorscatter_circular"
// CHECK-NEXT:    entries: past_cache[0] past_cache[1] update[2]
// CHECK-NEXT:    past_cache: (entry 0) (entry 1) (sequence (write index + entry 2)) row from dim 3
// CHECK-NEXT:    rows of update, written
// CHECK-NEXT:    write_indices: (entry 0)
// CHECK-NEXT:    cache-dim: update[0] == past_cache[0]
// CHECK-NEXT:    cache-dim: update[1] == past_cache[1]
// CHECK-NEXT:    sequence-length: update[2] <= past_cache[2]
// CHECK-NEXT:    cache-dim: update[3] == past_cache[3]
// CHECK-NEXT:    batch-size: write_indices[0] == past_cache[0]
// CHECK-NEXT:    rows of 5: 1 2 7 4
func.func @tensor_scatter(%past: tensor<2x1x4x5xf32>, %update: tensor<2x1x2x5xf32>) -> tensor<2x1x4x5xf32> {
  %w = arith.constant dense<[1, 3]> : tensor<2xi64>
  %0 = nd.tensor_scatter %past[%w], %update mode<circular> : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x2x5xf32> loc("onnx_tensorscatter_circular")
  return %0 : tensor<2x1x4x5xf32>
}

// Linear under skip: batch entry 0's write index 3 leaves no room for 2
// rows in 4 (the last start is 2), so it writes nothing.
// CHECK-LABEL: nd.tensor_scatter "linear_skip"
// CHECK:         rows of 5: bad bad 4 5
func.func @tensor_scatter_skip(%past: tensor<2x1x4x5xf32>, %update: tensor<2x1x2x5xf32>) -> tensor<2x1x4x5xf32> {
  %w = arith.constant dense<[3, 0]> : tensor<2xi64>
  %0 = nd.tensor_scatter %past[%w], %update oob<skip> : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x2x5xf32> loc("linear_skip")
  return %0 : tensor<2x1x4x5xf32>
}

// Without write indices every write starts at 0.
// CHECK-LABEL: nd.tensor_scatter "prefill"
// CHECK-NEXT:    entries: past_cache[0] update[1]
// CHECK-NEXT:    past_cache: (entry 0) (sequence (write index + entry 1)) row from dim 2
// CHECK-NEXT:    rows of update, written
// CHECK-NEXT:    cache-dim: update[0] == past_cache[0]
// CHECK-NEXT:    sequence-length: update[1] <= past_cache[1]
// CHECK-NEXT:    cache-dim: update[2] == past_cache[2]
// CHECK-NEXT:    rows of 16: 0 1 2
func.func @tensor_scatter_prefill(%past: tensor<1x8x16xf16>, %prompt: tensor<1x3x16xf16>) -> tensor<1x8x16xf16> {
  %0 = nd.tensor_scatter %past, %prompt axis(1) : tensor<1x8x16xf16>, tensor<1x3x16xf16> loc("prefill")
  return %0 : tensor<1x8x16xf16>
}
