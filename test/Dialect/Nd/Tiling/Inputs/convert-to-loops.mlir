// The transform script of convert-to-loops*.mlir: every nd op on buffers to
// loops around its scalar implementation.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{TilingInterface} in %root : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.convert_to_loops %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
