//===- ImportONNX.cpp - ONNX model to MLIR ----------------------*- C++ -*-===//
//
// Builds a `func.func` from the main graph of an ONNX model, with ONNX's own
// protobuf classes doing the decoding. The importer checks every node
// against the version of its op that the model's opset selects (attributes,
// attribute values, element types) and builds each nd op only after its
// operands passed the op's shape rules, so that an invalid model ends in
// diagnostics, never in an assertion.
//
// Op versions: the version of a node is the newest since-version of its op
// that is not newer than the model's default-domain opset. Scatter was
// deprecated by ScatterElements-11; nd imports Scatter-9 and the deprecated
// Scatter-11 (with a warning) and rejects Scatter from opset 13, where
// ScatterElements-13 has no Scatter counterpart any more. TensorScatter
// exists from opset 24, newer than the ONNX release Debian packages: models
// using it are read with the same protobuf classes, which carry any op.
//
//===----------------------------------------------------------------------===//

#include "nd/Target/ONNX/ImportONNX.h"

#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Runner/ElementType.h"
#include "nd/Runner/TensorProto.h"
#include "nd/Target/Common/ImportSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <climits>
#include <optional>

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// Op versions
//===----------------------------------------------------------------------===//

/// The since-versions of the ONNX ops nd imports, as in the ONNX operator
/// documentation.
static constexpr int64_t kScatterNDVersions[] = {11, 13, 16, 18};
static constexpr int64_t kGatherNDVersions[] = {11, 12, 13};
static constexpr int64_t kScatterVersions[] = {9, 11};
static constexpr int64_t kScatterElementsVersions[] = {11, 13, 16, 18};
static constexpr int64_t kGatherElementsVersions[] = {11, 13};
static constexpr int64_t kGatherVersions[] = {1, 11, 13};
static constexpr int64_t kTensorScatterVersions[] = {24};
static constexpr int64_t kConstantVersions[] = {1, 9, 11, 12, 13, 19, 21};
static constexpr int64_t kIdentityVersions[] = {1, 13, 14, 16, 19, 21};

/// Scatter is not imported from this opset on (see the file comment).
static constexpr int64_t kScatterRemovedIn = 13;

/// Every version of the scatter-gather family before 13 excludes bfloat16
/// from its data type constraint; 13 added it.
static constexpr int64_t kBFloat16Since = 13;

/// ONNX's names of nd's reductions (the words of nd's own enum), in the
/// order messages list them: ScatterND-16 and ScatterElements-16 have the
/// first three, version 18 added max and min. nd's `sub` and `mean` are
/// OpenVINO's alone.
static constexpr EnumName<ReductionKind> kReductions[] = {
    {"none", ReductionKind::None}, {"add", ReductionKind::Add},
    {"mul", ReductionKind::Mul},   {"max", ReductionKind::Max},
    {"min", ReductionKind::Min},
};
static constexpr int64_t kMaxMinSince = 18;

/// The reductions of version `version` of ScatterND or ScatterElements.
static llvm::ArrayRef<EnumName<ReductionKind>> getReductions(int64_t version) {
  llvm::ArrayRef<EnumName<ReductionKind>> all = kReductions;
  return version >= kMaxMinSince ? all : all.take_front(3);
}

/// TensorScatter's modes.
static constexpr EnumName<TensorScatterMode> kTensorScatterModes[] = {
    {"linear", TensorScatterMode::Linear},
    {"circular", TensorScatterMode::Circular},
};

/// The newest of `sinceVersions` that is not newer than `opset`.
static std::optional<int64_t>
resolveVersion(llvm::ArrayRef<int64_t> sinceVersions, int64_t opset) {
  std::optional<int64_t> version;
  for (int64_t since : sinceVersions) {
    if (since <= opset)
      version = since;
  }
  return version;
}

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

/// ONNX's spelling of an MLIR element type, for messages: "tensor(float)".
static std::string getONNXTypeName(Type type) {
  std::optional<DType> dtype = getDTypeOf(type);
  return ("tensor(" + (dtype ? getONNXTypeString(*dtype) : "?") + ")").str();
}

//===----------------------------------------------------------------------===//
// ONNXImporter
//===----------------------------------------------------------------------===//

namespace {
/// A node being imported: its proto, its position in the graph and the
/// version of its op the model's opset selects (0 until resolved).
struct NodeRef {
  const onnx::NodeProto &proto;
  int64_t index;
  int64_t version = 0;
};

/// An attribute a node may carry and the op version that introduced it.
struct AllowedAttr {
  llvm::StringRef name;
  int64_t since;
};

/// Imports one model. Holds the name-to-value map of the graph being built.
class ONNXImporter {
public:
  ONNXImporter(MLIRContext *context, llvm::StringRef sourceName,
               const ONNXImportOptions &options)
      : context(context), builder(context), options(options),
        fileLoc(FileLineColLoc::get(context, sourceName, 0, 0)) {}

  OwningOpRef<ModuleOp> import(llvm::StringRef bytes,
                               ONNXGraphSignature *signature);

private:
  // Model and graph structure.
  LogicalResult resolveOpset(const onnx::ModelProto &model);
  FailureOr<func::FuncOp> buildFunction(const onnx::GraphProto &graph,
                                        ModuleOp module,
                                        ONNXGraphSignature &signature);
  FailureOr<RankedTensorType> convertValueInfo(const onnx::ValueInfoProto &info,
                                               llvm::StringRef what,
                                               bool requireShape);
  FailureOr<DenseElementsAttr> convertTensor(const HostTensor &tensor,
                                             ElementErrorEmitter emitError);
  LogicalResult defineValue(const std::string &name, Value value,
                            llvm::StringRef what);

