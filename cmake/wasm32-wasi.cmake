# Toolchain file: the C core as WebAssembly (clang-19, wasm32-wasi, wasi-libc from Debian's
# wasi-libc package, found by clang without a --sysroot). Used by the `wasm` preset.
#   -ffp-contract=off    the same bits as the native build (determinism)
#   -fvisibility=hidden  only the boundary's export_name functions leave the module
#   -msimd128            wasm SIMD: the solver's four-wide batches, and clang vectorises loops
set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER clang-19)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_C_FLAGS_INIT "-ffp-contract=off -fvisibility=hidden -msimd128")
set(CMAKE_C_FLAGS_RELEASE "-O3" CACHE STRING "Release flags of the wasm build")
list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}) # Platform/WASI.cmake
# Compiler checks build a static library, not a WASI program (their link flags are in CMakeLists.txt).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
