"""A tagged JSON codec for checkpointed data: plain data in, the same plain data out.

Checkpoints are read back on ``--resume``, possibly from a directory someone else could
write to, so their format must not be able to run code (a pickle can).  This codec knows a
closed set of types and nothing else:

* ``None``, ``bool``, ``int``, ``str`` and ``float`` — JSON itself; a finite float is written
  by ``repr``, which round-trips exactly; ``inf``, ``-inf`` and ``nan`` are tagged;
* ``list``; ``tuple`` (tagged, so it comes back a tuple); ``dict`` (a plain JSON object when
  every key is a ``str`` not starting with ``$``, else a tagged list of pairs);
* NumPy arrays of a boolean, integer, float or complex dtype and NumPy scalars (tagged:
  dtype string, shape, memory order, and the raw bytes in base64 — bit-exact);
* :class:`~proofs_check.engine.contract.Case` (tagged family and seed).

A tag is an object with exactly one key starting with ``$``.  Decoding builds only these
types; anything else in the text is a :class:`CodecError` (a ``ValueError``).  Encoding
anything else is a ``TypeError`` naming the type and where it was found.
"""
from __future__ import annotations

import base64
import json
import math

import numpy as np

from .contract import Case

__all__ = ["CodecError", "encode", "decode", "dumps", "loads", "difference"]

#: dtype kinds an array may have (no object, void, string or datetime arrays)
ARRAY_KINDS = "biufc"
#: deepest nesting accepted when decoding (JSON of real results is a few levels deep)
MAX_DEPTH = 64


class CodecError(ValueError):
    """Text that is not an encoding of the codec's plain data."""


def _array_tag(arr: np.ndarray, where: str) -> dict:
    if arr.dtype.kind not in ARRAY_KINDS:
        raise TypeError(f"{where}: arrays of dtype {arr.dtype} cannot be checkpointed "
                        f"(kinds {ARRAY_KINDS!r} only)")
    order = "F" if arr.flags.f_contiguous and not arr.flags.c_contiguous else "C"
    data = arr.tobytes(order=order)
    return {"dtype": arr.dtype.str, "shape": list(arr.shape), "order": order,
            "data": base64.b64encode(data).decode("ascii")}


