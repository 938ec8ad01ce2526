#!/usr/bin/env python3
"""An experiment outside teg (not part of the model): can the warps of gpu-benches' gpu-cache kernel
split into L1-resident and L2-bound groups on a V100 SM with an LRU L1 and an L2 share served in
order? docs/validation.md ("Memory hierarchy, issue 25 (helper cache, sixth session)") has the
question and the results.

The kernel as it was run (data/validation/kernels/gpu_cache.cu): one block of 8 warps per SM, each
pass every warp reads lines 16 r + 2 w and 16 r + 2 w + 1 of every 2 KiB row r (256 doubles), in
batches of 32 loads (the unrolled inner loop) each followed by its dependent chain of 32 fp64 adds;
every warp runs the same number of passes. The SM: one 256-byte warp load per 2 cycles through the
LSU (128 B/clk), an L1 of 4 sets x 256 ways of 128-byte lines, LRU, allocated on the miss (teg's
set index fold), L1 latency 28, L2 latency 193 cycles, the SM's L2 share 1561.6 / 80 = 19.52 B per
cycle served one 128-byte line at a time, fp64 add latency 8: the figures teg uses for
tesla-v100-pcie-16gb (`teg devices show tesla-v100-pcie-16gb`: latency.l1, latency.l2,
timing.l2_bytes_per_clk, timing.latency.fp64_fma, memory.l1_sets), copied here because this script
is an experiment, not the model.

--policy fifo: the L2 share serves waiting lines in arrival order (teg's behaviour).
--policy oldest: it serves the lowest warp id first (a strict greedy-then-oldest at the memory).
--late W --delay D: the last W warps start D cycles after the others (a perturbation).
--slices S: instead of one in-order pipe, the SM's L2 share is S slices, each in order at 1/S of the
  share's rate, a line going to slice (line * 2654435761 >> 7) mod S (a multiplicative hash standing
  in for the unpublished one); the V100's L2 has 64 (Accel-Sim SM7_QV100: -gpgpu_n_mem 32,
  -gpgpu_n_sub_partition_per_mchannel 2). Every SM reads the same lines in the same order, so one
  SM's view of a slice is a server at 1/80 of its rate. (--policy applies to the single pipe only.)
Prints, per footprint, the share of line reads that missed the L1 and the GB/s of 80 such SMs at
1380 MHz.
"""
import argparse
import heapq
from collections import OrderedDict

L1_LATENCY, L2_LATENCY, FP64_ADD = 28, 193, 8
L2_CYCLES_PER_LINE = 128 / (1561.6 / 80)
LSU_CYCLES_PER_LOAD = 2.0
SETS, WAYS, UNROLL, WARPS = 4, 256, 32, 8


def simulate(kib, passes, policy="fifo", starts=None, slices=1):
    lines_per_warp = kib * 1024 // 128 // WARPS
    loads_per_pass = lines_per_warp // 2
    sets = [OrderedDict() for _ in range(SETS)]

    def l1_hit(line):  # LRU, allocate on miss
        s = sets[(line ^ (line >> 2) ^ (line >> 4)) & (SETS - 1)]
        if line in s:
            s.move_to_end(line)
            return True
        if len(s) >= WAYS:
            s.popitem(last=False)
        s[line] = True
        return False

    events, order = [], 0

    def push(t, kind, data):
        nonlocal order
        order += 1
        heapq.heappush(events, (t, order, kind, data))

    for w in range(WARPS):
        push(starts[w] if starts else 0.0, "issue", w)
    lsu_free = l2_busy_until = t_end = 0.0
    slice_free = [0.0] * slices
    waiting = []  # lines waiting for the L2 share: (priority key, arrival, warp, load)
    position, passes_done = [0] * WARPS, [0] * WARPS
    hits = misses = 0
    batch, batch_start = {}, [0.0] * WARPS

    def retire(w):  # the batch's add chain, then the next batch
        nonlocal t_end
        ready, _, n = batch[w]
        t = batch_start[w]
        for r in ready:
            t = max(t, r) + FP64_ADD
        position[w] += n
        if position[w] >= loads_per_pass:
            position[w] = 0
            passes_done[w] += 1
            t += FP64_ADD  # localSum *= 1.3
        t_end = max(t_end, t)
        if passes_done[w] < passes:
            push(t, "issue", w)

    while events:
        t, _, kind, data = heapq.heappop(events)
        if kind == "issue":
            w = data
            n = min(UNROLL, loads_per_pass - position[w])
            ready, outstanding = [0.0] * n, 0
            batch_start[w] = t
            for k in range(n):
                load = position[w] + k
                at = max(t, lsu_free)
                lsu_free = at + LSU_CYCLES_PER_LOAD
                ready[k] = at + L1_LATENCY
                for half in range(2):
                    if l1_hit(16 * load + 2 * w + half):
                        hits += 1
                    else:
                        misses += 1
                        outstanding += 1
                        if slices > 1:  # the line's slice, in order, at 1/slices of the rate
                            line = 16 * load + 2 * w + half
                            sl = ((line * 2654435761) >> 7) % slices
                            start = max(at, slice_free[sl])
                            slice_free[sl] = start + L2_CYCLES_PER_LINE * slices
                            push(slice_free[sl] + L2_LATENCY, "data", (w, k))
                        else:  # one pipe for the SM's share
                            key = (w, at) if policy == "oldest" else (at, w)
                            heapq.heappush(waiting, (key, at, w, k))
                            push(at, "l2", None)
            batch[w] = [ready, outstanding, n]
            if outstanding == 0:
                retire(w)
        elif kind == "l2":
            if t < l2_busy_until:
                continue
            eligible = [x for x in waiting if x[1] <= t]
            if not eligible:
                continue
            chosen = min(eligible)
            waiting.remove(chosen)
            heapq.heapify(waiting)
            l2_busy_until = t + L2_CYCLES_PER_LINE
            push(l2_busy_until, "l2", None)
            push(l2_busy_until + L2_LATENCY, "data", (chosen[2], chosen[3]))
        else:
            w, k = data
            b = batch[w]
            b[0][k] = max(b[0][k], t)
            b[1] -= 1
            if b[1] == 0:
                retire(w)
    total = hits + misses
    return misses / total, 128 * total / t_end * 1.38 * 80


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kib", default="124,128,148,172,204,236", help="footprints, comma-separated")
    p.add_argument("--passes", type=int, default=150)
    p.add_argument("--policy", choices=["fifo", "oldest"], default="fifo")
    p.add_argument("--late", default="0", help="numbers of late warps to try, comma-separated")
    p.add_argument("--delay", type=float, default=30000.0)
    p.add_argument("--slices", type=int, default=1)
    a = p.parse_args()
    for kib in map(int, a.kib.split(",")):
        cells = []
        for late in map(int, a.late.split(",")):
            starts = [0.0] * (WARPS - late) + [a.delay] * late
            miss, gbps = simulate(kib, a.passes, a.policy, starts, a.slices)
            cells.append(f"late {late}: miss {miss:.3f} {gbps:6.0f} GB/s")
        print(f"{kib:4d} KiB  " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
