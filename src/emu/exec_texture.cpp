// Texture fetches (PTX ISA §9.7.10.3 tex) from texture objects: tex.1d and tex.2d with integer
// coordinates (tex1Dfetch: a texel by index, never filtered) or float coordinates (tex1D, tex2D:
// normalised or not, nearest-point or linear filtering), following the CUDA C++ Programming
// Guide's appendix "Texture Fetching":
//   nearest point: tex(x) = T[i], i = floor(x);
//   linear:        tex(x) = (1 − α)·T[i] + α·T[i+1], i = floor(xB), α = frac(xB), xB = x − 0.5,
//                  and in 2-D the bilinear blend of T[i, j], T[i+1, j], T[i, j+1], T[i+1, j+1]
//                  with β = frac(y − 0.5); α and β are held in 9-bit fixed point with 8
//                  fractional bits (rounded to the nearest 1/256 here: the guide does not say how
//                  the hardware rounds);
//   x = u·N with normalised coordinates; out-of-range texel indices are clamped, replaced by the
//   border (zero), wrapped or mirrored, per the texture's address mode.
// Channels a texture lacks read as 0 (y, z) and 1 (w). For the timing engine a fetch is a load of
// one texel per lane from the texture's buffer (the first texel of the filter's footprint).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "block_runner.hpp"
#include "float_math.hpp"
#include "lanes.hpp"
#include "teg/ptx/isa.hpp"

namespace teg::emu {

using ptx::Qualifier;
using ptx::Type;

namespace {

// One texel's channels as numbers: exact integers (element reads of integer textures) or floats.
struct Texel {
  double c[4] = {0, 0, 0, 1};
};

// Maps texel index i of a dimension of n texels to a texel inside it; false = the border (zero).
bool addressTexel(TextureAddressMode mode, std::int64_t i, std::int64_t n, std::int64_t& out) {
  switch (mode) {
    case TextureAddressMode::Clamp: out = std::clamp<std::int64_t>(i, 0, n - 1); return true;
    case TextureAddressMode::Border:
      out = i;
      return i >= 0 && i < n;
    case TextureAddressMode::Wrap: out = ((i % n) + n) % n; return true;
    case TextureAddressMode::Mirror: {
      const std::int64_t period = 2 * n;
      const std::int64_t m = ((i % period) + period) % period;
      out = m < n ? m : period - 1 - m;
      return true;
    }
  }
  return false;
}

// A float coordinate as a texel-space position; NaN reads texel 0 and infinities the far ends, so
// every later integer conversion is defined (2^40 is far beyond any texture's 2^31 texels).
double texelPosition(float coordinate, bool normalized, std::uint64_t n) {
  double x = std::isnan(coordinate) ? 0.0 : static_cast<double>(coordinate);
  if (normalized) x *= static_cast<double>(n);
  return std::clamp(x, -0x1p40, 0x1p40);
}

// α of the guide: the fraction in 9-bit fixed point with 8 fractional bits.
double filterWeight(double fraction) { return std::nearbyint(fraction * 256.0) / 256.0; }

double channelValue(const TextureArg& t, const std::byte* p) {
  switch (t.type) {
    case ScalarType::I8: { std::int8_t v; std::memcpy(&v, p, 1); return v; }
    case ScalarType::U8: { std::uint8_t v; std::memcpy(&v, p, 1); return v; }
    case ScalarType::I16: { std::int16_t v; std::memcpy(&v, p, 2); return v; }
    case ScalarType::U16: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case ScalarType::I32: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::U32: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::F16: { std::uint16_t v; std::memcpy(&v, p, 2); return halfToFloat(v); }
    case ScalarType::F32: { float v; std::memcpy(&v, p, 4); return v; }
    default: return 0;  // the launch rejects other texture formats
  }
}

// cudaReadModeNormalizedFloat: unsigned n-bit integers map to [0, 1], signed ones to [-1, 1].
double normalizedFloat(ScalarType type, double v) {
  const int bits = scalarTypeSize(type) * 8;
  if (isSigned(type)) return std::max(v / (std::ldexp(1.0, bits - 1) - 1), -1.0);
  return v / (std::ldexp(1.0, bits) - 1);
}

struct Sampler {
  const TextureBinding& binding;
  const GlobalMemory& global;