  // Nodes.
  LogicalResult importNode(NodeRef &node);
  LogicalResult importScatterND(NodeRef &node);
  LogicalResult importGatherND(NodeRef &node);
  LogicalResult importScatterElements(NodeRef &node, bool isScatter);
  template <typename OpTy>
  LogicalResult importAxisGather(NodeRef &node,
                                 llvm::ArrayRef<int64_t> sinceVersions,
                                 int64_t axisSince);
  LogicalResult importTensorScatter(NodeRef &node);
  LogicalResult importConstant(NodeRef &node);
  LogicalResult importIdentity(NodeRef &node);

  // Node helpers.
  InFlightDiagnostic emitNodeError(const NodeRef &node);
  Location getNodeLoc(const NodeRef &node);
  LogicalResult resolveNodeVersion(NodeRef &node,
                                   llvm::ArrayRef<int64_t> sinceVersions);
  LogicalResult checkArity(const NodeRef &node, int numInputs,
                           int numOptionalInputs = 0);
  FailureOr<SmallVector<Value>> getInputs(const NodeRef &node,
                                          int numRequired = -1);
  FailureOr<llvm::StringMap<const onnx::AttributeProto *>>
  checkAttributes(const NodeRef &node, llvm::ArrayRef<AllowedAttr> allowed);
  FailureOr<int64_t> getIntAttr(const NodeRef &node,
                                const onnx::AttributeProto *attr,
                                int64_t defaultValue);
  FailureOr<std::string> getStringAttr(const NodeRef &node,
                                       const onnx::AttributeProto &attr);
  FailureOr<ReductionKind> getReduction(const NodeRef &node,
                                        const onnx::AttributeProto *attr);
  LogicalResult checkDataType(const NodeRef &node, llvm::StringRef inputName,
                              Value value);
  LogicalResult checkIndicesType(const NodeRef &node, Value indices,
                                 bool allowI32,
                                 llvm::StringRef inputName = "indices");
  FailureOr<SmallVector<Value>> getDataIndicesInputs(const NodeRef &node,
                                                     bool allowI32);
  LogicalResult checkSameElementType(const NodeRef &node, Value data,
                                     Value updates,
                                     llvm::StringRef dataName = "data",
                                     llvm::StringRef updatesName = "updates");
  LogicalResult defineNodeOutput(const NodeRef &node, Value value);
  LogicalResult defineVerifiedOutput(const NodeRef &node, Operation *op);

  MLIRContext *context;
  OpBuilder builder;
  const ONNXImportOptions &options;
  /// The model file, at line 0: a binary model has no lines. Errors are
  /// reported here, their message naming the node, initializer or graph
  /// input or output (FileLevelDiagnosticHandler prints them as
  /// "FILE: error: ...").
  Location fileLoc;
  int64_t opset = 0;

  /// The values defined so far, by ONNX name.
  llvm::StringMap<Value> values;
  /// The index of the node defining each node output, to tell "defined
  /// later" from "never defined".
  llvm::StringMap<int64_t> producers;
};
} // namespace

OwningOpRef<ModuleOp> ONNXImporter::import(llvm::StringRef bytes,
                                           ONNXGraphSignature *signature) {
  if (bytes.empty()) {
    emitError(fileLoc) << "empty file: not an ONNX model";
    return nullptr;
  }
  // Protobuf parses at most 2 GiB; larger models keep their weights in
  // external data files, which nd does not read either.
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    emitError(fileLoc) << "file too large for an ONNX model (> 2 GiB)";
    return nullptr;
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(fileLoc)
        << "malformed or truncated ONNX model (not a valid ModelProto)";
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(fileLoc) << "the model has no graph (not an ONNX model, or a "
                          "truncated one)";
    return nullptr;
  }
  if (failed(resolveOpset(model)))
    return nullptr;

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  ONNXGraphSignature names;
  if (failed(buildFunction(model.graph(), *module, names)))
    return nullptr;
  if (signature)
    *signature = std::move(names);
  return module;
}

LogicalResult ONNXImporter::resolveOpset(const onnx::ModelProto &model) {
  std::optional<int64_t> version;
  for (const onnx::OperatorSetIdProto &import : model.opset_import()) {
    if (!import.domain().empty() && import.domain() != "ai.onnx")
      continue;
    if (version && *version != import.version())
      return emitError(fileLoc)
             << "the model imports the default ONNX opset twice, as versions "
             << *version << " and " << import.version();
    version = import.version();
  }
  if (!version)
    return emitError(fileLoc)
           << "the model does not import the default ONNX opset (domain '' "
              "or 'ai.onnx')";
  if (*version < 1)
    return emitError(fileLoc)
           << "invalid default ONNX opset version " << *version;
  opset = *version;
  return success();
}

