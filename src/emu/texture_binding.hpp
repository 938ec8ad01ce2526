// A texture object of a launch as the emulator holds it: the launch's description and where its
// texels live in global memory. A kernel sees the object as a 64-bit handle (cudaTextureObject_t);
// handle h names textures[h - 1], so 0, like CUDA's, is never a texture.
#pragma once

#include <cstdint>
#include <string>

#include "teg/emu/launch.hpp"

namespace teg::emu {

struct TextureBinding {
  std::string name;        // the argument (or struct field) it was passed as
  TextureArg texture;      // its initialiser is not used after the upload
  std::uint64_t base = 0;  // device address of texel (0, 0)
};

}  // namespace teg::emu
