// Filling a module's `__constant__` and `__device__` variables before a launch, as the host's
// cudaMemcpyToSymbol does: found by the name in the source, checked against the declared size and
// type, written into the constant bank or the variable's global allocation.
#pragma once

#include <span>
#include <string>

#include "global_memory.hpp"
#include "program.hpp"
#include "teg/emu/launch.hpp"
#include "teg/ptx/ir.hpp"

namespace teg::emu {

// `where` prefixes error messages. Throws teg::Error when there is no such variable, it is in
// another space (shared, local), the type does not fit its declaration or the initialiser does
// not fill it exactly.
void fillSymbol(const ptx::Module& module, ModuleLayout& layout, GlobalMemory& global, const std::string& name,
                ScalarType type, const BufferInit& init, const std::string& where);

// The current contents of the variable `name` names (its bytes in the constant bank or its
// allocation), e.g. a __device__ result after a run.
std::span<const std::byte> symbolBytes(const ptx::Module& module, const ModuleLayout& layout, const GlobalMemory& global,
                                       const std::string& name, const std::string& where);

// The same with the variable's whole contents given as bytes (a packed struct), which must be
// exactly as many as it has; `layout` describes them for the error message.
void fillSymbolBytes(const ptx::Module& module, ModuleLayout& layout, GlobalMemory& global, const std::string& name,
                     std::span<const std::byte> bytes, const std::string& describe, const std::string& where);

}  // namespace teg::emu
