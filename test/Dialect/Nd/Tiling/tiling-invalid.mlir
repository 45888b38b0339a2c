// RUN: nd-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// Tilings nd refuses, each with the reason.

func.func @ordered_entries_in_parallel(%data: tensor<100x64xf32>, %idx: tensor<32x1xi64>, %upd: tensor<32x64xf32>) -> tensor<100x64xf32> {
  // expected-warning @below {{tiling is not thread safe at axis #0}}
  // expected-error @below {{'nd.scatter_nd' op cannot be tiled as asked: loop 0 (dim 0 of 'indices') holds the update entries, which apply in row-major order: tile it with sequential loops (scf.for), not in parallel}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  // expected-note @below {{when applied to this op}}
  %0 = nd.scatter_nd %data[%idx], %upd reduction<add> : tensor<100x64xf32>, tensor<32x1xi64>, tensor<32x64xf32>
  return %0 : tensor<100x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.tile_using_forall failed to apply}}
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Entries that provably never collide (distinct constant tuples) still
// cannot be tiled in parallel: every tile takes the whole data.
func.func @distinct_entries_in_parallel(%data: tensor<8xf32>, %upd: tensor<4xf32>) -> tensor<8xf32> {
  %idx = arith.constant dense<[[4], [3], [-1], [1]]> : tensor<4x1xi64>
  // expected-error @below {{'nd.scatter_nd' op cannot be tiled as asked: loop 0 (dim 0 of 'indices') holds the update entries: each tile of them takes the whole destination, so tiles of the entries cannot run in parallel, even where they never collide (tile them with sequential loops, scf.for)}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  // expected-note @below {{when applied to this op}}
  %0 = nd.scatter_nd %data[%idx], %upd : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.tile_using_forall failed to apply}}
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @sequence(%past: tensor<2x4x16x8xf16>, %w: tensor<2xi64>, %upd: tensor<2x4x3x8xf16>) -> tensor<2x4x16x8xf16> {
  // expected-error @below {{'nd.tensor_scatter' op cannot be tiled as asked: loop 2 (dim 2 of 'update') cannot be tiled: its positions start at each batch entry's 'write_indices'}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  %0 = nd.tensor_scatter %past[%w], %upd : tensor<2x4x16x8xf16>[tensor<2xi64>], tensor<2x4x3x8xf16>
  return %0 : tensor<2x4x16x8xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.tensor_scatter"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:1 = transform.structured.tile_using_for %op tile_sizes [0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @mean_entries(%data: tensor<10xf32>, %idx: tensor<6xi64>, %upd: tensor<6xf32>) -> tensor<10xf32> {
  // expected-error @below {{'nd.scatter_elements' op cannot be tiled as asked: loop 0 (dim 0 of 'indices') cannot be tiled: a mean or a first-update reduction (use_init_val(false)) needs every update of an element at once}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  %0 = nd.scatter_elements %data[%idx], %upd reduction<mean> : tensor<10xf32>, tensor<6xi64>, tensor<6xf32>
  return %0 : tensor<10xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:1 = transform.structured.tile_using_for %op tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @one_element_updates(%data: tensor<4x4xi32>, %idx: tensor<2xi64>, %upd: tensor<1x1xi32>) -> tensor<4x4xi32> {
  // expected-error @below {{'nd.scatter_nd' op cannot be tiled as asked: loop 0 (dim 0 of 'updates') cannot be tiled: it is a dim of one-element updates}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  %0 = nd.scatter_nd %data[%idx], %upd : tensor<4x4xi32>, tensor<2xi64>, tensor<1x1xi32>
  return %0 : tensor<4x4xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:1 = transform.structured.tile_using_for %op tile_sizes [1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The same distinct constant entries on buffers (the indices a constant
// global): refused as well, as ordered entries (nothing but a tensor's
// constant shows that entries never collide).
memref.global "private" constant @distinct : memref<4x1xi64> = dense<[[4], [3], [-1], [1]]>
func.func @distinct_entries_on_buffers(%data: memref<8xf32>, %upd: memref<4xf32>) {
  %idx = memref.get_global @distinct : memref<4x1xi64>
  // expected-warning @below {{tiling is not thread safe at axis #0}}
  // expected-error @below {{'nd.scatter_nd' op cannot be tiled as asked: loop 0 (dim 0 of 'indices') holds the update entries, which apply in row-major order: tile it with sequential loops (scf.for), not in parallel}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  // expected-note @below {{when applied to this op}}
  nd.scatter_nd %data[%idx], %upd : memref<8xf32>, memref<4x1xi64>, memref<4xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.tile_using_forall failed to apply}}
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An op with a static dim of size 0 has no tiles: upstream's slices of the
// dim would not verify ("offset 1 is out-of-bounds: 0 >= 0"), and the index
// values, which the untiled op checks, would go unchecked.
func.func @zero_size_dim(%d: tensor<3x0xf32>, %i: tensor<2xi64>) -> tensor<3x2xf32> {
  // expected-error @below {{'nd.gather' op cannot be tiled as asked: 'data' has no elements (dim 1 has size 0): there is nothing to tile, and tiles that never run would leave the index values unchecked}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  %r = nd.gather %d[%i] axis(1) : tensor<3x0xf32>, tensor<2xi64> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An empty result whose loop of tiles would have no trips: the tiled
// program would never check index -2 against dim 1 of 'data' (of size 0 at
// run time), which the untiled op reports
// (test/nd-run/empty-result-gather.test runs it untiled).
func.func @empty_result(%d: tensor<0x?xui8>, %i: tensor<2xi64>) -> tensor<0x2xui8> {
  // expected-error @below {{'nd.gather' op cannot be tiled as asked: 'data' has no elements (dim 0 has size 0)}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  %r = nd.gather %d[%i] axis(1) : tensor<0x?xui8>, tensor<2xi64> -> tensor<0x2xui8>
  return %r : tensor<0x2xui8>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Fusion into a consumer refuses the tile too, in the same words (a gather
// along an empty axis under skip: a result of zeros); upstream's fusion then
// clones the whole op into the loop instead.
func.func @zero_size_fused(%d: tensor<0x5xf32>, %i: tensor<6xi64>) -> tensor<6x5xf32> {
  // expected-error @below {{'nd.gather' op cannot be tiled as asked: 'data' has no elements (dim 0 has size 0)}}
  %g = nd.gather %d[%i] oob<skip> : tensor<0x5xf32>, tensor<6xi64> -> tensor<6x5xf32>
  %e = tensor.empty() : tensor<6x5xf32>
  %n = linalg.negf ins(%g : tensor<6x5xf32>) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %n : tensor<6x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %n = transform.structured.match ops{["linalg.negf"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %n tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %g into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A gather whose result type is less static than its operands give (dim 0,
// 3 in 'indices'): MLIR 22's tiling yields its loops' results in a
// destination built from the operands' sizes, of another type than the
// result; nd refuses rather than leave a return of the wrong type.
func.func @less_static_result(%d: tensor<3x3x?xi32>, %i: tensor<3x?x?xi64>) -> tensor<?x3xi32> {
  // expected-error @below {{'nd.gather_nd' op cannot be tiled as asked: its result type leaves dim 0 dynamic where dim 0 of 'indices' gives 3: the loops of tiles would yield a result of another type (MLIR 22 builds their destination from the operands' sizes); make the result type as static as the operands, or fuse the op into a tiled consumer}}
  // expected-error @below {{failed to generate tiling loops}}
  %r = nd.gather_nd %d[%i] batch_dims(2) : tensor<3x3x?xi32>, tensor<3x?x?xi64> -> tensor<?x3xi32>
  return %r : tensor<?x3xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
