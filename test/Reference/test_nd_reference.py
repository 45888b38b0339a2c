"""Tests of the numpy reference against the specifications' worked examples.

Expected values come from the ONNX and OpenVINO operator pages, from the
inputs and outputs of ONNX's backend node tests (libonnx-testdata), and, for
what the specs leave open, from docs/Rationale.md, worked by hand.

Run: python3 test_nd_reference.py [-v]
"""

import os
import sys
import unittest

import numpy as np

# Run from the source tree: leave no __pycache__ behind.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nd_reference as ref  # noqa: E402

NODE_TESTS = "/usr/share/libonnx-testdata/data/node"


def _load_node_test(name):
    """(attributes, inputs, outputs) of ONNX backend node test `name`."""
    import onnx
    from onnx import numpy_helper

    directory = os.path.join(NODE_TESTS, name)
    model = onnx.load(os.path.join(directory, "model.onnx"))
    node = model.graph.node[0]
    attributes = {a.name: onnx.helper.get_attribute_value(a)
                  for a in node.attribute}
    attributes = {k: v.decode() if isinstance(v, bytes) else v
                  for k, v in attributes.items()}
    data_set = os.path.join(directory, "test_data_set_0")

    def read(prefix):
        arrays = []
        i = 0
        while os.path.exists(os.path.join(data_set, f"{prefix}_{i}.pb")):
            tensor = onnx.TensorProto()
            with open(os.path.join(data_set, f"{prefix}_{i}.pb"), "rb") as f:
                tensor.ParseFromString(f.read())
            arrays.append(numpy_helper.to_array(tensor))
            i += 1
        return arrays

    return node.op_type, attributes, read("input"), read("output")


class ONNXNodeTests(unittest.TestCase):
    """Every scatter-gather node test of ONNX 1.12: inputs -> outputs."""

    def check(self, name):
        op_type, attrs, inputs, outputs = _load_node_test(name)
        if op_type == "ScatterND":
            got = ref.scatter_nd(*inputs,
                                 reduction=attrs.get("reduction", "none"))
        elif op_type == "GatherND":
            got = ref.gather_nd(*inputs, batch_dims=attrs.get("batch_dims", 0))
        elif op_type in ("Scatter", "ScatterElements"):
            got = ref.scatter_elements(*inputs, axis=attrs.get("axis", 0),
                                       reduction=attrs.get("reduction", "none"))
        elif op_type == "GatherElements":
            got = ref.gather_elements(*inputs, axis=attrs.get("axis", 0))
        elif op_type == "Gather":
            got = ref.gather(*inputs, axis=attrs.get("axis", 0))
        else:
            self.fail(f"unexpected op {op_type}")
        expected = outputs[0]
        self.assertEqual(got.dtype, expected.dtype)
        self.assertEqual(got.shape, expected.shape)
        np.testing.assert_allclose(got, expected, rtol=1e-6)

    def test_node_tests(self):
        names = ["test_scatternd", "test_scatternd_add",
                 "test_scatternd_multiply",
                 "test_scatter_elements_with_axis",
                 "test_scatter_elements_with_duplicate_indices",
                 "test_scatter_elements_with_negative_indices",
                 "test_scatter_elements_without_axis",
                 "test_scatter_with_axis", "test_scatter_without_axis",
                 "test_gathernd_example_float32", "test_gathernd_example_int32",
                 "test_gathernd_example_int32_batch_dim1",
                 "test_gather_elements_0", "test_gather_elements_1",
                 "test_gather_elements_negative_indices",
                 "test_gather_0", "test_gather_1", "test_gather_2d_indices",
                 "test_gather_negative_indices"]
        for name in names:
            with self.subTest(name=name):
                self.check(name)


