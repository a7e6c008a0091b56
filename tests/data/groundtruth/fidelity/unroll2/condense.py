"""Condense `cuobjdump -sass` output to one instruction a line (`.function NAME` then
`ADDR INSTR`), the form of the fidelity folder's sass/ files; and summarise each kernel:
SASS instructions, BRA (backward = a loop's back edge), PTX bra and PTX back edges
(NVVM's loops before ptxas).  Usage: python condense.py probes_sm_90_O3.sass probes.ptx"""
import re
import sys


def condense(text: str) -> str:
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            out.append(f"\n.function {m.group(1)}")
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            out.append(f"{m.group(1)[-4:] if len(m.group(1)) <= 4 else m.group(1)} {m.group(2).strip()}")
    return "\n".join(out).lstrip() + "\n"


def sass_summary(text: str) -> dict:
    found, name = {}, None
    for line in text.splitlines():
        if line.startswith(".function"):
            name = line.split()[1]
            found[name] = [0, 0, 0]
        elif name and line.strip():
            addr, ins = line.split(" ", 1)
            found[name][0] += 1
            m = re.search(r"\bBRA (?:!?U?P\d, )?(0x[0-9a-f]+)", ins)
            if m and int(m.group(1), 16) != int(addr, 16):
                found[name][1] += 1
                found[name][2] += int(m.group(1), 16) < int(addr, 16)
    return found


def ptx_summary(text: str) -> dict:
    found = {}
    for m in re.finditer(r"\.entry (\w+)\((.*?)\n}\n", text, re.S):
        body = m.group(2)
        labels = [l for l in re.findall(r"^(\$L__\w+):", body, re.M)]
        bras, back = 0, 0
        pos = {l: body.index(l + ":") for l in labels}
        for b in re.finditer(r"bra(?:\.uni)?\s+(\$L__\w+);", body):
            bras += 1
            back += pos.get(b.group(1), 1 << 30) < b.start()
        found[m.group(1)] = (bras, back)
    return found


if __name__ == "__main__":
    sass_file, ptx_file = sys.argv[1:3]
    text = open(sass_file).read()
    if "Function :" in text:      # (the raw cuobjdump output: condensed in place)
        text = condense(text)
        open(sass_file, "w").write(text)
    sass, ptx = sass_summary(text), ptx_summary(open(ptx_file).read())
    print("kernel\tsass_instrs\tsass_bra\tsass_back_edges\tptx_bra\tptx_back_edges")
    for name in sorted(sass):
        print(name, *sass[name], *ptx.get(name, ("?", "?")), sep="\t")
