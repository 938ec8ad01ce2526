// The Wilson-Dirac hopping term in double precision: the Lattice-QCD experiment of seed 000
// (C.-Y. Lai's thesis, §3.4.2, Tables 3.4 and 3.5: "one kernel in Hopping_Matrix routine"),
// reconstructed for teg. One thread per lattice site x computes
//
//   out(x) = sum_{mu = x,y,z,t} [ (1 - gamma_mu) U_mu(x) psi(x + mu)
//                               + (1 + gamma_mu) U_mu(x - mu)^dagger psi(x - mu) ]
//
// psi (the spinor field) is 4 spins x 3 colours complex (24 doubles per site), U_mu(x) (the gauge
// link from x to x + mu) a 3 x 3 complex matrix (18 doubles), periodic boundaries. For each of
// the 8 directions the thread loads the neighbour's spinor and the link, projects the spinor to a
// half spinor (2 spins x 3 colours) with (1 -/+ gamma_mu), multiplies both spins by U or U^dagger
// and reconstructs the other 2 spins into the 24-double accumulator — the half-spinor scheme the
// thesis describes. All arithmetic is complex multiply-add in double.
//
// Gamma matrices: DeGrand-Rossi basis (as in Chroma). Each gamma_mu has one non-zero per row r,
// at column perm[mu][r], equal to a phase in {+1, +i, -1, -i}:
//   gamma_x: 0->3 +i, 1->2 +i, 2->1 -i, 3->0 -i     gamma_y: 0->3 -1, 1->2 +1, 2->1 +1, 3->0 -1
//   gamma_z: 0->2 +i, 1->3 -i, 2->0 -i, 3->1 +i     gamma_t: 0->2 +1, 1->3 +1, 2->0 +1, 3->1 +1
// (1 + s gamma) psi, s = +-1: rows 0, 1 are h_r = psi_r + s phase_r psi_perm(r) (the half spinor);
// rows 2, 3 equal s phase_r h_perm(r), because gamma^2 = 1 (phase_r phase_perm(r) = 1), so they
// are reconstructed from U h without more multiplications.
//
// Layouts (the point of the experiment; component c = (spin * 3 + colour) * 2 + re/im, link
// component c = (row * 3 + column) * 2 + re/im):
//   hoppingAoS — array of structures: psi[site * 24 + c], U[(site * 4 + mu) * 18 + c],
//                out[site * 24 + c]. A warp's threads read 192 bytes apart: uncoalesced
//                (Table 3.4).
//   hoppingSoA — structure of arrays: psi[c * V + site], U[(mu * 18 + c) * V + site],
//                out[c * V + site]. Adjacent threads read adjacent doubles: coalesced (Table 3.5).
//
// Lattice: Lx x Ly x Lz x Lt (arguments), site = x + Lx (y + Ly (z + Lz t)), V = Lx Ly Lz Lt.
// Thread i = blockIdx.x * blockDim.x + threadIdx.x handles site i if i < V; the sidecars use an
// 8^4 lattice (V = 4096) for every block size, so only grid and block change between the 1-, 2-
// and 4-warp runs (30 blocks of 32, 64, 128 threads: sites 0 .. 30 * blockDim - 1; the rest of
// the lattice is only read as neighbours, and out stays zero there).
//
// What is reconstructed (the thesis gives neither code nor lattice size): the gamma basis, the
// index order of components, the lattice size, scalar (not vector) loads, and that the kernel
// computes the full (not even-odd preconditioned) hopping term. lai2013_hopping_check.py checks
// both kernels against a plain complex-matrix reference.
// Registers: ptxas for sm_75 gives hoppingAoS 128 and hoppingSoA 168 registers per thread, more
// than the 124 a GT200 thread may have, so `teg predict --gpu gtx280` needs --regs (the thesis
// only says register pressure limited it to 4 warps per SM: 65..124 registers on GT200).
// Sidecars: lai2013_hopping_matrix.{aos,soa}_{1,2,4}warp.launch.json.

struct Complex {
  double re, im;
};