class ONNXExamples(unittest.TestCase):
    """The examples printed on the ONNX operator pages."""

    def test_scatter_nd_example_1(self):
        got = ref.scatter_nd(np.arange(1, 9), [[4], [3], [1], [7]],
                             [9, 10, 11, 12])
        np.testing.assert_array_equal(got, [1, 11, 3, 10, 9, 6, 7, 12])

    def test_scatter_elements_example_1(self):
        got = ref.scatter_elements(np.zeros((3, 3), np.float32),
                                   [[1, 0, 2], [0, 2, 1]],
                                   [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]])
        np.testing.assert_array_equal(
            got, np.array([[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]],
                          np.float32))

    def test_gather_examples(self):
        data = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], np.float32)
        got = ref.gather(data, [[0, 1], [1, 2]])
        np.testing.assert_array_equal(
            got, np.array([[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]],
                          np.float32))
        data = np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]],
                        np.float32)
        got = ref.gather(data, [[0, 2]], axis=1)
        self.assertEqual(got.shape, (3, 1, 2))
        np.testing.assert_array_equal(
            got, np.array([[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]],
                          np.float32))

    def test_gather_nd_batch_dims(self):
        data = np.arange(8).reshape(2, 2, 2)
        np.testing.assert_array_equal(
            ref.gather_nd(data, [[1], [0]], batch_dims=1), [[2, 3], [4, 5]])

    # onnx/backend/test/case/node/tensorscatter.py (ONNX 1.19+).
    PAST = np.array([[[[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4],
                       [4, 3, 2, 1, 0]]]] * 2, np.float32)

    def test_tensor_scatter_linear(self):
        update = np.array([[[[5] * 5]], [[[1] * 5]]], np.float32)
        got = ref.tensor_scatter(self.PAST, update, np.array([1, 2]),
                                 mode="linear")
        expected = np.array(
            [[[[1, 2, 3, 4, 5], [5, 5, 5, 5, 5], [8, 7, 6, 5, 4],
               [4, 3, 2, 1, 0]]],
             [[[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [1, 1, 1, 1, 1],
               [4, 3, 2, 1, 0]]]], np.float32)
        np.testing.assert_array_equal(got, expected)

    def test_tensor_scatter_circular(self):
        update = np.array([[[[5] * 5, [6] * 5]], [[[1] * 5, [2] * 5]]],
                          np.float32)
        got = ref.tensor_scatter(self.PAST, update, np.array([1, 3]),
                                 mode="circular")
        expected = np.array(
            [[[[1, 2, 3, 4, 5], [5, 5, 5, 5, 5], [6, 6, 6, 6, 6],
               [4, 3, 2, 1, 0]]],
             [[[2, 2, 2, 2, 2], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4],
               [1, 1, 1, 1, 1]]]], np.float32)
        np.testing.assert_array_equal(got, expected)

    def test_tensor_scatter_3d(self):
        row = [[1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10], [8, 7, 6, 5, 4, 3],
               [5, 4, 3, 2, 1, 0]]
        past = np.array([row] * 3, np.float32)
        update = np.array([[[4] * 6, [5] * 6], [[6] * 6, [7] * 6],
                           [[2] * 6, [3] * 6]], np.float32)
        got = ref.tensor_scatter(past, update, np.array([1, 2, 0]))
        expected = np.array(
            [[[1, 2, 3, 4, 5, 6], [4] * 6, [5] * 6, [5, 4, 3, 2, 1, 0]],
             [[1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10], [6] * 6, [7] * 6],
             [[2] * 6, [3] * 6, [8, 7, 6, 5, 4, 3], [5, 4, 3, 2, 1, 0]]],
            np.float32)
        np.testing.assert_array_equal(got, expected)

    def test_tensor_scatter_no_write_indices(self):
        past = np.zeros((2, 3, 2), np.int32)
        update = np.ones((2, 2, 2), np.int32)
        got = ref.tensor_scatter(past, update, axis=1)
        np.testing.assert_array_equal(got[:, :2], 1)
        np.testing.assert_array_equal(got[:, 2], 0)


