//===- IRGraph.cpp - The graph of an OpenVINO IR file -----------*- C++ -*-===//
//
// Reads `model.xml` with pugixml into an IR graph and checks its structure:
// the `<net>` root and its IR version, each `<layer>` (a unique id, a name,
// a type, an opset version, at most one `<data>`, `<input>` and `<output>`),
// each `<port>` (a unique id among the layer's inputs or outputs, a known
// precision, integer dims), each `<edge>` (existing layers and ports, each
// input port fed once, matching dims and precisions at both ends), and the
// absence of cycles. Problems are reported at the line of the element.
//
//===----------------------------------------------------------------------===//

#include "IRGraph.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <pugixml.hpp>

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::openvino;

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

SourceLocator::SourceLocator(llvm::StringRef text, llvm::StringRef path,
                             MLIRContext *context)
    : path(path.str()), context(context),
      fileLoc(FileLineColLoc::get(context, path, 0, 0)) {
  lineStarts.push_back(0);
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    if (text[i] == '\n')
      lineStarts.push_back(i + 1);
  }
}

Location SourceLocator::getLoc(size_t offset) const {
  // The first line start after `offset` ends the line holding it.
  auto next = llvm::upper_bound(lineStarts, offset);
  unsigned line = static_cast<unsigned>(next - lineStarts.begin());
  unsigned column = static_cast<unsigned>(offset - *std::prev(next)) + 1;
  return FileLineColLoc::get(context, path, line, column);
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

std::pair<llvm::StringRef, llvm::StringRef>
mlir::nd::openvino::getOpenVINONames(DType dtype) {
#define ND_OPENVINO_NAMES(TYPE, PRECISION)                                     \
  { TYPE, PRECISION }
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, KIND, ONNX, ONNX_NAME, NPY, MLIR,          \
                 OPENVINO)                                                     \
  case DType::ENUM:                                                            \
    return ND_OPENVINO_NAMES OPENVINO;
#include "nd/Runner/DTypes.def"
  }
#undef ND_OPENVINO_NAMES
  llvm_unreachable("unknown dtype");
}

/// The dtype whose OpenVINO element type name (`isPrecision` false) or port
/// precision (true) is `name`.
static std::optional<DType> findDType(llvm::StringRef name, bool isPrecision) {
  if (name.empty())
    return std::nullopt;
  for (DType dtype : getAllDTypes()) {
    auto [type, precision] = getOpenVINONames(dtype);
    if ((isPrecision ? precision : type) == name)
      return dtype;
  }
  return std::nullopt;
}

std::optional<DType>
mlir::nd::openvino::parseOpenVINOElementType(llvm::StringRef name) {
  return findDType(name, /*isPrecision=*/false);
}

