#!/usr/bin/env python3
"""What each candidate mechanism predicts for mt4g's main-memory bandwidth rows
(docs/validation.md, "mt4g's main-memory rows: what the data rule in and out").

mt4g (caps-tum/mt4g@4cc55662a9541a40e91909c61d543c524ae04fcb) times ONE launch of a grid-stride
sweep over totalGlobalMem / 4 bytes between two events, right after hipDeviceReset and hipMalloc
(src/benchmarks/shared/bandwidth/mainMemory{Read,Write}Bandwidth.cpp). The five GPUs teg knows
measured 71-95 % of their DRAM peak where teg predicts 94-100 %. This script takes, per row, the
time the measurement holds beyond teg's prediction ("extra") and sets it against what each
candidate can account for, from published figures only:

  (a) a cold TLB. mt4g's own DRAM-latency program (src/benchmarks/shared/latency/
      mainMemoryLatency.cpp: one thread, 2048 dependent loads, random over 1 GiB at 1 KiB stride,
      right after hipDeviceReset and the array's upload) prints every load's cycles
      (sample_results/<GPU>/<GPU> - Main Memory Latency.txt). On every GPU about 30 of the first
      128 loads, and on the V100, P6000, T1000 and RTX 2080 Ti none after the 512th, are
      400-600 cycles slower than the median: one cold walk per 32 MiB of the 1 GiB array (32
      regions, all first touched within ~130 random loads). The bound below lets every 32 MiB
      region of the bandwidth array cost one such walk in each of the two waves (grid = 2 x the
      resident blocks), with the whole GPU stalled for each walk (no overlap with streaming): an
      upper bound. `--per-gpc` multiplies it by the GPC count (a walk per GPC; the chase runs on
      one SM, so it cannot tell).
  (b) a GDDR6 write penalty: the T1000 (TU117, GDDR6, sm_75 like the RTX 2080 Ti, the same SASS
      STG.E.128.STRONG.SYS for st.global.wt) ran the same program on the same software stack.
  (c) something else between the events that does not depend on the kernel's direction
      (host-side first-launch work such as lazy module loading, a clock ramp, the cold TLB):
      a read and a write round differ only in the kernel, so such a cost is the same for both
      rows of a GPU and can account for at most min(extra_read, extra_write); the rest,
      |extra_read - extra_write|, needs a mechanism that depends on the direction. The software
      stacks are listed to show that rows on one stack disagree.
  (d) the read kernel's load concurrency (Little's law): ptxas narrows the inline
      ld.global.v4.u32 to one 32-bit LDG (only .x is used) and the XOR on the loaded value plus
      the reused register serialise the iterations, so each warp has one 512-byte request in
      flight: X = (resident warps x 512 B) / (peak x unloaded latency). X >> 1 means the read is
      not concurrency-bound at the unloaded latency.

Measured rows: data/validation/mt4g_bandwidth.csv (the five teg GPUs); the T1000 and Quadro
P6000, which teg has no device for, are the same program's sample_results/NVIDIA T1000.json and
Quadro P6000.json (figures below, GiB/s as printed). teg's predictions: `teg validate
mt4g-bandwidth --isa ptx --json` (pass the file with --teg-json), or the PTX column of the
docs/validation.md table if none is given. For the T1000 and P6000 the baseline is the median
fraction of peak teg predicts on the five (an assumption stated in the output, not a model).

  python3 scripts/mt4g-dram-candidates.py [--teg-json FILE] [--mt4g DIR] [--per-gpc]

--mt4g: a checkout (or bare git directory) of caps-tum/mt4g at 4cc5566 to recompute the walk
counts and costs from the latency files; without it the values computed from them are used.
"""
import argparse
import csv
import json
import math
import pathlib
import re
import statistics
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
MT4G_COMMIT = "4cc55662a9541a40e91909c61d543c524ae04fcb"
GIB = 2 ** 30
REGION = 32 * 2 ** 20  # one cold walk per 32 MiB (the chase: ~30 walks over 1 GiB)