FailureOr<RankedTensorType>
ONNXImporter::convertValueInfo(const onnx::ValueInfoProto &info,
                               llvm::StringRef what, bool requireShape) {
  Location loc = fileLoc;
  if (!info.has_type()) {
    if (!requireShape)
      return RankedTensorType();
    return emitError(loc) << what << " '" << info.name() << "' has no type";
  }
  const onnx::TypeProto &type = info.type();
  if (type.value_case() != onnx::TypeProto::kTensorType)
    return emitError(loc) << what << " '" << info.name()
                          << "' is not a tensor (sequence, map, optional and "
                             "sparse tensor types are not supported)";
  const onnx::TypeProto_Tensor &tensorType = type.tensor_type();
  if (!requireShape && (!tensorType.has_elem_type() || !tensorType.has_shape()))
    return RankedTensorType();
  llvm::Expected<DType> dtype = getDTypeFromONNX(tensorType.elem_type());
  if (!dtype)
    return emitError(loc) << what << " '" << info.name()
                          << "': " << llvm::toString(dtype.takeError());
  if (!tensorType.has_shape())
    return emitError(loc) << what << " '" << info.name()
                          << "' has no shape (unranked tensors are not "
                             "supported)";

  SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto_Dimension &dim : tensorType.shape().dim()) {
    // Symbolic and unknown dimensions become dynamic.
    if (dim.value_case() != onnx::TensorShapeProto_Dimension::kDimValue) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (dim.dim_value() < 0)
      return emitError(loc)
             << what << " '" << info.name() << "' dim " << shape.size()
             << " is negative (" << dim.dim_value() << ")";
    shape.push_back(dim.dim_value());
  }
  return RankedTensorType::get(shape, getMLIRElementType(*dtype, context));
}

/// The names of the symbolic dims (`dim_param`) of `info`, "" for the other
/// dims, or null where it names none: the function argument or result gets
/// them as `nd.dim_names`, and the exported entry enforces them.
static ArrayAttr getDimNames(const onnx::ValueInfoProto &info, Builder &b) {
  if (!info.has_type() || !info.type().has_tensor_type() ||
      !info.type().tensor_type().has_shape())
    return nullptr;
  SmallVector<Attribute> names;
  bool any = false;
  for (const onnx::TensorShapeProto_Dimension &dim :
       info.type().tensor_type().shape().dim()) {
    bool named =
        dim.value_case() == onnx::TensorShapeProto_Dimension::kDimParam &&
        !dim.dim_param().empty();
    any |= named;
    names.push_back(b.getStringAttr(named ? dim.dim_param() : ""));
  }
  return any ? b.getArrayAttr(names) : nullptr;
}

/// Gives the arguments and results of `func`, built from `graph` (whose
/// inputs named in `initializerNames` are constants, not arguments), the
/// names of their symbolic dims as `nd.dim_names`.
static void setDimNames(func::FuncOp func, const onnx::GraphProto &graph,
                        const llvm::StringSet<> &initializerNames,
                        Builder &b) {
  StringRef attrName = NdDialect::getDimNamesAttrName();
  unsigned position = 0;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializerNames.contains(input.name()))
      continue;
    if (ArrayAttr names = getDimNames(input, b))
      func.setArgAttr(position, attrName, names);
    ++position;
  }
  for (auto [k, output] : llvm::enumerate(graph.output())) {
    ArrayAttr names = getDimNames(output, b);
    auto type = cast<RankedTensorType>(func.getResultTypes()[k]);
    if (names && static_cast<int64_t>(names.size()) == type.getRank())
      func.setResultAttr(k, attrName, names);
  }
}

FailureOr<DenseElementsAttr>
ONNXImporter::convertTensor(const HostTensor &tensor,
                            ElementErrorEmitter emitError) {
  auto type = RankedTensorType::get(
      tensor.getShape(), getMLIRElementType(tensor.getDType(), context));
  // A host tensor holds its elements as ONNX's raw data does (bools one
  // byte each).
  llvm::ArrayRef<char> bytes(reinterpret_cast<const char *>(tensor.getData()),
                             tensor.getSizeInBytes());
  return buildDenseConstant(type, bytes, emitError);
}

LogicalResult ONNXImporter::defineValue(const std::string &name, Value value,
                                        llvm::StringRef what) {
  if (name.empty())
    return emitError(fileLoc) << what << " has an empty name";
  if (!values.try_emplace(name, value).second)
    return emitError(fileLoc)
           << what << " '" << name
           << "' is defined twice (a graph input, initializer or node output "
              "of the same name exists)";
  return success();
}

