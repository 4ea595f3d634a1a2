"""ROS 2 messages: their definitions in the .msg language, and CDR (OMG DDS-XTypes 1.3 §7.4,
XCDR version 1, "plain CDR") decoding of a serialised message from them.

A serialised message is a 4-byte encapsulation header — 0x00 0x00 big-endian or 0x00 0x01
little-endian CDR, then two option bytes — and the fields in order: each primitive aligned to
its own size (at most 8) counted from the byte after the header; a string as a uint32 length
that counts its terminating NUL, then the bytes; a sequence (T[] or T[<=N]) as a uint32 count,
then the elements; a fixed array (T[N]) as N elements; a nested message as its fields, with no
alignment of its own."""
import struct

from .errors import LogError

PRIMITIVES = {  # .msg type: (struct code, size)
    "bool": ("?", 1), "byte": ("B", 1), "char": ("B", 1), "uint8": ("B", 1), "int8": ("b", 1),
    "uint16": ("H", 2), "int16": ("h", 2), "uint32": ("I", 4), "int32": ("i", 4),
    "uint64": ("Q", 8), "int64": ("q", 8), "float32": ("f", 4), "float64": ("d", 8),
}
ROS1_ALIASES = {"time": "builtin_interfaces/Time", "duration": "builtin_interfaces/Duration", "Header": "std_msgs/Header"}


class Field:
    __slots__ = ("name", "base", "kind", "count")

    def __init__(self, name, base, kind, count):
        self.name, self.base, self.kind, self.count = name, base, kind, count  # kind: one, array, sequence


def normalise_type(name):
    """'geometry_msgs/msg/Pose' and 'geometry_msgs/Pose' name the same message."""
    parts = name.split("/")
    if len(parts) == 3 and parts[1] in ("msg", "srv", "action"):
        return parts[0] + "/" + parts[2]
    return name


def parse_msg(text, type_name, where):
    """The fields of one .msg text (constants and comments dropped), as Field objects."""
    package = type_name.split("/")[0]
    fields = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 1)
        if len(parts) != 2:
            raise LogError(f"{where}: definition of {type_name}, line {number}: expected 'TYPE NAME', got '{raw.strip()}'")
        type_text, rest = parts
        name = rest.split()[0]
        if "=" in name or rest[len(name):].strip().startswith("="):
            continue  # a constant: not serialised
        kind, count, base = "one", None, type_text
        if type_text.endswith("]"):
            base, bracket = type_text[:-1].split("[", 1)
            if bracket == "":
                kind = "sequence"
            elif bracket.startswith("<="):
                kind = "sequence"
            else:
                try:
                    kind, count = "array", int(bracket)
                except ValueError:
                    raise LogError(f"{where}: definition of {type_name}, line {number}: bad array size '[{bracket}]'")
        if base.startswith("string<=") or base.startswith("wstring<="):
            base = base.split("<=")[0]
        base = ROS1_ALIASES.get(base, base)
        if base not in PRIMITIVES and base not in ("string", "wstring") and "/" not in base:
            base = package + "/" + base
        fields.append(Field(name, normalise_type(base), kind, count))
    return fields


def parse_bundle(text, type_name, where):
    """A definition as rosbag2 stores it (encoding 'ros2msg'): the type's .msg, then each
    dependency after a line of '=' and a line 'MSG: pkg/Type'."""
    out = {}
    current, lines = normalise_type(type_name), []
    all_lines = text.splitlines()
    k = 0
    while k < len(all_lines):
        line = all_lines[k]
        if line.startswith("====="):
            out[current] = parse_msg("\n".join(lines), current, where)
            header = all_lines[k + 1] if k + 1 < len(all_lines) else ""
            if not header.startswith("MSG: "):
                raise LogError(f"{where}: definition of {type_name}: expected 'MSG: pkg/Type' after a line of '='")
            current, lines = normalise_type(header[5:].strip()), []
            k += 2
            continue
        lines.append(line)
        k += 1
    out[current] = parse_msg("\n".join(lines), current, where)
    return out


