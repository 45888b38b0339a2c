//===- ExportEntry.cpp - an entry with nd's C interface ---------*- C++ -*-===//
//
// `--nd-record-signature` (tensor level) keeps what the C interface of an
// entry must describe and the lowering forgets: element types and static
// dims, donated arguments, names. `--nd-export-entry` (LLVM level, after
// `--nd-return-through-pointer` and `--nd-call-state`) writes it out as the
// `nd_signature` of nd-c/Runtime.h and adds the exported function, which
// hands its tensors to `nd_runtime_invoke` with a packed wrapper of the entry.
//
// The globals follow the C layouts of nd-c/Runtime.h, which libnd_runtime.so
// checks with static_asserts (lib/Runtime/Runtime.cpp):
//
//   nd_tensor_type: {i32 dtype, i32 rank, ptr dims, ptr name, i32 donated,
//                    i32 alias, ptr dim_names}
//   nd_signature:   {i32 abi_version, i32 num_inputs, i32 num_outputs,
//                    i32 threads, ptr entry, ptr inputs, ptr outputs,
//                    i32 destinations}
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Runner/ElementType.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDRECORDSIGNATURE
#define GEN_PASS_DEF_NDEXPORTENTRY
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

std::optional<int32_t> mlir::nd::getExportedDType(Type elementType) {
  if (elementType.isIndex())
    return static_cast<int32_t>(DType::I64);
  std::optional<DType> dtype = getDTypeOf(elementType);
  if (!dtype)
    return std::nullopt;
  return static_cast<int32_t>(*dtype);
}

bool mlir::nd::isCIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

//===----------------------------------------------------------------------===//
// nd-record-signature
//===----------------------------------------------------------------------===//

/// The name of an argument: that of its location, if it has one.
static StringRef nameOfArgument(BlockArgument argument) {
  Location loc = argument.getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (auto name = dyn_cast<NameLoc>(part))
        return name.getName().getValue();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  return "";
}

namespace {
struct NdRecordSignaturePass
    : public mlir::nd::impl::NdRecordSignatureBase<NdRecordSignaturePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto entry = module.lookupSymbol<func::FuncOp>(function);
    if (!entry || entry.isExternal()) {
      module.emitError() << "the module has no function @" << function
                         << " with a body";
      return signalPassFailure();
    }
    FunctionType type = entry.getFunctionType();
    auto check = [&](Type type, StringRef what, size_t position) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (tensor && getExportedDType(tensor.getElementType()))
        return true;
      entry.emitError() << what << " #" << position << " of @" << function
                        << " has type " << type
                        << ": an exported entry takes and returns ranked "
                           "tensors of nd's element types";
      return false;
    };
    bool valid = true;
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      valid &= check(input, "argument", i);
    for (auto [k, output] : llvm::enumerate(type.getResults()))
      valid &= check(output, "result", k);
    if (!valid)
      return signalPassFailure();

    Builder b(context);
    SmallVector<Attribute> inputs, outputs, names, inputDims, outputDims;
    SmallVector<int64_t> donated;
    StringRef dimNames = NdDialect::getDimNamesAttrName();
    ArrayAttr none = b.getArrayAttr({});
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      inputs.push_back(TypeAttr::get(input));
      auto dims = entry.getArgAttrOfType<ArrayAttr>(i, dimNames);
      inputDims.push_back(dims ? dims : none);
    }
    for (auto [k, output] : llvm::enumerate(type.getResults())) {
      outputs.push_back(TypeAttr::get(output));
      auto dims = entry.getResultAttrOfType<ArrayAttr>(k, dimNames);
      outputDims.push_back(dims ? dims : none);
    }
    for (BlockArgument argument : entry.getArguments()) {
      names.push_back(b.getStringAttr(nameOfArgument(argument)));
      if (entry.getArgAttr(argument.getArgNumber(),
                           NdDialect::getDonatedAttrName()))
        donated.push_back(argument.getArgNumber());
    }
    NamedAttribute fields[] = {
        b.getNamedAttr("function", b.getStringAttr(function)),
        b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
        b.getNamedAttr("outputs", b.getArrayAttr(outputs)),
        b.getNamedAttr("donated", b.getDenseI64ArrayAttr(donated)),
        b.getNamedAttr("names", b.getArrayAttr(names)),
        b.getNamedAttr("input_dim_names", b.getArrayAttr(inputDims)),
        b.getNamedAttr("output_dim_names", b.getArrayAttr(outputDims))};
    module->setAttr(kSignatureAttr, b.getDictionaryAttr(fields));
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// nd-export-entry
//===----------------------------------------------------------------------===//

