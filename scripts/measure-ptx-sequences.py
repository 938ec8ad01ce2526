#!/usr/bin/env python3
"""Measures how many SASS instructions ptxas turns each listed PTX instruction into.

Some PTX instructions are not one machine instruction: ptxas expands an IEEE division, square
root or reciprocal, an integer division or remainder, and several others into a software
sequence (a reciprocal estimate refined by FMAs, a range check, a call to a slow path for
special operands). teg's timing engine issues one warp instruction per PTX instruction, so the
report says which of a kernel's instructions are such sequences and how long they are.

For each architecture, every instruction below is compiled inside a kernel of its own
(load operands, the instruction, store the result) with the CUDA toolkit's nvcc, disassembled
with nvdisasm, and its SASS counted along the fast path: from the kernel's entry to its EXIT,
a conditional branch that skips a call (the slow path for special operands) is taken, any
other conditional branch falls through, a call is followed to its return. Each instruction is
compiled as one instance and as a chain of two (the second taking the first's result plus a
fresh value, and fresh other operands); the opcodes the second instance adds, less those the
same chain adds without the instruction (the loads and the add) and less any load or store,
are the instruction's own sequence, whatever surrounds it. ptxas rearranges register moves and
address arithmetic between the kernels, so a count is good to about two instructions.

For the timing engine, each of the sequence's SASS instructions also gets its throughput class
(the CUDA Programming Guide's arithmetic-instruction rows, as teg's device data names them) and
the earlier instructions of the sequence whose registers it reads (from the second instance's
registers along the fast path; -1 stands for the PTX instruction's own operands), and the
sequence names the instruction that writes its result (the one the store reads).

Maxwell, Pascal and Volta (sm_50-sm_70), which CUDA 13 no longer targets, are measured with an
older toolkit's ptxas and nvdisasm (--legacy-toolkit): the same kernels compiled to PTX for sm_75
by CUDA 13, their .version lowered to what that ptxas reads (--legacy-ptx-version) and their
.target set to the older architecture.
Debian's nvidia-cuda-toolkit 11.8 (bookworm, non-free) has both:
  apt-get download nvidia-cuda-toolkit   (with bookworm non-free in a sources list)
  dpkg-deb -x nvidia-cuda-toolkit_*.deb /tmp/cuda118   ->   --legacy-toolkit /tmp/cuda118/usr

Usage: scripts/measure-ptx-sequences.py [--out data/ptx/sequences.json] [--arch sm_80 ...]
                                        [--legacy-toolkit DIR [--legacy-arch sm_60 ...]]
Needs nvcc (CUDA 13: sm_75 and newer) and nvdisasm (PyPI wheel nvidia-cuda-nvdisasm, or NVDISASM=path).
"""
import argparse
from collections import Counter
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (PTX instruction, operand type, source operands): each is written as `op %0, %1[, %2];` with the
# operand type's register constraint. Instructions that are one SASS instruction on every target are left out
# after measuring (they are not sequences).
INSTRUCTIONS = [
    ("div.rn.f32", "f32", 2), ("div.rn.ftz.f32", "f32", 2), ("div.full.f32", "f32", 2),
    ("div.full.ftz.f32", "f32", 2), ("div.approx.f32", "f32", 2), ("div.approx.ftz.f32", "f32", 2),
    ("rcp.rn.f32", "f32", 1), ("rcp.rn.ftz.f32", "f32", 1), ("rcp.approx.f32", "f32", 1),
    ("rcp.approx.ftz.f32", "f32", 1),
    ("sqrt.rn.f32", "f32", 1), ("sqrt.rn.ftz.f32", "f32", 1), ("sqrt.approx.f32", "f32", 1),
    ("sqrt.approx.ftz.f32", "f32", 1), ("rsqrt.approx.f32", "f32", 1), ("rsqrt.approx.ftz.f32", "f32", 1),
    ("ex2.approx.f32", "f32", 1), ("ex2.approx.ftz.f32", "f32", 1), ("lg2.approx.f32", "f32", 1),
    ("lg2.approx.ftz.f32", "f32", 1), ("sin.approx.f32", "f32", 1), ("sin.approx.ftz.f32", "f32", 1),
    ("cos.approx.f32", "f32", 1), ("cos.approx.ftz.f32", "f32", 1), ("tanh.approx.f32", "f32", 1),
    ("div.rn.f64", "f64", 2), ("rcp.rn.f64", "f64", 1), ("sqrt.rn.f64", "f64", 1),
    ("rsqrt.approx.f64", "f64", 1), ("rcp.approx.ftz.f64", "f64", 1),
    ("div.s32", "s32", 2), ("div.u32", "u32", 2), ("rem.s32", "s32", 2), ("rem.u32", "u32", 2),
    ("div.s64", "s64", 2), ("div.u64", "u64", 2), ("rem.s64", "s64", 2), ("rem.u64", "u64", 2),
    ("mul.lo.s64", "s64", 2), ("mul.hi.s64", "s64", 2), ("mul.hi.u64", "u64", 2),
]
# PTX instructions that need a newer target than some measured architectures (PTX ISA: tanh
# requires sm_75).
MINIMUM_SM = {"tanh.approx.f32": 75}