FailureOr<func::FuncOp>
ONNXImporter::buildFunction(const onnx::GraphProto &graph, ModuleOp module,
                            ONNXGraphSignature &signature) {
  if (graph.sparse_initializer_size() > 0)
    return emitError(fileLoc) << "sparse initializers are not supported";

  // Inputs that have an initializer are constants, not arguments.
  llvm::StringSet<> initializerNames;
  for (const onnx::TensorProto &initializer : graph.initializer())
    initializerNames.insert(initializer.name());

  SmallVector<GraphArgument> args;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializerNames.contains(input.name()))
      continue;
    FailureOr<RankedTensorType> type =
        convertValueInfo(input, "graph input", /*requireShape=*/true);
    if (failed(type))
      return failure();
    args.push_back({input.name(), *type, fileLoc});
    signature.inputNames.push_back(input.name());
  }

  // Result types come from the declared outputs where they are complete;
  // the others are taken from the values that reach the outputs.
  SmallVector<RankedTensorType> declaredResults;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    FailureOr<RankedTensorType> type =
        convertValueInfo(output, "graph output", /*requireShape=*/false);
    if (failed(type))
      return failure();
    declaredResults.push_back(*type);
  }

  func::FuncOp func =
      createGraphFunction(builder, module, fileLoc, options.functionName, args);
  for (auto [input, arg] : llvm::zip_equal(args, func.getArguments())) {
    if (failed(defineValue(input.name.str(), arg, "graph input")))
      return failure();
  }
  for (const onnx::TensorProto &initializer : graph.initializer()) {
    Location loc =
        NameLoc::get(builder.getStringAttr(initializer.name()), fileLoc);
    auto emitInitializerError = [&] {
      return emitError(fileLoc)
             << "initializer '" << initializer.name() << "': ";
    };
    llvm::Expected<HostTensor> tensor = convertTensorProto(initializer);
    // The reader's message names the tensor.
    if (!tensor)
      return emitError(fileLoc)
             << "initializer: " << llvm::toString(tensor.takeError());
    FailureOr<DenseElementsAttr> attr =
        convertTensor(*tensor, emitInitializerError);
    if (failed(attr))
      return failure();
    Value constant = arith::ConstantOp::create(builder, loc, *attr);
    if (failed(defineValue(initializer.name(), constant, "initializer")))
      return failure();
  }

  for (auto [index, node] : llvm::enumerate(graph.node())) {
    for (const std::string &output : node.output())
      producers.try_emplace(output, static_cast<int64_t>(index));
  }
  for (auto [index, node] : llvm::enumerate(graph.node())) {
    NodeRef ref{node, static_cast<int64_t>(index)};
    if (failed(importNode(ref)))
      return failure();
  }

  SmallVector<Value> results;
  for (auto [output, declared] :
       llvm::zip_equal(graph.output(), declaredResults)) {
    Location loc = NameLoc::get(builder.getStringAttr(output.name()), fileLoc);
    auto it = values.find(output.name());
    if (it == values.end())
      return emitError(fileLoc)
             << "graph output '" << output.name() << "' is never defined";
    Value value = it->second;
    auto produced = cast<RankedTensorType>(value.getType());
    if (declared && declared != produced) {
      if (declared.getElementType() != produced.getElementType() ||
          failed(verifyCompatibleShape(declared, produced)))
        return emitError(fileLoc)
               << "graph output '" << output.name() << "' is declared as "
               << declared << " but its value has type " << produced;
      value = tensor::CastOp::create(builder, loc, declared, value);
    }
    results.push_back(value);
    signature.outputNames.push_back(output.name());
  }
  finishGraphFunction(builder, func, fileLoc, results);
  setDimNames(func, graph, initializerNames, builder);
  return func;
}

//===----------------------------------------------------------------------===//
// Node helpers
//===----------------------------------------------------------------------===//

/// "node #3 'name' (ScatterND-16)": what a message about a node starts
/// with, so that the user can find the node in the model.
static std::string describeNode(const NodeRef &node) {
  std::string text = "node #" + std::to_string(node.index);
  if (!node.proto.name().empty())
    text += " '" + node.proto.name() + "'";
  if (node.version)
    return text + " (" + formatOpVersion(node.proto.op_type(), node.version) +
           ")";
  return text + " (" + node.proto.op_type() + ")";
}

InFlightDiagnostic ONNXImporter::emitNodeError(const NodeRef &node) {
  // The description names the node: the message is at the file alone.
  return emitError(fileLoc) << describeNode(node) << ": ";
}

Location ONNXImporter::getNodeLoc(const NodeRef &node) {
  std::string name = node.proto.name().empty()
                         ? "node#" + std::to_string(node.index)
                         : node.proto.name();
  return NameLoc::get(builder.getStringAttr(name), fileLoc);
}

LogicalResult
ONNXImporter::resolveNodeVersion(NodeRef &node,
                                 llvm::ArrayRef<int64_t> sinceVersions) {
  std::optional<int64_t> version = resolveVersion(sinceVersions, opset);
  if (!version)
    return emitNodeError(node)
           << "the op does not exist in opset " << opset << " (it was added in "
           << "opset " << sinceVersions.front() << ")";
  node.version = *version;
  return success();
}

/// `numInputs` required inputs and up to `numOptionalInputs` optional ones
/// after them.
LogicalResult ONNXImporter::checkArity(const NodeRef &node, int numInputs,
                                       int numOptionalInputs) {
  int count = node.proto.input_size();
  if (count < numInputs || count > numInputs + numOptionalInputs) {
    InFlightDiagnostic diag = emitNodeError(node) << "expected " << numInputs;
    if (numOptionalInputs > 0)
      diag << " to " << numInputs + numOptionalInputs;
    return diag << " inputs, got " << count;
  }
  if (node.proto.output_size() != 1)
    return emitNodeError(node)
           << "expected 1 output, got " << node.proto.output_size();
  return success();
}