namespace {
/// Builds the globals of the exported description.
class DescriptionBuilder {
public:
  DescriptionBuilder(ModuleOp module, SymbolTable &symbols)
      : module(module), symbols(symbols), b(module.getContext()),
        loc(module.getLoc()) {
    ptrType = LLVM::LLVMPointerType::get(module.getContext());
    i32 = b.getI32Type();
    i64 = b.getI64Type();
    tensorType = LLVM::LLVMStructType::getLiteral(
        module.getContext(), {i32, i32, ptrType, ptrType, i32, i32, ptrType});
    signatureType = LLVM::LLVMStructType::getLiteral(
        module.getContext(),
        {i32, i32, i32, i32, ptrType, ptrType, ptrType, i32});
  }

  /// `@<symbol>_signature` for `signature`, exported as `symbol`.
  LLVM::GlobalOp build(const ExportedSignature &signature, StringRef name,
                       StringRef symbol);

private:
  /// A global (private and constant unless `constant` is false: external),
  /// uniquely named from `name`.
  LLVM::GlobalOp addGlobal(StringRef name, Type type, Attribute value,
                           bool constant = true);
  LLVM::GlobalOp addString(StringRef text);
  /// The array of pointers to the names of `entry`'s dims, or null when it
  /// names none.
  LLVM::GlobalOp addDimNames(const ExportedTensor &entry, StringRef what);
  /// The table of nd_tensor_type of `entries`, or null when there is none.
  LLVM::GlobalOp addTable(ArrayRef<ExportedTensor> entries, StringRef what);
  Value address(OpBuilder &init, LLVM::GlobalOp global);
  Value constant(OpBuilder &init, Type type, int64_t value);

  ModuleOp module;
  SymbolTable &symbols;
  OpBuilder b;
  Location loc;
  Type ptrType, i32, i64;
  LLVM::LLVMStructType tensorType, signatureType;
  /// One global per distinct string.
  llvm::StringMap<LLVM::GlobalOp> strings;
};
} // namespace

LLVM::GlobalOp DescriptionBuilder::addGlobal(StringRef name, Type type,
                                             Attribute value, bool constant) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto global = LLVM::GlobalOp::create(
      b, loc, type, constant,
      constant ? LLVM::Linkage::Private : LLVM::Linkage::External, name, value);
  symbols.insert(global);
  return global;
}

LLVM::GlobalOp DescriptionBuilder::addString(StringRef text) {
  LLVM::GlobalOp &global = strings[text];
  if (global)
    return global;
  std::string bytes = text.str();
  bytes.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  global = addGlobal("__nd_signature_text", type, b.getStringAttr(bytes));
  return global;
}

LLVM::GlobalOp DescriptionBuilder::addDimNames(const ExportedTensor &entry,
                                               StringRef what) {
  if (llvm::all_of(entry.dimNames,
                   [](const std::string &name) { return name.empty(); }))
    return nullptr;
  SmallVector<LLVM::GlobalOp> names;
  for (const std::string &name : entry.dimNames)
    names.push_back(addString(name));
  auto type = LLVM::LLVMArrayType::get(ptrType, names.size());
  LLVM::GlobalOp global =
      addGlobal(("__nd_signature_dim_names_" + what).str(), type, Attribute());
  OpBuilder init(module.getContext());
  init.setInsertionPointToStart(
      init.createBlock(&global.getInitializerRegion()));
  Value array = LLVM::UndefOp::create(init, loc, type);
  for (auto [d, name] : llvm::enumerate(names)) {
    Value pointer = address(init, name);
    array = LLVM::InsertValueOp::create(
        init, loc, array, pointer, ArrayRef<int64_t>{static_cast<int64_t>(d)});
  }
  LLVM::ReturnOp::create(init, loc, array);
  return global;
}

Value DescriptionBuilder::address(OpBuilder &init, LLVM::GlobalOp global) {
  if (!global)
    return LLVM::ZeroOp::create(init, loc, ptrType);
  return LLVM::AddressOfOp::create(init, loc, global);
}

