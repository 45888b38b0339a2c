//===- ImportOpenVINO.cpp - OpenVINO IR to MLIR -----------------*- C++ -*-===//
//
// Builds a `func.func` from a checked OpenVINO IR graph (IRGraph.h), layer by
// layer in topological order. Each layer's `version` names an opset; the
// opset tables of the OpenVINO documentation map it to the op version whose
// specification the layer is checked against (its ports, `<data>`
// attributes and their values, element types, and its output port dims
// against the shape the op computes). Every nd op is built only after its
// operands passed the op's rules, and the finished module is verified once
// more, so that a bad model ends in diagnostics, never in an assertion or in
// a partly imported module.
//
// How the layers map:
// - Parameter: a function argument; Result: a function result; Const: an
//   `arith.constant` of the bytes of the weights file it points at.
// - Convert-1: a `linalg.generic` applying arith's casts element-wise.
// - ScatterNDUpdate-3/15: `nd.scatter_nd` (15's reductions). GatherND-5/8:
//   `nd.gather_nd`; 5's flattened batch dims are a `tensor.collapse_shape`
//   of the result, batch dims of size 1 on one side only are broadcast.
//   ScatterElementsUpdate-3/12: `nd.scatter_elements`. GatherElements-6:
//   `nd.gather_elements`. Gather-1/7/8: `nd.gather` (8: `oob<skip>`, its
//   zeros for indices out of range).
// - ScatterUpdate-3 writes whole slices along `axis`: `nd.scatter_nd` with
//   one-component index tuples, with `data` and `updates` transposed so that
//   `axis` and the indices dims lead, and the result transposed back.
// - Index tensors of other integer types than i32 and i64, which most of the
//   family accept, are widened (u64 values above the i64 range are clamped
//   to it, which keeps them out of range).
//
//===----------------------------------------------------------------------===//

#include "nd/Target/OpenVINO/ImportOpenVINO.h"

#include "IRGraph.h"

#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Runner/ElementType.h"
#include "nd/Target/Common/ImportSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::openvino;

//===----------------------------------------------------------------------===//
// Op versions
//===----------------------------------------------------------------------===//

namespace {
/// A version of an op and the opsets that hold it, from the opset tables of
/// the OpenVINO documentation (opset1 ... opset16).
struct OpVersion {
  llvm::StringLiteral type;
  int64_t firstOpset;
  int64_t lastOpset;
  int64_t version;
};
} // namespace

/// The newest opset whose table nd knows.
static constexpr int64_t kNewestOpset = 16;

static constexpr OpVersion kOpVersions[] = {
    {"Parameter", 1, kNewestOpset, 1},
    {"Result", 1, kNewestOpset, 1},
    // Serialized IR spells Constant-1 "Const"; the specification "Constant".
    {"Const", 1, kNewestOpset, 1},
    {"Constant", 1, kNewestOpset, 1},
    {"Convert", 1, kNewestOpset, 1},
    {"ScatterNDUpdate", 4, 14, 3},
    {"ScatterNDUpdate", 15, kNewestOpset, 15},
    {"ScatterElementsUpdate", 3, 11, 3},
    {"ScatterElementsUpdate", 12, kNewestOpset, 12},
    {"ScatterUpdate", 3, kNewestOpset, 3},
    {"GatherND", 5, 7, 5},
    {"GatherND", 8, kNewestOpset, 8},
    {"Gather", 1, 6, 1},
    {"Gather", 7, 7, 7},
    {"Gather", 8, kNewestOpset, 8},
    {"GatherElements", 6, kNewestOpset, 6},
};

/// OpenVINO's names of nd's reductions, as ScatterNDUpdate-15 and
/// ScatterElementsUpdate-12 list them (OpenVINO's `sum` and `prod` are nd's
/// `add` and `mul`); each version takes its own subset.
static constexpr EnumName<ReductionKind> kScatterNDUpdateReductions[] = {
    {"none", ReductionKind::None}, {"sum", ReductionKind::Add},
    {"sub", ReductionKind::Sub},   {"prod", ReductionKind::Mul},
    {"min", ReductionKind::Min},   {"max", ReductionKind::Max},
};
static constexpr EnumName<ReductionKind> kScatterElementsUpdateReductions[] = {
    {"none", ReductionKind::None}, {"sum", ReductionKind::Add},
    {"prod", ReductionKind::Mul},  {"min", ReductionKind::Min},
    {"max", ReductionKind::Max},   {"mean", ReductionKind::Mean},
};

/// The spellings of a boolean attribute (`use_init_val`).
static constexpr EnumName<bool> kBooleans[] = {
    {"true", true}, {"1", true}, {"false", false}, {"0", false}};

static constexpr llvm::StringLiteral kImportedTypes =
    "Parameter, Const, Result, Convert, ScatterNDUpdate, "
    "ScatterElementsUpdate, ScatterUpdate, GatherND, Gather and "
    "GatherElements";

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

