#include "teg/support/kernel_name.hpp"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <utility>
#include <cstdlib>
#include <memory>

#include "teg/support/error.hpp"

namespace teg {

namespace {

std::string withoutSpaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

// Position of the first '(' outside template brackets: where the parameter list starts.
std::size_t parameterListStart(std::string_view signature) {
  int depth = 0;
  for (std::size_t i = 0; i < signature.size(); ++i) {
    if (signature[i] == '<') ++depth;
    else if (signature[i] == '>') --depth;
    else if (signature[i] == '(' && depth == 0) return i;
  }
  return std::string_view::npos;
}

// "void ns::scale<float, 4>" -> "ns::scale<float, 4>": a template's signature starts with its
// return type, separated by the last space outside template brackets.
std::string_view withoutReturnType(std::string_view name) {
  int depth = 0;
  std::size_t cut = std::string_view::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    else if (name[i] == '>') --depth;
    else if (name[i] == ' ' && depth == 0) cut = i;
  }
  return cut == std::string_view::npos ? name : name.substr(cut + 1);
}

std::string withoutTemplateArguments(std::string_view name) {
  std::string out;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

// A user writes a template argument as the source spells it, `max_flops<int32_t>`; the mangled
// name holds the type the typedef names, which the demangler prints (`max_flops<int>`). The
// <cstdint>/<cstddef> typedefs as glibc declares them on 64-bit Linux (x86-64, aarch64: LP64),
// where nvcc's device code takes the host's: `std::` before them is dropped too.
constexpr std::pair<std::string_view, std::string_view> kStandardTypedefs[] = {
    {"int8_t", "signed char"},      {"uint8_t", "unsigned char"},   {"int16_t", "short"},
    {"uint16_t", "unsigned short"}, {"int32_t", "int"},             {"uint32_t", "unsigned int"},
    {"int64_t", "long"},            {"uint64_t", "unsigned long"},  {"size_t", "unsigned long"},
    {"ptrdiff_t", "long"},          {"intptr_t", "long"},           {"uintptr_t", "unsigned long"}};

// CUDA's half-precision headers name their types through typedefs as well: cuda_fp16.h
// `typedef __half half; typedef __half2 half2;`, cuda_bf16.h `typedef __nv_bfloat16 nv_bfloat16;
// typedef __nv_bfloat162 nv_bfloat162;` (HeCBench f16max launches hmax<half2>, which the demangler
// prints hmax<__half2>). Not in std::, and only as a type (in template arguments or parameters):
// a kernel named half stays half.
constexpr std::pair<std::string_view, std::string_view> kCudaTypedefs[] = {
    {"half", "__half"}, {"half2", "__half2"}, {"nv_bfloat16", "__nv_bfloat16"}, {"nv_bfloat162", "__nv_bfloat162"}};

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string withStandardTypedefsSpelledOut(std::string_view name) {
  std::string out;
  int depth = 0;  // inside template arguments or a parameter list
  for (std::size_t i = 0; i < name.size();) {
    if (!isIdentifierChar(name[i])) {
      if (name[i] == '<' || name[i] == '(') ++depth;
      if ((name[i] == '>' || name[i] == ')') && depth > 0) --depth;
      out += name[i++];
      continue;
    }
    std::size_t end = i;
    while (end < name.size() && isIdentifierChar(name[end])) ++end;
    const std::string_view word = name.substr(i, end - i);
    const auto* typedefName = std::find_if(std::begin(kStandardTypedefs), std::end(kStandardTypedefs),
                                           [&](const auto& t) { return t.first == word; });
    const auto* cudaName = std::find_if(std::begin(kCudaTypedefs), std::end(kCudaTypedefs),
                                        [&](const auto& t) { return t.first == word; });
    const bool qualified = out.size() >= 2 && out.compare(out.size() - 2, 2, "::") == 0;
    if (cudaName != std::end(kCudaTypedefs) && !qualified && depth > 0) {
      out += cudaName->second;
    } else if (typedefName == std::end(kStandardTypedefs)) {
      out += word;
    } else {
      if (out.size() >= 5 && out.compare(out.size() - 5, 5, "std::") == 0 &&
          (out.size() == 5 || !isIdentifierChar(out[out.size() - 6])))
        out.resize(out.size() - 5);
      out += typedefName->second;
    }
    i = end;
  }
  return out;
}

}  // namespace

std::string demangle(std::string_view mangled) {
  const auto dollar = mangled.find('$');  // ptxas clones: "_Z6helperfPKf$3"
  const std::string base(mangled.substr(0, dollar));
  const std::string suffix(dollar == std::string_view::npos ? std::string_view{} : mangled.substr(dollar));
  if (base.rfind("_Z", 0) != 0) return std::string(mangled);
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(base.c_str(), nullptr, nullptr, &status),
                                                        &std::free);
  if (status != 0 || !out) return std::string(mangled);
  return std::string(out.get()) + suffix;
}