bool mlir::nd::openvino::isUnsupportedOpenVINOElementType(
    llvm::StringRef name) {
  // OpenVINO's element types and precisions without a host dtype in nd:
  // sub-byte, 8-bit float, NF4 and string types.
  static constexpr llvm::StringLiteral kNames[] = {
      "u1",     "u2",     "u3",     "u4",     "u6",     "i4",
      "nf4",    "f4e2m1", "f8e4m3", "f8e5m2", "f8e8m0", "string",
      "BIN",    "U1",     "U4",     "I4",     "NF4",    "STRING",
      "F8E4M3", "F8E5M2", "FP8",    "F4E2M1", "F8E8M0"};
  return llvm::is_contained(kNames, name);
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

std::string mlir::nd::openvino::describeLayer(const Layer &layer) {
  return "layer " + std::to_string(layer.id) + " '" + layer.name + "'";
}

std::optional<int64_t>
mlir::nd::openvino::parseIRInteger(llvm::StringRef text) {
  text = text.trim();
  int64_t value = 0;
  if (text.empty() || text.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

namespace {
/// Reads one IR file into a graph.
class GraphParser {
public:
  GraphParser(llvm::StringRef xml, const SourceLocator &locator)
      : xml(xml), locator(locator) {}

  FailureOr<Graph> parse();

private:
  InFlightDiagnostic emitAt(const pugi::xml_node &node);
  InFlightDiagnostic emitLayerError(const Layer &layer, size_t offset);
  size_t offsetOf(const pugi::xml_node &node) const;

  LogicalResult parseLayer(const pugi::xml_node &node, Layer &layer);
  LogicalResult parsePorts(const pugi::xml_node &node, Layer &layer,
                           bool isInput);
  LogicalResult parseEdges(const pugi::xml_node &edges);
  LogicalResult checkEdgeTypes(const Layer &from, const Port &out,
                               const Layer &to, const Port &in,
                               const pugi::xml_node &edge);
  LogicalResult sortLayers();

  llvm::StringRef xml;
  const SourceLocator &locator;
  Graph graph;
  /// Layer id to index into `graph.layers`. Not a DenseMap: ids come from
  /// the file and may be any int64, including DenseMap's reserved keys.
  std::unordered_map<int64_t, unsigned> layerIndex;
};
} // namespace

size_t GraphParser::offsetOf(const pugi::xml_node &node) const {
  ptrdiff_t offset = node.offset_debug();
  if (offset < 0)
    return 0;
  // pugixml points at the element name; point at its `<`.
  size_t position = static_cast<size_t>(offset);
  if (position > 0 && position <= xml.size() && xml[position - 1] == '<')
    --position;
  return position;
}

InFlightDiagnostic GraphParser::emitAt(const pugi::xml_node &node) {
  return emitError(locator.getLoc(offsetOf(node)));
}

InFlightDiagnostic GraphParser::emitLayerError(const Layer &layer,
                                               size_t offset) {
  return emitError(locator.getLoc(offset)) << describeLayer(layer) << ": ";
}

FailureOr<Graph> GraphParser::parse() {
  pugi::xml_document document;
  pugi::xml_parse_result result =
      document.load_buffer(xml.data(), xml.size(), pugi::parse_default);
  if (!result) {
    size_t offset = result.offset < 0 ? 0 : static_cast<size_t>(result.offset);
    return emitError(locator.getLoc(std::min(offset, xml.size())))
           << "malformed XML: " << result.description();
  }

  pugi::xml_node root;
  for (pugi::xml_node child : document.children()) {
    if (child.type() != pugi::node_element)
      continue;
    if (root)
      return emitAt(child) << "not an OpenVINO IR file: a second root "
                              "element <"
                           << child.name() << "> follows <" << root.name()
                           << ">";
    root = child;
  }
  if (!root)
    return emitError(locator.getFileLoc())
           << "not an OpenVINO IR file: the XML document has no element";
  if (llvm::StringRef(root.name()) != "net")
    return emitAt(root) << "not an OpenVINO IR file: the root element is <"
                        << root.name() << ">, expected <net>";

  pugi::xml_attribute versionAttr = root.attribute("version");
  if (!versionAttr)
    return emitAt(root) << "<net> has no 'version' attribute (the IR version)";
  std::optional<int64_t> irVersion = parseIRInteger(versionAttr.value());
  if (!irVersion || (*irVersion != 10 && *irVersion != 11))
    return emitAt(root) << "IR version '" << versionAttr.value()
                        << "' is not supported (nd reads IR versions 10 "
                           "and 11)";
  graph.irVersion = *irVersion;

  pugi::xml_node layers, edges;
  for (pugi::xml_node child : root.children()) {
    if (child.type() != pugi::node_element)
      continue;
    llvm::StringRef name = child.name();
    pugi::xml_node *slot = name == "layers"  ? &layers
                           : name == "edges" ? &edges
                                             : nullptr;
    // Other sections (rt_info, meta_data, statistics) do not change what
    // the graph computes.
    if (!slot)
      continue;
    if (*slot)
      return emitAt(child) << "<net> has more than one <" << name << ">";
    *slot = child;
  }
  if (!layers)
    return emitAt(root) << "<net> has no <layers>";

  for (pugi::xml_node child : layers.children()) {
    if (child.type() != pugi::node_element)
      continue;
    if (llvm::StringRef(child.name()) != "layer")
      return emitAt(child) << "unexpected element <" << child.name()
                           << "> in <layers> (expected <layer>)";
    Layer layer;
    if (failed(parseLayer(child, layer)))
      return failure();
    unsigned index = graph.layers.size();
    auto [it, inserted] = layerIndex.try_emplace(layer.id, index);
    if (!inserted) {
      const Layer &first = graph.layers[it->second];
      return emitLayerError(layer, layer.offset)
             << "the id " << layer.id << " is also the id of "
             << describeLayer(first) << " (layer ids must be unique)";
    }
    graph.layers.push_back(std::move(layer));
  }
  if (graph.layers.empty())
    return emitAt(layers) << "<layers> has no <layer>";

  for (Layer &layer : graph.layers)
    layer.sources.assign(layer.inputs.size(), {~0u, ~0u});
  if (edges && failed(parseEdges(edges)))
    return failure();
  for (Layer &layer : graph.layers) {
    for (auto [position, source] : llvm::enumerate(layer.sources)) {
      if (source.first == ~0u)
        return emitLayerError(layer, layer.inputs[position].offset)
               << "input port " << layer.inputs[position].id
               << " is not connected (no <edge> has to-layer=\"" << layer.id
               << "\" to-port=\"" << layer.inputs[position].id << "\")";
    }
  }
  if (failed(sortLayers()))
    return failure();
  return std::move(graph);
}

LogicalResult GraphParser::parseLayer(const pugi::xml_node &node,
                                      Layer &layer) {
  layer.offset = offsetOf(node);
  layer.dataOffset = layer.offset;
  pugi::xml_attribute id = node.attribute("id");
  if (!id)
    return emitAt(node) << "<layer> has no 'id' attribute";
  std::optional<int64_t> idValue = parseIRInteger(id.value());
  if (!idValue || *idValue < 0)
    return emitAt(node) << "<layer> id '" << id.value()
                        << "' is not a non-negative integer";
  layer.id = *idValue;
  pugi::xml_attribute name = node.attribute("name");
  layer.name = name ? name.value() : "";
  if (!name)
    return emitLayerError(layer, layer.offset)
           << "the layer has no 'name' attribute";
  pugi::xml_attribute type = node.attribute("type");
  if (!type || llvm::StringRef(type.value()).empty())
    return emitLayerError(layer, layer.offset)
           << "the layer has no 'type' attribute";
  layer.type = type.value();
  pugi::xml_attribute version = node.attribute("version");
  if (!version)
    return emitLayerError(layer, layer.offset)
           << "the " << layer.type
           << " layer has no 'version' attribute (its opset, e.g. "
              "version=\"opset8\")";
  layer.version = version.value();
  llvm::StringRef versionText = layer.version;
  std::optional<int64_t> opset;
  if (versionText.consume_front("opset"))
    opset = parseIRInteger(versionText);
  if (!opset || *opset < 1 || versionText.trim() != versionText)
    return emitLayerError(layer, layer.offset)
           << "version '" << layer.version << "' of the " << layer.type
           << " layer is not an OpenVINO opset name (opset1, opset2, ...)";
  layer.opset = *opset;

  bool seenData = false, seenInput = false, seenOutput = false;
  for (pugi::xml_node child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata)
      return emitLayerError(layer, offsetOf(child))
             << "unexpected text in <layer>";
    if (child.type() != pugi::node_element)
      continue;
    llvm::StringRef childName = child.name();
    if (childName == "rt_info")
      continue;
    if (childName == "data") {
      if (seenData)
        return emitLayerError(layer, offsetOf(child))
               << "the layer has more than one <data>";
      seenData = true;
      layer.dataOffset = offsetOf(child);
      llvm::StringSet<> names;
      for (pugi::xml_attribute attr : child.attributes()) {
        if (!names.insert(attr.name()).second)
          return emitLayerError(layer, layer.dataOffset)
                 << "<data> has the attribute '" << attr.name() << "' twice";
        layer.attributes.emplace_back(attr.name(), attr.value());
      }
      for (pugi::xml_node grandChild : child.children()) {
        if (grandChild.type() == pugi::node_comment)
          continue;
        return emitLayerError(layer, layer.dataOffset)
               << "<data> must hold attributes only, not content";
      }
      continue;
    }
    if (childName == "input" || childName == "output") {
      bool isInput = childName == "input";
      bool &seen = isInput ? seenInput : seenOutput;
      if (seen)
        return emitLayerError(layer, offsetOf(child))
               << "the layer has more than one <" << childName << ">";
      seen = true;
      if (failed(parsePorts(child, layer, isInput)))
        return failure();
      continue;
    }
    return emitLayerError(layer, offsetOf(child))
           << "unexpected element <" << childName << "> in <layer>";
  }
  return success();
}

LogicalResult GraphParser::parsePorts(const pugi::xml_node &node, Layer &layer,
                                      bool isInput) {
  llvm::SmallVectorImpl<Port> &ports = isInput ? layer.inputs : layer.outputs;
  llvm::StringRef kind = isInput ? "input" : "output";
  for (pugi::xml_node child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata)
      return emitLayerError(layer, offsetOf(child))
             << "unexpected text in <" << kind << ">";
    if (child.type() != pugi::node_element)
      continue;
    if (llvm::StringRef(child.name()) != "port")
      return emitLayerError(layer, offsetOf(child))
             << "unexpected element <" << child.name() << "> in <" << kind
             << "> (expected <port>)";
    Port port;
    port.offset = offsetOf(child);
    for (pugi::xml_attribute attr : child.attributes()) {
      llvm::StringRef name = attr.name();
      if (name != "id" && name != "precision" && name != "names")
        return emitLayerError(layer, port.offset)
               << "unknown attribute '" << name << "' of an " << kind
               << " <port>";
    }
    pugi::xml_attribute id = child.attribute("id");
    std::optional<int64_t> idValue =
        id ? parseIRInteger(id.value()) : std::nullopt;
    if (!idValue || *idValue < 0)
      return emitLayerError(layer, port.offset)
             << "an " << kind << " <port> has "
             << (id ? "the id '" + std::string(id.value()) +
                          "', not a non-negative integer"
                    : std::string("no 'id' attribute"));
    port.id = *idValue;
    if (llvm::any_of(ports, [&](const Port &p) { return p.id == port.id; }))
      return emitLayerError(layer, port.offset)
             << "two " << kind << " ports have the id " << port.id;
    if (pugi::xml_attribute precision = child.attribute("precision")) {
      llvm::StringRef text = precision.value();
      // OpenVINO writes UNSPECIFIED for a port whose type it did not infer:
      // the layer's own attributes and inputs then decide.
      if (text != "UNSPECIFIED") {
        port.precision = findDType(text, /*isPrecision=*/true);
        if (!port.precision) {
          InFlightDiagnostic diag = emitLayerError(layer, port.offset)
                                    << kind << " port " << port.id
                                    << " has the precision '" << text << "'";
          if (isUnsupportedOpenVINOElementType(text))
            return diag << ", which nd does not support";
          return diag << ", which is not an OpenVINO precision";
        }
      }
    }
    for (pugi::xml_node dim : child.children()) {
      if (dim.type() == pugi::node_pcdata || dim.type() == pugi::node_cdata)
        return emitLayerError(layer, port.offset)
               << "unexpected text in " << kind << " port " << port.id;
      if (dim.type() != pugi::node_element)
        continue;
      llvm::StringRef dimName = dim.name();
      if (dimName == "rt_info")
        continue;
      if (dimName != "dim")
        return emitLayerError(layer, offsetOf(dim))
               << "unexpected element <" << dimName << "> in " << kind
               << " port " << port.id << " (expected <dim>)";
      for (pugi::xml_node content : dim.children()) {
        if (content.type() == pugi::node_element)
          return emitLayerError(layer, offsetOf(dim))
                 << "a <dim> of " << kind << " port " << port.id
                 << " holds an element";
      }
      llvm::StringRef text = dim.child_value();
      std::optional<int64_t> value = parseIRInteger(text);
      if (!value || *value < -1)
        return emitLayerError(layer, offsetOf(dim))
               << kind << " port " << port.id << " has the dim '" << text.trim()
               << "' (expected a non-negative integer, or -1 for a dynamic "
                  "dim)";
      port.dims.push_back(*value == -1 ? ShapedType::kDynamic : *value);
    }
    ports.push_back(std::move(port));
  }
  return success();
}

std::string mlir::nd::openvino::formatDims(llvm::ArrayRef<int64_t> dims) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (i)
      text += ",";
    text += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return text + "]";
}

