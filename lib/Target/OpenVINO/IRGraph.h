//===- IRGraph.h - The graph of an OpenVINO IR file -------------*- C++ -*-===//
//
// The structure of an OpenVINO IR `model.xml`, read with pugixml and checked
// before anything is built from it: layers with their `<data>` attributes and
// ports, edges resolved to (layer, port position) pairs, every input port
// connected exactly once, a topological order. What a layer's type and
// attributes mean is the importer's business, not this one's.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_TARGET_OPENVINO_IRGRAPH_H
#define ND_LIB_TARGET_OPENVINO_IRGRAPH_H

#include "nd/Runner/DType.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;

namespace nd {
namespace openvino {

/// Turns byte offsets into the XML text into file:line:column locations.
class SourceLocator {
public:
  SourceLocator(llvm::StringRef text, llvm::StringRef path,
                MLIRContext *context);

  /// The location of the byte at `offset` (clamped to the text).
  Location getLoc(size_t offset) const;
  /// The location of the file itself (line 0).
  Location getFileLoc() const { return fileLoc; }
  llvm::StringRef getPath() const { return path; }

private:
  std::string path;
  MLIRContext *context;
  Location fileLoc;
  /// Offsets of the first byte of each line.
  llvm::SmallVector<size_t> lineStarts;
};

/// OpenVINO's names of a dtype: the element type ("f32", "boolean") and the
/// port precision ("FP32", "BOOL"); both empty for a dtype OpenVINO does not
/// have.
std::pair<llvm::StringRef, llvm::StringRef> getOpenVINONames(DType dtype);

/// The dtype of an OpenVINO element type name ("f32"), or nullopt.
std::optional<DType> parseOpenVINOElementType(llvm::StringRef name);

/// Whether `name` is an OpenVINO element type nd cannot hold ("u1", "i4",
/// "nf4", "f8e4m3", "string", ...): told apart from unknown names in
/// messages.
bool isUnsupportedOpenVINOElementType(llvm::StringRef name);

/// A `<port>` of a layer.
struct Port {
  int64_t id = 0;
  /// `<dim>` values; ShapedType::kDynamic for -1.
  llvm::SmallVector<int64_t> dims;
  /// The `precision` attribute; nullopt when the port has none.
  std::optional<DType> precision;
  /// Offset of the `<port>` element in the file.
  size_t offset = 0;
};

/// A `<layer>`.
struct Layer {
  int64_t id = 0;
  std::string name;
  std::string type;
  /// The `version` attribute ("opset8") and the opset number it names.
  std::string version;
  int64_t opset = 0;
  /// The attributes of `<data>`, in the order of the file.
  llvm::SmallVector<std::pair<std::string, std::string>> attributes;
  /// Offset of the `<data>` element (of the layer when it has none).
  size_t dataOffset = 0;
  llvm::SmallVector<Port> inputs;
  llvm::SmallVector<Port> outputs;
  /// For each input port, in order: the index of the producing layer in
  /// `Graph::layers` and the position of its output port.
  llvm::SmallVector<std::pair<unsigned, unsigned>> sources;
  /// Offset of the `<layer>` element in the file.
  size_t offset = 0;
};

/// A checked IR graph.
struct Graph {
  int64_t irVersion = 0;
  /// The layers in the order of the file.
  std::vector<Layer> layers;
  /// Indices into `layers` in an order where each layer comes after the
  /// layers it reads (the order of the file among independent ones).
  llvm::SmallVector<unsigned> order;
};

/// A decimal integer with optional surrounding blanks and a leading minus,
/// as IR attributes and dims spell them; nullopt for anything else or a
/// value beyond int64.
std::optional<int64_t> parseIRInteger(llvm::StringRef text);

/// "[2,?,3]": dims for messages.
std::string formatDims(llvm::ArrayRef<int64_t> dims);

/// "layer 5 'gather'": how messages name a layer.
std::string describeLayer(const Layer &layer);

/// Parses and checks `xml`. Reports problems through `locator`'s context
/// and returns failure; never asserts on bad input.
FailureOr<Graph> parseIRGraph(llvm::StringRef xml,
                              const SourceLocator &locator);

} // namespace openvino
} // namespace nd
} // namespace mlir

#endif // ND_LIB_TARGET_OPENVINO_IRGRAPH_H