namespace {

// "void ns::scale<float>(float*, int)" -> "ns::scale<float>"
std::string_view withTemplateArguments(std::string_view signature) {
  return withoutReturnType(signature.substr(0, parameterListStart(signature)));
}

}  // namespace

std::string qualifiedKernelName(std::string_view mangled) {
  const std::string signature = demangle(mangled);
  if (signature == mangled) return signature;
  return withoutTemplateArguments(withTemplateArguments(signature));
}

std::vector<std::string> kernelNameForms(std::string_view mangled) {
  std::vector<std::string> forms{std::string(mangled)};
  const std::string signature = demangle(mangled);
  if (signature == mangled) return forms;  // not C++: the symbol is the name
  forms.push_back(signature);
  const std::string_view withArgs = withTemplateArguments(signature);
  const std::string qualified = withoutTemplateArguments(withArgs);
  const auto colon = qualified.rfind("::");
  const std::string plain = colon == std::string::npos ? qualified : qualified.substr(colon + 2);
  for (const std::string& form : {std::string(withArgs), qualified, plain})
    if (std::find(forms.begin(), forms.end(), form) == forms.end()) forms.push_back(form);
  return forms;
}

bool kernelNameMatches(std::string_view mangled, std::string_view wanted) {
  const std::string want = withoutSpaces(withStandardTypedefsSpelledOut(wanted));
  if (want.empty()) return false;
  const std::vector<std::string> forms = kernelNameForms(mangled);
  for (const std::string& form : forms)
    if (withoutSpaces(form) == want) return true;
  // "inner::scale" for "outer::inner::scale" (forms from [2] on: the qualified name with and
  // without template arguments).
  for (std::size_t i = 2; i < forms.size(); ++i) {
    const std::string form = withoutSpaces(forms[i]);
    if (form.size() > want.size() + 2 && form.compare(form.size() - want.size(), want.size(), want) == 0 &&
        form.compare(form.size() - want.size() - 2, 2, "::") == 0)
      return true;
  }
  return false;
}

std::size_t resolveKernelName(const std::vector<std::string>& mangledNames, std::string_view wanted,
                              std::string_view where) {
  std::vector<std::size_t> matches;
  for (std::size_t i = 0; i < mangledNames.size(); ++i) {
    if (mangledNames[i] == wanted) return i;
    if (kernelNameMatches(mangledNames[i], wanted)) matches.push_back(i);
  }
  if (matches.size() == 1) return matches.front();
  const auto describe = [&](std::size_t i) {
    const std::string signature = demangle(mangledNames[i]);
    return signature == mangledNames[i] ? signature : fmt::format("{} ({})", signature, mangledNames[i]);
  };
  std::string list;
  if (matches.empty()) {
    if (mangledNames.empty()) throw Error(fmt::format("{} has no kernel; looked for '{}'", where, wanted));
    for (std::size_t i = 0; i < mangledNames.size(); ++i) list += fmt::format("{}{}", i ? "; " : "", describe(i));
    throw Error(fmt::format("no kernel '{}' in {}; its kernels are: {}", wanted, where, list));
  }
  for (std::size_t i = 0; i < matches.size(); ++i) list += fmt::format("{}{}", i ? "; " : "", describe(matches[i]));
  const std::vector<std::string> example = kernelNameForms(mangledNames[matches.front()]);
  throw Error(fmt::format("kernel name '{}' is ambiguous in {}: it names {} kernels: {}; give one by its template "
                          "arguments or signature (e.g. '{}') or its mangled name",
                          wanted, where, matches.size(), list, example.size() > 2 ? example[2] : example[0]));
}

}  // namespace teg