/// The values of the node's inputs. Inputs from `numRequired` on (all when
/// negative) are optional: an empty name there means the input is absent,
/// and its value is null.
FailureOr<SmallVector<Value>> ONNXImporter::getInputs(const NodeRef &node,
                                                      int numRequired) {
  SmallVector<Value> inputs;
  for (auto [i, name] : llvm::enumerate(node.proto.input())) {
    bool optional = numRequired >= 0 && static_cast<int>(i) >= numRequired;
    if (name.empty() && optional) {
      inputs.push_back(Value());
      continue;
    }
    if (name.empty())
      return emitNodeError(node) << "input #" << i << " is missing";
    auto it = values.find(name);
    if (it != values.end()) {
      inputs.push_back(it->second);
      continue;
    }
    auto producer = producers.find(name);
    if (producer != producers.end())
      return emitNodeError(node)
             << "input '" << name << "' is used before node #"
             << producer->second
             << " defines it (nodes must be topologically sorted)";
    return emitNodeError(node) << "input '" << name << "' is never defined";
  }
  return inputs;
}

FailureOr<llvm::StringMap<const onnx::AttributeProto *>>
ONNXImporter::checkAttributes(const NodeRef &node,
                              llvm::ArrayRef<AllowedAttr> allowed) {
  llvm::StringMap<const onnx::AttributeProto *> attrs;
  for (const onnx::AttributeProto &attr : node.proto.attribute()) {
    const AllowedAttr *spec = llvm::find_if(
        allowed, [&](const AllowedAttr &a) { return a.name == attr.name(); });
    if (spec == allowed.end())
      return emitNodeError(node) << "unknown attribute '" << attr.name() << "'";
    if (spec->since > node.version)
      return emitNodeError(node)
             << "attribute '" << attr.name() << "' is not allowed in "
             << formatOpVersion(node.proto.op_type(), node.version)
             << " (opset " << opset << "); it was added in "
             << formatOpVersion(node.proto.op_type(), spec->since);
    if (!attr.ref_attr_name().empty())
      return emitNodeError(node)
             << "attribute '" << attr.name()
             << "' refers to a function attribute, which is not supported";
    if (!attrs.try_emplace(attr.name(), &attr).second)
      return emitNodeError(node)
             << "attribute '" << attr.name() << "' is given twice";
  }
  return attrs;
}

/// The value of the INT attribute `attr`, or `defaultValue` when the node
/// does not carry it.
FailureOr<int64_t> ONNXImporter::getIntAttr(const NodeRef &node,
                                            const onnx::AttributeProto *attr,
                                            int64_t defaultValue) {
  if (!attr)
    return defaultValue;
  // Old producers leave `type` unset; the field present then decides.
  bool isInt = attr->type() == onnx::AttributeProto_AttributeType_INT ||
               (attr->type() == onnx::AttributeProto_AttributeType_UNDEFINED &&
                attr->has_i());
  if (!isInt)
    return emitNodeError(node)
           << "attribute '" << attr->name() << "' must be an INT";
  return attr->i();
}

FailureOr<std::string>
ONNXImporter::getStringAttr(const NodeRef &node,
                            const onnx::AttributeProto &attr) {
  bool isString =
      attr.type() == onnx::AttributeProto_AttributeType_STRING ||
      (attr.type() == onnx::AttributeProto_AttributeType_UNDEFINED &&
       attr.has_s());
  if (!isString)
    return emitNodeError(node)
           << "attribute '" << attr.name() << "' must be a STRING";
  return attr.s();
}

FailureOr<ReductionKind>
ONNXImporter::getReduction(const NodeRef &node,
                           const onnx::AttributeProto *attr) {
  if (!attr)
    return ReductionKind::None;
  FailureOr<std::string> value = getStringAttr(node, *attr);
  if (failed(value))
    return failure();
  llvm::ArrayRef<EnumName<ReductionKind>> allowed = getReductions(node.version);
  if (std::optional<ReductionKind> kind = lookupEnumName(allowed, *value))
    return *kind;
  // A name of a later version is told apart from one ONNX never had.
  if (lookupEnumName<ReductionKind>(kReductions, *value))
    return emitNodeError(node)
           << "reduction '" << *value << "' is not allowed in "
           << formatOpVersion(node.proto.op_type(), node.version) << " (opset "
           << opset << "); max and min were added in "
           << formatOpVersion(node.proto.op_type(), kMaxMinSince);
  return reportUnknownName(emitNodeError(node), "reduction", *value, allowed);
}

LogicalResult ONNXImporter::checkDataType(const NodeRef &node,
                                          llvm::StringRef inputName,
                                          Value value) {
  Type elementType = cast<RankedTensorType>(value.getType()).getElementType();
  if (!elementType.isBF16() || node.version >= kBFloat16Since)
    return success();
  InFlightDiagnostic diag = emitNodeError(node);
  diag << "input '" << inputName << "' has type tensor(bfloat16), which "
       << formatOpVersion(node.proto.op_type(), node.version)
       << " does not allow ";
  // Scatter never got the version 13 that added bfloat16 to its siblings.
  if (node.proto.op_type() == "Scatter")
    return diag << "(no version of Scatter does; ScatterElements-13 does)";
  return diag << "(bfloat16 was added in "
              << formatOpVersion(node.proto.op_type(), kBFloat16Since) << ")";
}

LogicalResult ONNXImporter::checkIndicesType(const NodeRef &node, Value indices,
                                             bool allowI32,
                                             llvm::StringRef inputName) {
  Type elementType = cast<RankedTensorType>(indices.getType()).getElementType();
  if (elementType.isSignlessInteger(64) ||
      (allowI32 && elementType.isSignlessInteger(32)))
    return success();
  return emitNodeError(node)
         << "input '" << inputName << "' must be "
         << (allowI32 ? "tensor(int32) or tensor(int64)" : "tensor(int64)")
         << ", got " << getONNXTypeName(elementType);
}

