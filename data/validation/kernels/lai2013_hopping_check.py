#!/usr/bin/env python3
"""Checks lai2013_hopping_matrix.cu on teg's emulator against a plain complex-matrix reference.

Writes one random spinor field and gauge field (8^4 lattice) in both layouts to a temporary
directory, runs hoppingAoS and hoppingSoA there (block 128, 30 blocks: sites 0..3839) with
`teg run --dump`, and compares both outputs with

  out(x) = sum_mu (1 - gamma_mu) U_mu(x) psi(x + mu) + (1 + gamma_mu) U_mu(x - mu)^dagger psi(x - mu)

computed here from full 4x4 DeGrand-Rossi gamma matrices (not the kernel's projector shortcut).
Pure Python (no NumPy). Usage: lai2013_hopping_check.py [path/to/teg]   (exit 1 on a mismatch)
"""
import array, ast, json, os, random, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TEG = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../build/release/src/cli/teg")
L, BLOCK, GRID = 8, 128, 30
V = L ** 4
SITES = BLOCK * GRID
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

    def flat_spinor(site, k):  # component k = (spin * 3 + colour) * 2 + re/im
        z = psi[site][k // 6][k // 2 % 3]
        return z.imag if k % 2 else z.real

    def flat_link(site, mu, k):  # component k = (row * 3 + column) * 2 + re/im
        z = links[site][mu][k // 6][k // 2 % 3]
        return z.imag if k % 2 else z.real

    layouts = {
        "AoS": ([flat_spinor(s, k) for s in range(V) for k in range(24)],
                [flat_link(s, mu, k) for s in range(V) for mu in range(4) for k in range(18)]),
        "SoA": ([flat_spinor(s, k) for k in range(24) for s in range(V)],
                [flat_link(s, mu, k) for mu in range(4) for k in range(18) for s in range(V)]),
    }

    expected = []
    for site in range(SITES):
        out = [[0j] * 3 for _ in range(4)]
        for mu in range(4):
            for sign, other, link, dagger in ((-1, neighbour(site, mu, +1), links[site][mu], False),
                                              (+1, neighbour(site, mu, -1), links[neighbour(site, mu, -1)][mu], True)):
                w = [[(link[c][r].conjugate() if dagger else link[r][c]) for c in range(3)] for r in range(3)]
                projector = [[(1 if a == b else 0) + sign * GAMMA[mu][a][b] for b in range(4)] for a in range(4)]
                wpsi = [[sum(w[r][c] * psi[other][s][c] for c in range(3)) for r in range(3)] for s in range(4)]
                for a in range(4):
                    for r in range(3):
                        out[a][r] += sum(projector[a][b] * wpsi[b][r] for b in range(4))
        expected.append(out)

    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name, (spinor, gauge) in layouts.items():
            write_npy(os.path.join(tmp, f"psi_{name}.npy"), spinor)
            write_npy(os.path.join(tmp, f"gauge_{name}.npy"), gauge)
            launch = {"source": os.path.join(HERE, "lai2013_hopping_matrix.cu"), "kernel": f"hopping{name}",
                      "grid": [GRID], "block": [BLOCK],
                      "args": [{"name": "psi", "buffer": {"type": "f64", "count": 24 * V, "init": {"file": f"psi_{name}.npy"}}},
                               {"name": "gauge", "buffer": {"type": "f64", "count": 72 * V, "init": {"file": f"gauge_{name}.npy"}}},
                               {"name": "out", "buffer": {"type": "f64", "count": 24 * V, "init": "zeros"}}]
                      + [{"name": n, "scalar": {"type": "i32", "value": L}} for n in ("Lx", "Ly", "Lz", "Lt")]}
            launch_path = os.path.join(tmp, f"{name}.launch.json")
            with open(launch_path, "w") as f:
                json.dump(launch, f)
            out_path = os.path.join(tmp, f"out_{name}.npy")
            subprocess.run([TEG, "run", "--launch", launch_path, "--dump", f"out={out_path}"],
                           check=True, stdout=subprocess.DEVNULL)
            got = read_npy(out_path)
            worst = 0.0
            for site in range(V):
                for k in range(24):
                    value = got[site * 24 + k] if name == "AoS" else got[k * V + site]
                    if site < SITES:
                        z = expected[site][k // 6][k // 2 % 3]
                        want = z.imag if k % 2 else z.real
                    else:
                        want = 0.0  # sites beyond the grid are not written
                    worst = max(worst, abs(value - want))
            ok = worst <= TOLERANCE
            failed |= not ok
            print(f"hopping{name}: {SITES} sites, max |diff| = {worst:.3g} ({'ok' if ok else 'MISMATCH'})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