class OpenVINOExamples(unittest.TestCase):
    """The examples of the OpenVINO operation specs."""

    DATA = np.array([1, 2, 3, 4], np.int32)
    INDICES = np.array([[0], [2], [-3], [-3], [0]])
    UPDATES = np.array([10, 20, 30, 40, 50], np.int32)

    def test_scatter_nd_update_15(self):
        np.testing.assert_array_equal(
            ref.scatter_nd(self.DATA.astype(np.float16), self.INDICES,
                           self.UPDATES.astype(np.float16), "add"),
            [61, 72, 23, 4])
        np.testing.assert_array_equal(
            ref.scatter_nd(self.DATA, self.INDICES, self.UPDATES, "sub"),
            [-59, -68, -17, 4])
        # Examples 1 and 4 print [50, 20, 20, 4] and [500, 3600, 40, 4],
        # which the spec's own definition does not give (docs/Rationale.md).
        np.testing.assert_array_equal(
            ref.scatter_nd(self.DATA, self.INDICES, self.UPDATES),
            [50, 40, 20, 4])
        np.testing.assert_array_equal(
            ref.scatter_nd(self.DATA, self.INDICES, self.UPDATES, "mul"),
            [500, 2400, 60, 4])

    def test_scatter_nd_update_3_single_element(self):
        got = ref.scatter_nd(np.zeros((2, 2), np.float32), [1, 0],
                             np.array([[7.0]], np.float32))
        np.testing.assert_array_equal(got, [[0, 0], [7, 0]])

    def test_scatter_elements_update_12(self):
        data = np.array([2, 3, 4, 6], np.float32)
        updates = np.array([10, 20, 30, 40, 70, 60], np.float32)
        np.testing.assert_array_equal(
            ref.scatter_elements(data, [1, 0, 0, -2, -1, 2], updates,
                                 reduction="add"), [52, 13, 104, 76])
        np.testing.assert_array_equal(
            ref.scatter_elements(data, [1, 0, 0, 2, 3, 2], updates,
                                 reduction="add", use_init_val=False),
            [50, 10, 100, 70])
        updates2 = np.array([[11, 12], [13, 14]], np.int32)
        np.testing.assert_array_equal(
            ref.scatter_elements(np.zeros((3, 4), np.int32), [[1, 2], [0, 3]],
                                 updates2, axis=1),
            [[0, 11, 12, 0], [13, 0, 0, 14], [0, 0, 0, 0]])
        np.testing.assert_array_equal(
            ref.scatter_elements(np.ones((3, 4), np.int32), [[1, 1], [0, 3]],
                                 updates2, axis=1, reduction="add"),
            [[1, 24, 1, 1], [14, 1, 1, 15], [1, 1, 1, 1]])
        np.testing.assert_array_equal(
            ref.scatter_elements(np.full((3, 4), 2, np.int32),
                                 [[1, 1], [0, 3]], updates2, axis=1,
                                 reduction="mul"),
            [[2, 264, 2, 2], [26, 2, 2, 28], [2, 2, 2, 2]])

    def test_gather_8(self):
        data = np.array([1, 2, 3, 4, 5])
        np.testing.assert_array_equal(ref.gather(data, [0, 0, 4]), [1, 1, 5])
        data2 = np.arange(1, 11).reshape(2, 5)
        indices2 = np.array([[0, 0, 4], [4, 0, 0]])
        np.testing.assert_array_equal(
            ref.gather(data2, indices2, axis=1, batch_dims=1),
            [[1, 1, 5], [10, 6, 6]])
        data3 = np.arange(1, 21).reshape(2, 2, 5)
        indices3 = np.array([[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]])
        np.testing.assert_array_equal(
            ref.gather(data3, indices3, axis=2, batch_dims=2),
            [[[1, 1, 5], [10, 6, 6]], [[12, 13, 15], [20, 19, 18]]])
        data4 = np.arange(1, 41).reshape(2, 1, 5, 4)
        got = ref.gather(data4, [[1, 2, 4], [4, 3, 2]], axis=2, batch_dims=1)
        self.assertEqual(got.shape, (2, 1, 3, 4))
        np.testing.assert_array_equal(
            got, [[[[5, 6, 7, 8], [9, 10, 11, 12], [17, 18, 19, 20]]],
                  [[[37, 38, 39, 40], [33, 34, 35, 36], [29, 30, 31, 32]]]])
        np.testing.assert_array_equal(ref.gather(data, [0, -2, -1]),
                                      [1, 4, 5])
        np.testing.assert_array_equal(
            ref.gather(data, [3, 10, -20], oob="skip"), [4, 0, 0])

    def test_gather_nd_8(self):
        np.testing.assert_array_equal(
            ref.gather_nd([[1, 2], [3, 4]], [[0, 0], [1, 0]]), [1, 3])
        np.testing.assert_array_equal(
            ref.gather_nd([[1, 2], [3, 4]], [[1], [0]], batch_dims=1), [2, 3])
        data = np.arange(1, 25).reshape(2, 3, 4)
        np.testing.assert_array_equal(
            ref.gather_nd(data, [[1], [0]], batch_dims=1),
            [[5, 6, 7, 8], [13, 14, 15, 16]])
        indices = np.array([[[[1]], [[0]], [[2]]], [[[0]], [[2]], [[2]]]])
        np.testing.assert_array_equal(
            ref.gather_nd(data, indices, batch_dims=2),
            [[[2], [5], [11]], [[13], [19], [23]]])
        data = np.arange(1, 17).reshape(1, 2, 2, 4)
        indices = np.array([[[[1], [0]], [[3], [2]]]])
        np.testing.assert_array_equal(
            ref.gather_nd(data, indices, batch_dims=3), [[[2, 5], [12, 15]]])


