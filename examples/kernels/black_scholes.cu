// blackScholes: European call and put prices (the CUDA SDK BlackScholes), one option per thread
// in a grid-stride loop. The cumulative normal uses the Abramowitz-Stegun polynomial (26.2.17)
// as the SDK does. For option i with price S, strike X, years T, rate R, volatility V:
//   d1 = (ln(S/X) + (R + V²/2) T) / (V √T), d2 = d1 - V √T,
//   call = S N(d1) - X e^(-RT) N(d2),  put = X e^(-RT) (1 - N(d2)) - S (1 - N(d1)).
//
// Usual launch: n = 4,000,000 options, R = 0.02, V = 0.30, block 128, grid 480.
// Sidecar: black_scholes.launch.json.
__device__ inline float cndf(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * __expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  if (d > 0) c = 1.0f - c;
  return c;
}

__global__ void blackScholes(float* call, float* put, const float* price, const float* strike,
                             const float* years, float riskFree, float volatility, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float S = price[i], X = strike[i], T = years[i];
    const float sqrtT = sqrtf(T);
    const float d1 = (__logf(S / X) + (riskFree + 0.5f * volatility * volatility) * T) /
                     (volatility * sqrtT);
    const float d2 = d1 - volatility * sqrtT;
    const float cnd1 = cndf(d1), cnd2 = cndf(d2);
    const float expRT = __expf(-riskFree * T);
    call[i] = S * cnd1 - X * expRT * cnd2;
    put[i] = X * expRT * (1.0f - cnd2) - S * (1.0f - cnd1);
  }
}