Value DescriptionBuilder::constant(OpBuilder &init, Type type, int64_t value) {
  return LLVM::ConstantOp::create(init, loc, type,
                                  init.getIntegerAttr(type, value));
}

LLVM::GlobalOp DescriptionBuilder::addTable(ArrayRef<ExportedTensor> entries,
                                            StringRef what) {
  if (entries.empty())
    return nullptr;
  // Every dim of the table in one array, each entry's a slice of it.
  SmallVector<int64_t> dims;
  for (const ExportedTensor &entry : entries)
    dims.append(entry.dims.begin(), entry.dims.end());
  LLVM::GlobalOp dimsGlobal;
  auto dimsType = LLVM::LLVMArrayType::get(i64, dims.size());
  if (!dims.empty()) {
    auto shape =
        RankedTensorType::get({static_cast<int64_t>(dims.size())}, i64);
    dimsGlobal = addGlobal(("__nd_signature_dims_" + what).str(), dimsType,
                           DenseIntElementsAttr::get(shape, dims));
  }
  SmallVector<LLVM::GlobalOp> names, dimNames;
  for (const ExportedTensor &entry : entries) {
    names.push_back(addString(entry.name));
    dimNames.push_back(addDimNames(entry, what));
  }

  auto tableType = LLVM::LLVMArrayType::get(tensorType, entries.size());
  LLVM::GlobalOp table =
      addGlobal(("__nd_signature_" + what).str(), tableType, Attribute());
  OpBuilder init(module.getContext());
  init.setInsertionPointToStart(
      init.createBlock(&table.getInitializerRegion()));
  Value array = LLVM::UndefOp::create(init, loc, tableType);
  int64_t offset = 0;
  for (auto [k, entry] : llvm::enumerate(entries)) {
    Value dimsPointer;
    if (entry.dims.empty()) {
      dimsPointer = LLVM::ZeroOp::create(init, loc, ptrType);
    } else {
      Value base = address(init, dimsGlobal);
      dimsPointer = LLVM::GEPOp::create(
          init, loc, ptrType, dimsType, base,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(offset)});
    }
    offset += static_cast<int64_t>(entry.dims.size());
    Value fields[] = {constant(init, i32, entry.dtype),
                      constant(init, i32, entry.dims.size()),
                      dimsPointer,
                      address(init, names[k]),
                      constant(init, i32, entry.donated ? 1 : 0),
                      constant(init, i32, entry.alias),
                      address(init, dimNames[k])};
    Value value = LLVM::UndefOp::create(init, loc, tensorType);
    for (auto [f, field] : llvm::enumerate(fields))
      value = LLVM::InsertValueOp::create(
          init, loc, value, field, ArrayRef<int64_t>{static_cast<int64_t>(f)});
    array = LLVM::InsertValueOp::create(
        init, loc, array, value, ArrayRef<int64_t>{static_cast<int64_t>(k)});
  }
  LLVM::ReturnOp::create(init, loc, array);
  return table;
}

LLVM::GlobalOp DescriptionBuilder::build(const ExportedSignature &signature,
                                         StringRef name, StringRef symbol) {
  LLVM::GlobalOp entryName = addString(symbol);
  LLVM::GlobalOp inputs = addTable(signature.inputs, "inputs");
  LLVM::GlobalOp outputs = addTable(signature.outputs, "outputs");
  // Writable: the host may set the default thread count.
  LLVM::GlobalOp global =
      addGlobal(name, signatureType, Attribute(), /*constant=*/false);
  OpBuilder init(module.getContext());
  init.setInsertionPointToStart(
      init.createBlock(&global.getInitializerRegion()));
  Value fields[] = {constant(init, i32, ND_ABI_VERSION),
                    constant(init, i32, signature.inputs.size()),
                    constant(init, i32, signature.outputs.size()),
                    constant(init, i32, 0),
                    address(init, entryName),
                    address(init, inputs),
                    address(init, outputs),
                    constant(init, i32, signature.destinations ? 1 : 0)};
  Value value = LLVM::UndefOp::create(init, loc, signatureType);
  for (auto [f, field] : llvm::enumerate(fields))
    value = LLVM::InsertValueOp::create(
        init, loc, value, field, ArrayRef<int64_t>{static_cast<int64_t>(f)});
  LLVM::ReturnOp::create(init, loc, value);
  return global;
}

