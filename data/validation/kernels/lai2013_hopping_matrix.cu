// The Wilson-Dirac hopping term in double precision: the Lattice-QCD experiment of seed 000
// (C.-Y. Lai's thesis, §3.4.2, Tables 3.4 and 3.5: "one kernel in Hopping_Matrix routine"),
// reconstructed for teg as the two loops of the thesis's Listing 2.1:
//
//   Loop 1 (per site x, the timed kernel): for the 4 positive directions the half spinor of x is
//     built and multiplied by the local link ("Half_Spinor_Positive <- Full_Spinor;
//     Temp_Positive = Half_Spinor_Positive * U_Positive"); for the 4 negative directions only the
//     half spinor is built ("Half_Spinor_Negative <- Full_Spinor"). All 8 go to the intermediate
//     half-spinor field in main memory (pattern P3 of §2.4.1 not applied).
//   Loop 2 (per site x): out(x) = sum of the 8 contributions of x's neighbours, the negative ones
//     multiplied by x's own links here ("Temp_Negative = Half_Spinor_Negative * U_Negative").
//
// Together: out(x) = sum_mu [ (1 - gamma_mu) U_mu(x) psi(x + mu) + (1 + gamma_mu) U_mu(x - mu)^dagger psi(x - mu) ]
// (seed 000 eq. 2.1), periodic boundaries. psi is 4 spins x 3 colours complex per site, U_mu(x)
// (the link from x to x + mu) 3 x 3 complex, a half spinor 2 spins x 3 colours.
//
// Half-spinor slots of site x (loop 1 writes them, loop 2 reads them from the neighbours):
//   slot 2 mu     = U_mu(x)^dagger . rows 0, 1 of (1 + gamma_mu) psi(x)   (for site x + mu)
//   slot 2 mu + 1 = rows 0, 1 of (1 - gamma_mu) psi(x)                    (for site x - mu)
// Rows 2, 3 of (1 + s gamma) psi are s phase_r h_perm(r) (gamma^2 = 1), so loop 2 reconstructs
// them from the two stored rows without more multiplications — the half-spinor scheme of §2.3
// (12 real additions to project, 72 multiplications and 60 additions per colour product).
//
// Gamma matrices: DeGrand-Rossi basis (as in Chroma). Each gamma_mu has one non-zero per row r,
// at column perm[mu][r], equal to a phase in {+1, +i, -1, -i}:
//   gamma_x: 0->3 +i, 1->2 +i, 2->1 -i, 3->0 -i     gamma_y: 0->3 -1, 1->2 +1, 2->1 +1, 3->0 -1
//   gamma_z: 0->2 +i, 1->3 -i, 2->0 -i, 3->1 +i     gamma_t: 0->2 +1, 1->3 +1, 2->0 +1, 3->1 +1
//
// Layouts (the point of the experiment). A field is an array of 16-byte complex numbers (like
// cuDoubleComplex: one ld/st.v2.f64 each) with `per` elements per site: 12 for psi (spin * 3 +
// colour), 36 for the gauge field (mu * 9 + row * 3 + column), 48 for the half spinors (slot * 6 +
// spin * 3 + colour). Element e of site s is at
//   AoS (array of structures): s * per + e — a warp's threads are 192, 576 or 768 bytes apart,
//                              so no access coalesces (Table 3.4);
//   SoA (structure of arrays): e * V + s — adjacent threads read adjacent elements (Table 3.5).
//
// Lattice: Lx x Ly x Lz x Lt (arguments), site = x + Lx (y + Ly (z + Lz t)), V = Lx Ly Lz Lt.
// Thread i = blockIdx.x * blockDim.x + threadIdx.x handles site i if i < V; the sidecars use an
// 8^4 lattice (V = 4096) for every block size, so only grid and block change between the 1-, 2-
// and 4-warp runs (30 blocks of 32, 64, 128 threads).
//
// What is reconstructed (the thesis gives neither code nor lattice size): the gamma basis, the
// order of components, the lattice size, the slot assignment, and complex (16-byte) rather than
// scalar accesses. lai2013_hopping_check.py runs both loops on the whole lattice and checks the
// half spinors and the result against a plain complex-matrix reference.
// Registers: ptxas for sm_75 gives hoppingLoop1AoS/SoA 126/128 and hoppingLoop2AoS/SoA 142/148
// registers per thread, more than the 124 a GT200 thread may have; the thesis says only that
// register use limited the kernel to 4 warps per SM, so the suites run loop 1 with 124.
// Sidecars: lai2013_hopping_matrix.{aos,soa}_{1,2,4}warp.launch.json (loop 1).

