#!/usr/bin/env python3
"""Turns `teg validate --json` into the Markdown tables of docs/validation.md.

Usage: build/release/src/cli/teg validate --json | python3 scripts/validation-report.py > tables.md
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


def main() -> None:
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
