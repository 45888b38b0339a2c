# nd's CMake helpers: every nd library and tool is declared through them, so
# that each is installed and exported (NDTargets, see cmake/NDConfig.cmake.in)
# under one name prefix, `Nd`.
#
#   add_nd_library(NdFoo Foo.cpp ...)            same arguments as
#   add_nd_dialect_library(NdFoo ...)            add_mlir_library and its
#   add_nd_conversion_library(NdFooToBar ...)    dialect / conversion /
#   add_nd_translation_library(NdFoo ...)        translation variants
#   add_nd_tool(nd-foo nd-foo.cpp)               an installed executable with
#                                                nd's --version

# Installs library `name` and adds it to the NDTargets export set. An
# installed consumer finds nd's headers through the target.
function(nd_install_library name)
  install(TARGETS ${name}
    EXPORT NDTargets
    COMPONENT nd-libraries
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib
    RUNTIME DESTINATION bin
    )
  target_include_directories(${name} INTERFACE $<INSTALL_INTERFACE:include>)
  set_property(GLOBAL APPEND PROPERTY ND_EXPORTS ${name})
endfunction()

# Declares library `name` with add_mlir_library (`kind` empty) or its
# add_mlir_<kind>_library variant, records it in nd's list of that kind
# (ND_<KIND>_LIBS), then installs and exports it.
function(nd_add_library kind name)
  if(kind)
    string(TOUPPER ${kind} kind_upper)
    set_property(GLOBAL APPEND PROPERTY ND_${kind_upper}_LIBS ${name})
    set(adder add_mlir_${kind}_library)
  else()
    set(adder add_mlir_library)
  endif()
  cmake_language(CALL ${adder} ${name} ${ARGN} DISABLE_INSTALL)
  nd_install_library(${name})
endfunction()

function(add_nd_library name)
  nd_add_library("" ${name} ${ARGN})
endfunction()

function(add_nd_dialect_library name)
  nd_add_library(dialect ${name} ${ARGN})
endfunction()

# A library that defines passes declared in include/nd/Conversion/Passes.td:
# NdRegistration links every one of them (ND_CONVERSION_LIBS), so that nd's
# single registration entry point (nd/Registration/Registration.h) finds each
# pass it registers.
function(add_nd_conversion_library name)
  nd_add_library(conversion ${name} ${ARGN})
endfunction()

function(add_nd_translation_library name)
  nd_add_library(translation ${name} ${ARGN})
endfunction()

# An nd command-line tool: built into <build>/bin, installed into bin/ and
# exported, linked with NdSupport for `--version`
# (mlir::nd::registerVersionPrinter in nd/Support/Version.h).
function(add_nd_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE NdSupport)
  install(TARGETS ${name}
    EXPORT NDTargets
    COMPONENT nd-tools
    RUNTIME DESTINATION bin
    )
  set_property(GLOBAL APPEND PROPERTY ND_EXPORTS ${name})
endfunction()