class Decisions(unittest.TestCase):
    """What docs/Rationale.md decides where the specs leave it open."""

    def test_duplicates_last_wins(self):
        np.testing.assert_array_equal(
            ref.scatter_nd(np.zeros(3, np.int32), [[1], [1]], [5, 6]),
            [0, 6, 0])

    def test_integers_wrap_unsigned_compare(self):
        got = ref.scatter_nd(np.array([250, 100], np.uint8), [[0], [1]],
                             np.array([100, 250], np.uint8), "add")
        np.testing.assert_array_equal(got, [94, 94])
        got = ref.scatter_nd(np.array([250, 100], np.uint8), [[0], [1]],
                             np.array([100, 250], np.uint8), "max")
        np.testing.assert_array_equal(got, [250, 250])
        got = ref.scatter_nd(np.array([-6, 100], np.int8), [[0], [1]],
                             np.array([100, 100], np.int8), "add")
        np.testing.assert_array_equal(got, [94, -56])

    def test_bool(self):
        data = np.array([True, False, False, True])
        updates = np.array([True, False, False])
        self.assertEqual(
            ref.scatter_elements(data, [1, 1, 0], updates, reduction="add")
            .tolist(), [True, True, False, True])
        self.assertEqual(
            ref.scatter_elements(data, [1, 1, 0], updates, reduction="mul")
            .tolist(), [False, False, False, True])
        self.assertEqual(
            ref.scatter_nd(np.array([True, False, True, False]),
                           [[0], [1], [1]], np.ones(3, bool), "sub").tolist(),
            [False, False, True, False])

    def test_nan_and_signed_zeros(self):
        nan = np.float32("nan")
        data = np.array([1.0, nan, -0.0], np.float32)
        updates = np.array([nan, 2.0, 0.0], np.float32)
        got = ref.scatter_nd(data, [[0], [1], [2]], updates, "max")
        self.assertTrue(np.isnan(got[0]) and np.isnan(got[1]))
        self.assertFalse(np.signbit(got[2]))
        got = ref.scatter_nd(data, [[0], [1], [2]], updates, "min")
        self.assertTrue(np.signbit(got[2]) and got[2] == 0)

    def test_mean(self):
        data = np.array([2, 3, 4, 6], np.int32)
        indices = [1, 0, 0, 2, 3, 2]
        updates = np.array([10, 20, 30, 40, 70, 60], np.int32)
        np.testing.assert_array_equal(
            ref.scatter_elements(data, indices, updates, reduction="mean"),
            [17, 6, 34, 38])
        np.testing.assert_array_equal(
            ref.scatter_elements(data, indices, updates, reduction="mean",
                                 use_init_val=False), [25, 10, 50, 70])
        np.testing.assert_array_equal(
            ref.scatter_elements(np.array([-3, 5], np.int32), [0, 1],
                                 np.array([-4, 6], np.int32),
                                 reduction="mean"), [-4, 5])
        # Exact sums: 300 overflows int8, the mean 100 does not.
        np.testing.assert_array_equal(
            ref.scatter_elements(np.array([100, -128], np.int8), [0, 0, 1],
                                 np.array([100, 100, -128], np.int8),
                                 reduction="mean"), [100, -128])
        got = ref.scatter_elements(np.array([1.0, 7.0], np.float32), [0, 0],
                                   np.array([2.0, 3.0], np.float32),
                                   reduction="mean", use_init_val=False)
        np.testing.assert_array_equal(got, [2.5, 7.0])
        with self.assertRaises(ValueError):
            ref.scatter_elements(np.array([True]), [0], np.array([True]),
                                 reduction="mean")

    def test_use_init_val_false(self):
        got = ref.scatter_elements(np.array([100, 7], np.int32), [0, 0],
                                   np.array([1, 5], np.int32),
                                   reduction="max", use_init_val=False)
        np.testing.assert_array_equal(got, [5, 7])

    def test_oob_modes(self):
        data = np.array([[1, 2], [3, 4]])
        indices = [[1], [2], [-3], [-2]]
        np.testing.assert_array_equal(
            ref.gather_nd(data, indices, oob="skip"),
            [[3, 4], [0, 0], [0, 0], [1, 2]])
        np.testing.assert_array_equal(
            ref.gather_nd(data, indices, oob="clamp"),
            [[3, 4], [3, 4], [1, 2], [1, 2]])
        np.testing.assert_array_equal(
            ref.scatter_nd(np.array([1, 2, 3, 4]), [[4], [-5], [1]],
                           [10, 20, 30], oob="skip"), [1, 30, 3, 4])
        np.testing.assert_array_equal(
            ref.scatter_nd(np.array([1, 2, 3, 4]), [[4], [-5], [1]],
                           [10, 20, 30], oob="clamp"), [20, 30, 3, 10])
        np.testing.assert_array_equal(
            ref.gather(np.array([1, 2, 3, 4, 5]), [3, 10, -20], oob="clamp"),
            [4, 5, 1])
        # Clamping into an empty dim: as under skip.
        np.testing.assert_array_equal(
            ref.gather(np.zeros((0, 2), np.int32), [1], oob="clamp"),
            [[0, 0]])
        past = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
        update = np.array([[10, 20], [30, 40]])
        np.testing.assert_array_equal(
            ref.tensor_scatter(past, update, [3, 1], axis=1, oob="skip"),
            [[1, 2, 3, 4], [5, 30, 40, 8]])
        np.testing.assert_array_equal(
            ref.tensor_scatter(past, update, [3, 1], axis=1, oob="clamp"),
            [[1, 2, 10, 20], [5, 30, 40, 8]])
        np.testing.assert_array_equal(
            ref.tensor_scatter(past, update, [-1, 3], axis=1,
                               mode="circular", oob="clamp"),
            [[10, 20, 3, 4], [40, 6, 7, 30]])

    def test_errors_name_the_position(self):
        with self.assertRaises(ref.IndexOutOfRange) as caught:
            ref.gather_nd(np.zeros((2, 3, 2)), [[2], [3]], batch_dims=1)
        self.assertEqual((caught.exception.value, caught.exception.position,
                          caught.exception.dim), (3, (1, 0), 1))
        with self.assertRaises(ref.IndexOutOfRange):
            ref.tensor_scatter(np.zeros((2, 4)), np.zeros((2, 2)), [0, 3],
                               axis=1)
        with self.assertRaises(ref.IndexOutOfRange):
            ref.tensor_scatter(np.zeros((2, 4)), np.zeros((2, 2)), [0, -1],
                               axis=1, mode="circular")
        with self.assertRaises(ref.IndexOutOfRange):
            ref.gather(np.zeros(5), [5])
        # Every index value is checked, even where no element is read.
        with self.assertRaises(ref.IndexOutOfRange):
            ref.gather(np.zeros((0, 5)), [7], axis=1)
        with self.assertRaises(ref.IndexOutOfRange):
            ref.tensor_scatter(np.zeros((2, 0, 4)), np.zeros((2, 0, 2)),
                               [0, 3], axis=2)


if __name__ == "__main__":
    unittest.main()