def available(op, arch):
    return int(arch[3:]) >= MINIMUM_SM.get(op, 0)


C_TYPE = {"f32": ("float", "f"), "f64": ("double", "d"), "s32": ("int", "r"), "u32": ("unsigned", "r"),
          "s64": ("long long", "l"), "u64": ("unsigned long long", "l")}
ARCHES = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"]
# CUDA 13 cannot target them: measured with --legacy-toolkit (CUDA 11.8 reaches back to Kepler,
# whose listings this script does not read: ST.E stores, condition-code branches).
LEGACY_ARCHES = ["sm_50", "sm_52", "sm_60", "sm_61", "sm_70"]


def kernel(name, op, ptype, arity, times):
    """Loads `arity` operands, applies `op` `times` times in a chain (each result the next one's
    first operand) and stores the result. Every instance takes fresh operands, and the chained one
    passes through an add with a fresh value (y = z + x), so that ptxas can neither share work
    between instances (a divisor's reciprocal) nor drop checks the previous result makes
    needless (ex2's result is never denormal). `op` None: the adds and loads alone."""
    ctype, reg = C_TYPE[ptype]
    operands = ", ".join(f"%{i}" for i in range(arity + 1))
    fresh = iter(range(1000))
    values = {}

    def load():
        k = next(fresh)
        values[k] = f"{ctype} x{k} = a[threadIdx.x + {k} * 32];"
        return f"x{k}"

    body, result = "", None
    for step in range(times):
        first = load() if step == 0 else f"(z{step - 1} + {load()})"
        args = [first] + [load() for _ in range(arity - 1)]
        if op is None:
            body += f"{ctype} z{step} = {args[0]}; "
        else:
            inputs = ", ".join(f'"{reg}"({a})' for a in args)
            body += f'{ctype} z{step}; asm volatile("{op} {operands};" : "={reg}"(z{step}) : {inputs}); '
        result = f"z{step}"
    return (f'extern "C" __global__ void {name}(const {ctype}* a, {ctype}* c) {{ {" ".join(values.values())} '
            f'{body}c[threadIdx.x] = {result}; }}\n')


def find_nvdisasm():
    if os.environ.get("NVDISASM"):
        return os.environ["NVDISASM"]
    found = shutil.which("nvdisasm")
    if found:
        return found
    try:
        import nvidia  # noqa: F401  (the nvidia-cuda-nvdisasm wheel)
        for base in nvidia.__path__:
            hits = glob.glob(os.path.join(base, "*", "bin", "nvdisasm"))
            if hits:
                return hits[0]
    except ImportError:
        pass
    sys.exit("nvdisasm not found: pip install nvidia-cuda-nvdisasm, or set NVDISASM")


