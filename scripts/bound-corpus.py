#!/usr/bin/env python3
"""`teg bound` on every corpus kernel (examples/kernels): a markdown table of kernel, binding
bound, binding resource, prediction and headroom (docs/bound.md).

  python3 scripts/bound-corpus.py --gpu a100 [--isa auto|ptx|sass] [--teg build/release/src/cli/teg]
  python3 scripts/bound-corpus.py --from-dir DIR   # DIR/<kernel>.json from earlier `teg bound --json` runs
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def rows_from_runs(teg, gpu, isa):
    for launch in sorted((ROOT / "examples" / "kernels").glob("*.launch.json")):
        kernel = launch.name[: -len(".launch.json")]
        cmd = [teg, "bound", "--launch", str(launch), "--gpu", gpu, "--json"] + (["--isa", isa] if isa else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            yield kernel, None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
        else:
            yield kernel, json.loads(r.stdout), ""


def rows_from_dir(directory):
    for f in sorted(pathlib.Path(directory).glob("*.json")):
        text = f.read_text()
        yield f.stem, (json.loads(text) if text.strip() else None), "" if text.strip() else "no output"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu", default="a100")
    ap.add_argument("--isa", default="")
    ap.add_argument("--teg", default=str(ROOT / "build" / "release" / "src" / "cli" / "teg"))
    ap.add_argument("--from-dir")
    a = ap.parse_args()
    rows = rows_from_dir(a.from_dir) if a.from_dir else rows_from_runs(a.teg, a.gpu, a.isa)
    print("| kernel | isa | bound (ms) | binding resource | next bound | prediction (ms) | at % of the bound |")
    print("|---|---|---|---|---|---|---|")
    failed = 0
    for kernel, j, err in rows:
        if j is None:
            failed += 1
            print(f"| {kernel} | - | - | failed: {err} | - | - | - |")
            continue
        b = j["bounds"]
        nxt = f"{b[1]['resource']} {b[1]['time_ms']:.4g}" if len(b) > 1 else "-"
        print(f"| {kernel} | {j['isa']['used']} | {b[0]['time_ms']:.4g} | {j['binding']} | {nxt} | "
              f"{j['predicted_time_ms']:.4g} | {100 * j['fraction_of_bound']:.0f}% |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
