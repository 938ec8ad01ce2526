// The same-address atomic microbenchmark behind data/validation/atomic_hotspot.csv
// (Debdeep23/test1, gpu-perf/kernels/atomic_hotspot.cuh), written for teg from the repository's
// description: every thread adds 1 to one unsigned int `iters` times, the result unused. ptxas folds
// each warp's adds into one RED of the lane count by one lane, so the word takes one operation per
// warp and iteration. The program times 50 back-to-back launches with CUDA events (per launch).
__global__ void atomicHotspot(unsigned int* counter, int iters) {
  for (int i = 0; i < iters; ++i) atomicAdd(counter, 1u);
}