/// OpenVINO's element type name of an MLIR element type ("f32", "boolean").
static std::string getOpenVINOTypeName(Type type) {
  std::optional<DType> dtype = getDTypeOf(type);
  llvm::StringRef name = dtype ? getOpenVINONames(*dtype).first : "";
  if (!name.empty())
    return name.str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static Type getElementType(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

static RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Whether two shapes can describe the same tensor.
static bool areCompatible(llvm::ArrayRef<int64_t> a,
                          llvm::ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(a, b)) {
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// OpenVINOImporter
//===----------------------------------------------------------------------===//

namespace {
/// A layer being imported and the op version its opset selects (0 until
/// resolved).
struct LayerRef {
  const Layer &layer;
  unsigned index;
  int64_t version = 0;
};

/// Imports one IR file.
class OpenVINOImporter {
public:
  OpenVINOImporter(MLIRContext *context, llvm::StringRef xml,
                   llvm::StringRef xmlPath,
                   const OpenVINOImportOptions &options)
      : context(context), builder(context), options(options), xml(xml),
        locator(xml, xmlPath, context) {}

  OwningOpRef<ModuleOp> import(OpenVINOGraphSignature *signature);

private:
  // Layers.
  LogicalResult resolveVersion(LayerRef &ref);
  FailureOr<RankedTensorType>
  getDeclaredType(const LayerRef &ref,
                  const llvm::StringMap<std::string> &attrs, bool allowDynamic);
  FailureOr<RankedTensorType> getParameterType(LayerRef &ref);
  LogicalResult importLayer(LayerRef &ref);
  LogicalResult importConst(LayerRef &ref);
  LogicalResult importConvert(LayerRef &ref);
  LogicalResult importScatterNDUpdate(LayerRef &ref);
  LogicalResult importScatterElementsUpdate(LayerRef &ref);
  LogicalResult importScatterUpdate(LayerRef &ref);
  LogicalResult importGatherND(LayerRef &ref);
  LogicalResult importGather(LayerRef &ref);
  LogicalResult importGatherElements(LayerRef &ref);

  // Layer helpers.
  InFlightDiagnostic emitLayerError(const LayerRef &ref);
  InFlightDiagnostic emitLayerError(const LayerRef &ref, size_t offset);
  Location getLayerLoc(const LayerRef &ref);
  LogicalResult checkPorts(const LayerRef &ref, unsigned numInputs,
                           unsigned numOutputs);
  FailureOr<llvm::StringMap<std::string>>
  checkAttributes(const LayerRef &ref, llvm::ArrayRef<llvm::StringRef> allowed,
                  llvm::ArrayRef<llvm::StringRef> required = {});
  FailureOr<int64_t> getIntAttr(const LayerRef &ref,
                                const llvm::StringMap<std::string> &attrs,
                                llvm::StringRef name, int64_t defaultValue);
  FailureOr<ReductionKind>
  getReductionAttr(const LayerRef &ref,
                   const llvm::StringMap<std::string> &attrs,
                   llvm::ArrayRef<EnumName<ReductionKind>> allowed);
  FailureOr<int64_t> getOnlyIntAttr(const LayerRef &ref, llvm::StringRef name,
                                    std::optional<int64_t> defaultValue);
  FailureOr<DType> getElementTypeAttr(const LayerRef &ref,
                                      const llvm::StringMap<std::string> &attrs,
                                      llvm::StringRef name);
  FailureOr<SmallVector<int64_t>>
  getShapeAttr(const LayerRef &ref, const llvm::StringMap<std::string> &attrs,
               bool allowDynamic);
  Value getInput(const LayerRef &ref, unsigned position);
  FailureOr<int64_t> getAxisInput(const LayerRef &ref, unsigned position,
                                  int64_t rank);
  FailureOr<Value> getIndicesInput(const LayerRef &ref, unsigned position,
                                   bool anyInteger);
  LogicalResult checkSameType(const LayerRef &ref, unsigned dataPosition,
                              unsigned updatesPosition);
  LogicalResult verifyLayerOp(const LayerRef &ref, Operation *op);
  LogicalResult defineOutput(const LayerRef &ref, Value value);
  LogicalResult defineVerifiedOutput(const LayerRef &ref, Operation *op);

  // IR building.
  Value buildElementwise(
      Location loc, Value input, Type resultElementType,
      llvm::function_ref<Value(OpBuilder &, Location, Value)> body);
  Value buildTranspose(Location loc, Value input,
                       llvm::ArrayRef<int64_t> permutation);
  Value buildBroadcast(Location loc, Value input,
                       llvm::ArrayRef<int64_t> shape);
  Value buildInsertUnitDim(Location loc, Value input, int64_t position);
  Value buildConvert(Location loc, Value input, DType from, DType to);

  // Weights.
  FailureOr<llvm::StringRef> getWeights(const LayerRef &ref);

  MLIRContext *context;
  OpBuilder builder;
  const OpenVINOImportOptions &options;
  llvm::StringRef xml;
  SourceLocator locator;
  Graph graph;
  /// The value of each output port of each layer imported so far.
  SmallVector<SmallVector<Value>> values;
  /// The function arguments of the Parameter layers, by layer index.
  llvm::DenseMap<unsigned, Value> arguments;
  /// Index tensors already widened to i32 or i64, so that each is widened
  /// once however many layers read it.
  llvm::DenseMap<Value, Value> widenedIndices;
  std::unique_ptr<llvm::MemoryBuffer> weights;
  std::string weightsPath;
};
} // namespace

OwningOpRef<ModuleOp>
OpenVINOImporter::import(OpenVINOGraphSignature *signature) {
  if (xml.empty()) {
    emitError(locator.getFileLoc()) << "empty file: not an OpenVINO IR model";
    return nullptr;
  }
  FailureOr<Graph> parsed = parseIRGraph(xml, locator);
  if (failed(parsed))
    return nullptr;
  graph = std::move(*parsed);
  values.resize(graph.layers.size());

  // Parameters become the arguments and Results the results, each in the
  // order of the file.
  SmallVector<GraphArgument> args;
  SmallVector<unsigned> parameters, results;
  OpenVINOGraphSignature names;
  for (auto [index, layer] : llvm::enumerate(graph.layers)) {
    LayerRef ref{layer, static_cast<unsigned>(index)};
    if (failed(resolveVersion(ref)))
      return nullptr;
    if (layer.type == "Parameter") {
      FailureOr<RankedTensorType> type = getParameterType(ref);
      if (failed(type))
        return nullptr;
      args.push_back({layer.name, *type, locator.getLoc(layer.offset)});
      parameters.push_back(index);
      names.inputNames.push_back(layer.name);
    } else if (layer.type == "Result") {
      results.push_back(index);
      names.outputNames.push_back(layer.name);
    }
  }
  if (results.empty()) {
    emitError(locator.getFileLoc())
        << "the model has no Result layer: it computes nothing";
    return nullptr;
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(locator.getFileLoc());
  func::FuncOp func = createGraphFunction(
      builder, *module, locator.getFileLoc(), options.functionName, args);
  for (auto [index, arg] : llvm::zip_equal(parameters, func.getArguments()))
    arguments[index] = arg;

  for (unsigned index : graph.order) {
    LayerRef ref{graph.layers[index], index};
    if (failed(resolveVersion(ref)) || failed(importLayer(ref)))
      return nullptr;
  }

  SmallVector<Value> resultValues;
  for (unsigned index : results) {
    LayerRef ref{graph.layers[index], index};
    resultValues.push_back(getInput(ref, 0));
  }
  finishGraphFunction(builder, func, locator.getFileLoc(), resultValues);
  // Const layers that only gave an axis, or indices that were widened, are
  // left without users.
  func.walk([](arith::ConstantOp constant) {
    if (constant->use_empty())
      constant->erase();
  });

  // Every op was checked before it was built; a module that still does not
  // verify is an importer bug, reported rather than handed on.
  if (failed(mlir::verify(*module))) {
    emitError(locator.getFileLoc())
        << "internal error: the imported module does not verify";
    return nullptr;
  }
  if (signature)
    *signature = std::move(names);
  return module;
}

//===----------------------------------------------------------------------===//
// Layer helpers
//===----------------------------------------------------------------------===//

/// "layer 5 'g' (Gather-8)", or "layer 5 'g' (Gather, opset8)" before the
/// version is known.
static std::string describe(const LayerRef &ref) {
  std::string text = describeLayer(ref.layer);
  if (ref.version)
    return text + " (" + formatOpVersion(ref.layer.type, ref.version) + ")";
  return text + " (" + ref.layer.type + ", " + ref.layer.version + ")";
}

InFlightDiagnostic OpenVINOImporter::emitLayerError(const LayerRef &ref) {
  return emitLayerError(ref, ref.layer.offset);
}

InFlightDiagnostic OpenVINOImporter::emitLayerError(const LayerRef &ref,
                                                    size_t offset) {
  return emitError(locator.getLoc(offset)) << describe(ref) << ": ";
}

Location OpenVINOImporter::getLayerLoc(const LayerRef &ref) {
  return NameLoc::get(builder.getStringAttr(ref.layer.name),
                      locator.getLoc(ref.layer.offset));
}

LogicalResult OpenVINOImporter::resolveVersion(LayerRef &ref) {
  const Layer &layer = ref.layer;
  const OpVersion *first = nullptr;
  for (const OpVersion &entry : kOpVersions) {
    if (entry.type != layer.type)
      continue;
    if (!first)
      first = &entry;
    if (entry.firstOpset <= layer.opset && layer.opset <= entry.lastOpset) {
      ref.version = entry.version;
      return success();
    }
  }
  if (!first)
    return emitLayerError(ref) << "unsupported layer type '" << layer.type
                               << "' (nd imports " << kImportedTypes << ")";
  if (layer.opset > kNewestOpset)
    return emitLayerError(ref)
           << "opset" << layer.opset
           << " is newer than the newest opset nd knows (opset" << kNewestOpset
           << ")";
  return emitLayerError(ref)
         << layer.type << " is not in opset" << layer.opset << " (its first "
         << "version, " << formatOpVersion(layer.type, first->version)
         << ", came with opset" << first->firstOpset << ")";
}

LogicalResult OpenVINOImporter::checkPorts(const LayerRef &ref,
                                           unsigned numInputs,
                                           unsigned numOutputs) {
  if (ref.layer.inputs.size() != numInputs)
    return emitLayerError(ref)
           << "expected " << numInputs << " input port(s), got "
           << ref.layer.inputs.size();
  if (ref.layer.outputs.size() != numOutputs)
    return emitLayerError(ref)
           << "expected " << numOutputs << " output port(s), got "
           << ref.layer.outputs.size();
  return success();
}

FailureOr<llvm::StringMap<std::string>>
OpenVINOImporter::checkAttributes(const LayerRef &ref,
                                  llvm::ArrayRef<llvm::StringRef> allowed,
                                  llvm::ArrayRef<llvm::StringRef> required) {
  llvm::StringMap<std::string> attrs;
  for (const auto &[name, value] : ref.layer.attributes) {
    if (!llvm::is_contained(allowed, name)) {
      InFlightDiagnostic diag = emitLayerError(ref, ref.layer.dataOffset)
                                << "unknown attribute '" << name << "' (";
      std::string opVersion = formatOpVersion(ref.layer.type, ref.version);
      if (allowed.empty())
        return diag << opVersion << " has no attributes)";
      diag << opVersion << " has ";
      llvm::interleave(
          allowed, [&](llvm::StringRef a) { diag << "'" << a << "'"; },
          [&] { diag << ", "; });
      return diag << ")";
    }
    attrs[name] = value;
  }
  for (llvm::StringRef name : required) {
    if (!attrs.count(name))
      return emitLayerError(ref, ref.layer.dataOffset)
             << "the required attribute '" << name << "' is missing";
  }
  return attrs;
}

FailureOr<int64_t>
OpenVINOImporter::getIntAttr(const LayerRef &ref,
                             const llvm::StringMap<std::string> &attrs,
                             llvm::StringRef name, int64_t defaultValue) {
  auto it = attrs.find(name);
  if (it == attrs.end())
    return defaultValue;
  std::optional<int64_t> value = parseIRInteger(it->second);
  if (!value)
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute '" << name << "' is '" << it->second
           << "', not an integer";
  return *value;
}

FailureOr<DType>
OpenVINOImporter::getElementTypeAttr(const LayerRef &ref,
                                     const llvm::StringMap<std::string> &attrs,
                                     llvm::StringRef name) {
  std::string text = attrs.lookup(name);
  if (std::optional<DType> dtype = parseOpenVINOElementType(text))
    return *dtype;
  InFlightDiagnostic diag = emitLayerError(ref, ref.layer.dataOffset)
                            << "attribute '" << name << "' is '" << text
                            << "', ";
  if (isUnsupportedOpenVINOElementType(text))
    return diag << "an element type nd does not support";
  return diag << "which is not an OpenVINO element type nd knows (boolean, "
                 "i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, "
                 "f64)";
}

FailureOr<SmallVector<int64_t>>
OpenVINOImporter::getShapeAttr(const LayerRef &ref,
                               const llvm::StringMap<std::string> &attrs,
                               bool allowDynamic) {
  std::string attr = attrs.lookup("shape");
  llvm::StringRef text = llvm::StringRef(attr).trim();
  SmallVector<int64_t> shape;
  if (text.empty())
    return shape;
  SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (std::optional<int64_t> dim = parseIRInteger(part)) {
      if (*dim >= 0) {
        shape.push_back(*dim);
        continue;
      }
      if (*dim == -1 && allowDynamic) {
        shape.push_back(ShapedType::kDynamic);
        continue;
      }
    }
    // Dynamic dims are written `?` (or -1), bounded ones `1..8` (either
    // bound may be missing); nd keeps bounded dims dynamic.
    if (allowDynamic && part == "?") {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (allowDynamic && part.contains("..") && part != "...") {
      auto [low, high] = part.split("..");
      auto isBound = [](llvm::StringRef bound) {
        std::optional<int64_t> value = parseIRInteger(bound);
        return bound.trim().empty() || (value && *value >= 0);
      };
      if (isBound(low) && isBound(high)) {
        shape.push_back(ShapedType::kDynamic);
        continue;
      }
    }
    InFlightDiagnostic diag = emitLayerError(ref, ref.layer.dataOffset)
                              << "attribute 'shape' is '" << text << "': ";
    if (part == "...")
      return diag << "a dynamic rank is not supported";
    return diag << "'" << part << "' is not "
                << (allowDynamic ? "a dim (a non-negative integer, -1, ? or "
                                   "a range such as 1..8)"
                                 : "a non-negative integer");
  }
  return shape;
}

Value OpenVINOImporter::getInput(const LayerRef &ref, unsigned position) {
  auto [producer, port] = ref.layer.sources[position];
  return values[producer][port];
}

LogicalResult OpenVINOImporter::checkSameType(const LayerRef &ref,
                                              unsigned dataPosition,
                                              unsigned updatesPosition) {
  Type data = getElementType(getInput(ref, dataPosition));
  Type updates = getElementType(getInput(ref, updatesPosition));
  if (data == updates)
    return success();
  return emitLayerError(ref)
         << "input " << dataPosition << " (data) is "
         << getOpenVINOTypeName(data) << " but input " << updatesPosition
         << " (updates) is " << getOpenVINOTypeName(updates)
         << ": they must have the same element type";
}

FailureOr<int64_t> OpenVINOImporter::getAxisInput(const LayerRef &ref,
                                                  unsigned position,
                                                  int64_t rank) {
  Value value = getInput(ref, position);
  const Layer &producer = graph.layers[ref.layer.sources[position].first];
  DenseIntElementsAttr attr;
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    attr = dyn_cast<DenseIntElementsAttr>(constant.getValue());
  if (!attr || getElementType(value).isInteger(1))
    return emitLayerError(ref)
           << "input " << position
           << " (axis) must come from a Const layer of an integer type, but "
              "it comes from "
           << describeLayer(producer) << " (" << producer.type << ", "
           << getOpenVINOTypeName(getElementType(value)) << ")";
  if (attr.getType().getRank() > 1 || attr.getNumElements() != 1)
    return emitLayerError(ref)
           << "input " << position
           << " (axis) must be a scalar or a 1-D tensor of one element, got "
              "shape "
           << formatDims(attr.getType().getShape());
  APInt bits = *attr.value_begin<APInt>();
  bool isUnsigned = getElementType(value).isUnsignedInteger();
  // A value beyond the i64 range is out of [-rank, rank-1] either way.
  std::optional<int64_t> axis =
      isUnsigned ? (bits.getActiveBits() < 64
                        ? std::optional<int64_t>(bits.getZExtValue())
                        : std::nullopt)
                 : bits.trySExtValue();
  if (!axis || *axis < -rank || *axis >= rank)
    return emitLayerError(ref)
           << "the axis (input " << position << ") is "
           << llvm::toString(bits, 10, /*Signed=*/!isUnsigned)
           << ", which is not in [" << -rank << ", " << rank - 1
           << "] for data of rank " << rank;
  return *axis < 0 ? *axis + rank : *axis;
}

FailureOr<Value> OpenVINOImporter::getIndicesInput(const LayerRef &ref,
                                                   unsigned position,
                                                   bool anyInteger) {
  Value indices = getInput(ref, position);
  Type elementType = getElementType(indices);
  if (elementType.isSignlessInteger(32) || elementType.isSignlessInteger(64))
    return indices;
  auto intType = dyn_cast<IntegerType>(elementType);
  if (!anyInteger || !intType || intType.getWidth() == 1)
    return emitLayerError(ref)
           << "input " << position << " (indices) must be "
           << (anyInteger ? "an integer tensor" : "an i32 or i64 tensor")
           << ", got " << getOpenVINOTypeName(elementType);

  if (Value widened = widenedIndices.lookup(indices))
    return widened;

  // Widen to i32 where every value fits, to i64 otherwise.
  unsigned width = intType.getWidth();
  bool isUnsigned = intType.isUnsigned();
  unsigned targetWidth = (width < 32 || (width == 32 && !isUnsigned)) ? 32 : 64;
  Type target = builder.getIntegerType(targetWidth);
  Location loc = getLayerLoc(ref);

  // Constant indices are converted here, so that nd's verifier still sees
  // their values.
  Value widened;
  if (auto constant = indices.getDefiningOp<arith::ConstantOp>()) {
    if (auto attr = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
      DenseElementsAttr converted =
          attr.mapValues(target, [&](const APInt &value) {
            if (width == 64 && isUnsigned && value.isNegative())
              return APInt::getSignedMaxValue(64);
            return isUnsigned ? value.zext(targetWidth)
                              : value.sext(targetWidth);
          });
      widened = arith::ConstantOp::create(builder, loc, converted);
    }
  }
  if (!widened)
    widened = buildElementwise(
        loc, indices, target, [&](OpBuilder &b, Location l, Value x) -> Value {
          if (width == 64) {
            // A u64 above INT64_MAX would read as a negative index: clamp it,
            // as it is out of range of any dim anyway.
            Value max = arith::ConstantOp::create(
                b, l, b.getI64IntegerAttr(std::numeric_limits<int64_t>::max()));
            return arith::MinUIOp::create(b, l, x, max);
          }
          if (isUnsigned)
            return arith::ExtUIOp::create(b, l, target, x);
          return arith::ExtSIOp::create(b, l, target, x);
        });
  widenedIndices[indices] = widened;
  return widened;
}

LogicalResult OpenVINOImporter::verifyLayerOp(const LayerRef &ref,
                                              Operation *op) {
  return verifyImportedOp(op, [&] { return emitLayerError(ref); });
}

LogicalResult OpenVINOImporter::defineOutput(const LayerRef &ref, Value value) {
  const Port &port = ref.layer.outputs.front();
  RankedTensorType type = getTensorType(value);
  // The port records OpenVINO's shape inference; nd's must agree with it.
  if (!areCompatible(port.dims, type.getShape()))
    return emitLayerError(ref, port.offset)
           << "output port " << port.id << " has the dims "
           << formatDims(port.dims) << " but the layer computes shape "
           << formatDims(type.getShape());
  if (port.precision &&
      getMLIRElementType(*port.precision, context) != type.getElementType())
    return emitLayerError(ref, port.offset)
           << "output port " << port.id << " has the precision "
           << getOpenVINONames(*port.precision).second
           << " but the layer computes "
           << getOpenVINOTypeName(type.getElementType());
  values[ref.index].assign(1, value);
  return success();
}

/// Defines the layer's output as the result of `op`, an nd op built for it,
/// once `op` verifies; reports the verifier's messages under the layer
/// otherwise.
LogicalResult OpenVINOImporter::defineVerifiedOutput(const LayerRef &ref,
                                                     Operation *op) {
  if (failed(verifyLayerOp(ref, op)))
    return failure();
  return defineOutput(ref, op->getResult(0));
}

//===----------------------------------------------------------------------===//
// IR building
//===----------------------------------------------------------------------===//

/// The sizes of `value`, with tensor.dim ops for its dynamic dims.
static SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc,
                                          Value value) {
  return tensor::getMixedSizes(b, loc, value);
}

/// Reinterprets a scalar between an unsigned integer type and the signless
/// type of its width (arith only takes signless integers); the LLVM type
/// converter maps both to the same iN, so the casts fold away.
static Value castSignedness(OpBuilder &b, Location loc, Value value,
                            Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, type, value).getResult(0);
}

/// The signless type of an unsigned integer type, other types unchanged.
static Type getSignless(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type);
      intType && !intType.isSignless())
    return IntegerType::get(type.getContext(), intType.getWidth());
  return type;
}

