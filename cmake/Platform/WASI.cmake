# The WASI platform for CMake 3.25 (it has none of its own): static libraries only, .wasm programs.
# cmake/wasm32-wasi.cmake puts this folder on CMAKE_MODULE_PATH.
set(WASI 1)
set(UNIX 1) # POSIX-like (wasi-libc): .o objects, lib*.a
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS FALSE)
set(CMAKE_EXECUTABLE_SUFFIX .wasm)
set(CMAKE_STATIC_LIBRARY_PREFIX lib)
set(CMAKE_STATIC_LIBRARY_SUFFIX .a)