struct __align__(16) Complex {
  double re, im;
};

__device__ __forceinline__ Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
__device__ __forceinline__ Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
// a * b and conj(a) * b
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

constexpr int kSpinorPer = 12, kLinkPer = 36, kHalfPer = 48;

template <bool SOA>
__device__ __forceinline__ int fieldIndex(int site, int element, int per, int volume) {
  if constexpr (SOA) return element * volume + site;
  else return site * per + element;
}

// Rows 0, 1 of (1 + SIGN gamma_MU) psi: h_s = psi_s + SIGN phase_s psi_perm(s).
template <int MU, int SIGN>
__device__ __forceinline__ void project(const Complex (&psi)[4][3], Complex (&half)[2][3]) {
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    half[0][c] = psi[0][c] + timesSignedGamma<MU, 0, SIGN>(psi[Gamma<MU, 0>::column][c]);
    half[1][c] = psi[1][c] + timesSignedGamma<MU, 1, SIGN>(psi[Gamma<MU, 1>::column][c]);
  }
}

// acc += (1 + SIGN gamma_MU) applied to the stored rows 0, 1: rows 2, 3 are SIGN phase_r h_perm(r).
template <int MU, int SIGN>
__device__ __forceinline__ void reconstruct(const Complex (&h)[2][3], Complex (&acc)[4][3]) {
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    acc[0][c] = acc[0][c] + h[0][c];
    acc[1][c] = acc[1][c] + h[1][c];
    acc[2][c] = acc[2][c] + timesSignedGamma<MU, 2, SIGN>(h[Gamma<MU, 2>::column][c]);
    acc[3][c] = acc[3][c] + timesSignedGamma<MU, 3, SIGN>(h[Gamma<MU, 3>::column][c]);
  }
}

template <bool SOA>
__device__ __forceinline__ void loadLink(const Complex* gauge, int site, int mu, int volume, Complex (&link)[3][3]) {
#pragma unroll
  for (int r = 0; r < 3; ++r)
#pragma unroll
    for (int c = 0; c < 3; ++c) link[r][c] = gauge[fieldIndex<SOA>(site, mu * 9 + r * 3 + c, kLinkPer, volume)];
}

// Loop 1, direction MU: slot 2 MU = U^dagger (1 + gamma) psi, slot 2 MU + 1 = (1 - gamma) psi.
template <bool SOA, int MU>
__device__ __forceinline__ void loop1Direction(const Complex (&psi)[4][3], const Complex* gauge, Complex* half, int site,
                                               int volume) {
  Complex link[3][3];
  loadLink<SOA>(gauge, site, MU, volume, link);
  Complex h[2][3];
  project<MU, +1>(psi, h);
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int r = 0; r < 3; ++r) {
      Complex sum = mulConj(link[0][r], h[s][0]);
#pragma unroll
      for (int c = 1; c < 3; ++c) sum = sum + mulConj(link[c][r], h[s][c]);
      half[fieldIndex<SOA>(site, (2 * MU) * 6 + s * 3 + r, kHalfPer, volume)] = sum;
    }
  project<MU, -1>(psi, h);
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) half[fieldIndex<SOA>(site, (2 * MU + 1) * 6 + s * 3 + c, kHalfPer, volume)] = h[s][c];
}

