// Loads, stores, atomics and address conversion (PTX ISA §9.7.9): every access is checked like
// compute-sanitizer's memcheck (bounds, mapping, alignment) and reported with block, thread,
// instruction and address.
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "block_runner.hpp"
#include "float_math.hpp"
#include "lanes.hpp"

namespace teg::emu {

using ptx::Opcode;
using ptx::Qualifier;
using ptx::Type;

namespace {

const char* spaceName(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Const: return "const";
    case Space::KernelParam: return "param";
    default: return "generic";
  }
}

// One element of a load, zero-extended; a constant size per case so the copy is a single move
// (a variable-size memcpy was a libc call per lane).
std::uint64_t loadElement(const std::byte* p, std::uint32_t esize) {
  switch (esize) {
    case 1: { std::uint8_t v; std::memcpy(&v, p, 1); return v; }
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

// [address, address + bytes) lies inside [0, size), written so that no sum can wrap: an address
// near 2^64 (a negative offset in a 64-bit register) must never pass as a small one.
constexpr bool fitsIn(std::uint64_t address, std::uint64_t bytes, std::uint64_t size) {
  return address < size && bytes <= size - address;
}

// Shared-memory addresses are 32 bits wide on the GPU (PTX ISA §5.1.3: the shared window is
// addressed with 32-bit offsets), so `[%r+68]` with %r = -64 is byte 4, not byte 2^32 + 4.
constexpr std::uint64_t sharedOffset(std::uint64_t address) { return address & 0xffffffffu; }

}  // namespace

std::uint64_t BlockRunner::addressOf(const Frame& f, const Addr& a, int lane) const {
  switch (a.base) {
    case Addr::Base::Reg: {
      // A 32-bit address register makes a 32-bit address: the sum wraps as the hardware's does.
      const std::uint64_t v = f.regs[std::size_t{a.slot} * kLanes + lane] + static_cast<std::uint64_t>(a.offset);
      return a.reg32 ? (v & 0xffffffffu) : v;
    }
    case Addr::Base::Symbol:
      return static_cast<std::uint64_t>(a.offset) + (a.frameRelative ? f.localBase : 0);
    case Addr::Base::Imm: return static_cast<std::uint64_t>(a.offset);
    default: return 0;
  }
}

std::uint64_t BlockRunner::effectiveAddress(const Warp& w, const Frame& f, const Decoded& d, int lane) const {
  (void)w;
  return addressOf(f, d.addr, lane);
}

std::byte* BlockRunner::resolve(Warp& w, int lane, const Decoded& d, Space space, std::uint64_t address,
                                std::uint32_t bytes, bool write) {
  const char* kind = d.op == Opcode::Atom || d.op == Opcode::Red ? "atomic" : write ? "store" : "load";
  const std::uint64_t original = address;
  const bool generic = space == Space::Generic;
  if (generic) {
    if (address >= kSharedWindow && address < kSharedWindow + kWindowSize) { space = Space::Shared; address -= kSharedWindow; }
    else if (address >= kLocalWindow && address < kLocalWindow + kWindowSize) { space = Space::Local; address -= kLocalWindow; }
    else if (address >= kConstWindow && address < kConstWindow + kWindowSize) { space = Space::Const; address -= kConstWindow; }
    else if (address >= kParamWindow && address < kParamWindow + kWindowSize) { space = Space::KernelParam; address -= kParamWindow; }
    else space = Space::Global;
  }
  auto where = [&] {
    if (original == address) return fmt::format("0x{:x}", address);
    return fmt::format("0x{:x} ({} 0x{:x})", address, generic ? "generic" : "as computed", original);
  };
  if (bytes > 1 && (address % bytes) != 0)
    fail(w, lane, d, fmt::format("misaligned {} {} of {} bytes at {} (needs {}-byte alignment)", spaceName(space),
                                 kind, bytes, where(), bytes));
  switch (space) {
    case Space::Global: {
      std::byte* p = ctx_.global->translate(address, bytes);
      if (p) return p;
      const Allocation* near = ctx_.global->nearest(address);
      std::string detail = "unmapped address";
      if (const Allocation* in = ctx_.global->find(address)) {
        detail = fmt::format("access runs past the end of '{}' [0x{:x}, +{} bytes)", in->name, in->base, in->size);
      } else if (near) {
        const bool after = address >= near->base + near->size;
        if (after)
          detail = fmt::format("{} bytes after the end of '{}' [0x{:x}, +{} bytes)",
                               address - (near->base + near->size), near->name, near->base, near->size);
        else
          detail = fmt::format("{} bytes before '{}' [0x{:x}, +{} bytes)", near->base - address, near->name,
                               near->base, near->size);
        // On the GPU the memory next to an allocation is often mapped and such a read goes
        // unnoticed; the launch file can map zeros there (BufferArg::marginBytes).
        const std::uint64_t userEnd = near->userBase() + near->user().size();
        const std::uint64_t margin = after ? address - userEnd + bytes : near->userBase() - address;
        if (margin <= (std::uint64_t{1} << 30))
          detail += fmt::format(" (if the program runs on the GPU all the same, as memory beside a cudaMalloc "
                                "allocation is usually mapped: \"margin\": {} or more on that buffer in the launch "
                                "file maps zero bytes around it)",
                                margin);
      }
      fail(w, lane, d, fmt::format("out-of-bounds global {} of {} bytes at {}: {}", kind, bytes, where(), detail));
    }
    case Space::Shared:
      // An explicit .shared address is a 32-bit offset; a generic one is already an offset in
      // the window, and one past the shared memory is out of bounds, not wrapped.
      if (!generic) address = sharedOffset(address);
      // shared_ is the block's own shared memory, and the reserved region if the kernel uses it.
      if (!fitsIn(address, bytes, shared_.size()))
        fail(w, lane, d, fmt::format("out-of-bounds shared {} of {} bytes at {} (the block has {} bytes of shared memory)",
                                     kind, bytes, where(), shared_.size()));
      return shared_.data() + address;
    case Space::Local:
      if (!fitsIn(address, bytes, w.localTop))
        fail(w, lane, d, fmt::format("out-of-bounds local {} of {} bytes at {} (the thread has {} bytes of local memory)",
                                     kind, bytes, where(), w.localTop));
      return w.local.data() + std::size_t{w.localStride} * static_cast<std::size_t>(lane) + address;
    case Space::Const: {
      const auto& bank = ctx_.program->layout.constBank;
      if (write) fail(w, lane, d, fmt::format("store to constant memory at {}", where()));
      if (!fitsIn(address, bytes, bank.size()))
        fail(w, lane, d, fmt::format("out-of-bounds const {} of {} bytes at {} (the module has {} bytes of constants)",
                                     kind, bytes, where(), bank.size()));
      return const_cast<std::byte*>(bank.data()) + address;
    }
    case Space::KernelParam: {
      const auto& params = *ctx_.kernelParams;
      if (write) fail(w, lane, d, fmt::format("store to kernel parameter memory at {}", where()));
      if (!fitsIn(address, bytes, params.size()))
        fail(w, lane, d, fmt::format("out-of-bounds param {} of {} bytes at {} (the kernel has {} bytes of parameters)",
                                     kind, bytes, where(), params.size()));
      return const_cast<std::byte*>(params.data()) + address;
    }
    default: break;
  }
  fail(w, lane, d, "memory access to an unknown space");
}

void BlockRunner::execMemory(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses) {
  if (d.op == Opcode::Prefetch || d.op == Opcode::Prefetchu) {
    forEachLane(exec, [&](int l) { addresses[l] = effectiveAddress(w, f, d, l); });
    return;
  }
  const bool isStore = d.op == Opcode::St;
  const int ebits = bitsOf(d.type);
  const std::uint32_t esize = static_cast<std::uint32_t>(std::max(ebits / 8, 1));
  const std::uint32_t vw = d.ir->vectorWidth;
  const std::uint32_t total = esize * vw;
  const bool sgn = ptx::isSignedType(d.type);
  const Src& value = isStore ? d.src[0] : d.dst;
  const Space space = d.addr.space;

  // Fast path: scalar 4-byte access through a register (the common ld/st.global/shared.f32/u32).
  if (vw == 1 && esize == 4 && value.kind == SrcKind::Reg && d.addr.base == Addr::Base::Reg && !sgn) {
    std::uint64_t* row = f.regs.data() + std::size_t{value.slot} * kLanes;
    const std::uint64_t* base = f.regs.data() + std::size_t{d.addr.slot} * kLanes;
    const std::uint64_t off = static_cast<std::uint64_t>(d.addr.offset);
    const bool r32 = d.addr.reg32;
    if (space == Space::Shared) {
      forEachLane(exec, [&](int l) {
        const std::uint64_t addr = sharedOffset(base[l] + off);
        addresses[l] = addr;
        if (!fitsIn(addr, 4, shared_.size()) || (addr & 3u)) resolve(w, l, d, space, addr, 4, isStore);
        std::byte* p = shared_.data() + addr;
        if (isStore) { const auto v = static_cast<std::uint32_t>(row[l]); std::memcpy(p, &v, 4); }
        else { std::uint32_t v; std::memcpy(&v, p, 4); row[l] = v; }
      });
      return;
    }
    if (space == Space::Global) {
      const Allocation* last = nullptr;
      forEachLane(exec, [&](int l) {
        const std::uint64_t sum = base[l] + off;
        const std::uint64_t addr = r32 ? (sum & 0xffffffffu) : sum;
        addresses[l] = addr;
        std::byte* p;
        if (last && last->quiet(addr, 4) && !(addr & 3u)) {  // the slack takes resolve(), which logs it
          p = const_cast<std::byte*>(last->data.data()) + (addr - last->base);
        } else {
          p = resolve(w, l, d, space, addr, 4, isStore);
          last = ctx_.global->find(addr);
        }
        if (isStore) { const auto v = static_cast<std::uint32_t>(row[l]); std::memcpy(p, &v, 4); }
        else { std::uint32_t v; std::memcpy(&v, p, 4); row[l] = v; }
      });
      return;
    }
  }

  const Src* kids = value.kind == SrcKind::Vector ? f.code->vectorChildren.data() + value.slot : &value;
  const std::uint32_t n = value.kind == SrcKind::Vector ? value.count : 1;
  // An address every lane shares (a symbol or an immediate outside local memory, which is per
  // thread) is checked and read once and the value broadcast: SGEMM's ld.shared of one element
  // of a B tile, every ld.param.
  const bool uniformAddress = (d.addr.base == Addr::Base::Symbol || d.addr.base == Addr::Base::Imm) &&
                              !d.addr.frameRelative && space != Space::Local && space != Space::Generic;
  if (uniformAddress && !isStore && exec != 0 && n <= 4) {
    const std::uint64_t addr = effectiveAddress(w, f, d, 0);
    const std::byte* p = resolve(w, std::countr_zero(exec), d, space, addr, total, false);
    std::uint64_t values[4];
    for (std::uint32_t k = 0; k < n; ++k) {
      values[k] = loadElement(p + k * esize, esize);
      if (sgn) values[k] = static_cast<std::uint64_t>(signExtend(values[k], ebits));
    }
    forEachLane(exec, [&](int l) {
      addresses[l] = addr;
      for (std::uint32_t k = 0; k < n; ++k) write(f, kids[k], l, values[k]);
    });
    return;
  }
  if (isStore) {
    View views[4] = {};
    for (std::uint32_t k = 0; k < n && k < 4; ++k) views[k] = read(w, f, kids[k], scratch_[k].data());
    if (n > 4) fail(w, std::countr_zero(exec | 1u), d, "vectors wider than 4 not supported by the emulator");
    forEachLane(exec, [&](int l) {
      const std::uint64_t addr = effectiveAddress(w, f, d, l);
      addresses[l] = addr;
      std::byte* p = resolve(w, l, d, space, addr, total, true);
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint64_t v = views[k][l];
        std::memcpy(p + k * esize, &v, esize);
      }
    });
    return;
  }
  forEachLane(exec, [&](int l) {
    const std::uint64_t addr = effectiveAddress(w, f, d, l);
    addresses[l] = addr;
    const std::byte* p = resolve(w, l, d, space, addr, total, false);
    for (std::uint32_t k = 0; k < n; ++k) {
      std::uint64_t v = loadElement(p + k * esize, esize);
      if (sgn) v = static_cast<std::uint64_t>(signExtend(v, ebits));
      write(f, kids[k], l, v);
    }
  });
}

namespace {

// The new value of an atomic read-modify-write (PTX ISA §9.7.13.5 atom).
std::uint64_t atomicResult(Qualifier op, Type t, std::uint64_t old, std::uint64_t b, std::uint64_t c) {
  const int bits = bitsOf(t);
  switch (op) {
    case Qualifier::Add:
      switch (t) {
        case Type::F32: return bits32(f32(old) + f32(b));
        case Type::F64: return bits64(f64(old) + f64(b));
        case Type::F16: return toHalf(fromHalf(static_cast<std::uint16_t>(old)) + fromHalf(static_cast<std::uint16_t>(b)), -1);
        case Type::Bf16: return toBf16(fromBf16(static_cast<std::uint16_t>(old)) + fromBf16(static_cast<std::uint16_t>(b)), -1);
        case Type::F16x2: case Type::Bf16x2: {
          std::uint64_t r = 0;
          for (int h = 0; h < 2; ++h) {
            const auto x = static_cast<std::uint16_t>(old >> (16 * h)), y = static_cast<std::uint16_t>(b >> (16 * h));
            const std::uint16_t s = t == Type::F16x2 ? toHalf(fromHalf(x) + fromHalf(y), -1) : toBf16(fromBf16(x) + fromBf16(y), -1);
            r |= std::uint64_t{s} << (16 * h);
          }
          return r;
        }
        default: return lowBits(old + b, bits);
      }
    case Qualifier::Min:
    case Qualifier::Max: {
      const bool isMin = op == Qualifier::Min;
      if (t == Type::F32) {
        const float x = f32(old), y = f32(b);
        return bits32(isMin ? std::fmin(x, y) : std::fmax(x, y));
      }
      if (t == Type::F64) return bits64(isMin ? std::fmin(f64(old), f64(b)) : std::fmax(f64(old), f64(b)));
      if (ptx::isSignedType(t)) {
        const std::int64_t x = signExtend(old, bits), y = signExtend(b, bits);
        return lowBits(static_cast<std::uint64_t>(isMin ? std::min(x, y) : std::max(x, y)), bits);
      }
      return isMin ? std::min(lowBits(old, bits), lowBits(b, bits)) : std::max(lowBits(old, bits), lowBits(b, bits));
    }
    case Qualifier::Inc: return lowBits(old, bits) >= lowBits(b, bits) ? 0 : lowBits(old + 1, bits);
    case Qualifier::Dec: return (lowBits(old, bits) == 0 || lowBits(old, bits) > lowBits(b, bits)) ? lowBits(b, bits) : lowBits(old - 1, bits);
    case Qualifier::Cas: return lowBits(old, bits) == lowBits(b, bits) ? lowBits(c, bits) : lowBits(old, bits);
    case Qualifier::Exch: return lowBits(b, bits);
    case Qualifier::And: return lowBits(old & b, bits);
    case Qualifier::Or: return lowBits(old | b, bits);
    case Qualifier::Xor: return lowBits(old ^ b, bits);
    default: return old;
  }
}

// Read-modify-write of `bytes` (2, 4 or 8) at p; atomically when `concurrent`. Returns the old value.
template <class F>
std::uint64_t readModifyWrite(std::byte* p, std::uint32_t bytes, bool concurrent, F&& apply) {
  if (bytes == 8) {
    auto* q = reinterpret_cast<std::uint64_t*>(p);
    if (!concurrent) { const std::uint64_t old = *q; *q = apply(old); return old; }
    std::atomic_ref<std::uint64_t> ref(*q);
    std::uint64_t old = ref.load();
    while (!ref.compare_exchange_weak(old, apply(old))) {}
    return old;
  }
  // 2- and 4-byte: operate on the aligned 32-bit word containing the value.
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto* word = reinterpret_cast<std::uint32_t*>(addr & ~std::uintptr_t{3});
  const int shift = bytes == 2 ? static_cast<int>((addr & 2u) * 8) : 0;
  const std::uint32_t mask = bytes == 2 ? (0xffffu << shift) : 0xffffffffu;
  auto update = [&](std::uint32_t w) {
    const std::uint64_t old = (w & mask) >> shift;
    const auto nv = static_cast<std::uint32_t>(apply(old)) & (mask >> shift);
    return (w & ~mask) | (nv << shift);
  };
  if (!concurrent) {
    const std::uint32_t w = *word;
    *word = update(w);
    return (w & mask) >> shift;
  }
  std::atomic_ref<std::uint32_t> ref(*word);
  std::uint32_t w = ref.load();
  while (!ref.compare_exchange_weak(w, update(w))) {}
  return (w & mask) >> shift;
}

}  // namespace

void BlockRunner::execAtomic(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses) {
  const bool isRed = d.op == Opcode::Red;
  const View b = read(w, f, d.src[0], scratch_[0].data());
  const View c = d.numSrc > 1 ? read(w, f, d.src[1], scratch_[1].data()) : View{scratch_[1].data(), 0};
  const auto op = static_cast<Qualifier>(d.qual);
  const std::uint32_t bytes = static_cast<std::uint32_t>(std::max(bitsOf(d.type) / 8, 1));
  if (d.ir->vectorWidth != 1 || (bytes != 2 && bytes != 4 && bytes != 8))
    if (exec) fail(w, std::countr_zero(exec), d, "atomic form not supported by the emulator");
  // Lanes apply in lane order (the same order every run); global memory may be shared with blocks
  // on other threads, so global atomics are real host atomics.
  forEachLane(exec, [&](int l) {
    const std::uint64_t addr = effectiveAddress(w, f, d, l);
    addresses[l] = addr;
    Space space = d.addr.space;
    if (space == Space::Generic)
      space = (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize) ? Space::Shared
              : (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize) ? Space::Local
                                                                          : Space::Global;
    if (space == Space::Local)
      fail(w, l, d, fmt::format("atomic on local memory at 0x{:x} (PTX ISA: atom and red operate on global and "
                                "shared memory; the result is undefined)", addr));
    std::byte* p = resolve(w, l, d, d.addr.space, addr, bytes, true);
    const std::uint64_t bv = b[l], cv = c[l];
    const std::uint64_t old = readModifyWrite(p, bytes, space == Space::Global,
                                              [&](std::uint64_t o) { return atomicResult(op, d.type, o, bv, cv); });
    if (!isRed && d.hasDst) write(f, d.dst, l, ptx::isSignedType(d.type) ? static_cast<std::uint64_t>(signExtend(old, bitsOf(d.type))) : old);
  });
}

void BlockRunner::execCvta(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec) {
  const View a = read(w, f, d.src[0], scratch_[0].data());
  const bool to = d.ir->has(ptx::modifier::kTo);
  std::uint64_t window = 0;
  switch (d.space) {
    case Space::Shared: window = kSharedWindow; break;
    case Space::Local: window = kLocalWindow; break;
    case Space::Const: window = kConstWindow; break;
    case Space::KernelParam: window = kParamWindow; break;
    default: window = 0; break;  // global addresses are generic addresses
  }
  const int bits = bitsOf(d.type);
  forEachLane(exec, [&](int l) {
    std::uint64_t v = a[l];
    if (window) v = to ? v - window : v + window;
    write(f, d.dst, l, lowBits(v, bits));
  });
}

}  // namespace teg::emu
