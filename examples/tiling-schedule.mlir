// The transform schedule of examples/tiling.mlir: upstream's transforms,
// which reach nd's ops through their TilingInterface.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // Tiles of 2x2 of the linalg.add, each computing the gather's tile it
    // reads: nd.gather on a slice of ids.
    %add = transform.structured.match ops{["linalg.add"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.fuse %add tile_sizes [2, 2]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // The scatter's entries, two at a time in a sequential loop: entries
    // are applied in order, so the result is the untiled one, bit for bit.
    %scatter = transform.structured.match ops{["nd.scatter_nd"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tile, %entries = transform.structured.tile_using_for %scatter tile_sizes [2, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