LogicalResult ONNXImporter::checkSameElementType(const NodeRef &node,
                                                 Value data, Value updates,
                                                 llvm::StringRef dataName,
                                                 llvm::StringRef updatesName) {
  Type dataType = cast<RankedTensorType>(data.getType()).getElementType();
  Type updatesType = cast<RankedTensorType>(updates.getType()).getElementType();
  if (dataType == updatesType)
    return success();
  return emitNodeError(node)
         << "inputs '" << dataName << "' and '" << updatesName
         << "' must have the same type, got " << getONNXTypeName(dataType)
         << " and " << getONNXTypeName(updatesType);
}

/// The inputs of a node of the scatter-gather family proper: data, indices
/// and, for a scatter, updates, each checked against the node's version
/// (indices int64, or int32 too with `allowI32`; updates of data's type).
FailureOr<SmallVector<Value>>
ONNXImporter::getDataIndicesInputs(const NodeRef &node, bool allowI32) {
  FailureOr<SmallVector<Value>> inputs = getInputs(node);
  if (failed(inputs))
    return failure();
  Value data = (*inputs)[0], indices = (*inputs)[1];
  if (failed(checkDataType(node, "data", data)) ||
      failed(checkIndicesType(node, indices, allowI32)))
    return failure();
  if (inputs->size() > 2 &&
      failed(checkSameElementType(node, data, (*inputs)[2])))
    return failure();
  return inputs;
}

LogicalResult ONNXImporter::defineNodeOutput(const NodeRef &node, Value value) {
  const std::string &name = node.proto.output(0);
  if (name.empty())
    return emitNodeError(node) << "output #0 has an empty name";
  if (!values.try_emplace(name, value).second)
    return emitNodeError(node) << "output '" << name
                               << "' is already defined (graph input, "
                                  "initializer or earlier node output)";
  return success();
}

