// Kernel names as a user writes them and as reports show them. A module names its kernels by
// their mangled symbols ("_Z5scaleIfEvPT_i"); people write "scale", "scale<float>",
// "ns::scale" or the whole signature "void scale<float>(float*, int)". Every command finds a
// kernel through resolveKernelName, so one name works everywhere, and an ambiguous one is refused
// with the candidates listed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace teg {

// The C++ signature of an Itanium-mangled symbol ("void scale<float>(float*, int)"), by
// abi::__cxa_demangle; a name that is not mangled C++ (an extern "C" kernel) comes back
// unchanged, and so does one the demangler rejects. A ptxas clone suffix ("$3") is kept.
std::string demangle(std::string_view mangled);

// The names a user may write for the kernel `mangled`, most specific first: the symbol itself,
// the signature, the qualified name with template arguments ("ns::scale<float>"), the qualified
// name ("ns::scale") and the plain name ("scale").
std::vector<std::string> kernelNameForms(std::string_view mangled);

// The qualified name without template arguments or parameters ("ns::scale"); the symbol itself
// when it is not mangled C++.
std::string qualifiedKernelName(std::string_view mangled);

// True when `wanted` is one of kernelNameForms(mangled) or a "::"-suffix of the qualified name;
// spaces are ignored ("scale<float,4>" matches "scale<float, 4>"), and so are the <cstdint> /
// <cstddef> typedefs a template argument may be written with ("max_flops<int32_t>" matches
// "max_flops<int>", "k<std::size_t>" matches "k<unsigned long>": LP64 Linux's definitions).
bool kernelNameMatches(std::string_view mangled, std::string_view wanted);

// The index in `mangledNames` of the kernel `wanted` names: the exact symbol if present, else the
// only kernel it matches. Throws teg::Error naming `where` when none matches (listing the kernels)
// or several do (listing them, signature and symbol, so the user can pick one).
std::size_t resolveKernelName(const std::vector<std::string>& mangledNames, std::string_view wanted,
                              std::string_view where);

}  // namespace teg
