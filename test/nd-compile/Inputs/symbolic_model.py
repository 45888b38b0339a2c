"""Writes an ONNX model whose inputs share a symbolic dim: GatherElements
(axis 1) of data[N, 5] f32 with idx[N, 4] i64, giving out[N, 4]
(test/nd-compile/onnx-symbolic.test, python/tests)."""

import sys

import onnx
from onnx import TensorProto, helper


def build():
    node = helper.make_node("GatherElements", ["data", "idx"], ["out"],
                            axis=1, name="gather")
    graph = helper.make_graph(
        [node], "symbolic",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, ["N", 5]),
         helper.make_tensor_value_info("idx", TensorProto.INT64, ["N", 4])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["N", 4])])
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 13)])


if __name__ == "__main__":
    onnx.save(build(), sys.argv[1])
