// placeholder translation unit; the module's sources replace it
namespace teg::ptx {}