Value OpenVINOImporter::buildElementwise(
    Location loc, Value input, Type resultElementType,
    llvm::function_ref<Value(OpBuilder &, Location, Value)> body) {
  RankedTensorType inputType = getTensorType(input);
  SmallVector<OpFoldResult> sizes = getSizes(builder, loc, input);
  Value init = tensor::EmptyOp::create(builder, loc, sizes, resultElementType);
  int64_t rank = inputType.getRank();
  AffineMap identity = builder.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps = {identity, identity};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Type inputElement = inputType.getElementType();
  auto generic = linalg::GenericOp::create(
      builder, loc, init.getType(), ValueRange{input}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = castSignedness(b, l, args[0], getSignless(inputElement));
        Value y = body(b, l, x);
        Value result = castSignedness(b, l, y, resultElementType);
        linalg::YieldOp::create(b, l, result);
      });
  return generic.getResult(0);
}

Value OpenVINOImporter::buildTranspose(Location loc, Value input,
                                       llvm::ArrayRef<int64_t> permutation) {
  RankedTensorType type = getTensorType(input);
  SmallVector<OpFoldResult> sizes = getSizes(builder, loc, input);
  SmallVector<OpFoldResult> permuted;
  for (int64_t source : permutation)
    permuted.push_back(sizes[source]);
  Value init =
      tensor::EmptyOp::create(builder, loc, permuted, type.getElementType());
  auto transpose =
      linalg::TransposeOp::create(builder, loc, input, init, permutation);
  return transpose.getResult()[0];
}