/// Defines the node's output as the result of `op`, an nd op built for it,
/// once `op` verifies; reports the verifier's messages under the node
/// otherwise.
LogicalResult ONNXImporter::defineVerifiedOutput(const NodeRef &node,
                                                 Operation *op) {
  if (failed(verifyImportedOp(op, [&] { return emitNodeError(node); })))
    return failure();
  return defineNodeOutput(node, op->getResult(0));
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

LogicalResult ONNXImporter::importNode(NodeRef &node) {
  const std::string &domain = node.proto.domain();
  if (!domain.empty() && domain != "ai.onnx")
    return emitNodeError(node) << "unsupported op '" << node.proto.op_type()
                               << "' of domain '" << domain << "'";
  llvm::StringRef opType = node.proto.op_type();
  if (opType == "ScatterND")
    return importScatterND(node);
  if (opType == "GatherND")
    return importGatherND(node);
  if (opType == "Scatter")
    return importScatterElements(node, /*isScatter=*/true);
  if (opType == "ScatterElements")
    return importScatterElements(node, /*isScatter=*/false);
  if (opType == "GatherElements")
    return importAxisGather<GatherElementsOp>(node, kGatherElementsVersions,
                                              /*axisSince=*/11);
  if (opType == "Gather")
    return importAxisGather<GatherOp>(node, kGatherVersions, /*axisSince=*/1);
  if (opType == "TensorScatter")
    return importTensorScatter(node);
  if (opType == "Constant")
    return importConstant(node);
  if (opType == "Identity")
    return importIdentity(node);
  return emitNodeError(node)
         << "unsupported op '" << opType
         << "' (nd imports ScatterND, GatherND, Scatter, ScatterElements, "
            "GatherElements, Gather, TensorScatter, Constant and Identity)";
}

LogicalResult ONNXImporter::importScatterND(NodeRef &node) {
  if (failed(resolveNodeVersion(node, kScatterNDVersions)) ||
      failed(checkArity(node, 3)))
    return failure();
  auto attrs = checkAttributes(node, {{"reduction", 16}});
  if (failed(attrs))
    return failure();
  FailureOr<ReductionKind> reduction =
      getReduction(node, attrs->lookup("reduction"));
  if (failed(reduction))
    return failure();
  FailureOr<SmallVector<Value>> inputs =
      getDataIndicesInputs(node, /*allowI32=*/false);
  if (failed(inputs))
    return failure();
  Value data = (*inputs)[0], indices = (*inputs)[1], updates = (*inputs)[2];

  auto op = ScatterNDOp::create(builder, getNodeLoc(node), data.getType(), data,
                                indices, updates, *reduction);
  return defineVerifiedOutput(node, op);
}

LogicalResult ONNXImporter::importGatherND(NodeRef &node) {
  if (failed(resolveNodeVersion(node, kGatherNDVersions)) ||
      failed(checkArity(node, 2)))
    return failure();
  auto attrs = checkAttributes(node, {{"batch_dims", 12}});
  if (failed(attrs))
    return failure();
  FailureOr<int64_t> batchDims =
      getIntAttr(node, attrs->lookup("batch_dims"), 0);
  if (failed(batchDims))
    return failure();
  FailureOr<SmallVector<Value>> inputs =
      getDataIndicesInputs(node, /*allowI32=*/false);
  if (failed(inputs))
    return failure();
  Value data = (*inputs)[0], indices = (*inputs)[1];

  FailureOr<RankedTensorType> resultType = GatherNDOp::inferResultType(
      cast<RankedTensorType>(data.getType()),
      cast<RankedTensorType>(indices.getType()), *batchDims,
      [&] { return continueAsOpError<GatherNDOp>(emitNodeError(node)); });
  if (failed(resultType))
    return failure();
  auto op = GatherNDOp::create(builder, getNodeLoc(node), *resultType, data,
                               indices, *batchDims);
  return defineVerifiedOutput(node, op);
}

LogicalResult ONNXImporter::importScatterElements(NodeRef &node,
                                                  bool isScatter) {
  if (isScatter) {
    if (opset >= kScatterRemovedIn)
      return emitNodeError(node)
             << "Scatter is not available in opset " << opset
             << " (deprecated since opset 11 and superseded by "
                "ScatterElements-13); use ScatterElements";
    if (failed(resolveNodeVersion(node, kScatterVersions)))
      return failure();
    if (node.version >= 11)
      emitWarning(getNodeLoc(node))
          << describeNode(node)
          << ": Scatter is deprecated since opset 11; imported as "
             "ScatterElements";
  } else if (failed(resolveNodeVersion(node, kScatterElementsVersions))) {
    return failure();
  }
  if (failed(checkArity(node, 3)))
    return failure();

  SmallVector<AllowedAttr> allowed = {{"axis", 1}};
  if (!isScatter)
    allowed.push_back({"reduction", 16});
  auto attrs = checkAttributes(node, allowed);
  if (failed(attrs))
    return failure();
  FailureOr<int64_t> axis = getIntAttr(node, attrs->lookup("axis"), 0);
  if (failed(axis))
    return failure();
  FailureOr<ReductionKind> reduction =
      getReduction(node, attrs->lookup("reduction"));
  if (failed(reduction))
    return failure();

  FailureOr<SmallVector<Value>> inputs =
      getDataIndicesInputs(node, /*allowI32=*/true);
  if (failed(inputs))
    return failure();
  Value data = (*inputs)[0], indices = (*inputs)[1], updates = (*inputs)[2];

  auto op = ScatterElementsOp::create(
      builder, getNodeLoc(node), data.getType(), data, indices, updates,
      builder.getI64IntegerAttr(*axis),
      ReductionKindAttr::get(context, *reduction));
  return defineVerifiedOutput(node, op);
}

/// The result type of an axis gather, from the op's own inference (nd.gather
/// of ONNX Gather has no batch dims).
static FailureOr<RankedTensorType>
inferAxisGatherType(GatherElementsOp *, RankedTensorType data,
                    RankedTensorType indices, int64_t axis,
                    function_ref<InFlightDiagnostic()> emitError) {
  return GatherElementsOp::inferResultType(data, indices, axis, emitError);
}
static FailureOr<RankedTensorType>
inferAxisGatherType(GatherOp *, RankedTensorType data, RankedTensorType indices,
                    int64_t axis,
                    function_ref<InFlightDiagnostic()> emitError) {
  return GatherOp::inferResultType(data, indices, axis, /*batchDims=*/0,
                                   emitError);
}

/// GatherElements and Gather: inputs data and indices (int32 or int64), an
/// `axis` attribute since `axisSince`, the result type from the op's
/// inference.
template <typename OpTy>
LogicalResult ONNXImporter::importAxisGather(
    NodeRef &node, llvm::ArrayRef<int64_t> sinceVersions, int64_t axisSince) {
  if (failed(resolveNodeVersion(node, sinceVersions)) ||
      failed(checkArity(node, 2)))
    return failure();
  auto attrs = checkAttributes(node, {{"axis", axisSince}});
  if (failed(attrs))
    return failure();
  FailureOr<int64_t> axis = getIntAttr(node, attrs->lookup("axis"), 0);
  if (failed(axis))
    return failure();
  FailureOr<SmallVector<Value>> inputs =
      getDataIndicesInputs(node, /*allowI32=*/true);
  if (failed(inputs))
    return failure();
  Value data = (*inputs)[0], indices = (*inputs)[1];

  FailureOr<RankedTensorType> resultType = inferAxisGatherType(
      static_cast<OpTy *>(nullptr), cast<RankedTensorType>(data.getType()),
      cast<RankedTensorType>(indices.getType()), *axis,
      [&] { return continueAsOpError<OpTy>(emitNodeError(node)); });
  if (failed(resultType))
    return failure();
  auto op = OpTy::create(builder, getNodeLoc(node), *resultType, data, indices,
                         *axis);
  return defineVerifiedOutput(node, op);
}

LogicalResult ONNXImporter::importTensorScatter(NodeRef &node) {
  if (failed(resolveNodeVersion(node, kTensorScatterVersions)) ||
      failed(checkArity(node, 2, /*numOptionalInputs=*/1)))
    return failure();
  auto attrs = checkAttributes(node, {{"axis", 24}, {"mode", 24}});
  if (failed(attrs))
    return failure();
  FailureOr<int64_t> axis = getIntAttr(node, attrs->lookup("axis"), -2);
  if (failed(axis))
    return failure();
  TensorScatterMode mode = TensorScatterMode::Linear;
  if (const onnx::AttributeProto *attr = attrs->lookup("mode")) {
    FailureOr<std::string> value = getStringAttr(node, *attr);
    if (failed(value))
      return failure();
    FailureOr<TensorScatterMode> parsed =
        parseEnumName<TensorScatterMode>(kTensorScatterModes, "mode", *value,
                                         [&] { return emitNodeError(node); });
    if (failed(parsed))
      return failure();
    mode = *parsed;
  }
  FailureOr<SmallVector<Value>> inputs = getInputs(node, /*numRequired=*/2);
  if (failed(inputs))
    return failure();
  Value pastCache = (*inputs)[0], update = (*inputs)[1];
  Value writeIndices = inputs->size() > 2 ? (*inputs)[2] : Value();
  if (failed(checkSameElementType(node, pastCache, update, "past_cache",
                                  "update")) ||
      (writeIndices &&
       failed(checkIndicesType(node, writeIndices, /*allowI32=*/false,
                               "write_indices"))))
    return failure();

  auto op = TensorScatterOp::create(
      builder, getNodeLoc(node), pastCache.getType(), pastCache, update,
      writeIndices, builder.getI64IntegerAttr(*axis),
      TensorScatterModeAttr::get(context, mode),
      OobModeAttr::get(context, OobMode::Error));
  return defineVerifiedOutput(node, op);
}

LogicalResult ONNXImporter::importConstant(NodeRef &node) {
  if (failed(resolveNodeVersion(node, kConstantVersions)))
    return failure();
  if (failed(checkArity(node, 0)))
    return failure();
  auto attrs = checkAttributes(node, {{"value", 1},
                                      {"sparse_value", 11},
                                      {"value_float", 12},
                                      {"value_floats", 12},
                                      {"value_int", 12},
                                      {"value_ints", 12},
                                      {"value_string", 12},
                                      {"value_strings", 12}});
  if (failed(attrs))
    return failure();
  if (attrs->size() != 1)
    return emitNodeError(node)
           << "expected exactly one of the attributes value, sparse_value, "
              "value_float, value_floats, value_int, value_ints, "
              "value_string and value_strings, got "
           << attrs->size();

  const onnx::AttributeProto &attr = *attrs->begin()->second;
  llvm::StringRef name = attr.name();
  Location loc = getNodeLoc(node);
  DenseElementsAttr value;
  if (name == "value") {
    if (!attr.has_t() ||
        (attr.type() != onnx::AttributeProto_AttributeType_TENSOR &&
         attr.type() != onnx::AttributeProto_AttributeType_UNDEFINED))
      return emitNodeError(node) << "attribute 'value' must be a TENSOR";
    llvm::Expected<HostTensor> tensor = convertTensorProto(attr.t());
    if (!tensor)
      return emitNodeError(node)
             << "attribute 'value': " << llvm::toString(tensor.takeError());
    FailureOr<DenseElementsAttr> converted = convertTensor(
        *tensor, [&] { return emitNodeError(node) << "attribute 'value': "; });
    if (failed(converted))
      return failure();
    value = *converted;
  } else if (name == "value_float") {
    value = DenseElementsAttr::get(
        RankedTensorType::get({}, builder.getF32Type()), attr.f());
  } else if (name == "value_floats") {
    SmallVector<float> floats(attr.floats().begin(), attr.floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(floats.size())},
                              builder.getF32Type()),
        llvm::ArrayRef<float>(floats));
  } else if (name == "value_int") {
    value =
        DenseElementsAttr::get(RankedTensorType::get({}, builder.getI64Type()),
                               static_cast<int64_t>(attr.i()));
  } else if (name == "value_ints") {
    SmallVector<int64_t> ints(attr.ints().begin(), attr.ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(ints.size())},
                              builder.getI64Type()),
        llvm::ArrayRef<int64_t>(ints));
  } else if (name == "sparse_value") {
    return emitNodeError(node) << "sparse constants (attribute "
                                  "'sparse_value') are not supported";
  } else {
    return emitNodeError(node)
           << "STRING constants (attribute '" << name << "') are not supported";
  }

  auto op = arith::ConstantOp::create(builder, loc, value);
  return defineNodeOutput(node, op.getResult());
}