def functions(listing):
    """SASS of each kernel: name -> list of (label or None, instruction text)."""
    out, name = {}, None
    for line in listing.splitlines():
        m = re.match(r"^//-+ \.text\.(\S+)", line)
        if m:
            name = m.group(1)
            out[name] = []
            continue
        if name is None:
            continue
        m = re.match(r"^(\S+):\s*$", line)
        if m:
            out[name].append((m.group(1), None))
            continue
        m = re.match(r"^\s+/\*[0-9a-f]{4}\*/\s+(.*)$", line)
        if m:
            # Kepler to Pascal listings pair dual-issued instructions in braces and give SYNC's
            # target as an annotation: (*"BRANCH_TARGETS .L_x_7"*), written here as `(.L_x_7).
            text = m.group(1)
            target = re.search(r'BRANCH_TARGETS\s+([^"\s,]+)', text)
            text = re.sub(r"\(\*.*?\*\)", "", text).strip().lstrip("{").strip()
            text = text.rstrip("}").strip().rstrip(";").strip()
            if target:
                text += f" `({target.group(1)})"
            if text:
                out[name].append((None, text))
    return out


def fast_path(code):
    """The instructions executed from entry to the first EXIT along the fast path (into the
    subroutines it calls: ptxas calls one for a 64-bit integer division)."""
    labels = {label: i for i, (label, _) in enumerate(code) if label}
    executed, i, steps, returns = [], 0, 0, []
    while i < len(code) and steps < 10000:
        steps += 1
        label, text = code[i]
        # No instruction, or one guarded by "never" (ptxas 11.8 puts `@!PT SHFL.IDX` at a
        # function's start): not executed.
        if text is None or text.startswith("@!PT "):
            i += 1
            continue
        executed.append(text)
        if text.startswith("EXIT"):
            return executed
        # CALL.REL from Volta on, CAL before.
        call = re.match(r"^(CALL\.REL(\.NOINC)?|CAL)\s+`\((\S+)\)", text)
        if call:
            returns.append(i + 1)
            i = labels[call.group(3)]
            continue
        if text.startswith("RET"):
            i = returns.pop()
            continue
        # `@P0 BRA P1, target` branches when both predicates hold: conditional as well. Before
        # Volta, `@!P0 SYNC` leaves for the reconvergence point of the last SSY the same way.
        m = re.match(r"^(@!?U?P\w+\s+)?(BRA|SYNC)\s+(!?U?P\w+,\s*)?`\((\S+)\)", text)
        if m:
            target = labels[m.group(4)]
            if not m.group(1) and not m.group(3):
                i = target
                continue
            skipped = [t for _, t in code[i + 1:target] if t]
            i = target if target > i and any(t.startswith(("CALL", "CAL ")) for t in skipped) else i + 1
            continue
        i += 1
    raise RuntimeError("no EXIT on the fast path")


def opcode(text):
    return re.sub(r"^@!?U?P\w+\s+", "", text).split()[0]