LogicalResult GraphParser::checkEdgeTypes(const Layer &from, const Port &out,
                                          const Layer &to, const Port &in,
                                          const pugi::xml_node &edge) {
  auto emitMismatch = [&]() {
    return emitAt(edge) << "the edge from " << describeLayer(from) << " port "
                        << out.id << " to " << describeLayer(to) << " port "
                        << in.id << " joins ports of different ";
  };
  bool sameShape = out.dims.size() == in.dims.size();
  for (size_t i = 0; sameShape && i < out.dims.size(); ++i) {
    if (!ShapedType::isDynamic(out.dims[i]) &&
        !ShapedType::isDynamic(in.dims[i]) && out.dims[i] != in.dims[i])
      sameShape = false;
  }
  if (!sameShape)
    return emitMismatch() << "shapes: " << formatDims(out.dims) << " and "
                          << formatDims(in.dims);
  if (out.precision && in.precision && *out.precision != *in.precision)
    return emitMismatch() << "precisions: "
                          << getOpenVINONames(*out.precision).second << " and "
                          << getOpenVINONames(*in.precision).second;
  return success();
}

LogicalResult GraphParser::parseEdges(const pugi::xml_node &edges) {
  for (pugi::xml_node edge : edges.children()) {
    if (edge.type() != pugi::node_element)
      continue;
    if (llvm::StringRef(edge.name()) != "edge")
      return emitAt(edge) << "unexpected element <" << edge.name()
                          << "> in <edges> (expected <edge>)";
    int64_t values[4];
    static constexpr const char *kNames[] = {"from-layer", "from-port",
                                             "to-layer", "to-port"};
    for (int i = 0; i < 4; ++i) {
      pugi::xml_attribute attr = edge.attribute(kNames[i]);
      if (!attr)
        return emitAt(edge) << "<edge> has no '" << kNames[i] << "' attribute";
      std::optional<int64_t> value = parseIRInteger(attr.value());
      if (!value || *value < 0)
        return emitAt(edge) << "<edge> " << kNames[i] << " '" << attr.value()
                            << "' is not a non-negative integer";
      values[i] = *value;
    }
    auto fromIt = layerIndex.find(values[0]);
    if (fromIt == layerIndex.end())
      return emitAt(edge) << "<edge> from-layer " << values[0]
                          << ": there is no layer with that id";
    auto toIt = layerIndex.find(values[2]);
    if (toIt == layerIndex.end())
      return emitAt(edge) << "<edge> to-layer " << values[2]
                          << ": there is no layer with that id";
    const Layer &from = graph.layers[fromIt->second];
    Layer &to = graph.layers[toIt->second];
    const Port *out = llvm::find_if(
        from.outputs, [&](const Port &p) { return p.id == values[1]; });
    if (out == from.outputs.end())
      return emitAt(edge) << "<edge> from-port " << values[1] << ": "
                          << describeLayer(from) << " has no output port "
                          << values[1];
    const Port *in = llvm::find_if(
        to.inputs, [&](const Port &p) { return p.id == values[3]; });
    if (in == to.inputs.end())
      return emitAt(edge) << "<edge> to-port " << values[3] << ": "
                          << describeLayer(to) << " has no input port "
                          << values[3];
    unsigned inPosition = static_cast<unsigned>(in - to.inputs.begin());
    std::pair<unsigned, unsigned> &source = to.sources[inPosition];
    if (source.first != ~0u) {
      const Layer &first = graph.layers[source.first];
      return emitAt(edge) << describeLayer(to) << " input port " << in->id
                          << " is fed twice: from " << describeLayer(first)
                          << " port " << first.outputs[source.second].id
                          << " and from " << describeLayer(from) << " port "
                          << out->id;
    }
    if (failed(checkEdgeTypes(from, *out, to, *in, edge)))
      return failure();
    source = {fromIt->second,
              static_cast<unsigned>(out - from.outputs.begin())};
  }
  return success();
}

