// Malformed input: one line `file:line:col: message`, checked character for character
// (ninja's habit). Positions are worked out by hand: the header below is lines 1-5, so the
// first body line is line 6; columns count the leading tab as column 1.
#include <gtest/gtest.h>

#include "teg/ptx/parser.hpp"

namespace teg::ptx {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n";

std::string errorOf(const std::string& text) {
  try {
    parseModule(text, "bad.ptx");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string bodyError(const std::string& body) { return errorOf(kHeader + body); }

TEST(PtxParseErrors, UnknownDirective) {
  EXPECT_EQ(errorOf(".version 9.0\n.target sm_80\n.bogus 3\n"), "bad.ptx:3:1: unknown directive '.bogus'");
}

TEST(PtxParseErrors, UndeclaredRegister) {
  EXPECT_EQ(bodyError("\t.reg .b32 %r<5>;\n\tadd.s32 %r9, %r1, 1;\n}\n"), "bad.ptx:7:10: unknown register '%r9'");
}

TEST(PtxParseErrors, UnknownLabel) {
  EXPECT_EQ(bodyError("\tbra.uni $L_missing;\n}\n"), "bad.ptx:6:10: unknown label or symbol '$L_missing'");
}

TEST(PtxParseErrors, MissingSemicolon) {
  EXPECT_EQ(bodyError("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 5\n\tret;\n}\n"),
            "bad.ptx:8:2: expected ',' or ';' after an operand, found 'ret'");
}

TEST(PtxParseErrors, UnterminatedComment) {
  EXPECT_EQ(bodyError("\tret; /* never closed\n}\n"), "bad.ptx:6:7: unterminated comment");
}

TEST(PtxParseErrors, ShortHexFloat) {
  EXPECT_EQ(bodyError("\t.reg .f32 %f<2>;\n\tmov.f32 %f1, 0f3F80;\n}\n"),
            "bad.ptx:7:15: malformed floating-point literal '0f3F80' (0f needs 8 hex digits)");
}

TEST(PtxParseErrors, EndOfFileInsideAFunction) {
  EXPECT_EQ(bodyError("\tret;\n"), "bad.ptx:7:1: unexpected end of file: missing '}' closing function 'k'");
}

TEST(PtxParseErrors, DuplicateLabel) {
  EXPECT_EQ(bodyError("$L1:\n\tret;\n$L1:\n\tret;\n}\n"), "bad.ptx:8:1: duplicate label '$L1'");
}

TEST(PtxParseErrors, UnknownType) {
  EXPECT_EQ(bodyError("\t.reg .b33 %x;\n}\n"), "bad.ptx:6:7: unknown type '.b33'");
}

TEST(PtxParseErrors, EmptyRegisterRange) {
  EXPECT_EQ(bodyError("\t.reg .b32 %r<0>;\n}\n"),
            "bad.ptx:6:15: register range '%r<0>' must declare at least one register");
}

TEST(PtxParseErrors, SpecialRegisterWithoutComponent) {
  EXPECT_EQ(bodyError("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid;\n}\n"),
            "bad.ptx:7:15: special register '%tid' needs a component .x, .y or .z");
}

TEST(PtxParseErrors, RegisterWhereAnInstructionBelongs) {
  EXPECT_EQ(bodyError("\t.reg .pred %p<2>;\n\t@%p1 %p1;\n}\n"), "bad.ptx:7:7: expected an instruction, found '%p1'");
}

TEST(PtxParseErrors, MalformedNumber) {
  EXPECT_EQ(bodyError("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 12abc;\n}\n"), "bad.ptx:7:15: malformed number '12abc'");
}

// Issue 24: an empty file and an unknown ISA version were accepted (ptxas refuses both).
TEST(PtxParseErrors, EmptyFileHasNoVersion) {
  EXPECT_EQ(errorOf(""),
            "bad.ptx:1:1: empty module: a PTX module starts with .version (e.g. .version 9.0) and .target");
  EXPECT_EQ(errorOf("// only a comment\n"),
            "bad.ptx:2:1: empty module: a PTX module starts with .version (e.g. .version 9.0) and .target");
}

TEST(PtxParseErrors, UnknownVersionNamesTheSupportedOnes) {
  EXPECT_EQ(errorOf(".version 99.9\n.target sm_80\n"),
            "bad.ptx:1:10: unsupported PTX ISA version 99.9 (supported: 1.0-1.5, 2.0-2.3, 3.0-3.2, "
            "4.0-4.3, 5.0-5.1, 6.0-6.5, 7.0-7.8, 8.0-8.8, 9.0)");
  EXPECT_EQ(errorOf(".version 9.1\n.target sm_80\n").substr(0, 48),
            "bad.ptx:1:10: unsupported PTX ISA version 9.1 (s");
  EXPECT_EQ(errorOf(".version 9\n.target sm_80\n"),
            "bad.ptx:1:10: expected a version number major.minor like 9.0, found '9'");
}

TEST(PtxParseErrors, EveryVersionPtxasAcceptsParses) {
  for (const char* v : {"1.0", "1.5", "2.3", "3.2", "4.3", "5.0", "6.5", "7.8", "8.8", "9.0", "09.00"})
    EXPECT_EQ(errorOf(std::string(".version ") + v + "\n.target sm_80\n"), "(no error)") << v;
}

TEST(PtxParseErrors, HeaderOrderAsPtxasRequires) {
  EXPECT_EQ(errorOf(".target sm_80\n.version 9.0\n"),
            "bad.ptx:1:1: expected .version before '.target': a PTX module starts with .version and .target");
  EXPECT_EQ(errorOf(".version 9.0\n"), "bad.ptx:2:1: missing .target directive after .version (e.g. .target sm_80)");
  EXPECT_EQ(errorOf(".version 9.0\n.address_size 64\n.target sm_80\n"),
            "bad.ptx:2:1: expected .target after .version, found '.address_size'");
}

// Issue 24: .shared sizes wrapped at 32 bits (and products of dimensions at 64).
TEST(PtxParseErrors, VariableSizesThatWrapAreRefused) {
  EXPECT_EQ(bodyError("\t.shared .align 4 .b32 s[1073741824];\n\tret;\n}\n"),
            "bad.ptx:6:24: 's' is 4294967296 bytes: .shared variables are addressed with 32 bits (at most "
            "4294967295 bytes)");
  EXPECT_EQ(errorOf(".version 9.0\n.target sm_80\n.global .b64 g[1099511627776][1099511627776];\n"),
            "bad.ptx:3:14: the size of 'g' overflows 64 bits");
  EXPECT_EQ(bodyError("\t.shared .b8 s[4294967295];\n\tret;\n}\n"), "(no error)");  // the largest that fits
  EXPECT_EQ(errorOf(".version 9.0\n.target sm_80\n.global .b8 g[1099511627776];\n"), "(no error)");  // 64-bit space
}

// Found by fuzz_ptx_parser: a comment after `.file N "name",size,time` became part of the
// directive's text, so the printed module parsed back to a different one.
TEST(PtxParseErrors, FileDirectiveStopsAtItsLastNumber) {
  const Module m = parseModule(".version 1.4\n.target sm_10\n.file 1 \"a.cu\"\n\t,128,0\n\t// trailing\n", "f.ptx");
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_EQ(m.files[0].extra, ",128,0");
}

// Found by fuzz_ptx_parser (AddressSanitizer: heap-use-after-free): a .branchtargets table whose
// label name is too long for the short-string buffer took its name from the label just freed.
TEST(PtxParseErrors, LongBranchTargetsNameIsKept) {
  const Module m = parseModule(".version 9.0\n.target sm_80\n.entry k()\n{\n\t.reg .b32 %r<2>;\n"
                               "\tmov.u32 %r1, 0;\n"
                               "\ta_table_with_a_long_name: .branchtargets L_one, L_two;\n"
                               "\tbrx.idx %r1, a_table_with_a_long_name;\nL_one:\n\tret;\nL_two:\n\tret;\n}\n",
                               "b.ptx");
  ASSERT_EQ(m.functions.at(0).branchTargets.size(), 1u);
  EXPECT_EQ(m.functions[0].branchTargets[0].name, "a_table_with_a_long_name");
}

// nvcc's PTX of a whole .cu (cuda-samples' reduction_kernel.cu: 40 kernels) must not be blocked by
// one body teg cannot read. With deferFunctionErrors the bad body (here an unknown register in an
// inline-asm block with its own braces, and a '}' in a comment) is set aside with its error and
// the next kernel parses; without it the module fails as before.
TEST(PtxParseErrors, DeferredFunctionErrorDoesNotBlockTheOtherKernels) {
  const std::string text =
      ".version 9.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry bad(\n\t.param .u64 bad_p\n)\n{\n\t.reg .b32 %r<2>;\n"
      "\t// a comment with a } in it\n"
      "\t{\n\t.reg .u32 start;\n\tmov.u32 start, %no_such_register;\n\t}\n\tret;\n}\n"
      ".visible .entry good(\n\t.param .u32 good_n\n)\n{\n\t.reg .b32 %r<2>;\n"
      "\tld.param.u32 %r1, [good_n];\n\tret;\n}\n";
  EXPECT_THROW(parseModule(text, "m.ptx"), Error);
  const Module m = parseModule(text, "m.ptx", {.deferFunctionErrors = true});
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_EQ(m.functions[0].name, "bad");
  EXPECT_FALSE(m.functions[0].hasBody);
  EXPECT_EQ(m.functions[0].params.size(), 1u);
  EXPECT_EQ(m.functions[0].deferredError, "m.ptx:12:17: unknown register '%no_such_register'");
  EXPECT_EQ(m.functions[1].name, "good");
  EXPECT_TRUE(m.functions[1].hasBody);
  EXPECT_TRUE(m.functions[1].deferredError.empty());
  EXPECT_EQ(m.functions[1].instructions.size(), 2u);
}

TEST(PtxParseErrors, MissingFileIsAnErrorNotACrash) {
  try {
    parseFile("/nonexistent/x.ptx");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/x.ptx: cannot open: No such file or directory");
  }
}

}  // namespace
}  // namespace teg::ptx