# SASS opcode (its first part) -> teg's throughput class (data/devices: the CUDA Programming Guide's
# arithmetic instruction rows). Control instructions issue to the branch unit.
SASS_CLASS = {
    "FFMA": "fp32_fma", "FMUL": "fp32_fma", "FADD": "fp32_fma", "HFMA2": "fp16_fma",
    "DFMA": "fp64_fma", "DMUL": "fp64_fma", "DADD": "fp64_fma", "MUFU": "special",
    "FSETP": "int_compare", "FSEL": "int_compare", "FCHK": "int_compare", "ISETP": "int_compare",
    "SEL": "int_compare", "IABS": "int_compare", "IMNMX": "int_compare", "FMNMX": "int_compare",
    "DSETP": "fp64_fma", "IADD3": "int_add", "VIADD": "int_add", "IADD": "int_add",
    "IMAD": "int_mul", "LOP3": "int_logic", "MOV": "int_logic", "SHF": "int_shift",
    "F2I": "convert_other", "I2F": "convert_other",
    "BRA": "branch", "BSSY": "branch", "BSYNC": "branch", "BMOV": "branch", "CALL": "branch",
    "RET": "branch", "NOP": "branch",
    # Maxwell and Pascal (sm_50-sm_61); DEPBAR waits for outstanding loads, an issue slot of its own.
    "XMAD": "int_mul", "IMUL": "int_mul", "IMAD32I": "int_mul", "ISCADD": "int_add", "IADD32I": "int_add",
    "LEA": "int_add", "SHL": "int_shift", "SHR": "int_shift", "BFE": "int_shift", "BFI": "int_shift",
    "LOP": "int_logic", "LOP32I": "int_logic", "MOV32I": "int_logic", "PRMT": "int_logic",
    "FADD32I": "fp32_fma", "FMUL32I": "fp32_fma", "FFMA32I": "fp32_fma", "FSET": "int_compare",
    "ISET": "int_compare", "PSETP": "int_compare", "CSETP": "int_compare", "ICMP": "int_compare",
    "DMNMX": "fp64_fma",
    "FLO": "int_clz", "POPC": "int_popc", "I2I": "convert_other", "F2F": "convert_other",
    "SSY": "branch", "SYNC": "branch", "CAL": "branch", "PBK": "branch", "BRK": "branch",
    "DEPBAR": "branch",
    "RRO": "fp32_fma",  # range reduction before MUFU (a floating-point instruction, CUDA binary utilities)
}


def sass_class(op):
    base = op.split(".")[0]
    if base not in SASS_CLASS:
        raise RuntimeError(f"no throughput class for SASS opcode {op}: add it to SASS_CLASS")
    if base in ("F2I", "I2F") and "64" in op:
        return "convert_64"
    return SASS_CLASS[base]


# Instructions that write no register (a store, a branch, a barrier wait).
NO_DESTINATION = ("BRA", "BSYNC", "STG", "STS", "ST", "RED", "ATOM", "EXIT", "RET", "CALL", "BAR", "NOP",
                  "WARPSYNC", "SSY", "SYNC", "CAL", "PBK", "BRK", "DEPBAR")
REGISTER = re.compile(r"(?<![\w.])(U?R\d+|U?P\d|B\d+)(\.64)?(?![\w])")


def registers_read_and_written(text):
    """(read, written) register names of a SASS instruction; a register pair (64-bit operands)
    counts as both of its registers."""
    guard = re.match(r"^@!?(U?P\w+)\s+", text)
    body = text[guard.end():] if guard else text
    op, _, rest = body.partition(" ")
    operands = [o.strip() for o in rest.split(",")] if rest.strip() else []
    base = op.split(".")[0]
    wide_all = (base.startswith("D") and base != "DSETP") or ".64" in op
    wide_dest = wide_all or ".WIDE" in op or (base == "F2I" and "64" in op)

    def names(operand, wide):
        out = []
        for m in REGISTER.finditer(operand):
            name = m.group(1)
            out.append(name)
            number = re.match(r"^(U?R)(\d+)$", name)
            if number and (wide or m.group(2)):
                out.append(f"{number.group(1)}{int(number.group(2)) + 1}")
        return out

    written, first_source = [], 0
    if base not in NO_DESTINATION and operands:
        written = names(operands[0], wide_dest)
        first_source = 1
        # Predicates right after the destination are written too (ISETP P0, PT, ...; IADD3 R2, P0, ...).
        while first_source < len(operands) and re.fullmatch(r"U?P(\d|T)", operands[first_source]):
            written += names(operands[first_source], False)
            first_source += 1
    # Before Volta a carry goes through the condition code: IADD R6.CC writes it, IADD.X reads it.
    if any(".CC" in o for o in operands[:first_source]):
        written.append("CC")
    read = [guard.group(1)] if guard else []
    if re.search(r"\.X\b", op) and not op.startswith(("IADD3", "IMAD")):
        read.append("CC")
    sources = operands[first_source:]
    for i, operand in enumerate(sources):
        pair = wide_all or (".WIDE" in op and i == len(sources) - 1) or (base == "I2F" and "64" in op)
        read += names(operand, pair and not re.match(r"^!?U?P", operand))
    return read, [w for w in written if w not in ("RZ", "URZ", "PT", "UPT")]


