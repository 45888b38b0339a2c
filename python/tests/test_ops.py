"""Every op of nd, compiled from MLIR text and from ONNX models, called with
numpy arrays; expected values from test/Reference/nd_reference.py (the
specifications, loop by loop) and ONNX's own test data."""

import os

import numpy as np
import pytest

from conftest import ONNX_NODE_TESTS, onnx_or_skip, reference


def _module(signature, body):
    return f"func.func @main({signature}) {body}\n"


# (name, MLIR text, inputs(rng), expected(inputs))
CASES = [
    ("scatter_nd_add",
     """func.func @main(%d: tensor<4x4x4xf32>, %i: tensor<3x1xi64>,
                        %u: tensor<3x4x4xf32>) -> tensor<4x4x4xf32> {
       %r = nd.scatter_nd %d[%i], %u reduction<add>
           : tensor<4x4x4xf32>, tensor<3x1xi64>, tensor<3x4x4xf32>
       return %r : tensor<4x4x4xf32>
     }""",
     lambda rng: [rng.standard_normal((4, 4, 4)).astype(np.float32),
                  np.array([[0], [2], [0]], np.int64),
                  rng.standard_normal((3, 4, 4)).astype(np.float32)],
     lambda d, i, u: reference.scatter_nd(d, i, u, reduction="add")),
    ("gather_nd_batch_dims",
     """func.func @main(%d: tensor<2x3x4xi32>, %i: tensor<2x2x1xi64>)
           -> tensor<2x2x4xi32> {
       %r = nd.gather_nd %d[%i] batch_dims(1)
           : tensor<2x3x4xi32>, tensor<2x2x1xi64> -> tensor<2x2x4xi32>
       return %r : tensor<2x2x4xi32>
     }""",
     lambda rng: [rng.integers(-100, 100, (2, 3, 4)).astype(np.int32),
                  np.array([[[2], [0]], [[1], [-1]]], np.int64)],
     lambda d, i: reference.gather_nd(d, i, batch_dims=1)),
    ("scatter_elements_max",
     """func.func @main(%d: tensor<3x5xf64>, %i: tensor<3x2xi32>,
                        %u: tensor<3x2xf64>) -> tensor<3x5xf64> {
       %r = nd.scatter_elements %d[%i], %u axis(1) reduction<max>
           : tensor<3x5xf64>, tensor<3x2xi32>, tensor<3x2xf64>
       return %r : tensor<3x5xf64>
     }""",
     lambda rng: [rng.standard_normal((3, 5)),
                  np.array([[1, 1], [4, -1], [0, 2]], np.int32),
                  rng.standard_normal((3, 2))],
     lambda d, i, u: reference.scatter_elements(d, i, u, axis=1,
                                                reduction="max")),
    ("gather_elements",
     """func.func @main(%d: tensor<3x4xf32>, %i: tensor<5x4xi64>)
           -> tensor<5x4xf32> {
       %r = nd.gather_elements %d[%i]
           : tensor<3x4xf32>, tensor<5x4xi64> -> tensor<5x4xf32>
       return %r : tensor<5x4xf32>
     }""",
     lambda rng: [rng.standard_normal((3, 4)).astype(np.float32),
                  rng.integers(-3, 3, (5, 4)).astype(np.int64)],
     lambda d, i: reference.gather_elements(d, i, axis=0)),
    ("gather_axis1",
     """func.func @main(%d: tensor<3x3xf32>, %i: tensor<1x2xi32>)
           -> tensor<3x1x2xf32> {
       %r = nd.gather %d[%i] axis(1)
           : tensor<3x3xf32>, tensor<1x2xi32> -> tensor<3x1x2xf32>
       return %r : tensor<3x1x2xf32>
     }""",
     lambda rng: [np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9],
                            [4.5, 5.7, 5.9]], np.float32),
                  np.array([[0, -1]], np.int32)],
     lambda d, i: reference.gather(d, i, axis=1)),
    ("tensor_scatter_circular",
     """func.func @main(%p: tensor<2x1x4x2xf32>, %u: tensor<2x1x2x2xf32>,
                        %w: tensor<2xi64>) -> tensor<2x1x4x2xf32> {
       %r = nd.tensor_scatter %p[%w], %u mode<circular>
           : tensor<2x1x4x2xf32>[tensor<2xi64>], tensor<2x1x2x2xf32>
       return %r : tensor<2x1x4x2xf32>
     }""",
     lambda rng: [np.zeros((2, 1, 4, 2), np.float32),
                  rng.standard_normal((2, 1, 2, 2)).astype(np.float32),
                  np.array([3, 5], np.int64)],
     lambda p, u, w: reference.tensor_scatter(p, u, w, axis=-2,
                                              mode="circular")),
]


@pytest.mark.parametrize("name,text,make,expect", CASES,
                         ids=[case[0] for case in CASES])