/// Reads the dim names of `entries` from `key` of the recorded signature, if
/// it has the key (one array per entry: a name per dim, or none).
static LogicalResult readDimNames(DictionaryAttr dictionary, StringRef key,
                                  MutableArrayRef<ExportedTensor> entries) {
  auto all = dictionary.getAs<ArrayAttr>(key);
  if (!all)
    return success();
  if (all.size() != entries.size())
    return failure();
  for (auto [entry, attr] : llvm::zip_equal(entries, all)) {
    auto names = dyn_cast<ArrayAttr>(attr);
    if (!names || (!names.empty() && names.size() != entry.dims.size()))
      return failure();
    for (Attribute name : names) {
      auto text = dyn_cast<StringAttr>(name);
      if (!text)
        return failure();
      entry.dimNames.push_back(text.getValue().str());
    }
  }
  return success();
}

/// Reads the signature `--nd-record-signature` recorded.
static FailureOr<ExportedSignature> readRecorded(ModuleOp module) {
  auto emit = [&]() {
    return module.emitError() << "expected the module attribute '"
                              << kSignatureAttr << "' of --nd-record-signature";
  };
  auto dictionary = module->getAttrOfType<DictionaryAttr>(kSignatureAttr);
  if (!dictionary)
    return emit(), failure();
  auto function = dictionary.getAs<StringAttr>("function");
  auto inputs = dictionary.getAs<ArrayAttr>("inputs");
  auto outputs = dictionary.getAs<ArrayAttr>("outputs");
  auto donated = dictionary.getAs<DenseI64ArrayAttr>("donated");
  auto names = dictionary.getAs<ArrayAttr>("names");
  if (!function || !inputs || !outputs || !donated || !names ||
      names.size() != inputs.size())
    return emit() << " with 'function', 'inputs', 'outputs', 'donated' and "
                     "'names'",
           failure();

  ExportedSignature signature;
  signature.function = function.getValue().str();
  auto read = [&](Attribute attr,
                  SmallVectorImpl<ExportedTensor> &into) -> LogicalResult {
    auto typeAttr = dyn_cast<TypeAttr>(attr);
    auto tensor =
        typeAttr ? dyn_cast<RankedTensorType>(typeAttr.getValue()) : nullptr;
    std::optional<int32_t> dtype =
        tensor ? getExportedDType(tensor.getElementType()) : std::nullopt;
    if (!dtype)
      return emit() << ": " << attr << " is not a ranked tensor type of nd's "
                    << "element types";
    ExportedTensor &entry = into.emplace_back();
    entry.dtype = *dtype;
    for (int64_t dim : tensor.getShape())
      entry.dims.push_back(ShapedType::isDynamic(dim) ? ND_DYNAMIC : dim);
    return success();
  };
  for (Attribute input : inputs)
    if (failed(read(input, signature.inputs)))
      return failure();
  for (Attribute output : outputs)
    if (failed(read(output, signature.outputs)))
      return failure();
  for (auto [entry, name] : llvm::zip_equal(signature.inputs, names)) {
    auto text = dyn_cast<StringAttr>(name);
    if (!text)
      return emit() << ": names must be strings", failure();
    entry.name = text.getValue().str();
  }
  if (failed(readDimNames(dictionary, "input_dim_names", signature.inputs)) ||
      failed(readDimNames(dictionary, "output_dim_names", signature.outputs)))
    return emit() << ": 'input_dim_names' and 'output_dim_names' hold one "
                     "array of strings per input and output, with one per "
                     "dim or none",
           failure();
  for (int64_t position : donated.asArrayRef()) {
    if (position < 0 ||
        position >= static_cast<int64_t>(signature.inputs.size()))
      return emit() << ": donated input #" << position << " does not exist",
             failure();
    signature.inputs[position].donated = true;
  }
  return signature;
}

FailureOr<SmallVector<int32_t>>
mlir::nd::getResultAliases(Operation *entry, ArrayRef<int64_t> inputRanks,
                           ArrayRef<bool> donated) {
  auto buffers = entry->getAttrOfType<DenseI64ArrayAttr>(kResultBuffersAttr);
  if (!buffers)
    return entry->emitError() << "expected '" << kResultBuffersAttr
                              << "': run --nd-return-through-pointer first";
  SmallVector<int64_t> starts;
  int64_t start = 0;
  for (int64_t rank : inputRanks) {
    starts.push_back(start);
    start += 3 + 2 * rank;
  }
  SmallVector<int32_t> aliases;
  for (auto [k, buffer] : llvm::enumerate(buffers.asArrayRef())) {
    if (buffer < 0) {
      aliases.push_back(-1);
      continue;
    }
    const int64_t *input = llvm::find(starts, buffer);
    size_t position = input - starts.begin();
    if (input == starts.end() || !donated[position])
      return entry->emitError()
             << "result #" << k << " is the buffer of argument #" << buffer
             << ", which is no donated input";
    aliases.push_back(static_cast<int32_t>(position));
  }
  return aliases;
}