Value OpenVINOImporter::buildBroadcast(Location loc, Value input,
                                       llvm::ArrayRef<int64_t> shape) {
  // Dims of size 1 in `input` where `shape` is larger read element 0.
  RankedTensorType type = getTensorType(input);
  SmallVector<OpFoldResult> sizes = getSizes(builder, loc, input);
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    if (dim == 1 && shape[i] != 1) {
      sizes[i] = builder.getIndexAttr(shape[i]);
      exprs.push_back(builder.getAffineConstantExpr(0));
    } else {
      exprs.push_back(builder.getAffineDimExpr(i));
    }
  }
  Value init =
      tensor::EmptyOp::create(builder, loc, sizes, type.getElementType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, context),
                                 builder.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, init.getType(), ValueRange{input}, ValueRange{init}, maps,
      iterators, [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args[0]);
      });
  return generic.getResult(0);
}

Value OpenVINOImporter::buildInsertUnitDim(Location loc, Value input,
                                           int64_t position) {
  RankedTensorType type = getTensorType(input);
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + position, 1);
  SmallVector<OpFoldResult> sizes = getSizes(builder, loc, input);
  sizes.insert(sizes.begin() + position, builder.getIndexAttr(1));
  // The unit dim joins the group of a neighbouring source dim; a 0-D source
  // has no groups at all.
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t target = i < position ? i : i + 1;
    groups.push_back({target});
  }
  if (rank > 0) {
    if (position < rank)
      groups[position].insert(groups[position].begin(), position);
    else
      groups[rank - 1].push_back(rank);
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(builder, loc, resultType, input, groups,
                                       sizes)
      .getResult();
}