LogicalResult GraphParser::sortLayers() {
  size_t numLayers = graph.layers.size();
  // Kahn's algorithm; among the ready layers the first in the file goes
  // first, so that independent layers keep the order of the file.
  llvm::SmallVector<unsigned> pending(numLayers);
  llvm::SmallVector<llvm::SmallVector<unsigned>> users(numLayers);
  for (auto [index, layer] : llvm::enumerate(graph.layers)) {
    pending[index] = layer.sources.size();
    for (auto source : layer.sources)
      users[source.first].push_back(index);
  }
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (unsigned index = 0; index < numLayers; ++index) {
    if (pending[index] == 0)
      ready.push(index);
  }
  while (!ready.empty()) {
    unsigned index = ready.top();
    ready.pop();
    graph.order.push_back(index);
    for (unsigned user : users[index]) {
      if (--pending[user] == 0)
        ready.push(user);
    }
  }
  if (graph.order.size() == numLayers)
    return success();

  // Walk back from a layer left over along its unsorted sources: every
  // step stays among the unsorted, so the walk repeats a layer, which lies
  // on a cycle.
  unsigned current = 0;
  while (pending[current] == 0)
    ++current;
  llvm::SmallVector<bool> visited(numLayers, false);
  while (!visited[current]) {
    visited[current] = true;
    for (auto source : graph.layers[current].sources) {
      if (pending[source.first] != 0) {
        current = source.first;
        break;
      }
    }
  }
  const Layer &layer = graph.layers[current];
  return emitLayerError(layer, layer.offset)
         << "the graph has a cycle through this layer (the edges must form "
            "a directed acyclic graph)";
}

FailureOr<Graph>
mlir::nd::openvino::parseIRGraph(llvm::StringRef xml,
                                 const SourceLocator &locator) {
  return GraphParser(xml, locator).parse();
}