def dependences(path, own_indices, store_index):
    """For each instruction of `own_indices` (indices into `path`, in order): the positions in
    that list of the earlier ones whose results it reads, -1 if it reads a value from outside the
    sequence (the PTX instruction's operands); and the position of the one whose result the store
    at `store_index` reads (the last of the sequence when the store reads none of them)."""
    position = {index: k for k, index in enumerate(own_indices)}
    last_writer, depends = {}, {}
    for index, text in enumerate(path):
        read, written = registers_read_and_written(text)
        if index in position:
            after = set()
            for name in read:
                if name in last_writer:
                    writer = last_writer[name]
                    after.add(position.get(writer, -1))
            depends[index] = sorted(after)
        if index == store_index:
            writers = [position[last_writer[n]] for n in read if n in last_writer and last_writer[n] in position]
            result = max(writers) if writers else len(own_indices) - 1
        for name in written:
            last_writer[name] = index
    return [depends[i] for i in own_indices], result


def compile_cubin(arch, cu, cubin, nvcc, legacy):
    """`cu` compiled for `arch` by nvcc or, with `legacy` = (ptxas, PTX version), to PTX for
    sm_75 by nvcc and assembled for `arch` by the older ptxas."""
    if legacy is None:
        subprocess.run([nvcc, f"-arch={arch}", "-cubin", "-o", cubin, cu], check=True)
        return
    ptxas, ptx_version = legacy
    ptx = cubin + ".ptx"
    subprocess.run([nvcc, "-arch=sm_75", "-ptx", "-o", ptx, cu], check=True)
    with open(ptx) as f:
        text = f.read()
    text = re.sub(r"^\.version \S+", f".version {ptx_version}", text, count=1, flags=re.M)
    text = re.sub(r"^\.target sm_75", f".target {arch}", text, count=1, flags=re.M)
    with open(ptx, "w") as f:
        f.write(text)
    subprocess.run([ptxas, f"-arch={arch}", "-o", cubin, ptx], check=True)