/// Sets each output's `alias` from the entry's `nd.result_buffers`, after
/// checking the entry's arguments.
static LogicalResult readAliases(LLVM::LLVMFuncOp entry,
                                 ExportedSignature &signature) {
  SmallVector<int64_t> ranks;
  SmallVector<bool> donated;
  int64_t fields = 0;
  for (const ExportedTensor &input : signature.inputs) {
    ranks.push_back(static_cast<int64_t>(input.dims.size()));
    donated.push_back(input.donated);
    fields += 3 + 2 * ranks.back();
  }
  // The results' destinations (--nd-result-destinations), one descriptor
  // each.
  int64_t destinations = 0;
  if (signature.destinations)
    for (const ExportedTensor &output : signature.outputs)
      destinations += 3 + 2 * static_cast<int64_t>(output.dims.size());
  // The expanded descriptors, the results' pointer if any, the state.
  int64_t expected =
      fields + destinations + (signature.outputs.empty() ? 0 : 1) + 1;
  if (entry.getNumArguments() != expected ||
      !isa<LLVM::LLVMVoidType>(entry.getFunctionType().getReturnType()))
    return entry.emitError()
           << "expected " << expected << " arguments (the inputs' "
           << "descriptors, "
           << (signature.destinations ? "the results' destinations, " : "")
           << "the results' pointer, the call state) and no "
           << "result: run --nd-return-through-pointer and --nd-call-state "
           << "first";
  FailureOr<SmallVector<int32_t>> aliases =
      getResultAliases(entry, ranks, donated);
  if (failed(aliases))
    return failure();
  if (aliases->size() != signature.outputs.size())
    return entry.emitError() << "expected '" << kResultBuffersAttr
                             << "' with one entry per result";
  for (auto [output, alias] : llvm::zip_equal(signature.outputs, *aliases))
    output.alias = alias;
  return success();
}

FailureOr<ExportedSignature> mlir::nd::readExportedSignature(ModuleOp module) {
  FailureOr<ExportedSignature> signature = readRecorded(module);
  if (failed(signature))
    return failure();
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(signature->function);
  if (!entry || entry.isExternal())
    return module.emitError()
           << "the module defines no LLVM function @" << signature->function;
  if (auto count = entry->getAttrOfType<IntegerAttr>(kResultDestinationsAttr)) {
    if (count.getInt() != static_cast<int64_t>(signature->outputs.size()))
      return entry.emitError() << "'" << kResultDestinationsAttr << "' says "
                               << count.getInt() << " destination(s) for "
                               << signature->outputs.size() << " result(s)";
    signature->destinations = true;
  }
  if (failed(readAliases(entry, *signature)))
    return failure();
  return signature;
}

/// `void <name>(void **arguments)`: loads each argument of `entry` from
/// `arguments[i]` and calls it.
static LLVM::LLVMFuncOp buildPackedWrapper(ModuleOp module,
                                           SymbolTable &symbols,
                                           LLVM::LLVMFuncOp entry) {
  MLIRContext *context = module.getContext();
  Location loc = entry.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  OpBuilder b(context);
  b.setInsertionPointToEnd(module.getBody());
  auto type =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {ptrType});
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, ("__nd_packed_" + entry.getSymName()).str(), type,
      LLVM::Linkage::Private);
  symbols.insert(wrapper);
  Block *body = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  SmallVector<Value> arguments;
  for (auto [i, argumentType] :
       llvm::enumerate(entry.getFunctionType().getParams())) {
    Value slot =
        LLVM::GEPOp::create(b, loc, ptrType, ptrType, body->getArgument(0),
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value pointer = LLVM::LoadOp::create(b, loc, ptrType, slot);
    arguments.push_back(LLVM::LoadOp::create(b, loc, argumentType, pointer));
  }
  LLVM::CallOp::create(b, loc, entry, arguments);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return wrapper;
}