class Decoder:
    """Decodes the messages of the types it has definitions for into nested dicts (fixed arrays
    and sequences of primitives as tuples)."""

    def __init__(self, definitions):
        self.definitions = dict(definitions)  # type -> [Field]

    def missing(self, type_name, seen=None):
        """The first type a message needs that has no definition, or None."""
        seen = set() if seen is None else seen
        if type_name in PRIMITIVES or type_name in ("string", "wstring") or type_name in seen:
            return None
        seen.add(type_name)
        if type_name not in self.definitions:
            return type_name
        for f in self.definitions[type_name]:
            m = self.missing(f.base, seen)
            if m:
                return m
        return None

    def decode(self, data, type_name, where):
        if len(data) < 4:
            raise LogError(f"{where}: {type_name}: {len(data)} bytes, shorter than the 4-byte CDR encapsulation header")
        kind = (data[0] << 8) | data[1]
        if kind == 0x0000:
            endian = ">"
        elif kind == 0x0001:
            endian = "<"
        else:
            names = {2: "PL_CDR big-endian", 3: "PL_CDR little-endian", 6: "XCDR2 plain big-endian",
                     7: "XCDR2 plain little-endian", 8: "XCDR2 delimited big-endian", 9: "XCDR2 delimited little-endian",
                     10: "XCDR2 parameter-list big-endian", 11: "XCDR2 parameter-list little-endian"}
            raise LogError(f"{where}: {type_name}: CDR encapsulation 0x{kind:04x}"
                           + (f" ({names[kind]})" if kind in names else "")
                           + " is not read: this tool reads XCDR1 (0x0000 big-endian, 0x0001 little-endian)")
        r = _Reader(data, endian, where, type_name)
        value = r.message(type_name, self.definitions)
        left = len(data) - r.pos
        if left > 3:
            raise LogError(f"{where}: {type_name} ends at byte {r.pos} of {len(data)}: {left} bytes left over, "
                           "the message does not match its definition")
        return value


class _Reader:
    def __init__(self, data, endian, where, type_name):
        self.data, self.e, self.pos, self.where, self.top = data, endian, 4, where, type_name
        self.path = []

    def fail(self, text):
        field = ".".join(self.path) or "(message)"
        raise LogError(f"{self.where}: {self.top} field {field}: {text}")

    def align(self, n):
        self.pos += (-(self.pos - 4)) % n

    def take(self, code, size, count=1):
        self.align(size)
        end = self.pos + size * count
        if end > len(self.data):
            self.fail(f"needs bytes {self.pos}..{end} of a {len(self.data)}-byte message (truncated or a bad length)")
        v = struct.unpack_from(self.e + (str(count) if count != 1 else "") + code, self.data, self.pos)
        self.pos = end
        return v

    def length(self, what, element_size):
        (n,) = self.take("I", 4)
        if n * max(element_size, 1) > len(self.data) - self.pos:
            self.fail(f"{what} length {n} exceeds the {len(self.data) - self.pos} bytes left in the message")
        return n

    def string(self):
        n = self.length("string", 1)
        raw = self.data[self.pos:self.pos + n]
        self.pos += n
        if n == 0:
            return ""
        if raw[-1] != 0:
            self.fail("string not terminated by NUL (a bad length)")
        return raw[:-1].decode("utf-8", "replace")

    def value(self, base, defs):
        if base in PRIMITIVES:
            code, size = PRIMITIVES[base]
            return self.take(code, size)[0]
        if base == "string":
            return self.string()
        if base == "wstring":
            self.fail("wstring is not read")
        return self.message(base, defs)

    def message(self, type_name, defs):
        if type_name not in defs:
            self.fail(f"no definition of {type_name}")
        out = {}
        for f in defs[type_name]:
            self.path.append(f.name)
            if f.kind == "one":
                out[f.name] = self.value(f.base, defs)
            else:
                n = f.count if f.kind == "array" else self.length("sequence", PRIMITIVES.get(f.base, ("", 1))[1])
                if f.base in PRIMITIVES:
                    code, size = PRIMITIVES[f.base]
                    out[f.name] = self.take(code, size, n) if n else ()
                else:
                    out[f.name] = tuple(self.value(f.base, defs) for _ in range(n))
            self.path.pop()
        return out
