//===- Link.cpp - a shared library from a compiled entry --------*- C++ -*-===//
//
// The system's C compiler driver links the object: it knows the C library,
// its start files and its own run-time support functions (libgcc), which a
// bare `ld` call would have to be told. A version script keeps the dynamic
// symbol table to the entry and its description.
//
//===----------------------------------------------------------------------===//

#include "nd/Compile/Compile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Creates a temporary file and gives its path; removed by the caller.
static llvm::Expected<std::string> createTemporary(llvm::StringRef suffix) {
  llvm::SmallString<128> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("nd-compile", suffix, path))
    return makeError("cannot create a temporary file: " + ec.message());
  return path.str().str();
}

llvm::Error mlir::nd::linkSharedLibrary(llvm::StringRef objectPath,
                                        llvm::StringRef outputPath,
                                        const CompiledEntry &entry,
                                        const LinkOptions &options) {
  llvm::ErrorOr<std::string> driver =
      llvm::sys::findProgramByName(options.driver);
  if (driver && !llvm::sys::fs::can_execute(*driver))
    driver = std::make_error_code(std::errc::no_such_file_or_directory);
  if (!driver)
    return makeError("cannot find the C compiler driver '" + options.driver +
                     "' to link with: " + driver.getError().message());

  llvm::Expected<std::string> script = createTemporary("map");
  if (!script)
    return script.takeError();
  llvm::scope_exit removeScript([&] { llvm::sys::fs::remove(*script); });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(*script, ec);
    if (ec)
      return makeError("cannot write " + *script + ": " + ec.message());
    os << "{\n  global:\n";
    for (const std::string &symbol : entry.getExportedSymbols())
      os << "    " << symbol << ";\n";
    os << "  local:\n    *;\n};\n";
  }
  llvm::Expected<std::string> log = createTemporary("log");
  if (!log)
    return log.takeError();
  llvm::scope_exit removeLog([&] { llvm::sys::fs::remove(*log); });

  // RPATH: libnd_runtime.so and libomp (or libnd_cuda_runtime.so) beside
  // the library, or in the lib/ of the tree it is installed in.
  llvm::SmallVector<std::string> args = {
      *driver,          "-shared",        "-o",
      outputPath.str(), objectPath.str(), "-L" + options.runtimeDir};
  if (entry.target == CompileTarget::CUDA) {
    args.push_back("-lnd_cuda_runtime");
  } else {
    args.append({"-lnd_runtime", "-L" + options.openmpDir, "-lomp"});
  }
  args.append({"-Wl,--as-needed", "-lm", "-Wl,--no-as-needed",
               "-Wl,--no-undefined", "-Wl,-rpath,$ORIGIN:$ORIGIN/../lib",
               "-Wl,--version-script=" + *script});
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(*log), llvm::StringRef(*log)};
  std::string error;
  int status = llvm::sys::ExecuteAndWait(*driver, argRefs, std::nullopt,
                                         redirects, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &error);
  if (status == 0)
    return llvm::Error::success();
  std::string message =
      "cannot link '" + outputPath.str() + "': '" + options.driver + "' " +
      (status < 0 ? "failed" + (error.empty() ? std::string() : ": " + error)
                  : "exited with status " + std::to_string(status));
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
          llvm::MemoryBuffer::getFile(*log)) {
    llvm::SmallVector<llvm::StringRef> lines;
    (*buffer)->getBuffer().rtrim().split(lines, '\n');
    for (llvm::StringRef line : lines)
      if (!line.trim().empty())
        message += "\n  " + line.rtrim().str();
  }
  return makeError(message);
}

llvm::Error mlir::nd::checkOutputPath(llvm::StringRef path) {
  if (path == "-")
    return llvm::Error::success();
  auto refuse = [&](const llvm::Twine &reason) {
    return makeError("cannot write '" + path + "': " + reason);
  };
  if (llvm::sys::fs::is_directory(path))
    return refuse("it is a directory");
  llvm::SmallString<256> directory(llvm::sys::path::parent_path(path));
  if (directory.empty())
    directory = ".";
  if (!llvm::sys::fs::exists(directory))
    return refuse("there is no directory '" + directory + "'");
  if (!llvm::sys::fs::is_directory(directory))
    return refuse("'" + directory + "' is not a directory");
  // Permissions alone do not say it (root writes anywhere but in /proc, a
  // file system may be read-only): a file is created there and removed.
  llvm::SmallString<256> probe(directory);
  llvm::sys::path::append(probe, ".nd-compile-%%%%%%%%");
  int fd = -1;
  llvm::SmallString<256> created;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(probe, fd, created))
    return refuse("cannot create files in '" + directory +
                  "': " + ec.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  llvm::sys::fs::remove(created);
  return llvm::Error::success();
}
