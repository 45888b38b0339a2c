# -*- Python -*-
# lit configuration of nd's regression tests (check-nd).

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ND"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nd_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.shlibext))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# FileCheck, not, count and mlir-runner live in llvm_tools_dir, which is not
# on PATH on Debian: put it there, or a leading `not` is not found.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.nd_tools_dir, append_path=True)

tool_dirs = [config.nd_tools_dir, config.llvm_tools_dir]
tools = ["nd-compile", "nd-jit-host-test", "nd-opt", "nd-run", "nd-tensor-tool",
         "nd-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ONNX test models and tensors are written in protobuf text format and
# encoded at test time; the ONNX backend node tests come from
# libonnx-testdata; .npy files are made with numpy.
onnx_proto = "-I/usr/include/onnx /usr/include/onnx/onnx.proto"
config.substitutions.append(
    ("%encode_model", "protoc --encode=onnx.ModelProto " + onnx_proto))
config.substitutions.append(
    ("%encode_tensor", "protoc --encode=onnx.TensorProto " + onnx_proto))
config.substitutions.append(
    ("%decode_tensor", "protoc --decode=onnx.TensorProto " + onnx_proto))
config.substitutions.append(
    ("%onnx_node_tests", "/usr/share/libonnx-testdata/data/node"))
config.substitutions.append(("%numpy_python", "/usr/bin/python3"))

# JIT tests run the lowered module with mlir-runner and upstream's runner
# utilities (printMemref*).
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.llvm_lib_dir, "libmlir_runner_utils" + config.shlibext)))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils" + config.shlibext)))

# Generated code runs its parallel loops on LLVM's OpenMP runtime and reports
# failed run-time checks through nd's runner utilities.
config.substitutions.append(
    ("%libomp", os.path.join(config.llvm_lib_dir, "libomp" + config.shlibext)))
config.substitutions.append(
    ("%nd_runner_utils",
     os.path.join(config.nd_lib_dir, "libnd_runner_utils" + config.shlibext)))

# Programs that call libraries built by nd-compile include nd-c/Runtime.h (of
# the source tree, with the dtype table it reads) and link libnd_runtime.so.
config.substitutions.append(
    ("%nd_include", os.path.join(config.nd_src_root, "include")))
config.substitutions.append(("%nd_lib_dir", config.nd_lib_dir))
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))

# --version prints the version of project(nd VERSION ...) and of the LLVM nd
# was configured against.
config.substitutions.append(("%nd_version", config.nd_version))
config.substitutions.append(("%llvm_version", config.llvm_version))

# Stock mlir-opt loads NdPlugin.so (test/Plugin).
if config.nd_has_plugin:
    config.available_features.add("nd-plugin")
config.substitutions.append(("%nd_plugin", config.nd_plugin))
config.substitutions.append(
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))

# The package tests (test/Package) install this build and configure and build
# a consumer with find_package(ND), with this build's compiler and generator.
config.substitutions.append(("%nd_obj_root", config.nd_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(
    ("%consumer_cmake_args",
     " ".join([
         "-G '%s'" % config.cmake_generator,
         "-DCMAKE_MAKE_PROGRAM='%s'" % config.cmake_make_program,
         "-DCMAKE_C_COMPILER='%s'" % config.cmake_c_compiler,
         "-DCMAKE_CXX_COMPILER='%s'" % config.cmake_cxx_compiler,
         "-DMLIR_DIR='%s'" % config.mlir_dir,
     ])))

# Sharded programs (test/Shard) run under MPICH's mpiexec with mlir-runner
# loading libmpich.so (Debian's mpich and libmpich-dev). MLIR 22's MPI
# lowering targets MPICH's ABI; OpenMPI's mpiexec would not do.
mpiexec = shutil.which("mpiexec.mpich")
libmpich = "/usr/lib/x86_64-linux-gnu/libmpich" + config.shlibext
if mpiexec and os.path.exists(libmpich):
    config.available_features.add("mpich")
config.substitutions.append(("%mpiexec", mpiexec or "mpiexec.mpich"))
# The -shared-libs of every run under MPI, in one place.
config.substitutions.append(
    ("%mpi_shared_libs",
     ",".join([
         os.path.join(config.llvm_lib_dir, "libmlir_runner_utils" + config.shlibext),
         os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils" + config.shlibext),
         os.path.join(config.llvm_lib_dir, "libomp" + config.shlibext),
         os.path.join(config.nd_lib_dir, "libnd_runner_utils" + config.shlibext),
         libmpich,
     ])))

# GPU code (test/Conversion/NdToGPU, test/Integration/GPU): the CUDA
# toolkit's ptxas and fatbinary assemble the kernels (tests that need them
# are skipped where they are absent), nd's CUDA runtime library runs them,
# and a machine with a CUDA driver runs them on its GPU (the tests of a
# missing driver are skipped there).
cuda_toolkit = os.environ.get("CUDA_HOME", "/usr/local/cuda")
config.substitutions.append(("%cuda_toolkit", cuda_toolkit))
if os.path.exists(os.path.join(cuda_toolkit, "bin", "ptxas")) and \
        os.path.exists(os.path.join(cuda_toolkit, "bin", "fatbinary")):
    config.available_features.add("ptxas")
else:
    lit_config.note("no ptxas and fatbinary in %s/bin: the tests that "
                    "assemble GPU kernels are skipped (set CUDA_HOME)"
                    % cuda_toolkit)
nd_cuda_runtime = os.path.join(config.nd_lib_dir,
                               "libnd_cuda_runtime" + config.shlibext)
if os.path.exists(nd_cuda_runtime):
    config.available_features.add("nd-cuda-runtime")
config.substitutions.append(("%nd_cuda_runtime", nd_cuda_runtime))
config.substitutions.append(("%nd_src_root", config.nd_src_root))
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