/// The float value of the integer 2^exponent, or -2^exponent, in `type`'s
/// semantics (an infinity where it does not fit).
static Value getPowerOfTwo(OpBuilder &b, Location loc, FloatType type,
                           unsigned exponent, bool negative) {
  APInt power = APInt::getOneBitSet(exponent + 2, exponent);
  if (negative)
    power.negate();
  APFloat value(type.getFloatSemantics());
  (void)value.convertFromAPInt(power, /*IsSigned=*/true,
                               APFloat::rmNearestTiesToEven);
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

/// One element of Convert-1 from `from` to `to`, on signless scalars. Float
/// to integer truncates towards zero and saturates (NaN gives 0); narrowing
/// integers wrap; to boolean is `!= 0`.
static Value convertScalar(OpBuilder &b, Location loc, Value x, DType from,
                           DType to, MLIRContext *context) {
  Type toType = getSignless(getMLIRElementType(to, context));
  bool fromFloat = isFloatDType(from), toFloat = isFloatDType(to);
  bool fromUnsigned = getDTypeKind(from) != DTypeKind::Signed;
  if (to == DType::Bool) {
    if (fromFloat) {
      Value zero = arith::ConstantOp::create(b, loc, x.getType(),
                                             b.getFloatAttr(x.getType(), 0.0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    }
    Value zero = arith::ConstantOp::create(b, loc, x.getType(),
                                           b.getIntegerAttr(x.getType(), 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (fromFloat && toFloat) {
    auto fromType = cast<FloatType>(x.getType());
    auto toFloatType = cast<FloatType>(toType);
    if (fromType.getWidth() == toFloatType.getWidth()) {
      // f16 <-> bf16: through f32, which holds both exactly.
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      return arith::TruncFOp::create(b, loc, toType, wide);
    }
    if (fromType.getWidth() < toFloatType.getWidth())
      return arith::ExtFOp::create(b, loc, toType, x);
    return arith::TruncFOp::create(b, loc, toType, x);
  }
  if (!fromFloat && toFloat) {
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, toType, x);
    return arith::SIToFPOp::create(b, loc, toType, x);
  }
  auto toInt = cast<IntegerType>(toType);
  unsigned toWidth = toInt.getWidth();
  bool toUnsigned = getDTypeKind(to) != DTypeKind::Signed;
  if (!fromFloat) {
    unsigned fromWidth = cast<IntegerType>(x.getType()).getWidth();
    if (fromWidth == toWidth)
      return x;
    if (fromWidth > toWidth)
      return arith::TruncIOp::create(b, loc, toType, x);
    if (fromUnsigned)
      return arith::ExtUIOp::create(b, loc, toType, x);
    return arith::ExtSIOp::create(b, loc, toType, x);
  }

  // Float to integer. fptosi/fptoui are poison outside the target range;
  // the selects below never pick them there.
  auto floatType = cast<FloatType>(x.getType());
  Value truncated = toUnsigned
                        ? Value(arith::FPToUIOp::create(b, loc, toType, x))
                        : Value(arith::FPToSIOp::create(b, loc, toType, x));
  APInt maxValue = toUnsigned ? APInt::getMaxValue(toWidth)
                              : APInt::getSignedMaxValue(toWidth);
  APInt minValue =
      toUnsigned ? APInt::getZero(toWidth) : APInt::getSignedMinValue(toWidth);
  Value maxInt = arith::ConstantOp::create(b, loc, toType,
                                           b.getIntegerAttr(toType, maxValue));
  Value minInt = arith::ConstantOp::create(b, loc, toType,
                                           b.getIntegerAttr(toType, minValue));
  Value zeroInt =
      arith::ConstantOp::create(b, loc, toType, b.getIntegerAttr(toType, 0));
  // x >= 2^n (unsigned) or 2^(n-1) (signed) saturates high; x <= -1
  // (unsigned) or x <= -2^(n-1) (signed) low.
  Value upper = getPowerOfTwo(b, loc, floatType,
                              toUnsigned ? toWidth : toWidth - 1, false);
  Value lower = toUnsigned
                    ? Value(arith::ConstantOp::create(
                          b, loc, floatType, b.getFloatAttr(floatType, -1.0)))
                    : getPowerOfTwo(b, loc, floatType, toWidth - 1, true);
  Value high =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x, upper);
  Value low =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, lower);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value result = arith::SelectOp::create(b, loc, high, maxInt, truncated);
  result = arith::SelectOp::create(b, loc, low, minInt, result);
  return arith::SelectOp::create(b, loc, isNaN, zeroInt, result);
}

Value OpenVINOImporter::buildConvert(Location loc, Value input, DType from,
                                     DType to) {
  Type toType = getMLIRElementType(to, context);
  return buildElementwise(loc, input, toType,
                          [&](OpBuilder &b, Location l, Value x) {
                            return convertScalar(b, l, x, from, to, context);
                          });
}

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

FailureOr<llvm::StringRef> OpenVINOImporter::getWeights(const LayerRef &ref) {
  if (weights)
    return weights->getBuffer();
  if (!options.weightsPath.empty()) {
    weightsPath = options.weightsPath;
  } else {
    llvm::StringRef path = locator.getPath();
    if (path.empty() || path == "-" || path == "<stdin>")
      return emitLayerError(ref)
             << "the model has Const layers but no weights file: the XML "
                "was not read from a file, so give the weights file's path";
    llvm::SmallString<256> binPath(path);
    llvm::sys::path::replace_extension(binPath, "bin");
    weightsPath = binPath.str().str();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(weightsPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return emitLayerError(ref)
           << "cannot read the weights file '" << weightsPath
           << "': " << file.getError().message();
  weights = std::move(*file);
  return weights->getBuffer();
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

FailureOr<RankedTensorType>
OpenVINOImporter::getDeclaredType(const LayerRef &ref,
                                  const llvm::StringMap<std::string> &attrs,
                                  bool allowDynamic) {
  FailureOr<DType> dtype = getElementTypeAttr(ref, attrs, "element_type");
  if (failed(dtype))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      getShapeAttr(ref, attrs, allowDynamic);
  if (failed(shape))
    return failure();
  const Port &port = ref.layer.outputs.front();
  if (!areCompatible(*shape, port.dims))
    return emitLayerError(ref, port.offset)
           << "output port " << port.id << " has the dims "
           << formatDims(port.dims) << " but the attribute 'shape' is "
           << formatDims(*shape);
  if (port.precision && *port.precision != *dtype)
    return emitLayerError(ref, port.offset)
           << "output port " << port.id << " has the precision "
           << getOpenVINONames(*port.precision).second
           << " but the attribute 'element_type' is "
           << getOpenVINONames(*dtype).first;
  // The more static of the two.
  SmallVector<int64_t> dims(*shape);
  for (auto [dim, portDim] : llvm::zip_equal(dims, port.dims)) {
    if (ShapedType::isDynamic(dim))
      dim = portDim;
  }
  return RankedTensorType::get(dims, getMLIRElementType(*dtype, context));
}

FailureOr<RankedTensorType> OpenVINOImporter::getParameterType(LayerRef &ref) {
  if (failed(checkPorts(ref, 0, 1)))
    return failure();
  auto attrs = checkAttributes(ref, {"shape", "element_type"},
                               {"shape", "element_type"});
  if (failed(attrs))
    return failure();
  return getDeclaredType(ref, *attrs, /*allowDynamic=*/true);
}

LogicalResult OpenVINOImporter::importLayer(LayerRef &ref) {
  llvm::StringRef type = ref.layer.type;
  if (type == "Parameter") {
    Value arg = arguments.lookup(ref.index);
    values[ref.index].assign(1, arg);
    return success();
  }
  if (type == "Result") {
    if (failed(checkPorts(ref, 1, 0)) || failed(checkAttributes(ref, {})))
      return failure();
    return success();
  }
  if (type == "Const" || type == "Constant")
    return importConst(ref);
  if (type == "Convert")
    return importConvert(ref);
  if (type == "ScatterNDUpdate")
    return importScatterNDUpdate(ref);
  if (type == "ScatterElementsUpdate")
    return importScatterElementsUpdate(ref);
  if (type == "ScatterUpdate")
    return importScatterUpdate(ref);
  if (type == "GatherND")
    return importGatherND(ref);
  if (type == "Gather")
    return importGather(ref);
  if (type == "GatherElements")
    return importGatherElements(ref);
  // resolveVersion accepted only the types above.
  return emitLayerError(ref) << "unsupported layer type";
}

LogicalResult OpenVINOImporter::importConst(LayerRef &ref) {
  if (failed(checkPorts(ref, 0, 1)))
    return failure();
  auto attrs = checkAttributes(ref, {"element_type", "shape", "offset", "size"},
                               {"element_type", "shape", "offset", "size"});
  if (failed(attrs))
    return failure();
  FailureOr<RankedTensorType> type =
      getDeclaredType(ref, *attrs, /*allowDynamic=*/false);
  if (failed(type))
    return failure();
  std::optional<DType> dtype = getDTypeOf(type->getElementType());
  ArrayRef<int64_t> shape = type->getShape();
  FailureOr<int64_t> offset = getIntAttr(ref, *attrs, "offset", 0);
  FailureOr<int64_t> size = getIntAttr(ref, *attrs, "size", 0);
  if (failed(offset) || failed(size))
    return failure();
  if (*offset < 0 || *size < 0)
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute '" << (*offset < 0 ? "offset" : "size")
           << "' is negative (" << (*offset < 0 ? *offset : *size) << ")";

  // The byte count the shape needs, without overflow.
  uint64_t numElements = 1;
  bool overflow = false;
  for (int64_t dim : shape) {
    numElements = llvm::SaturatingMultiply(
        numElements, static_cast<uint64_t>(dim), &overflow);
  }
  uint64_t numBytes = llvm::SaturatingMultiply(
      numElements, static_cast<uint64_t>(getDTypeSize(*dtype)), &overflow);
  if (overflow || numBytes != static_cast<uint64_t>(*size))
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute 'size' is " << *size << " bytes but "
           << getOpenVINONames(*dtype).first << " of shape "
           << formatDims(shape) << " takes "
           << (overflow ? std::string("more than 2^64")
                        : std::to_string(numBytes))
           << " bytes";
  FailureOr<llvm::StringRef> bytes = getWeights(ref);
  if (failed(bytes))
    return failure();
  uint64_t end = static_cast<uint64_t>(*offset) + static_cast<uint64_t>(*size);
  if (end > bytes->size())
    return emitLayerError(ref, ref.layer.dataOffset)
           << "bytes [" << *offset << ", " << end
           << ") are outside the weights file '" << weightsPath << "' ("
           << bytes->size() << " bytes)";
  llvm::StringRef raw = bytes->substr(*offset, *size);

  FailureOr<DenseElementsAttr> value =
      buildDenseConstant(*type, llvm::ArrayRef<char>(raw.data(), raw.size()),
                         [&] { return emitLayerError(ref); });
  if (failed(value))
    return failure();
  auto constant = arith::ConstantOp::create(builder, getLayerLoc(ref), *value);
  return defineOutput(ref, constant.getResult());
}

LogicalResult OpenVINOImporter::importConvert(LayerRef &ref) {
  if (failed(checkPorts(ref, 1, 1)))
    return failure();
  auto attrs = checkAttributes(ref, {"destination_type"}, {"destination_type"});
  if (failed(attrs))
    return failure();
  FailureOr<DType> to = getElementTypeAttr(ref, *attrs, "destination_type");
  if (failed(to))
    return failure();
  Value input = getInput(ref, 0);
  std::optional<DType> from = getDTypeOf(getElementType(input));
  if (!from)
    return emitLayerError(ref) << "input 0 has an element type Convert does "
                                  "not take";
  if (*from == *to)
    return defineOutput(ref, input);
  Value converted = buildConvert(getLayerLoc(ref), input, *from, *to);
  return defineOutput(ref, converted);
}

FailureOr<ReductionKind> OpenVINOImporter::getReductionAttr(
    const LayerRef &ref, const llvm::StringMap<std::string> &attrs,
    llvm::ArrayRef<EnumName<ReductionKind>> allowed) {
  auto it = attrs.find("reduction");
  if (it == attrs.end())
    return ReductionKind::None;
  return parseEnumName(allowed, "reduction", it->second, [&] {
    return emitLayerError(ref, ref.layer.dataOffset);
  });
}

FailureOr<int64_t>
OpenVINOImporter::getOnlyIntAttr(const LayerRef &ref, llvm::StringRef name,
                                 std::optional<int64_t> defaultValue) {
  SmallVector<llvm::StringRef, 1> required;
  if (!defaultValue)
    required.push_back(name);
  auto attrs = checkAttributes(ref, {name}, required);
  if (failed(attrs))
    return failure();
  return getIntAttr(ref, *attrs, name, defaultValue.value_or(0));
}

LogicalResult OpenVINOImporter::importScatterNDUpdate(LayerRef &ref) {
  if (failed(checkPorts(ref, 3, 1)))
    return failure();
  bool hasReduction = ref.version >= 15;
  auto attrs = hasReduction ? checkAttributes(ref, {"reduction"})
                            : checkAttributes(ref, {});
  if (failed(attrs))
    return failure();
  FailureOr<ReductionKind> reduction =
      getReductionAttr(ref, *attrs, kScatterNDUpdateReductions);
  if (failed(reduction))
    return failure();
  FailureOr<Value> indices = getIndicesInput(ref, 1, /*anyInteger=*/false);
  if (failed(indices) || failed(checkSameType(ref, 0, 2)))
    return failure();
  Value data = getInput(ref, 0), updates = getInput(ref, 2);
  auto op = ScatterNDOp::create(builder, getLayerLoc(ref), data.getType(), data,
                                *indices, updates, *reduction);
  return defineVerifiedOutput(ref, op);
}

LogicalResult OpenVINOImporter::importScatterElementsUpdate(LayerRef &ref) {
  if (failed(checkPorts(ref, 4, 1)))
    return failure();
  auto attrs = ref.version >= 12
                   ? checkAttributes(ref, {"reduction", "use_init_val"})
                   : checkAttributes(ref, {});
  if (failed(attrs))
    return failure();
  FailureOr<ReductionKind> reduction =
      getReductionAttr(ref, *attrs, kScatterElementsUpdateReductions);
  if (failed(reduction))
    return failure();
  bool useInitVal = true;
  if (attrs->count("use_init_val")) {
    std::string text = attrs->lookup("use_init_val");
    std::optional<bool> value = lookupEnumName<bool>(kBooleans, text);
    if (!value)
      return emitLayerError(ref, ref.layer.dataOffset)
             << "attribute 'use_init_val' is '" << text
             << "', not a boolean (true or false)";
    useInitVal = *value;
  }
  Value data = getInput(ref, 0);
  if (*reduction == ReductionKind::Mean && getElementType(data).isInteger(1))
    return emitLayerError(ref) << "reduction 'mean' is not defined on "
                                  "boolean data";
  FailureOr<Value> indices = getIndicesInput(ref, 1, /*anyInteger=*/true);
  if (failed(indices) || failed(checkSameType(ref, 0, 2)))
    return failure();
  FailureOr<int64_t> axis = getAxisInput(ref, 3, getTensorType(data).getRank());
  if (failed(axis))
    return failure();
  Value updates = getInput(ref, 2);
  auto op = ScatterElementsOp::create(
      builder, getLayerLoc(ref), data.getType(), data, *indices, updates,
      builder.getI64IntegerAttr(*axis),
      ReductionKindAttr::get(context, *reduction),
      builder.getBoolAttr(useInitVal));
  return defineVerifiedOutput(ref, op);
}

LogicalResult OpenVINOImporter::importScatterUpdate(LayerRef &ref) {
  if (failed(checkPorts(ref, 4, 1)) || failed(checkAttributes(ref, {})))
    return failure();
  Value data = getInput(ref, 0), updates = getInput(ref, 2);
  FailureOr<Value> indices = getIndicesInput(ref, 1, /*anyInteger=*/true);
  if (failed(indices) || failed(checkSameType(ref, 0, 2)))
    return failure();
  RankedTensorType dataType = getTensorType(data);
  int64_t rank = dataType.getRank();
  if (rank < 1)
    return emitLayerError(ref) << "input 0 (data) must have rank >= 1";
  FailureOr<int64_t> axis = getAxisInput(ref, 3, rank);
  if (failed(axis))
    return failure();
  int64_t a = *axis;

  // updates.shape = data.shape[:axis] + indices.shape + data.shape[axis+1:].
  ArrayRef<int64_t> indicesShape = getTensorType(*indices).getShape();
  int64_t q = indicesShape.size();
  SmallVector<int64_t> expected(dataType.getShape().take_front(a));
  llvm::append_range(expected, indicesShape);
  llvm::append_range(expected, dataType.getShape().drop_front(a + 1));
  ArrayRef<int64_t> updatesShape = getTensorType(updates).getShape();
  if (!areCompatible(expected, updatesShape))
    return emitLayerError(ref)
           << "input 2 (updates) has shape " << formatDims(updatesShape)
           << " but data " << formatDims(dataType.getShape()) << ", indices "
           << formatDims(indicesShape) << " and axis " << a
           << " need data.shape[:axis] + indices.shape + "
              "data.shape[axis+1:] = "
           << formatDims(expected);

  // As nd.scatter_nd: the axis leads in data, the indices dims lead in
  // updates, and each index is a one-component tuple.
  Location loc = getLayerLoc(ref);
  Value index = *indices, update = updates;
  if (q == 0) {
    index = buildInsertUnitDim(loc, index, 0);
    update = buildInsertUnitDim(loc, update, a);
    q = 1;
  }
  index = buildInsertUnitDim(loc, index, q);
  Value target = data;
  SmallVector<int64_t> dataPermutation, updatesPermutation;
  if (a != 0) {
    dataPermutation.push_back(a);
    for (int64_t i = 0; i < rank; ++i) {
      if (i != a)
        dataPermutation.push_back(i);
    }
    for (int64_t i = a; i < a + q; ++i)
      updatesPermutation.push_back(i);
    for (int64_t i = 0; i < rank - 1 + q; ++i) {
      if (i < a || i >= a + q)
        updatesPermutation.push_back(i);
    }
    target = buildTranspose(loc, data, dataPermutation);
    update = buildTranspose(loc, update, updatesPermutation);
  }
  auto op = ScatterNDOp::create(builder, loc, target.getType(), target, index,
                                update, ReductionKind::None);
  if (failed(verifyLayerOp(ref, op)))
    return failure();
  Value result = op.getResult();
  if (a != 0) {
    SmallVector<int64_t> inverse(rank);
    for (auto [i, source] : llvm::enumerate(dataPermutation))
      inverse[source] = i;
    result = buildTranspose(loc, result, inverse);
  }
  return defineOutput(ref, result);
}

LogicalResult OpenVINOImporter::importGatherND(LayerRef &ref) {
  if (failed(checkPorts(ref, 2, 1)))
    return failure();
  FailureOr<int64_t> batchDims = getOnlyIntAttr(ref, "batch_dims", 0);
  if (failed(batchDims))
    return failure();
  Value data = getInput(ref, 0);
  FailureOr<Value> indices = getIndicesInput(ref, 1, /*anyInteger=*/true);
  if (failed(indices))
    return failure();
  ArrayRef<int64_t> dataShape = getTensorType(data).getShape();
  ArrayRef<int64_t> indicesShape = getTensorType(*indices).getShape();
  int64_t r = dataShape.size(), q = indicesShape.size();
  int64_t b = *batchDims;
  if (r < 1 || q < 1)
    return emitLayerError(ref) << "inputs 0 (data) and 1 (indices) must have "
                                  "rank >= 1";
  if (b < 0 || b >= std::min(r, q))
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute 'batch_dims' is " << b << ", which is not in [0, "
           << std::min(r, q) << ") for data of rank " << r
           << " and indices of rank " << q;

  // "Broadcastable" batch dims: a static 1 on one side takes the other's
  // static size.
  Location loc = getLayerLoc(ref);
  SmallVector<int64_t> dataTarget(dataShape), indicesTarget(indicesShape);
  bool broadcastData = false, broadcastIndices = false;
  for (int64_t i = 0; i < b; ++i) {
    int64_t d = dataShape[i], n = indicesShape[i];
    if (ShapedType::isDynamic(d) || ShapedType::isDynamic(n) || d == n)
      continue;
    if (d == 1) {
      dataTarget[i] = n;
      broadcastData = true;
    } else if (n == 1) {
      indicesTarget[i] = d;
      broadcastIndices = true;
    } else {
      return emitLayerError(ref)
             << "batch dim " << i << " is " << d << " in data and " << n
             << " in indices: batch dims must be equal, or 1 on one side";
    }
  }
  if (broadcastData)
    data = buildBroadcast(loc, data, dataTarget);
  Value index = *indices;
  if (broadcastIndices)
    index = buildBroadcast(loc, index, indicesTarget);

  FailureOr<RankedTensorType> resultType = GatherNDOp::inferResultType(
      getTensorType(data), getTensorType(index), b,
      [&] { return continueAsOpError<GatherNDOp>(emitLayerError(ref)); });
  if (failed(resultType))
    return failure();
  auto op = GatherNDOp::create(builder, loc, *resultType, data, index, b);
  if (failed(verifyLayerOp(ref, op)))
    return failure();
  Value result = op.getResult();
  // GatherND-5 flattens the batch dims into one.
  if (ref.version == 5 && b > 1) {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices batch;
    for (int64_t i = 0; i < b; ++i)
      batch.push_back(i);
    groups.push_back(batch);
    for (int64_t i = b, e = resultType->getRank(); i < e; ++i)
      groups.push_back({i});
    result = tensor::CollapseShapeOp::create(builder, loc, result, groups)
                 .getResult();
  }
  return defineOutput(ref, result);
}

LogicalResult OpenVINOImporter::importGather(LayerRef &ref) {
  if (failed(checkPorts(ref, 3, 1)))
    return failure();
  // Gather-1 has no attributes, 7 and 8 batch_dims.
  FailureOr<int64_t> batchDims = 0;
  if (ref.version >= 7)
    batchDims = getOnlyIntAttr(ref, "batch_dims", 0);
  else if (failed(checkAttributes(ref, {})))
    return failure();
  if (failed(batchDims))
    return failure();
  Value data = getInput(ref, 0);
  FailureOr<Value> indices = getIndicesInput(ref, 1, /*anyInteger=*/true);
  if (failed(indices))
    return failure();
  int64_t r = getTensorType(data).getRank();
  int64_t q = getTensorType(*indices).getRank();
  if (r < 1)
    return emitLayerError(ref) << "input 0 (data) must have rank >= 1";
  FailureOr<int64_t> axis = getAxisInput(ref, 2, r);
  if (failed(axis))
    return failure();
  // batch_dims in [-min(r, q), min(r, q)], negative counting from the rank
  // of indices, and at most the axis.
  int64_t b = *batchDims, bound = std::min(r, q);
  if (b < -bound || b > bound)
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute 'batch_dims' is " << b << ", which is not in ["
           << -bound << ", " << bound << "] for data of rank " << r
           << " and indices of rank " << q;
  if (b < 0)
    b += q;
  if (b > *axis)
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute 'batch_dims' is " << *batchDims
           << (b != *batchDims ? " (" + std::to_string(b) + ")" : "")
           << " but the axis is " << *axis
           << ": batch_dims must not exceed the axis";

  Location loc = getLayerLoc(ref);
  FailureOr<RankedTensorType> resultType = GatherOp::inferResultType(
      getTensorType(data), getTensorType(*indices), *axis, b,
      [&] { return continueAsOpError<GatherOp>(emitLayerError(ref)); });
  if (failed(resultType))
    return failure();
  // Gather-8 reads zeros for indices out of range; 1 and 7 leave them
  // undefined, which nd makes an error.
  OobMode oob = ref.version >= 8 ? OobMode::Skip : OobMode::Error;
  auto op =
      GatherOp::create(builder, loc, *resultType, data, *indices, *axis, b, oob);
  return defineVerifiedOutput(ref, op);
}

LogicalResult OpenVINOImporter::importGatherElements(LayerRef &ref) {
  if (failed(checkPorts(ref, 2, 1)))
    return failure();
  FailureOr<int64_t> axis = getOnlyIntAttr(ref, "axis", std::nullopt);
  if (failed(axis))
    return failure();
  Value data = getInput(ref, 0);
  FailureOr<Value> indices = getIndicesInput(ref, 1, /*anyInteger=*/false);
  if (failed(indices))
    return failure();
  ArrayRef<int64_t> dataShape = getTensorType(data).getShape();
  ArrayRef<int64_t> indicesShape = getTensorType(*indices).getShape();
  int64_t r = dataShape.size();
  if (r < 1 || static_cast<int64_t>(indicesShape.size()) != r)
    return emitLayerError(ref)
           << "inputs 0 (data) and 1 (indices) must have the same rank >= 1, "
              "got shapes "
           << formatDims(dataShape) << " and " << formatDims(indicesShape);
  if (*axis < -r || *axis >= r)
    return emitLayerError(ref, ref.layer.dataOffset)
           << "attribute 'axis' is " << *axis << ", which is not in [" << -r
           << ", " << r - 1 << "]";
  int64_t a = *axis < 0 ? *axis + r : *axis;
  // "The indices tensor has the same shape as the data tensor except for
  // the axis dimension."
  for (int64_t i = 0; i < r; ++i) {
    if (i == a || ShapedType::isDynamic(dataShape[i]) ||
        ShapedType::isDynamic(indicesShape[i]) ||
        dataShape[i] == indicesShape[i])
      continue;
    return emitLayerError(ref)
           << "dim " << i << " of indices is " << indicesShape[i] << " but dim "
           << i << " of data is " << dataShape[i] << ": off the axis (" << a
           << ") the shapes must be equal";
  }
  FailureOr<RankedTensorType> resultType = GatherElementsOp::inferResultType(
      getTensorType(data), getTensorType(*indices), a,
      [&] { return continueAsOpError<GatherElementsOp>(emitLayerError(ref)); });
  if (failed(resultType))
    return failure();
  auto op = GatherElementsOp::create(builder, getLayerLoc(ref), *resultType,
                                     data, *indices, a);
  return defineVerifiedOutput(ref, op);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void mlir::nd::registerOpenVINOImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  tensor::TensorDialect, NdDialect>();
}

OwningOpRef<ModuleOp> mlir::nd::importOpenVINOModel(
    llvm::StringRef xml, llvm::StringRef xmlPath, MLIRContext *context,
    const OpenVINOImportOptions &options, OpenVINOGraphSignature *signature) {
  context
      ->loadDialect<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, tensor::TensorDialect, NdDialect>();
  return OpenVINOImporter(context, xml, xmlPath, options).import(signature);
}

void mlir::nd::registerImportOpenVINOTranslation(
    std::function<OpenVINOImportOptions()> getOptions) {
  static TranslateToMLIRRegistration registration(
      "import-openvino",
      "Import an OpenVINO IR model (model.xml and its model.bin) into the nd "
      "dialect",
      [getOptions](llvm::SourceMgr &sourceMgr,
                   MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        OpenVINOImportOptions options;
        if (getOptions)
          options = getOptions();
        FileLevelDiagnosticHandler fileDiagnostics(context, llvm::errs());
        OwningOpRef<ModuleOp> module = importOpenVINOModel(
            buffer->getBuffer(), buffer->getBufferIdentifier(), context,
            options);
        return OwningOpRef<Operation *>(module.release());
      },
      registerOpenVINOImportDialects);
}