# Per GPU: the mt4g result file name, the teg device (None: no teg device), the peak GB/s used
# (teg's memory.dram_bandwidth_gbs; for the two without a device, the result's memoryClockRate x 2
# x memoryBusWidth / 8), memory type (the device file or the product datasheet), GPC count
# (architecture whitepapers; used only with --per-gpc; the T1000's TU117 count is not from a
# whitepaper, and its row stays short of its extra even at 8), the resident warps per SM
# (maxThreadsPerMultiProcessor / 32, as the result prints it) and the software stack the result's
# "meta" section prints (runtime, driver, nvcc, kernel, timestamp).
GPUS = {
    "RTX 2080 Ti": dict(file="NVIDIA GeForce RTX 2080 Ti", device="rtx2080ti", peak=616, mem="GDDR6", gpcs=6,
                        warps=32, stack="rt 12.0 / drv 12.8 / nvcc 12.9.41 / 6.8.0-64, 2025-08-10T00:16Z"),
    "V100-PCIe-16GB": dict(file="Tesla V100-PCIE-16GB", device="tesla-v100-pcie-16gb", peak=900, mem="HBM2", gpcs=6,
                           warps=64, stack="rt 12.8 / drv 12.8 / nvcc 12.8.61 / 6.8.0-52, 2025-08-10T10:01Z"),
    "A100-PCIe-40GB": dict(file="NVIDIA A100-PCIE-40GB", device="a100-pcie-40gb", peak=1555, mem="HBM2", gpcs=7,
                           warps=64, stack="rt 12.0 / drv 12.8 / nvcc 12.9.41 / 6.8.0-64, 2025-08-10T00:50Z"),
    "H100-SXM5-80GB": dict(file="NVIDIA H100 80GB HBM3", device="h100-sxm5-80gb", peak=3352, mem="HBM3", gpcs=8,
                           warps=64, stack="rt 12.2 / drv 12.2 / nvcc 12.9.41 / 5.14.0-162, 2025-08-10T00:03Z"),
    "H100-NVL": dict(file="NVIDIA H100 NVL", device="h100-nvl", peak=3938, mem="HBM3", gpcs=8,
                     warps=64, stack="rt 12.9 / drv 12.8 / nvcc 12.9.41 / 6.8.0-64, 2025-08-10T00:31Z"),
    # Not filed as suites (no teg device); same program and commit.
    "T1000": dict(file="NVIDIA T1000", device=None, peak=2 * 5001e6 * 128 / 8 / 1e9, mem="GDDR6", gpcs=2,
                  warps=32, stack="rt 12.0 / drv 12.8 / nvcc 12.9.41 / 6.8.0-63, 2025-08-10T00:33Z",
                  sms=14, clock=1395, array=3897229312 // 4, read_gib=139.71035788232072,
                  write_gib=135.26267512180644),
    "Quadro P6000": dict(file="Quadro P6000", device=None, peak=2 * 4513e6 * 384 / 8 / 1e9, mem="GDDR5X", gpcs=6,
                         warps=64, stack="rt 12.8 / drv 12.8 / nvcc 12.8.61 / 6.8.0-52, 2025-08-10T09:42Z",
                         sms=30, clock=1645, array=25623527424 // 4, read_gib=365.37378666378993,
                         write_gib=377.83854365982234),
}

# teg's PTX predictions (GB/s), docs/validation.md "mt4g's bandwidth programs per generation"
# table (sixth session), used when no --teg-json is given.
TEG_PTX_DEFAULT = {
    ("RTX 2080 Ti", "read"): 611.8, ("RTX 2080 Ti", "write"): 613.1,
    ("V100-PCIe-16GB", "read"): 899.0, ("V100-PCIe-16GB", "write"): 901.3,
    ("A100-PCIe-40GB", "read"): 1459.3, ("A100-PCIe-40GB", "write"): 1512.6,
    ("H100-SXM5-80GB", "read"): 3259.6, ("H100-SXM5-80GB", "write"): 3343.9,
    ("H100-NVL", "read"): 3937.2, ("H100-NVL", "write"): 3946.2,
}

# From the latency files (computed by walks_from_files at 4cc5566): loads among the first 128
# that are > 250 cycles above the median of loads 512..2047; their mean excess (cycles); the
# median of loads 512..2047 (cycles, the unloaded latency incl. mt4g's fence); and how many of
# loads 512..2047 are that slow (steady-state misses within 1 GiB).
WALKS_DEFAULT = {
    "RTX 2080 Ti": (30, 606, 484, 0), "V100-PCIe-16GB": (30, 589, 396, 0),
    "A100-PCIe-40GB": (30, 443, 666, 22), "H100-SXM5-80GB": (31, 372, 862, 69),
    "H100-NVL": (33, 476, 790, 72), "T1000": (29, 531, 486, 0), "Quadro P6000": (30, 534, 412, 0),
}


def walks_from_files(mt4g_dir):
    """Recompute WALKS_DEFAULT from mt4g's per-load latency files."""
    out = {}
    d = pathlib.Path(mt4g_dir)
    for gpu, g in GPUS.items():
        rel = f"sample_results/{g['file']}/{g['file']} - Main Memory Latency.txt"
        if (d / rel).exists():
            text = (d / rel).read_text()
        else:
            text = subprocess.run(["git", "-C", str(d), "show", f"{MT4G_COMMIT}:{rel}"], capture_output=True,
                                  text=True, check=True).stdout
        v = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", text)]
        base = statistics.median(v[512:])
        slow = [x - base for x in v[:128] if x > base + 250]
        late = sum(1 for x in v[512:] if x > base + 250)
        out[gpu] = (len(slow), round(sum(slow) / len(slow)), round(base), late)
    return out


