//===- NdInterfaces.td - interfaces of the nd ops ----------*- tablegen -*-===//
//
// The model every nd op gives of its iteration space (NdIterationSpace.h).
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDINTERFACES_TD
#define ND_DIALECT_ND_IR_NDINTERFACES_TD

include "mlir/IR/OpBase.td"

def Nd_IterationSpaceOpInterface : OpInterface<"IterationSpaceOpInterface"> {
  let cppNamespace = "::mlir::nd";
  let description = [{
    The loops an nd op runs, their kinds and iterator types, and one indexing
    map per operand and for the result (see NdIterationSpace.h). Sharding,
    tiling, bufferization and the lowering ask this model instead of
    switching on the op.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/"The op's loops and the maps of its operands and result.",
      /*retTy=*/"::mlir::nd::IterationSpace",
      /*methodName=*/"getIterationSpace">,
  ];
}

#endif // ND_DIALECT_ND_IR_NDINTERFACES_TD