def encode(value, where: str = "value"):
    """``value`` as JSON-compatible tagged data (``TypeError`` for an unsupported type)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float) and not isinstance(value, np.floating):
        return value if math.isfinite(value) else {"$float": repr(float(value))}
    if isinstance(value, np.ndarray):
        return {"$array": _array_tag(value, where)}
    if isinstance(value, np.generic):
        return {"$scalar": _array_tag(np.asarray(value), where)}
    if isinstance(value, Case):
        return {"$case": [value.family, int(value.seed)]}
    if isinstance(value, list):
        return [encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple) and type(value) is tuple:
        return {"$tuple": [encode(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, dict) and type(value) is dict:
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v, f"{where}[{k!r}]") for k, v in value.items()}
        return {"$dict": [[encode(k, f"{where} key"), encode(v, f"{where}[{k!r}]")]
                          for k, v in value.items()]}
    raise TypeError(f"{where}: a {type(value).__module__}.{type(value).__qualname__} cannot be "
                    "checkpointed; use plain data (numbers, str, list, tuple, dict, NumPy "
                    "arrays, Case)")


def _array(tag, what: str) -> np.ndarray:
    if not isinstance(tag, dict) or set(tag) != {"dtype", "shape", "order", "data"}:
        raise CodecError(f"malformed {what} tag")
    dtype_str, shape, order, data = tag["dtype"], tag["shape"], tag["order"], tag["data"]
    if not isinstance(dtype_str, str) or not isinstance(data, str) or order not in ("C", "F"):
        raise CodecError(f"malformed {what} tag")
    try:
        dtype = np.dtype(dtype_str)
    except TypeError:
        raise CodecError(f"{what}: unknown dtype {dtype_str!r}") from None
    if dtype.kind not in ARRAY_KINDS or dtype.str != dtype_str:
        raise CodecError(f"{what}: dtype {dtype_str!r} is not allowed")
    if not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape):
        raise CodecError(f"{what}: shape must be a list of non-negative ints, got {shape!r}")
    try:
        raw = base64.b64decode(data.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise CodecError(f"{what}: data is not base64") from None
    if len(raw) != math.prod(shape) * dtype.itemsize:
        raise CodecError(f"{what}: {len(raw)} bytes do not fill shape {shape} of {dtype}")
    flat = np.frombuffer(raw, dtype=dtype)
    return flat.reshape(shape, order=order).copy(order=order)


def decode(data, depth: int = 0):
    """Inverse of :func:`encode` (``CodecError`` for anything it did not produce)."""
    if depth > MAX_DEPTH:
        raise CodecError(f"nested deeper than {MAX_DEPTH} levels")
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if isinstance(data, list):
        return [decode(v, depth + 1) for v in data]
    if not isinstance(data, dict):
        raise CodecError(f"unexpected {type(data).__name__}")
    if len(data) == 1:
        (tag, body), = data.items()
        if tag.startswith("$"):
            return _tagged(tag, body, depth)
    if any(k.startswith("$") for k in data):
        raise CodecError(f"unknown tag among keys {sorted(data)[:3]}")
    return {k: decode(v, depth + 1) for k, v in data.items()}


def _tagged(tag: str, body, depth: int):
    if tag == "$float":
        if body not in ("inf", "-inf", "nan"):
            raise CodecError(f"$float must be inf, -inf or nan, got {body!r}")
        return float(body)
    if tag == "$array":
        return _array(body, "$array")
    if tag == "$scalar":
        arr = _array(body, "$scalar")
        if arr.shape != ():
            raise CodecError("$scalar must have shape []")
        return arr[()]
    if tag == "$case":
        if (not isinstance(body, list) or len(body) != 2 or not isinstance(body[0], str)
                or type(body[1]) is not int):
            raise CodecError(f"malformed $case {body!r}")
        return Case(body[0], body[1])
    if tag == "$tuple":
        if not isinstance(body, list):
            raise CodecError("$tuple must hold a list")
        return tuple(decode(v, depth + 1) for v in body)
    if tag == "$dict":
        if not isinstance(body, list) or not all(isinstance(p, list) and len(p) == 2
                                                 for p in body):
            raise CodecError("$dict must hold a list of [key, value] pairs")
        out = {}
        for k, v in body:
            key = decode(k, depth + 1)
            try:
                out[key] = decode(v, depth + 1)
            except TypeError:  # an unhashable key (a list): not something encode wrote
                raise CodecError(f"unhashable $dict key {key!r}") from None
        return out
    raise CodecError(f"unknown tag {tag!r}")


def dumps(value, where: str = "value") -> str:
    """Compact, deterministic text of ``value`` (the same value always gives the same text)."""
    return json.dumps(encode(value, where), separators=(",", ":"), allow_nan=False,
                      ensure_ascii=True)


def loads(text):
    """``value`` back from :func:`dumps` text (``CodecError`` if it is not such text)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise CodecError(f"not JSON: {exc}") from None
    return decode(data)


def difference(a, b, where: str = "value") -> str | None:
    """Where ``a`` and ``b`` differ as plain data, or ``None`` when they are the same.

    The same means: the same types (a tuple stays a tuple, a NumPy scalar a NumPy scalar),
    dict keys in the same order, arrays of the same dtype, shape, memory order and bytes,
    floats of the same bits (``-0.0`` and NaN payloads included).  The mapper compares every
    batch with its decoded text this way, so every run certifies the round trip on its own
    data.
    """
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{where}: keys or their order differ"
        pairs = ((a[key], b[key], f"{where}[{key!r}]") for key in a)
    elif isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: lengths differ"
        pairs = ((x, z, f"{where}[{i}]") for i, (x, z) in enumerate(zip(a, b)))
    elif isinstance(a, (np.ndarray, np.generic)):
        x, z = np.asarray(a), np.asarray(b)
        layout = [(v.dtype, v.shape, v.flags.f_contiguous and not v.flags.c_contiguous)
                  for v in (x, z)]
        if layout[0] != layout[1]:
            return f"{where}: dtype, shape or memory order differ ({layout[0]} vs {layout[1]})"
        return None if x.tobytes(order="A") == z.tobytes(order="A") else f"{where}: bytes differ"
    elif isinstance(a, float):
        same = np.float64(a).tobytes() == np.float64(b).tobytes()
        return None if same else f"{where}: {a!r} vs {b!r}"
    else:
        return None if a == b else f"{where}: {a!r} vs {b!r}"
    for x, z, at in pairs:
        found = difference(x, z, at)
        if found is not None:
            return found
    return None
