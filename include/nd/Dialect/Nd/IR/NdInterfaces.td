//===- NdInterfaces.td - interfaces of the nd ops ----------*- tablegen -*-===//
//
// The model every nd op gives of itself: its iteration space
// (NdIterationSpace.h), the rows it reads and writes and its shape
// constraints (NdRowAddressing.h), and the attributes generic code reads.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDINTERFACES_TD
#define ND_DIALECT_ND_IR_NDINTERFACES_TD

include "mlir/IR/OpBase.td"

def Nd_IterationSpaceOpInterface : OpInterface<"IterationSpaceOpInterface"> {
  let cppNamespace = "::mlir::nd";
  let description = [{
    The model of an nd op: the loops it runs, their kinds and iterator
    types, and one indexing map per operand and for the result (see
    NdIterationSpace.h); the rows its index entries read and write, and its
    shape constraints (see NdRowAddressing.h). Sharding, tiling,
    bufferization, the verifiers, the folder and the lowering ask this
    model instead of switching on the op.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/"The op's loops and the maps of its operands and result.",
      /*retTy=*/"::mlir::nd::IterationSpace",
      /*methodName=*/"getIterationSpace">,
    InterfaceMethod<
      /*desc=*/[{
        The op's index entries, the row each moves, and how an index value
        addresses data. The op must verify.
      }],
      /*retTy=*/"::mlir::nd::RowAddressing",
      /*methodName=*/"getRowAddressing">,
    InterfaceMethod<
      /*desc=*/[{
        Every pairwise dim rule of the op, in the order the lowering checks
        them at run time. The op's ranks and attributes must be valid.
      }],
      /*retTy=*/"::mlir::nd::ShapeConstraints",
      /*methodName=*/"getShapeConstraints">,
    InterfaceMethod<
      /*desc=*/"What an index value out of range does (`oob`).",
      /*retTy=*/"::mlir::nd::OobMode",
      /*methodName=*/"getOobMode", (ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{ return $_op.getOob(); }]>,
    InterfaceMethod<
      /*desc=*/"Sets `oob`.",
      /*retTy=*/"void",
      /*methodName=*/"setOobMode", (ins "::mlir::nd::OobMode":$oob),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{ $_op.setOob(oob); }]>,
    InterfaceMethod<
      /*desc=*/[{
        Whether the op is a scatter on buffers marked `disposable` (it
        updates a fresh buffer that nothing reads if it fails); false for the
        gathers.
      }],
      /*retTy=*/"bool",
      /*methodName=*/"isDisposable", (ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::mlir::nd::detail::isDisposable($_op);
      }]>,
    InterfaceMethod<
      /*desc=*/"Marks a scatter `disposable` (a scatter only).",
      /*retTy=*/"void",
      /*methodName=*/"setDisposable", (ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{ ::mlir::nd::detail::setDisposable($_op); }]>,
  ];
}

#endif // ND_DIALECT_ND_IR_NDINTERFACES_TD
