//===- NdTypes.td - nd's operand types as C++ predicates ---*- tablegen -*-===//
//
// The conversions into nd decide whether an op is convertible before they
// create any IR. They ask the dialect's own type constraints (NdOps.td), made
// callable from C++ here, so the answer cannot drift from the verifiers.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_CONVERTTOND_NDTYPES_TD
#define ND_CONVERSION_CONVERTTOND_NDTYPES_TD

include "nd/Dialect/Nd/IR/NdOps.td"

def Nd_ElementTypePredicate
    : TypeConstraint<Nd_ElementType.predicate, Nd_ElementType.summary,
                     "::mlir::Type", "isNdElementType">;

def Nd_IndexTensorPredicate
    : TypeConstraint<Nd_IndexTensor.predicate, Nd_IndexTensor.summary,
                     "::mlir::Type", "isNdIndexTensorType">;

#endif // ND_CONVERSION_CONVERTTOND_NDTYPES_TD