template <bool SOA>
__device__ __forceinline__ void loop1(const Complex* psiField, const Complex* gauge, Complex* half, int Lx, int Ly,
                                      int Lz, int Lt) {
  const int volume = Lx * Ly * Lz * Lt;
  const int site = blockIdx.x * blockDim.x + threadIdx.x;
  if (site >= volume) return;
  Complex psi[4][3];
#pragma unroll
  for (int s = 0; s < 4; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) psi[s][c] = psiField[fieldIndex<SOA>(site, s * 3 + c, kSpinorPer, volume)];
  loop1Direction<SOA, 0>(psi, gauge, half, site, volume);
  loop1Direction<SOA, 1>(psi, gauge, half, site, volume);
  loop1Direction<SOA, 2>(psi, gauge, half, site, volume);
  loop1Direction<SOA, 3>(psi, gauge, half, site, volume);
}

// Loop 2, axis MU of site x: the backward term arrives ready in slot 2 MU of x - mu; the forward
// term's half spinor (slot 2 MU + 1 of x + mu) is multiplied by U_MU(x) here.
template <bool SOA, int MU>
__device__ __forceinline__ void loop2Axis(const Complex* half, const Complex* gauge, int site, int coord, int extent,
                                          int stride, int volume, Complex (&acc)[4][3]) {
  const int forward = coord + 1 == extent ? site - (extent - 1) * stride : site + stride;
  const int backward = coord == 0 ? site + (extent - 1) * stride : site - stride;
  Complex h[2][3];
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) h[s][c] = half[fieldIndex<SOA>(backward, (2 * MU) * 6 + s * 3 + c, kHalfPer, volume)];
  reconstruct<MU, +1>(h, acc);
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c)
      h[s][c] = half[fieldIndex<SOA>(forward, (2 * MU + 1) * 6 + s * 3 + c, kHalfPer, volume)];
  Complex link[3][3];
  loadLink<SOA>(gauge, site, MU, volume, link);
  Complex product[2][3];
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int r = 0; r < 3; ++r) {
      Complex sum = mul(link[r][0], h[s][0]);
#pragma unroll
      for (int c = 1; c < 3; ++c) sum = sum + mul(link[r][c], h[s][c]);
      product[s][r] = sum;
    }
  reconstruct<MU, -1>(product, acc);
}

template <bool SOA>
__device__ __forceinline__ void loop2(const Complex* half, const Complex* gauge, Complex* out, int Lx, int Ly, int Lz,
                                      int Lt) {
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
  loop2Axis<SOA, 0>(half, gauge, site, x, Lx, 1, volume, acc);
  loop2Axis<SOA, 1>(half, gauge, site, y, Ly, Lx, volume, acc);
  loop2Axis<SOA, 2>(half, gauge, site, z, Lz, Lx * Ly, volume, acc);
  loop2Axis<SOA, 3>(half, gauge, site, t, Lt, Lx * Ly * Lz, volume, acc);
#pragma unroll
  for (int s = 0; s < 4; ++s)
#pragma unroll
    for (int c = 0; c < 3; ++c) out[fieldIndex<SOA>(site, s * 3 + c, kSpinorPer, volume)] = acc[s][c];
}

__global__ void hoppingLoop1AoS(const Complex* psi, const Complex* gauge, Complex* half, int Lx, int Ly, int Lz,
                                int Lt) {
  loop1<false>(psi, gauge, half, Lx, Ly, Lz, Lt);
}

__global__ void hoppingLoop1SoA(const Complex* psi, const Complex* gauge, Complex* half, int Lx, int Ly, int Lz,
                                int Lt) {
  loop1<true>(psi, gauge, half, Lx, Ly, Lz, Lt);
}

__global__ void hoppingLoop2AoS(const Complex* half, const Complex* gauge, Complex* out, int Lx, int Ly, int Lz,
                                int Lt) {
  loop2<false>(half, gauge, out, Lx, Ly, Lz, Lt);
}

__global__ void hoppingLoop2SoA(const Complex* half, const Complex* gauge, Complex* out, int Lx, int Ly, int Lz,
                                int Lt) {
  loop2<true>(half, gauge, out, Lx, Ly, Lz, Lt);
}