  [[nodiscard]] std::uint64_t rows() const { return std::max<std::uint64_t>(binding.texture.height, 1); }

  // Device address of texel (i, j), both inside the texture.
  [[nodiscard]] std::uint64_t address(std::int64_t i, std::int64_t j) const {
    const TextureArg& t = binding.texture;
    return binding.base + static_cast<std::uint64_t>(j) * t.pitchBytes + static_cast<std::uint64_t>(i) * t.texelBytes();
  }

  // Texel (i, j) after addressing; the border reads as zero in every channel.
  [[nodiscard]] Texel fetch(std::int64_t i, std::int64_t j) const {
    const TextureArg& t = binding.texture;
    std::int64_t x = 0, y = 0;
    Texel texel;
    if (!addressTexel(t.address, i, static_cast<std::int64_t>(t.width), x) ||
        !addressTexel(t.address, j, static_cast<std::int64_t>(rows()), y)) {
      texel.c[3] = 0;
      return texel;
    }
    const std::byte* p = global.translate(address(x, y), t.texelBytes());
    const auto channelBytes = static_cast<std::size_t>(scalarTypeSize(t.type));
    for (std::uint32_t c = 0; c < t.channels && p; ++c) {
      texel.c[c] = channelValue(t, p + c * channelBytes);
      if (t.read == TextureReadMode::NormalizedFloat) texel.c[c] = normalizedFloat(t.type, texel.c[c]);
    }
    return texel;
  }