def measured_rows():
    rows = {}
    with open(ROOT / "data" / "validation" / "mt4g_bandwidth.csv") as f:
        for r in csv.DictReader(f):
            if r["level"] != "dram":
                continue
            rows[(r["gpu"], r["direction"])] = dict(gbps=float(r["gb_per_s"]), bytes=int(r["array_bytes"]),
                                                     clock=float(r["clock_mhz"]), sms=int(r["sm_count"]))
    for gpu, g in GPUS.items():
        if g["device"] is None:
            for d in ("read", "write"):
                rows[(gpu, d)] = dict(gbps=g[f"{d}_gib"] * GIB / 1e9, bytes=g["array"], clock=g["clock"], sms=g["sms"])
    return rows


def teg_predictions(path):
    if not path:
        return dict(TEG_PTX_DEFAULT)
    data = json.loads(pathlib.Path(path).read_text())
    out = {}
    suites = data.get("suites", data if isinstance(data, list) else [])
    for s in suites:
        name = s.get("name", s.get("suite", ""))
        if not name.startswith("mt4g-bandwidth-"):
            continue
        gpu = {"rtx2080ti": "RTX 2080 Ti", "v100-pcie": "V100-PCIe-16GB", "a100-pcie": "A100-PCIe-40GB",
               "h100-sxm": "H100-SXM5-80GB", "h100-nvl": "H100-NVL"}[name[len("mt4g-bandwidth-"):]]
        for r in s.get("rows", []):
            label = r.get("label", "")
            if label.startswith("dram "):
                out[(gpu, label.split()[1])] = float(r.get("predicted", r.get("prediction")))
    return out or dict(TEG_PTX_DEFAULT)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teg-json")
    ap.add_argument("--mt4g")
    ap.add_argument("--per-gpc", action="store_true")
    args = ap.parse_args()
    rows = measured_rows()
    teg = teg_predictions(args.teg_json)
    walks = walks_from_files(args.mt4g) if args.mt4g else WALKS_DEFAULT
    fractions = sorted(teg[k] / GPUS[k[0]]["peak"] for k in teg)
    median_fraction = statistics.median(fractions)

    print("| GPU | dir | array GB | measured GB/s | % peak | teg GB/s | extra ms | (a) TLB bound ms | (a) share "
          "| (c) common ms | direction ms | (d) X |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    summary = []
    for gpu, g in GPUS.items():
        extra = {}
        for d in ("read", "write"):
            r = rows[(gpu, d)]
            pred = teg.get((gpu, d), median_fraction * g["peak"])
            extra[d] = (r["bytes"] / (r["gbps"] * 1e9) - r["bytes"] / (pred * 1e9)) * 1e3
        common = min(extra.values())
        n_walk, excess, base, _late = walks[gpu]
        for d in ("read", "write"):
            r = rows[(gpu, d)]
            pred = teg.get((gpu, d))
            walk_us = excess / r["clock"]
            bound = 2 * math.ceil(r["bytes"] / REGION) * walk_us * 1e-3 * (g["gpcs"] if args.per_gpc else 1)
            inflight = r["sms"] * g["warps"] * 512
            x = inflight / (g["peak"] * 1e9 * base / (r["clock"] * 1e6))
            print(f"| {gpu} | {d} | {r['bytes'] / 1e9:.2f} | {r['gbps']:.1f} | {100 * r['gbps'] / g['peak']:.1f} "
                  f"| {f'{pred:.1f}' if pred else f'({100 * median_fraction:.1f} % of peak)'} | {extra[d]:.2f} | {bound:.3f} "
                  f"| {100 * bound / extra[d]:.0f} % | {common:.2f} | {extra[d] - common:.2f} | {x:.1f} |")
        summary.append((gpu, g["mem"], g["stack"], extra["read"], extra["write"], n_walk, excess))
    print()
    print("| GPU | memory | stack (mt4g result meta) | extra read ms | extra write ms | cold walks / GiB "
          "(first 128 loads) | walk excess cycles |")
    print("|---|---|---|---|---|---|---|")
    for gpu, mem, stack, er, ew, n_walk, excess in summary:
        print(f"| {gpu} | {mem} | {stack} | {er:.2f} | {ew:.2f} | {n_walk} | {excess} |")
    print()
    print(f"teg's median predicted fraction of peak over the five devices: {100 * median_fraction:.1f} % "
          "(the baseline for the T1000 and P6000 only).")


if __name__ == "__main__":
    main()