/// `i32 <symbol>(<params>)` calling `invokeName(&signature, &wrapper,
/// <params>)`: `nd_runtime_invoke` with (ptr context, ptr inputs, i64 n,
/// ptr outputs, i64 m), `nd_cuda_invoke` with a stream after the context,
/// `nd_cuda_invoke_host` as the first.
static LogicalResult buildExportedEntry(ModuleOp module, StringRef symbol,
                                        StringRef invokeName, bool stream,
                                        LLVM::GlobalOp signature,
                                        LLVM::LLVMFuncOp wrapper) {
  MLIRContext *context = module.getContext();
  Location loc = wrapper.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  OpBuilder b(context);
  b.setInsertionPointToEnd(module.getBody());
  Type i32 = b.getI32Type();
  Type i64 = b.getI64Type();
  SmallVector<Type> params = {ptrType, ptrType, i64, ptrType, i64};
  if (stream)
    params.insert(params.begin() + 1, ptrType);
  SmallVector<Type> invokeParams = {ptrType, ptrType};
  invokeParams.append(params.begin(), params.end());
  FailureOr<LLVM::LLVMFuncOp> invoke =
      LLVM::lookupOrCreateFn(b, module, invokeName, invokeParams, i32);
  if (failed(invoke))
    return failure();
  auto type = LLVM::LLVMFunctionType::get(i32, params);
  auto exported = LLVM::LLVMFuncOp::create(b, loc, symbol, type);
  Block *body = exported.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  Value description = LLVM::AddressOfOp::create(b, loc, signature);
  Value packed = LLVM::AddressOfOp::create(b, loc, wrapper);
  SmallVector<Value> arguments = {description, packed};
  arguments.append(body->getArguments().begin(), body->getArguments().end());
  auto call = LLVM::CallOp::create(b, loc, *invoke, arguments);
  LLVM::ReturnOp::create(b, loc, call.getResult());
  return success();
}

namespace {
struct NdExportEntryPass
    : public mlir::nd::impl::NdExportEntryBase<NdExportEntryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ExportedSignature> signature = readExportedSignature(module);
    if (failed(signature))
      return signalPassFailure();
    std::string name = symbol.empty() ? signature->function : symbol;
    if (!isCIdentifier(name)) {
      module.emitError() << "'" << name << "' is not a C identifier";
      return signalPassFailure();
    }
    auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(signature->function);

    // The exported names are the library's: whatever holds them (the entry
    // itself, when it is exported under its own name) is renamed.
    SymbolTable symbols(module);
    std::string signatureName = name + ND_ABI_SIGNATURE_SUFFIX;
    std::string hostName = name + ND_ABI_HOST_ENTRY_SUFFIX;
    SmallVector<StringRef> exportedNames = {name, signatureName};
    if (cuda)
      exportedNames.push_back(hostName);
    for (StringRef exported : exportedNames) {
      Operation *holder = symbols.lookup(exported);
      if (!holder)
        continue;
      std::string fresh = ("__nd_" + exported).str();
      for (unsigned n = 1; symbols.lookup(fresh); ++n)
        fresh = ("__nd_" + exported + "_" + Twine(n)).str();
      if (failed(symbols.rename(holder, fresh))) {
        holder->emitError() << "cannot rename @" << exported;
        return signalPassFailure();
      }
    }

    DescriptionBuilder description(module, symbols);
    LLVM::GlobalOp global = description.build(*signature, signatureName, name);
    LLVM::LLVMFuncOp wrapper = buildPackedWrapper(module, symbols, entry);
    if (!cuda) {
      if (failed(buildExportedEntry(module, name, ND_ABI_NAME(ND_ABI_INVOKE),
                                    /*stream=*/false, global, wrapper)))
        return signalPassFailure();
    } else if (failed(buildExportedEntry(module, name,
                                         ND_ABI_NAME(ND_ABI_CUDA_INVOKE),
                                         /*stream=*/true, global, wrapper)) ||
               failed(buildExportedEntry(module, hostName,
                                         ND_ABI_NAME(ND_ABI_CUDA_INVOKE_HOST),
                                         /*stream=*/false, global, wrapper))) {
      return signalPassFailure();
    }
    module->removeAttr(kSignatureAttr);
    entry->removeAttr(kResultBuffersAttr);
    entry->removeAttr(kResultDestinationsAttr);
  }
};
} // namespace