__device__ __forceinline__ Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
__device__ __forceinline__ Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
// a * b and conj(a) * b as multiply-adds
__device__ __forceinline__ Complex mul(Complex a, Complex b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
__device__ __forceinline__ Complex mulConj(Complex a, Complex b) {
  return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
}

// Multiplication by a phase code 0: +1, 1: +i, 2: -1, 3: -i (no multiplications needed).
template <int PHASE>
__device__ __forceinline__ Complex timesPhase(Complex z) {
  if constexpr (PHASE == 0) return z;
  else if constexpr (PHASE == 1) return {-z.im, z.re};
  else if constexpr (PHASE == 2) return {-z.re, -z.im};
  else return {z.im, -z.re};
}

// DeGrand-Rossi gamma_mu: column of the non-zero of row r, and its phase code.
template <int MU, int ROW>
struct Gamma;
#define TEG_GAMMA(MU, ROW, COL, PHASE)         \
  template <>                                   \
  struct Gamma<MU, ROW> {                       \
    static constexpr int column = COL;          \
    static constexpr int phase = PHASE;         \
  };
TEG_GAMMA(0, 0, 3, 1) TEG_GAMMA(0, 1, 2, 1) TEG_GAMMA(0, 2, 1, 3) TEG_GAMMA(0, 3, 0, 3)
TEG_GAMMA(1, 0, 3, 2) TEG_GAMMA(1, 1, 2, 0) TEG_GAMMA(1, 2, 1, 0) TEG_GAMMA(1, 3, 0, 2)
TEG_GAMMA(2, 0, 2, 1) TEG_GAMMA(2, 1, 3, 3) TEG_GAMMA(2, 2, 0, 3) TEG_GAMMA(2, 3, 1, 1)
TEG_GAMMA(3, 0, 2, 0) TEG_GAMMA(3, 1, 3, 0) TEG_GAMMA(3, 2, 0, 0) TEG_GAMMA(3, 3, 1, 0)
#undef TEG_GAMMA

// s * phase: the phase code of -phase is (phase + 2) % 4.
template <int MU, int ROW, int SIGN>
__device__ __forceinline__ Complex timesSignedGamma(Complex z) {
  constexpr int phase = Gamma<MU, ROW>::phase;
  constexpr int signedPhase = (SIGN > 0) ? phase : (phase + 2) % 4;
  return timesPhase<signedPhase>(z);
}

template <bool SOA>
__device__ __forceinline__ Complex loadSpinor(const double* psi, int site, int spin, int colour, int volume) {
  const int c = (spin * 3 + colour) * 2;
  if constexpr (SOA) return {psi[c * volume + site], psi[(c + 1) * volume + site]};
  else return {psi[site * 24 + c], psi[site * 24 + c + 1]};
}

template <bool SOA>
__device__ __forceinline__ Complex loadLink(const double* gauge, int site, int mu, int row, int column,
                                            int volume) {
  const int c = (row * 3 + column) * 2;
  if constexpr (SOA) return {gauge[(mu * 18 + c) * volume + site], gauge[(mu * 18 + c + 1) * volume + site]};
  else return {gauge[(site * 4 + mu) * 18 + c], gauge[(site * 4 + mu) * 18 + c + 1]};
}

// acc += (1 + SIGN gamma_MU) W psi(neighbour), W = U_MU(linkSite) or, if DAGGER, its adjoint.
template <bool SOA, int MU, int SIGN, bool DAGGER>
__device__ __forceinline__ void accumulateDirection(const double* psi, const double* gauge, int neighbour,
                                                    int linkSite, int volume, Complex (&acc)[4][3]) {
  Complex spinor[4][3];
#pragma unroll
  for (int s = 0; s < 4; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) spinor[s][c] = loadSpinor<SOA>(psi, neighbour, s, c, volume);
  Complex link[3][3];
#pragma unroll
  for (int r = 0; r < 3; ++r)
#pragma unroll
    for (int c = 0; c < 3; ++c) link[r][c] = loadLink<SOA>(gauge, linkSite, MU, r, c, volume);

  // Project: h_s = psi_s + SIGN phase_s psi_perm(s), s = 0, 1.
  Complex half[2][3];
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    half[0][c] = spinor[0][c] + timesSignedGamma<MU, 0, SIGN>(spinor[Gamma<MU, 0>::column][c]);
    half[1][c] = spinor[1][c] + timesSignedGamma<MU, 1, SIGN>(spinor[Gamma<MU, 1>::column][c]);
  }
  // Colour multiply: (W h_s)_r = sum_c W(r, c) h_s(c); W(r, c) = conj(U(c, r)) for the adjoint.
  Complex product[2][3];
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int r = 0; r < 3; ++r) {
      Complex sum = DAGGER ? mulConj(link[0][r], half[s][0]) : mul(link[r][0], half[s][0]);
#pragma unroll
      for (int c = 1; c < 3; ++c)
        sum = sum + (DAGGER ? mulConj(link[c][r], half[s][c]) : mul(link[r][c], half[s][c]));
      product[s][r] = sum;
    }
  // Reconstruct: rows 0, 1 are W h; rows 2, 3 are SIGN phase_r (W h)_perm(r).
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    acc[0][c] = acc[0][c] + product[0][c];
    acc[1][c] = acc[1][c] + product[1][c];
    acc[2][c] = acc[2][c] + timesSignedGamma<MU, 2, SIGN>(product[Gamma<MU, 2>::column][c]);
    acc[3][c] = acc[3][c] + timesSignedGamma<MU, 3, SIGN>(product[Gamma<MU, 3>::column][c]);
  }
}