  // The address the trace records for a fetch whose footprint starts at texel (i, j).
  [[nodiscard]] std::uint64_t tracedAddress(std::int64_t i, std::int64_t j) const {
    const TextureArg& t = binding.texture;
    return address(std::clamp<std::int64_t>(i, 0, static_cast<std::int64_t>(t.width) - 1),
                   std::clamp<std::int64_t>(j, 0, static_cast<std::int64_t>(rows()) - 1));
  }
};

}  // namespace

void BlockRunner::execTexture(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses) {
  if (exec == 0) return;
  const int first = std::countr_zero(exec);
  int dims = 0;
  for (Qualifier q : f.code->function->qualifiersOf(*d.ir)) {
    if (q == Qualifier::G1d) dims = 1;
    else if (q == Qualifier::G2d) dims = 2;
    else if (ptx::qualifierCategory(q) == ptx::QualifierCategory::Geometry)
      fail(w, first, d, "only 1-D and 2-D texture fetches (tex.1d, tex.2d) are supported by the emulator");
  }
  // Operands: {r, g, b, a}, [handle, {x[, y]}].
  const Src& list = d.src[0];
  const bool floatResult = d.type == Type::F32;
  if (dims == 0 || d.numSrc != 1 || list.kind != SrcKind::Vector || list.count != 2 || !d.hasDst ||
      d.dst.kind != SrcKind::Vector || d.dst.count != 4 || (!floatResult && d.type != Type::S32 && d.type != Type::U32))
    fail(w, first, d, "texture fetch form not supported by the emulator (expected tex.1d/.2d.v4.{f32,s32,u32} "
                      "{r, g, b, a}, [texture, {coordinates}])");
  const Src* parts = f.code->vectorChildren.data() + list.slot;
  const Src& coords = parts[1];
  const std::uint32_t coordCount = coords.kind == SrcKind::Vector ? coords.count : 1;
  const Src* coordSrc = coords.kind == SrcKind::Vector ? f.code->vectorChildren.data() + coords.slot : &coords;
  if (coordCount < static_cast<std::uint32_t>(dims)) fail(w, first, d, fmt::format("tex.{}d needs {} coordinates", dims, dims));
  const bool integerCoords = !ptx::isFloatType(d.type2);
  const View handles = read(w, f, parts[0], scratch_[0].data());
  const View x = read(w, f, coordSrc[0], scratch_[1].data());
  const View y = dims == 2 ? read(w, f, coordSrc[1], scratch_[2].data()) : View{scratch_[2].data(), 0};
  const std::vector<TextureBinding>& textures = *ctx_.textures;
  const Src* out = f.code->vectorChildren.data() + d.dst.slot;

  forEachLane(exec, [&](int l) {
    const std::uint64_t handle = handles[l];
    if (handle == 0 || handle > textures.size()) {
      std::string known;
      for (std::size_t i = 0; i < textures.size(); ++i)
        known += fmt::format("{}'{}' = {}", known.empty() ? "" : ", ", textures[i].name, i + 1);
      fail(w, l, d, fmt::format("0x{:x} is not a texture object of this launch ({})", handle,
                                known.empty() ? "it has none" : "its textures: " + known));
    }
    const TextureBinding& binding = textures[handle - 1];
    const TextureArg& t = binding.texture;
    if ((t.height == 0) != (dims == 1))
      fail(w, l, d, fmt::format("tex.{}d on texture '{}', which is {}", dims, binding.name,
                                t.height == 0 ? "1-D (it has no height)" : "2-D"));
    const bool floatTexture = isFloatingPoint(t.type) || t.read == TextureReadMode::NormalizedFloat;
    if (floatTexture != floatResult)
      fail(w, l, d, fmt::format("a {} fetch from texture '{}' of {} read as {}", floatResult ? "float" : "integer",
                                binding.name, scalarTypeName(t.type),
                                floatTexture ? "floats" : "integers (its element type)"));
    const Sampler sampler{binding, *ctx_.global};
    Texel result;
    std::int64_t i0 = 0, j0 = 0;
    if (integerCoords) {
      // tex1Dfetch and integer-coordinate fetches: the texel at the index, unfiltered.
      i0 = static_cast<std::int32_t>(x[l]);
      j0 = dims == 2 ? static_cast<std::int32_t>(y[l]) : 0;
      result = sampler.fetch(i0, j0);
    } else {
      const double px = texelPosition(f32(x[l]), t.normalizedCoords, t.width);
      const double py = dims == 2 ? texelPosition(f32(y[l]), t.normalizedCoords, sampler.rows()) : 0.0;
      if (t.filter == TextureFilter::Point) {
        i0 = static_cast<std::int64_t>(std::floor(px));
        j0 = dims == 2 ? static_cast<std::int64_t>(std::floor(py)) : 0;
        result = sampler.fetch(i0, j0);
      } else {
        const double xb = px - 0.5, yb = py - 0.5;
        i0 = static_cast<std::int64_t>(std::floor(xb));
        const double a = filterWeight(xb - std::floor(xb));
        if (dims == 1) {
          const Texel t0 = sampler.fetch(i0, 0), t1 = sampler.fetch(i0 + 1, 0);
          for (int c = 0; c < 4; ++c) result.c[c] = (1 - a) * t0.c[c] + a * t1.c[c];
        } else {
          j0 = static_cast<std::int64_t>(std::floor(yb));
          const double b = filterWeight(yb - std::floor(yb));
          const Texel t00 = sampler.fetch(i0, j0), t10 = sampler.fetch(i0 + 1, j0);
          const Texel t01 = sampler.fetch(i0, j0 + 1), t11 = sampler.fetch(i0 + 1, j0 + 1);
          for (int c = 0; c < 4; ++c)
            result.c[c] = (1 - a) * (1 - b) * t00.c[c] + a * (1 - b) * t10.c[c] + (1 - a) * b * t01.c[c] +
                          a * b * t11.c[c];
        }
      }
    }
    addresses[l] = sampler.tracedAddress(i0, j0);
    for (int c = 0; c < 4; ++c) {
      const std::uint64_t bits = floatResult ? bits32(static_cast<float>(result.c[c]))
                                             : static_cast<std::uint32_t>(static_cast<std::int64_t>(result.c[c]));
      write(f, out[c], l, bits);
    }
  });
}

}  // namespace teg::emu
