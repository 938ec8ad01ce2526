#!/usr/bin/env python3
"""Tries the public kernels of examples/public/ as a new user would: `teg run` and `teg predict`
(--gpu a100 and rtx4090, default --isa auto) on each launch file, nothing else, and prints the
table of docs/public-kernels.md (markdown; --json for the raw records).

Needs the sources: scripts/fetch-public-kernels.sh first. Usage:
  scripts/public-kernels-sweep.py [--teg build/release/src/cli/teg] [--only NAME ...] [--json]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
GPUS = ["a100", "rtx4090"]


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower() or "fault" in line.lower() or "unsupported" in line.lower():
            return line.strip()[:200]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:200] if lines else ""


def run(cmd, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s", time.monotonic() - start


def sweep_one(teg, launch, timeout):
    rec = {"launch": str(launch.relative_to(ROOT)), "codebase": launch.parent.name,
           "kernel": launch.name.removesuffix(".launch.json")}
    rc, out, err, secs = run([teg, "run", "--launch", str(launch), "--json"], timeout)
    rec["run"] = {"ok": rc == 0, "seconds": round(secs, 1)}
    if rc != 0:
        rec["run"]["error"] = first_error(err or out)
    for gpu in GPUS:
        rc, out, err, secs = run([teg, "predict", "--launch", str(launch), "--gpu", gpu, "--json",
                                  "--no-timeline"], timeout)
        r = {"ok": rc == 0, "seconds": round(secs, 1)}
        if rc == 0:
            d = json.loads(out)
            r["time_ms"] = d["time_ms"]
            r["isa"] = d["isa"]["used"]
            r["isa_reason"] = d["isa"].get("reason", "")
            r["kernel"] = d.get("kernel", "")
        else:
            r["error"] = first_error(err or out)
        rec[gpu] = r
    return rec


def fmt_time(ms):
    return f"{ms * 1000:.1f} µs" if ms < 1 else f"{ms:.3f} ms"


def table(records):
    lines = ["| code base | kernel | run | A100 | RTX 4090 | ISA (why, if PTX) | wall |",
             "|---|---|---|---|---|---|---|"]
    for r in records:
        run = r["run"]
        cells = [r["codebase"], r["kernel"], f"yes ({run['seconds']:.0f} s)" if run["ok"] else "**no**"]
        isa, walls = [], {}
        if not run["ok"]:
            walls.setdefault(run["error"], []).append("run")
        for gpu in GPUS:
            g = r[gpu]
            if g["ok"]:
                cells.append(fmt_time(g["time_ms"]))
                why = "" if g["isa"] == "sass" else f" ({g['isa_reason'].removeprefix('auto: PTX because ')})"
                isa.append(g["isa"].upper() + why)
            else:
                cells.append("**no**")
                walls.setdefault(g["error"], []).append(gpu)
        cells.append("; ".join(sorted(set(isa))))
        text = "; ".join(f"{', '.join(where)}: {err.removeprefix('teg: error: ')}" for err, where in walls.items())
        cells.append(text.replace("|", "\\|"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--teg", default=str(ROOT / "build/release/src/cli/teg"))
    ap.add_argument("--only", nargs="*", default=[], help="kernel names (launch file stems)")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (ROOT / "examples/public/src").is_dir():
        sys.exit("no sources in examples/public/src: run scripts/fetch-public-kernels.sh first")
    launches = sorted((ROOT / "examples/public").glob("*/*.launch.json"))
    if args.only:
        launches = [l for l in launches if l.name.removesuffix(".launch.json") in args.only]
    records = []
    for launch in launches:
        print(f"{launch.parent.name}/{launch.name} ...", file=sys.stderr, flush=True)
        records.append(sweep_one(args.teg, launch, args.timeout))
    print(json.dumps(records, indent=1) if args.json else table(records))
    ok = all(r["run"]["ok"] and all(r[g]["ok"] for g in GPUS) for r in records)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
