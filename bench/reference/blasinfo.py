"""What the reference runs on, for the benchmarks to print beside strata's.

blas_kernel names the BLAS torch uses and, for OpenBLAS, the core kernel
set it chose (openblas_get_corename, the function strata's engine/blas
calls too): OPENBLAS_CORETYPE in the environment overrides that choice.
outputs_fnv64 hashes decoded outputs exactly as bench/decode does, so two
runs' JSON lines can be compared.
"""
import ctypes
import re

import torch


def _loaded_openblas():
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "openblas" in path.rsplit("/", 1)[-1] and ".so" in path:
                    return path
    except OSError:
        pass
    return None


def blas_kernel():
    """'openblas (<path>, <core>)' as strata prints it, else torch's
    BLAS_INFO build setting."""
    torch.mm(torch.ones(2, 2), torch.ones(2, 2))  # the BLAS is loaded by now
    path = _loaded_openblas()
    if path:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return f"openblas ({path}, {lib.openblas_get_corename().decode()})"
        except (OSError, AttributeError):
            return f"openblas ({path}, unknown core)"
    m = re.search(r"BLAS_INFO=([^,\s]+)", torch.__config__.show())
    return f"{m.group(1) if m else 'unknown'} (torch.__config__ BLAS_INFO)"


def outputs_fnv64(sources, best_tokens):
    """FNV-1a 64 of every source's best output, in the order of a stable
    sort of the sources by length: each id as 4 little-endian bytes, each
    output followed by ff ff ff ff (bench/decode/main.go)."""
    h = 0xCBF29CE484222325
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    for i in order:
        data = b"".join((t & 0xFFFFFFFF).to_bytes(4, "little") for t in best_tokens[i]) + b"\xff\xff\xff\xff"
        for byte in data:
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"
