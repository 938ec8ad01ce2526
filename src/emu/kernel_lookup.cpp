// Finding a kernel by the name a user writes ("saxpy", "scale<float>") in a module whose entries
// are mangled ("_Z5saxpyifPKfPf"): the rules every command shares (support/kernel_name.hpp).
#include <string>

#include "teg/emu/emulator.hpp"
#include "teg/support/kernel_name.hpp"

namespace teg::emu {

std::string demangledBaseName(std::string_view symbol) { return qualifiedKernelName(symbol); }

const ptx::Function& findKernel(const ptx::Module& module, std::string_view name) {
  std::vector<std::string> entries;
  std::vector<const ptx::Function*> functions;
  for (const ptx::Function& f : module.functions) {
    if (!f.isEntry) continue;
    entries.push_back(f.name);
    functions.push_back(&f);
  }
  const std::string where = module.fileName.empty() ? "the module" : module.fileName;
  return *functions[resolveKernelName(entries, name, where)];
}

}  // namespace teg::emu