def measure(arch, nvcc, nvdisasm, work, legacy=None):
    source = "".join(kernel(f"k{i}_{times}", op, t, n, times)
                     for i, (op, t, n) in enumerate(INSTRUCTIONS) if available(op, arch) for times in (1, 2))
    shapes = sorted({(t, n) for _, t, n in INSTRUCTIONS})
    source += "".join(kernel(f"bridge_{t}_{n}_{times}", None, t, n, times) for t, n in shapes for times in (1, 2))
    cu = os.path.join(work, f"{arch}.cu")
    cubin = os.path.join(work, f"{arch}.cubin")
    with open(cu, "w") as f:
        f.write(source)
    compile_cubin(arch, cu, cubin, nvcc, legacy)
    listing = subprocess.run([nvdisasm, "-c", cubin], check=True, capture_output=True, text=True).stdout
    code = functions(listing)

    def added(name):
        once, twice = fast_path(code[f"{name}_1"]), fast_path(code[f"{name}_2"])
        return twice, Counter(opcode(x) for x in twice) - Counter(opcode(x) for x in once)

    result = {}
    for i, (op, t, n) in enumerate(INSTRUCTIONS):
        if not available(op, arch):
            continue
        twice, extra = added(f"k{i}")
        # Less what the chaining itself adds: the fresh operands' loads and the add.
        extra -= added(f"bridge_{t}_{n}")[1]
        # The added opcodes, taken from the end of the path (the second copy's instructions, which
        # come after the first's), in path order.
        own_indices = []
        for index in range(len(twice) - 1, -1, -1):
            x = twice[index]
            if extra[opcode(x)] > 0 and not opcode(x).startswith(("LDG", "STG")):
                extra[opcode(x)] -= 1
                own_indices.append(index)
        own_indices.reverse()
        own = [opcode(twice[i]) for i in own_indices]
        store = max(i for i, x in enumerate(twice) if opcode(x).startswith("STG"))
        depends, result_index = dependences(twice, own_indices, store)
        result[op] = {"sass_instructions": len(own), "sass_opcodes": " ".join(own),
                      "sass_classes": [sass_class(o) for o in own], "sass_depends": depends,
                      "sass_result": result_index}
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "ptx", "sequences.json")))
    parser.add_argument("--arch", nargs="*", default=ARCHES)
    parser.add_argument("--legacy-toolkit", help="an older CUDA toolkit (bin/ptxas, bin/nvdisasm) for --legacy-arch")
    parser.add_argument("--legacy-arch", nargs="*", default=LEGACY_ARCHES)
    parser.add_argument("--legacy-ptx-version", default="7.8", help="the newest PTX ISA the older ptxas reads")
    args = parser.parse_args()
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    nvdisasm = find_nvdisasm()

    def version_of(tool):
        return subprocess.run([tool, "--version"], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]

    source = f"nvcc/ptxas and nvdisasm, {version_of(nvcc)}"
    tables = {}
    with tempfile.TemporaryDirectory() as work:
        if args.legacy_toolkit:
            ptxas = os.path.join(args.legacy_toolkit, "bin", "ptxas")
            old_nvdisasm = os.path.join(args.legacy_toolkit, "bin", "nvdisasm")
            for arch in args.legacy_arch:
                tables[arch] = measure(arch, nvcc, old_nvdisasm, work, (ptxas, args.legacy_ptx_version))
            source += (f" ({', '.join(args.legacy_arch)}: its PTX for sm_75 at .version {args.legacy_ptx_version}, "
                       f"assembled and disassembled by ptxas and nvdisasm {version_of(ptxas)})")
        else:
            print(f"not measured without --legacy-toolkit: {' '.join(args.legacy_arch)}", file=sys.stderr)
        for arch in args.arch:
            tables[arch] = measure(arch, nvcc, nvdisasm, work)
    # Only sequences: an instruction that is one SASS instruction on every target is dropped.
    keep = [op for op, _, _ in INSTRUCTIONS if any(tables[a].get(op, {}).get("sass_instructions", 0) > 1 for a in tables)]
    data = {
        "about": "SASS instructions on the fast path of each PTX instruction that ptxas expands into a software "
                 "sequence, per target architecture; measured by scripts/measure-ptx-sequences.py",
        "source": f"{source}; measured {datetime.date.today().isoformat()}",
        "method": "each instruction compiled alone between loads and a store; SASS counted from entry to EXIT, "
                  "taking the branch around the slow-path call and following other calls; the opcodes a second "
                  "chained instance adds, less those the chain adds without the instruction; per instruction its "
                  "throughput class, the positions of the earlier ones whose registers it reads (-1: the PTX "
                  "instruction's operands) and the position of the one writing the result",
        "architectures": {a: {op: tables[a][op] for op in keep if tables[a].get(op, {}).get("sass_instructions", 0) > 1}
                          for a in tables},
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    # One line per instruction: the per-SASS-instruction lists stay readable side by side.
    text = json.dumps({k: v for k, v in data.items() if k != "architectures"}, indent=1)[:-2]
    arches = []
    for arch, table in data["architectures"].items():
        rows = [f'   {json.dumps(op)}: {json.dumps(entry)}' for op, entry in table.items()]
        arches.append(f'  {json.dumps(arch)}: {{\n' + ",\n".join(rows) + "\n  }")
    text += ',\n "architectures": {\n' + ",\n".join(arches) + "\n }\n}\n"
    json.loads(text)  # what the engine reads must stay JSON
    with open(args.out, "w") as f:
        f.write(text)
    print(f"wrote {args.out}: {len(keep)} instructions x {len(tables)} architectures")


if __name__ == "__main__":
    main()
