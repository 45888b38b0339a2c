//===- Npy.cpp - NumPy .npy files -------------------------------*- C++ -*-===//
//
// The `.npy` format (NumPy's format.py): a magic string, a version, a
// little-endian header length and a Python dict literal naming the dtype,
// the order and the shape, then the raw elements. The dtype codes come from
// the dtype table (DTypes.def).
//
// The reader treats its input as hostile: the header is parsed by hand, and
// the data size is checked against the bytes present before a buffer is
// allocated.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/Npy.h"
#include "RunnerSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::detail;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

/// NumPy's type code of `dtype` without the byte-order character ("f4"), or
/// "" when NumPy has no such dtype.
static StringRef getNpyTypeCode(DType dtype) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, KIND, ONNX, ONNX_NAME, NPY, ...)           \
  case DType::ENUM:                                                            \
    return NPY;
#include "nd/Runner/DTypes.def"
  }
  llvm_unreachable("unknown dtype");
}

bool mlir::nd::hasNpyDType(DType dtype) {
  return !getNpyTypeCode(dtype).empty();
}

namespace {
/// The fields of a `.npy` header.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
};

/// Parses the Python dict literal of a `.npy` header, e.g.
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.
class NpyHeaderParser {
public:
  explicit NpyHeaderParser(StringRef text) : text(text) {}

  Expected<NpyHeader> parse() {
    NpyHeader header;
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return makeError("header is not a dict literal");
    while (!peek('}')) {
      Expected<std::string> key = parseString();
      if (!key)
        return key.takeError();
      if (!consume(':'))
        return makeError("expected ':' after key '" + *key + "'");
      if (*key == "descr") {
        if (peek('['))
          return makeError("structured dtypes are not supported");
        Expected<std::string> descr = parseString();
        if (!descr)
          return descr.takeError();
        header.descr = *descr;
        seenDescr = true;
      } else if (*key == "fortran_order") {
        Expected<bool> value = parseBool();
        if (!value)
          return value.takeError();
        header.fortranOrder = *value;
        seenOrder = true;
      } else if (*key == "shape") {
        if (Error error = parseShape(header.shape))
          return std::move(error);
        seenShape = true;
      } else {
        return makeError("unexpected key '" + *key + "' in header");
      }
      if (!consume(','))
        break;
    }
    if (!consume('}'))
      return makeError("header dict is not closed");
    skipSpace();
    if (pos != text.size())
      return makeError("unexpected text after the header dict");
    if (!seenDescr || !seenOrder || !seenShape)
      return makeError(
          "header lacks one of 'descr', 'fortran_order' and 'shape'");
    return header;
  }

private:
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }

  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }

  Expected<std::string> parseString() {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return makeError("expected a string in the header");
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == StringRef::npos)
      return makeError("unterminated string in the header");
    std::string value = text.slice(pos, end).str();
    pos = end + 1;
    return value;
  }

  Expected<bool> parseBool() {
    skipSpace();
    StringRef rest = text.drop_front(pos);
    if (rest.starts_with("True")) {
      pos += 4;
      return true;
    }
    if (rest.starts_with("False")) {
      pos += 5;
      return false;
    }
    return makeError("expected True or False for 'fortran_order'");
  }

  Error parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
    if (!consume('('))
      return makeError("expected a tuple for 'shape'");
    while (!peek(')')) {
      skipSpace();
      size_t start = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      int64_t dim;
      if (start == pos || text.slice(start, pos).getAsInteger(10, dim))
        return makeError("expected a non-negative integer in 'shape'");
      // Python 2 wrote longs with a suffix.
      if (pos < text.size() && text[pos] == 'L')
        ++pos;
      shape.push_back(dim);
      if (!consume(','))
        break;
    }
    if (!consume(')'))
      return makeError("'shape' tuple is not closed");
    return Error::success();
  }

  StringRef text;
  size_t pos = 0;
};
} // namespace

/// Maps a NumPy type string ("<f4", "|b1", ...) to a dtype.
static Expected<DType> parseNpyDescr(StringRef descr) {
  if (descr.size() < 3)
    return makeError("unsupported dtype '" + descr + "'");
  char order = descr[0];
  StringRef code = descr.drop_front();
  const DType *dtype = llvm::find_if(
      getAllDTypes(), [&](DType d) { return getNpyTypeCode(d) == code; });
  if (dtype == getAllDTypes().end() ||
      (order != '<' && order != '>' && order != '|' && order != '='))
    return makeError("unsupported dtype '" + descr + "'");
  size_t size = getDTypeSize(*dtype);
  if (size > 1 && order == '>')
    return makeError("big-endian data ('" + descr + "') is not supported");
  if (size > 1 && order == '|')
    return makeError("dtype '" + descr + "' lacks a byte order");
  if (size > 1 && order == '=' && llvm::sys::IsBigEndianHost)
    return makeError("big-endian data ('" + descr + "') is not supported");
  return *dtype;
}

