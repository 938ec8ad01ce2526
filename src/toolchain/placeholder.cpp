// placeholder translation unit; replaced by the compiler driver
namespace teg::toolchain {}
