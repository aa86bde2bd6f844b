#!/usr/bin/env python3
"""Reduce LLVM's view of one code object to the facts gpusim's tests compare against.

usage: facts.py <cpu> <llvm-readobj --elf-output-style=JSON output> <clang -S output>

Everything here is read off LLVM (llvm-readobj-19 and the .amdhsa_* directives clang-19 writes in
its assembly output); nothing is computed by gpusim. Output: JSON on stdout, keys sorted.
"""
import json
import re
import sys

import yaml

# LLVM tags strings YAML would read as something else (an argument named "n" or "y") as !str.
yaml.SafeLoader.add_constructor("!str", lambda loader, node: loader.construct_scalar(node))


def sym(s):
    s = s["Symbol"]
    return {
        "name": s["Name"]["Name"],
        "value": s["Value"],
        "size": s["Size"],
        "binding": s["Binding"]["Value"],
        "type": s["Type"]["Value"],
        "shndx": s["Section"]["Value"],
    }


def main():
    cpu, readobj_path, asm_path = sys.argv[1:4]
    ro = json.load(open(readobj_path))[0]
    h = ro["ElfHeader"]
    facts = {
        "cpu": cpu,
        "header": {
            "class": h["Ident"]["Class"]["Value"],
            "osabi": h["Ident"]["OS/ABI"]["Value"],
            "abiVersion": h["Ident"]["ABIVersion"],
            "type": int(re.search(r"0x([0-9a-f]+)", h["Type"]).group(1), 16),
            "machine": h["Machine"]["Value"],
            "flags": h["Flags"]["Value"],
            "flagNames": [f["Name"] for f in h["Flags"]["Flags"]],
            "phnum": h["ProgramHeaderCount"],
            "shnum": int(h["SectionHeaderCount"]),
            "shstrndx": int(h["StringTableSectionIndex"]),
        },
        "sections": [
            {
                "name": s["Section"]["Name"]["Name"],
                "type": s["Section"]["Type"]["Value"],
                "flags": s["Section"]["Flags"]["Value"],
                "addr": s["Section"]["Address"],
                "offset": s["Section"]["Offset"],
                "size": s["Section"]["Size"],
            }
            for s in ro["Sections"]
        ],
        "symtab": [sym(s) for s in ro.get("Symbols", [])],
        "dynsym": [sym(s) for s in ro.get("DynamicSymbols", [])],
        "notes": [],
        "metadata": None,
        "amdhsa": {},
    }
    for ns in ro.get("NoteSections", []):
        ns = ns["NoteSection"]
        for n in ns["Notes"]:
            facts["notes"].append({"section": ns["Name"], "owner": n["Owner"], "descsz": n["Data size"], "type": n["Type"]})
            if "AMDGPU Metadata" in n:
                facts["metadata"] = yaml.safe_load(n["AMDGPU Metadata"])
    # .amdhsa_kernel <name> ... .end_amdhsa_kernel blocks and the file-level directives.
    asm = open(asm_path).read()
    for m in re.finditer(r"\.amdhsa_kernel (\S+)\n(.*?)\.end_amdhsa_kernel", asm, re.S):
        d = {}
        for line in m.group(2).splitlines():
            mm = re.match(r"\s*\.(amdhsa_\w+)\s+(-?\d+)\s*$", line)
            if mm:
                d[mm.group(1)] = int(mm.group(2))
        facts["amdhsa"][m.group(1)] = d
    mm = re.search(r"\.amdhsa_code_object_version\s+(\d+)", asm)
    facts["codeObjectVersion"] = int(mm.group(1)) if mm else None
    mm = re.search(r'\.amdgcn_target "([^"]+)"', asm)
    facts["target"] = mm.group(1) if mm else None
    json.dump(facts, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


main()