static Expected<HostTensor> parseNpyImpl(StringRef bytes) {
  if (bytes.empty())
    return makeError("empty file");
  static constexpr StringRef kMagic("\x93NUMPY", 6);
  if (!bytes.starts_with(kMagic))
    return makeError("not a .npy file (bad magic string)");
  if (bytes.size() < 10)
    return makeError("truncated header");
  uint8_t major = bytes[6];
  uint8_t minor = bytes[7];
  if (major < 1 || major > 3)
    return makeError("unsupported .npy format version " +
                     Twine(static_cast<unsigned>(major)) + "." +
                     Twine(static_cast<unsigned>(minor)));
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = 8 + lengthBytes;
  if (bytes.size() < prefix)
    return makeError("truncated header");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[8 + i]))
                    << (8 * i);
  if (headerLength > bytes.size() - prefix)
    return makeError("truncated header: " + Twine(headerLength) +
                     " header bytes announced, " +
                     Twine(bytes.size() - prefix) + " present");
  StringRef headerText = bytes.substr(prefix, headerLength);
  if (!headerText.ends_with("\n"))
    return makeError("bad header: it does not end with a newline");

  Expected<NpyHeader> header = NpyHeaderParser(headerText).parse();
  if (!header)
    return makeError("bad header: " + llvm::toString(header.takeError()));
  if (header->fortranOrder)
    return makeError("Fortran-order arrays are not supported");
  Expected<DType> dtype = parseNpyDescr(header->descr);
  if (!dtype)
    return dtype.takeError();

  Expected<int64_t> count =
      mlir::nd::getNumElements(header->shape, getDTypeSize(*dtype));
  if (!count)
    return count.takeError();
  // Checked against the bytes present before allocating, so that a header
  // announcing a huge shape cannot make us allocate it.
  uint64_t expected = static_cast<uint64_t>(*count) * getDTypeSize(*dtype);
  StringRef data = bytes.drop_front(prefix + headerLength);
  if (data.size() < expected)
    return makeError("truncated data: shape " + formatShape(header->shape) +
                     " of " + stringifyDType(*dtype) + " needs " +
                     Twine(expected) + " bytes, " + Twine(data.size()) +
                     " present");
  if (data.size() > expected)
    return makeError(Twine(data.size() - expected) +
                     " unexpected bytes after the array data");

  Expected<HostTensor> tensor = HostTensor::create(*dtype, header->shape);
  if (!tensor)
    return tensor.takeError();
  std::memcpy(tensor->getData(), data.data(), data.size());
  littleEndianToHost(*tensor);
  normalizeBools(*tensor);
  return std::move(*tensor);
}

Expected<HostTensor> mlir::nd::parseNpy(StringRef bytes, StringRef name) {
  Expected<HostTensor> tensor = parseNpyImpl(bytes);
  if (!tensor)
    return prefixError(name, tensor.takeError());
  return tensor;
}

Expected<HostTensor> mlir::nd::readNpyFile(StringRef path) {
  return readTensorWith(path, parseNpy);
}

/// The NumPy type string of `dtype`; bf16 has none.
static Expected<std::string> getNpyDescr(DType dtype) {
  StringRef code = getNpyTypeCode(dtype);
  if (code.empty())
    return makeError(stringifyDType(dtype) +
                     " has no NumPy dtype; write a .pb file instead");
  char order = getDTypeSize(dtype) == 1 ? '|' : '<';
  return (Twine(order) + code).str();
}

Error mlir::nd::writeNpy(const HostTensor &tensor, llvm::raw_ostream &os) {
  Expected<std::string> descr = getNpyDescr(tensor.getDType());
  if (!descr)
    return descr.takeError();

  std::string dict;
  llvm::raw_string_ostream dictOS(dict);
  dictOS << "{'descr': '" << *descr << "', 'fortran_order': False, 'shape': (";
  llvm::interleaveComma(tensor.getShape(), dictOS);
  if (tensor.getRank() == 1)
    dictOS << ",";
  dictOS << "), }";

  // NumPy pads the header with spaces so that the data starts on a 64-byte
  // boundary, and ends it with a newline. Format 1.0 stores the header
  // length in two bytes, 2.0 in four.
  size_t lengthBytes = 2;
  size_t headerLength = llvm::alignTo(10 + dict.size() + 1, 64) - 10;
  if (headerLength > UINT16_MAX) {
    lengthBytes = 4;
    headerLength = llvm::alignTo(12 + dict.size() + 1, 64) - 12;
  }
  dict.append(headerLength - dict.size() - 1, ' ');
  dict.push_back('\n');

  os << StringRef("\x93NUMPY", 6);
  os << static_cast<char>(lengthBytes == 2 ? 1 : 2) << static_cast<char>(0);
  for (size_t i = 0; i < lengthBytes; ++i)
    os << static_cast<char>((headerLength >> (8 * i)) & 0xff);
  os << dict;
  os << hostToLittleEndian(tensor);
  return Error::success();
}

Error mlir::nd::writeNpyFile(const HostTensor &tensor, StringRef path) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (Error error = writeNpy(tensor, os))
    return prefixError(path, std::move(error));
  return writeFileBytes(path, bytes);
}
