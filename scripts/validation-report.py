#!/usr/bin/env python3
"""Turns `teg validate --json` into the Markdown tables of docs/validation.md.

Usage: build/release/src/cli/teg validate --json | python3 scripts/validation-report.py > tables.md
       python3 scripts/validation-report.py --compare PTX.json SASS.json > tables.md
The second form takes two runs, `teg validate --isa ptx --json` and `teg validate --isa sass --json`
(or --isa auto), and prints per group and per suite the mean and max error of each path, with how
many rows each run really timed on SASS (a row `auto` sent to PTX says so in the suite's "isa").
"""
import json
import sys


def tolerance_and_result(entry: dict) -> tuple:
    tol = entry["tolerance"]
    stated = entry.get("tolerance_stated", tol["mean_pct"] > 0 or tol["max_pct"] > 0)
    parts = []
    if tol["mean_pct"] > 0:
        parts.append(f"mean ≤ {tol['mean_pct']:g} %")
    if tol["max_pct"] > 0:
        parts.append(f"max ≤ {tol['max_pct']:g} %")
    result = "info" if not stated else ("pass" if entry["within_tolerance"] else "**miss**")
    return ", ".join(parts) or "—", result


def print_table(header: list, rows: list) -> None:
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    print()


def sass_rows(suite: dict) -> int:
    return suite.get("isa", {}).get("rows", {}).get("sass", 0)


def compare(ptx_path: str, sass_path: str) -> None:
    with open(ptx_path) as f:
        ptx = json.load(f)
    with open(sass_path) as f:
        sass = json.load(f)
    suites_ptx = {s["name"]: s for s in ptx["suites"]}
    suites_sass = {s["name"]: s for s in sass["suites"]}
    groups_sass = {g["name"]: g for g in sass.get("groups", [])}

    def cells(entry):
        if entry is None:
            return ["—", "—"]
        return [f"{entry['mean_abs_error_pct']:.2f} %", f"{entry['max_abs_error_pct']:.1f} %"]

    rows = []
    for g in ptx.get("groups", []):
        other = groups_sass.get(g["name"])
        timed = sum(sass_rows(suites_sass[n]) for n in g["suites"] if n in suites_sass)
        rows.append([f"`{g['name']}`", g["rows"], *cells(g), *cells(other), timed])
    if rows:
        print("PTX vs SASS per group (`teg validate --isa ptx` / `--isa sass`): mean and max abs. error over every "
              "row; the last column counts the rows the second run really timed on SASS.\n")
        print_table(["group", "rows", "PTX mean", "PTX max", "SASS mean", "SASS max", "rows on SASS"], rows)
    rows = []
    for name, s in suites_ptx.items():
        other = suites_sass.get(name)
        tau = lambda e: "—" if e is None or e.get("kendall_tau") is None else f"{e['kendall_tau']:.2f}"
        rows.append([f"`{name}`", s["gpu"], len(s["rows"]), *cells(s), tau(s), *cells(other), tau(other),
                     sass_rows(other) if other else 0])
    print_table(["suite", "GPU", "rows", "PTX mean", "PTX max", "PTX τ", "SASS mean", "SASS max", "SASS τ",
                 "rows on SASS"], rows)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
        return
    report = json.load(sys.stdin)
    if report.get("groups"):
        print("Aims stated over several suites (`data/validation/groups.json`): the mean is over every row.\n")
        print_table(["group", "suites", "rows", "mean abs. error", "max abs. error", "aim", "result"],
                    [[f"`{g['name']}`", len(g["suites"]), g["rows"], f"{g['mean_abs_error_pct']:.2f} %",
                      f"{g['max_abs_error_pct']:.1f} %", *tolerance_and_result(g)] for g in report["groups"]])
    print_table(["suite", "GPU", "rows", "mean abs. error", "max abs. error", "tolerance", "result"],
                [[f"`{s['name']}`", s["gpu"], len(s["rows"]), f"{s['mean_abs_error_pct']:.1f} %",
                  f"{s['max_abs_error_pct']:.1f} %", *tolerance_and_result(s)] for s in report["suites"]])
    for s in report["suites"]:
        if len(s["rows"]) > 12:  # long sweeps: summarised above
            continue
        print(f"**{s['name']}** — {s['title']} ({s['metric']}; {s['source']})\n")
        print_table(["row", "measured", "predicted", "error", "bound"],
                    [[r["label"], f"{r['measured']:.4g}", f"{r['predicted']:.4g}", f"{r['error_pct']:+.1f} %", r["bound"]]
                     for r in s["rows"]])


if __name__ == "__main__":
    main()
