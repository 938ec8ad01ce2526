#!/usr/bin/env python3
"""Checks lai2013_hopping_matrix.cu on teg's emulator against a plain complex-matrix reference.

Writes one random spinor field and gauge field (8^4 lattice) in both layouts to a temporary
directory and runs, for each layout, loop 1 (hoppingLoop1*: psi, gauge -> 8 half spinors per
site) and then loop 2 (hoppingLoop2*: half spinors, gauge -> out) on the whole lattice (32 blocks
of 128) with `teg run --dump`, loop 2 reading loop 1's dumped half-spinor field. It checks

  the half spinors: slot 2mu = U_mu(x)^dagger rows 0,1 of (1 + gamma_mu) psi(x),
                    slot 2mu+1 = rows 0,1 of (1 - gamma_mu) psi(x);
  the result:       out(x) = sum_mu (1 - gamma_mu) U_mu(x) psi(x + mu) + (1 + gamma_mu) U_mu(x - mu)^dagger psi(x - mu)

computed here from full 4x4 DeGrand-Rossi gamma matrices (not the kernel's projector shortcut).
Pure Python (no NumPy). Usage: lai2013_hopping_check.py [path/to/teg]   (exit 1 on a mismatch)
"""
import array, ast, json, os, random, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TEG = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../build/release/src/cli/teg")
L, BLOCK = 8, 128
V = L ** 4
GRID = V // BLOCK
TOLERANCE = 1e-12

I = 1j
GAMMA = [  # DeGrand-Rossi (Chroma) gamma_x, gamma_y, gamma_z, gamma_t
    [[0, 0, 0, I], [0, 0, I, 0], [0, -I, 0, 0], [-I, 0, 0, 0]],
    [[0, 0, 0, -1], [0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0]],
    [[0, 0, I, 0], [0, 0, 0, -I], [-I, 0, 0, 0], [0, I, 0, 0]],
    [[0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]],
]


def write_npy(path, values):
    a = array.array("d", values)
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }" % len(a)
    header += " " * ((64 - (11 + len(header)) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + a.tobytes())


def read_npy(path):
    data = open(path, "rb").read()
    length = struct.unpack("<H", data[8:10])[0]
    assert ast.literal_eval(data[10:10 + length].decode())["descr"] == "<f8"
    a = array.array("d")
    a.frombytes(data[10 + length:])
    return a


def coords(site):
    return [site % L, site // L % L, site // L ** 2 % L, site // L ** 3]


def neighbour(site, mu, step):
    c = coords(site)
    c[mu] = (c[mu] + step) % L
    return c[0] + L * (c[1] + L * (c[2] + L * c[3]))


def main():
    rng = random.Random(2013)
    psi = [[[complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(3)] for _ in range(4)] for _ in range(V)]
    links = [[[[complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(3)] for _ in range(3)]
              for _ in range(4)] for _ in range(V)]

    # Complex element e of a field with `per` elements per site, as doubles (re, im) at 2 * index.
    def index(layout, site, e, per):
        return site * per + e if layout == "AoS" else e * V + site

    def flatten(layout, per, element):  # element(site, e) -> complex
        values = [0.0] * (2 * per * V)
        for site in range(V):
            for e in range(per):
                z = element(site, e)
                i = 2 * index(layout, site, e, per)
                values[i], values[i + 1] = z.real, z.imag
        return values

    def projector(mu, sign):
        return [[(1 if a == b else 0) + sign * GAMMA[mu][a][b] for b in range(4)] for a in range(4)]

    def apply(matrix, spinor):  # 4x4 spin matrix times a spinor [spin][colour]
        return [[sum(matrix[a][b] * spinor[b][c] for b in range(4)) for c in range(3)] for a in range(4)]

    def colour(w, spinor_rows):  # 3x3 colour matrix times each spin row
        return [[sum(w[r][c] * row[c] for c in range(3)) for r in range(3)] for row in spinor_rows]

    def dagger(u):
        return [[u[c][r].conjugate() for c in range(3)] for r in range(3)]

    expected_half = []  # per site: 8 slots x 2 spins x 3 colours
    for site in range(V):
        slots = []
        for mu in range(4):
            plus = apply(projector(mu, +1), psi[site])[:2]
            slots.append(colour(dagger(links[site][mu]), plus))
            slots.append(apply(projector(mu, -1), psi[site])[:2])
        expected_half.append(slots)
    expected_out = []
    for site in range(V):
        out = [[0j] * 3 for _ in range(4)]
        for mu in range(4):
            forward, backward = neighbour(site, mu, +1), neighbour(site, mu, -1)
            terms = (apply(projector(mu, -1), colour(links[site][mu], psi[forward])),
                     apply(projector(mu, +1), colour(dagger(links[backward][mu]), psi[backward])))
            for term in terms:
                for a in range(4):
                    for r in range(3):
                        out[a][r] += term[a][r]
        expected_out.append(out)

    def compare(got, layout, per, want):  # want(site, e) -> complex
        worst = 0.0
        for site in range(V):
            for e in range(per):
                z = want(site, e)
                i = 2 * index(layout, site, e, per)
                worst = max(worst, abs(got[i] - z.real), abs(got[i + 1] - z.imag))
        return worst

    def run(tmp, name, kernel, inputs, output, count):
        launch = {"source": os.path.join(HERE, "lai2013_hopping_matrix.cu"), "kernel": kernel,
                  "grid": [GRID], "block": [BLOCK],
                  "args": [{"name": n, "buffer": {"type": "f64", "count": c, "init": {"file": f}}} for n, c, f in inputs]
                  + [{"name": output, "buffer": {"type": "f64", "count": count, "init": "zeros"}}]
                  + [{"name": n, "scalar": {"type": "i32", "value": L}} for n in ("Lx", "Ly", "Lz", "Lt")]}
        launch_path = os.path.join(tmp, f"{name}.launch.json")
        with open(launch_path, "w") as f:
            json.dump(launch, f)
        out_path = os.path.join(tmp, f"{name}.npy")
        subprocess.run([TEG, "run", "--launch", launch_path, "--dump", f"{output}={out_path}"],
                       check=True, stdout=subprocess.DEVNULL)
        return out_path

    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for layout in ("AoS", "SoA"):
            psi_path, gauge_path = os.path.join(tmp, f"psi_{layout}.npy"), os.path.join(tmp, f"gauge_{layout}.npy")
            write_npy(psi_path, flatten(layout, 12, lambda s, e: psi[s][e // 3][e % 3]))
            write_npy(gauge_path, flatten(layout, 36, lambda s, e: links[s][e // 9][e // 3 % 3][e % 3]))
            half_path = run(tmp, f"half_{layout}", f"hoppingLoop1{layout}",
                            [("psi", 24 * V, psi_path), ("gauge", 72 * V, gauge_path)], "half", 96 * V)
            out_path = run(tmp, f"out_{layout}", f"hoppingLoop2{layout}",
                           [("half", 96 * V, half_path), ("gauge", 72 * V, gauge_path)], "out", 24 * V)
            for what, path, per, want in (
                    ("loop 1 half spinors", half_path, 48, lambda s, e: expected_half[s][e // 6][e // 3 % 2][e % 3]),
                    ("loop 2 result", out_path, 12, lambda s, e: expected_out[s][e // 3][e % 3])):
                worst = compare(read_npy(path), layout, per, want)
                ok = worst <= TOLERANCE
                failed |= not ok
                print(f"hopping {layout} {what}: {V} sites, max |diff| = {worst:.3g} ({'ok' if ok else 'MISMATCH'})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