def test_op(build, rng, name, text, make, expect):
    module = build(text, entry=name)
    inputs = make(rng)
    got = module(*inputs)
    np.testing.assert_array_equal(got, expect(*inputs))
    assert got.dtype == inputs[0].dtype


def test_every_op_in_one_module(build, rng):
    """The six ops in one entry with six outputs (a tuple, in order)."""
    text = """
    func.func @main(%d: tensor<4x3xf32>, %rows: tensor<2x1xi64>,
                    %u: tensor<2x3xf32>, %e: tensor<2x3xi64>,
                    %ids: tensor<2xi64>, %w: tensor<4xi64>,
                    %t: tensor<4x1xf32>)
        -> (tensor<4x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>,
            tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>) {
      %0 = nd.scatter_nd %d[%rows], %u
          : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
      %1 = nd.gather_nd %d[%rows]
          : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
      %2 = nd.scatter_elements %d[%e], %u reduction<add>
          : tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
      %3 = nd.gather_elements %d[%e]
          : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
      %4 = nd.gather %d[%ids]
          : tensor<4x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
      %5 = nd.tensor_scatter %d[%w], %t axis(1)
          : tensor<4x3xf32>[tensor<4xi64>], tensor<4x1xf32>
      return %0, %1, %2, %3, %4, %5 : tensor<4x3xf32>, tensor<2x3xf32>,
          tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>
    }"""
    module = build(text, entry="six_ops")
    d = rng.standard_normal((4, 3)).astype(np.float32)
    rows = np.array([[3], [1]], np.int64)
    u = rng.standard_normal((2, 3)).astype(np.float32)
    e = np.array([[0, 3, 1], [3, 3, -4]], np.int64)
    ids = np.array([2, -1], np.int64)
    w = np.array([0, 2, 1, 2], np.int64)
    t = rng.standard_normal((4, 1)).astype(np.float32)
    got = module(d, rows, u, e, ids, w, t)
    assert isinstance(got, tuple) and len(got) == 6
    expected = [reference.scatter_nd(d, rows, u),
                reference.gather_nd(d, rows),
                reference.scatter_elements(d, e, u, reduction="add"),
                reference.gather_elements(d, e),
                reference.gather(d, ids),
                reference.tensor_scatter(d, t, w, axis=1)]
    for k, (g, x) in enumerate(zip(got, expected)):
        np.testing.assert_array_equal(g, x, err_msg=f"output {k}")


def _onnx_case(name):
    onnx = onnx_or_skip()
    from onnx import numpy_helper
    folder = os.path.join(ONNX_NODE_TESTS, name)
    if not os.path.isdir(folder):
        pytest.skip(f"no {folder} (Debian's libonnx-testdata)")
    data = os.path.join(folder, "test_data_set_0")

    def read(kind):
        tensors = []
        k = 0
        while os.path.exists(os.path.join(data, f"{kind}_{k}.pb")):
            proto = onnx.TensorProto()
            with open(os.path.join(data, f"{kind}_{k}.pb"), "rb") as f:
                proto.ParseFromString(f.read())
            tensors.append(numpy_helper.to_array(proto))
            k += 1
        return tensors
    return os.path.join(folder, "model.onnx"), read("input"), read("output")


@pytest.mark.parametrize("name", [
    "test_scatternd", "test_scatternd_add", "test_gathernd_example_float32",
    "test_gathernd_example_int32_batch_dim1",
    "test_scatter_elements_with_negative_indices", "test_gather_elements_1",
    "test_gather_2d_indices"])
def test_onnx_node_test(build, name):
    """ONNX's own node tests: the model file, its inputs and its expected
    output."""
    model, inputs, outputs = _onnx_case(name)
    module = build(model)
    got = module(*inputs)
    np.testing.assert_array_equal(got, outputs[0])


def test_onnx_model_proto(build):
    """An onnx.ModelProto built in Python compiles as its file would."""
    onnx_or_skip()
    from onnx import TensorProto, helper
    node = helper.make_node("ScatterElements", ["data", "indices", "updates"],
                            ["out"], axis=1, reduction="add")
    graph = helper.make_graph(
        [node], "scatter",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [2, 5]),
         helper.make_tensor_value_info("indices", TensorProto.INT64, [2, 3]),
         helper.make_tensor_value_info("updates", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [2, 5])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 16)])
    model.ir_version = 8
    module = build(model)
    assert [spec.name for spec in module.inputs] == \
        ["data", "indices", "updates"]
    data = np.arange(10, dtype=np.float32).reshape(2, 5)
    indices = np.array([[0, 0, 4], [1, -1, 2]], np.int64)
    updates = np.ones((2, 3), np.float32)
    # Inputs by their ONNX names.
    got = module(data, updates=updates, indices=indices)
    np.testing.assert_array_equal(
        got, reference.scatter_elements(data, indices, updates, axis=1,
                                        reduction="add"))