// Both directions of MU: the forward term (1 - gamma) U_mu(x) psi(x + mu) and the backward term
// (1 + gamma) U_mu(x - mu)^dagger psi(x - mu).
template <bool SOA, int MU>
__device__ __forceinline__ void accumulateAxis(const double* psi, const double* gauge, int site, int coord,
                                               int extent, int stride, int volume, Complex (&acc)[4][3]) {
  const int forward = coord + 1 == extent ? site - (extent - 1) * stride : site + stride;
  const int backward = coord == 0 ? site + (extent - 1) * stride : site - stride;
  accumulateDirection<SOA, MU, -1, false>(psi, gauge, forward, site, volume, acc);
  accumulateDirection<SOA, MU, +1, true>(psi, gauge, backward, backward, volume, acc);
}

template <bool SOA>
__device__ __forceinline__ void hopping(const double* psi, const double* gauge, double* out, int Lx, int Ly,
                                        int Lz, int Lt) {
  const int volume = Lx * Ly * Lz * Lt;
  const int site = blockIdx.x * blockDim.x + threadIdx.x;
  if (site >= volume) return;
  const int x = site % Lx;
  const int y = (site / Lx) % Ly;
  const int z = (site / (Lx * Ly)) % Lz;
  const int t = site / (Lx * Ly * Lz);
  Complex acc[4][3];
#pragma unroll
  for (int s = 0; s < 4; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) acc[s][c] = {0.0, 0.0};
  accumulateAxis<SOA, 0>(psi, gauge, site, x, Lx, 1, volume, acc);
  accumulateAxis<SOA, 1>(psi, gauge, site, y, Ly, Lx, volume, acc);
  accumulateAxis<SOA, 2>(psi, gauge, site, z, Lz, Lx * Ly, volume, acc);
  accumulateAxis<SOA, 3>(psi, gauge, site, t, Lt, Lx * Ly * Lz, volume, acc);
#pragma unroll
  for (int s = 0; s < 4; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      const int k = (s * 3 + c) * 2;
      if constexpr (SOA) {
        out[k * volume + site] = acc[s][c].re;
        out[(k + 1) * volume + site] = acc[s][c].im;
      } else {
        out[site * 24 + k] = acc[s][c].re;
        out[site * 24 + k + 1] = acc[s][c].im;
      }
    }
}

__global__ void hoppingAoS(const double* psi, const double* gauge, double* out, int Lx, int Ly, int Lz, int Lt) {
  hopping<false>(psi, gauge, out, Lx, Ly, Lz, Lt);
}

__global__ void hoppingSoA(const double* psi, const double* gauge, double* out, int Lx, int Ly, int Lz, int Lt) {
  hopping<true>(psi, gauge, out, Lx, Ly, Lz, Lt);
}
