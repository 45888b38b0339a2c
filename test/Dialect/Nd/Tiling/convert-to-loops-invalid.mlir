// RUN: nd-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// A mean (or use_init_val(false)) needs every update of an element at once:
// no scalar implementation.
func.func @mean(%data: memref<4xf32>, %indices: memref<3xi64>, %updates: memref<3xf32>) {
  // expected-error @below {{has no scalar implementation under 'mean' or 'use_init_val(false)': an element needs every update at once}}
  // expected-note @below {{attempted to apply to this op}}
  nd.scatter_elements %data[%indices], %updates reduction<mean> : memref<4xf32>, memref<3xi64>, memref<3xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to apply}}
    %loops = transform.structured.convert_to_loops %op : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// On tensors the op has no point-wise form (upstream refuses ops with
// results before asking).
func.func @on_tensors(%data: tensor<4xf32>, %indices: tensor<3xi64>) -> tensor<3xf32> {
  // expected-note @below {{attempted to apply to this op}}
  %0 = nd.gather %data[%indices] : tensor<4xf32>, tensor<3xi64> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to apply}}
    %loops = transform.structured.convert_to_loops %op : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
