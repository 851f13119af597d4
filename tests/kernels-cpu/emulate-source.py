#!/usr/bin/env python3
"""emulate-source.py KERNEL.cu OUT.cpp: the kernel file as C++ for cuda-emu.h.

A launch `name<T...><<<grid, block, shared, stream>>> (args)` becomes
`emu::launch (name<T...>, grid, block, shared, stream) (args)`; the dynamic shared memory
declaration points at the emulation's; `#pragma unroll` (with a count or not) goes (the host
compiler warns)."""
import re
import sys

source = open(sys.argv[1], encoding="utf-8").read()
source = source.replace("extern __shared__ float4 smem4[];", "float4 *smem4 = EMU_DYNAMIC_SHARED;")
launch = re.compile(r"([A-Za-z_]\w*(?:<[^<>;]*>)?)<<<(.*?)>>>\s*\(", re.S)
source = launch.sub(lambda m: "emu::launch (%s, %s) (" % (m.group(1), m.group(2)), source)
source = re.sub(r"#pragma unroll[ \t]*\d*", "", source)
if "<<<" in source:
    sys.exit("emulate-source.py: %s: a launch it cannot read" % sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write('#line 1 "%s"\n' % sys.argv[1])
    out.write(source)