LogicalResult ONNXImporter::importIdentity(NodeRef &node) {
  if (failed(resolveNodeVersion(node, kIdentityVersions)) ||
      failed(checkArity(node, 1)) || failed(checkAttributes(node, {})))
    return failure();
  FailureOr<SmallVector<Value>> inputs = getInputs(node);
  if (failed(inputs))
    return failure();
  return defineNodeOutput(node, inputs->front());
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void mlir::nd::registerONNXImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, tensor::TensorDialect,
                  NdDialect>();
}

OwningOpRef<ModuleOp> mlir::nd::importONNXModel(
    llvm::StringRef bytes, MLIRContext *context, llvm::StringRef sourceName,
    const ONNXImportOptions &options, ONNXGraphSignature *signature) {
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       tensor::TensorDialect, NdDialect>();
  return ONNXImporter(context, sourceName, options).import(bytes, signature);
}

void mlir::nd::registerImportONNXTranslation() {
  static TranslateToMLIRRegistration registration(
      "import-onnx", "Import an ONNX model (.onnx) into the nd dialect",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        FileLevelDiagnosticHandler fileDiagnostics(context, llvm::errs());
        OwningOpRef<ModuleOp> module = importONNXModel(
            buffer->getBuffer(), context, buffer->getBufferIdentifier());
        return OwningOpRef<Operation *>(module.release());
      },
      registerONNXImportDialects);
}
