"""ArduPilot DataFlash logs (.BIN): self-describing records, each 0xA3 0x95, a type byte, then a
packed little-endian payload laid out by the FMT record (type 128) that defines the type: its
Length (with the 3 header bytes), Name, Format (one character per field) and Columns (comma
separated). Format characters (ArduPilot, libraries/AP_Logger/LogStructure.h):
  b B h H i I q Q  int8 uint8 int16 uint16 int32 uint32 int64 uint64;  f d  float, double
  n N Z  char[4] [16] [64];  a  int16[32];  M  uint8 flight mode
  c C  int16, uint16 ×0.01;  e E  int32, uint32 ×0.01;  L  int32 ×1e-7 (latitude, longitude, deg)
Records are read from a memory map, one at a time; every pass over the file reads it whole."""
import mmap
import os
import struct

from .errors import LogError

FORMAT = {  # character: (struct code, scale or None)
    "b": ("b", None), "B": ("B", None), "h": ("h", None), "H": ("H", None), "i": ("i", None), "I": ("I", None),
    "q": ("q", None), "Q": ("Q", None), "f": ("f", None), "d": ("d", None), "M": ("B", None),
    "n": ("4s", None), "N": ("16s", None), "Z": ("64s", None), "a": ("32h", None),
    "c": ("h", 0.01), "C": ("H", 0.01), "e": ("i", 0.01), "E": ("I", 0.01), "L": ("i", 1e-7),
}
HEAD = b"\xa3\x95"
FMT_TYPE = 128
FMT_LENGTH = 89  # 3 + B B n N Z
WINDOW = 1 << 23  # bytes: a multiple of the page size


class MessageType:
    def __init__(self, type_id, name, length, fmt, columns, where):
        self.id, self.name, self.length, self.format = type_id, name, length, fmt
        self.columns = columns
        codes = []
        for ch in fmt:
            if ch not in FORMAT:
                raise LogError(f"{where}: FMT of {name}: unknown format character '{ch}' in '{fmt}'")
            codes.append(FORMAT[ch][0])
        self.struct = struct.Struct("<" + "".join(codes))
        if self.struct.size != length - 3:
            raise LogError(f"{where}: FMT of {name} says {length} bytes a record, its format '{fmt}' packs "
                           f"{self.struct.size} + 3")
        if len(columns) != len(fmt):
            raise LogError(f"{where}: FMT of {name}: {len(columns)} column names for {len(fmt)} format characters")
        self.scales = [FORMAT[ch][1] for ch in fmt]
        self.index = {c: k for k, c in enumerate(columns)}

    def values(self, raw):
        out = []
        for v, s in zip(self.struct.unpack(raw), self.scales):
            if isinstance(v, bytes):
                v = v.split(b"\0", 1)[0].decode("ascii", "replace")
            elif s is not None:
                v = v * s
            out.append(v)
        return out


def _text(b):
    return b.split(b"\0", 1)[0].decode("ascii", "replace")


class DataFlash:
    def __init__(self, path, allow_truncated_end=False):
        self.path = path
        self.allow_truncated_end = allow_truncated_end
        self.truncated_end = None
        try:
            self.size = os.path.getsize(path)
            self.f = open(path, "rb")
        except OSError as e:
            raise LogError(f"{path}: {e.strerror}")
        if self.size == 0:
            raise LogError(f"{path}: empty file")
        self.mm = mmap.mmap(self.f.fileno(), 0, access=mmap.ACCESS_READ)
        if self.mm[:2] != HEAD:
            raise LogError(f"{path}: not a DataFlash log: it does not start with 0xA3 0x95")

    def records(self, wanted=None):
        """(MessageType, payload bytes, byte offset) of every record (or of the named types), in file order.
        Every record is checked: header, known type, length within the file."""
        mm, n, pos = self.mm, self.size, 0
        types = {}
        released = 0
        while pos < n:
            if pos - released >= WINDOW:
                # Pages read are dropped behind the reader: memory stays within a window of the file.
                mm.madvise(mmap.MADV_DONTNEED, released, WINDOW)
                released += WINDOW
            if n - pos < 3:
                self._truncated(pos, "a record header needs 3 bytes")
                return
            if mm[pos] != 0xA3 or mm[pos + 1] != 0x95:
                raise LogError(f"{self.path}: byte {pos}: expected a record header 0xA3 0x95, got "
                               f"0x{mm[pos]:02X} 0x{mm[pos + 1]:02X} (a corrupt log, or a record longer than its FMT says)")
            type_id = mm[pos + 2]
            if type_id == FMT_TYPE:
                if pos + FMT_LENGTH > n:
                    self._truncated(pos, f"an FMT record needs {FMT_LENGTH} bytes")
                    return
                t, length, name, fmt, cols = struct.unpack_from("<BB4s16s64s", mm, pos + 3)
                where = f"{self.path}: byte {pos}"
                if t == FMT_TYPE:
                    if length != FMT_LENGTH:
                        raise LogError(f"{where}: the FMT record's own FMT says {length} bytes, not {FMT_LENGTH}")
                else:
                    columns = _text(cols).split(",") if _text(cols) else []
                    types[t] = MessageType(t, _text(name), length, _text(fmt), columns, where)
                pos += FMT_LENGTH
                continue
            mt = types.get(type_id)
            if mt is None:
                raise LogError(f"{self.path}: byte {pos}: record of type {type_id} with no FMT record before it")
            if pos + mt.length > n:
                self._truncated(pos, f"a {mt.name} record needs {mt.length} bytes")
                return
            if wanted is None or mt.name in wanted:
                yield mt, mm[pos + 3:pos + mt.length], pos
            pos += mt.length

    def _truncated(self, pos, what):
        left = self.size - pos
        if self.allow_truncated_end:
            self.truncated_end = f"the last {left} byte(s), from byte {pos}, are an unfinished record ({what}): ignored"
            return
        raise LogError(f"{self.path}: truncated record at byte {pos}: {what}, {left} remain "
                       "(--allow-truncated-end reads the log up to it)")

    def types(self):
        """name -> (MessageType, count), and name -> {column: unit} from FMTU/UNIT when the log has them."""
        counts, by_id, units_of, unit_label = {}, {}, {}, {}
        for mt, raw, _ in self.records():
            counts[mt.name] = counts.get(mt.name, 0) + 1
            by_id[mt.id] = mt
            if mt.name == "UNIT":
                v = dict(zip(mt.columns, mt.values(raw)))
                unit_label[chr(v["Id"] & 0xFF)] = v["Label"]
            elif mt.name == "FMTU":
                v = dict(zip(mt.columns, mt.values(raw)))
                units_of[v["FmtType"]] = v["UnitIds"]
        units = {}
        for type_id, ids in units_of.items():
            mt = by_id.get(type_id)
            if mt is not None:
                units[mt.name] = {c: unit_label.get(u, "") for c, u in zip(mt.columns, ids) if unit_label.get(u, "") not in ("", "-")}
        return {mt.name: (mt, counts[mt.name]) for mt in by_id.values()}, units

    def samples(self, name, fields, instance=None):
        """(TimeUS, [fields]) of message NAME, of one instance (its field I or C) when it has one."""
        for mt, raw, pos in self.records({name}):
            v = mt.values(raw)
            if "TimeUS" not in mt.index:
                raise LogError(f"{self.path}: {name} has no TimeUS field")
            for fld in fields:
                if fld not in mt.index:
                    raise LogError(f"{self.path}: {name} has no field {fld} (its fields: {', '.join(mt.columns)})")
            if instance is not None:
                key = "I" if "I" in mt.index else "C" if "C" in mt.index else None
                if key is not None and v[mt.index[key]] != instance:
                    continue
            yield v[mt.index["TimeUS"]], [v[mt.index[f]] for f in fields]

    def first_time(self):
        """TimeUS of the first record that has one: the log's first sample."""
        for mt, raw, _ in self.records():
            if "TimeUS" in mt.index:
                return mt.values(raw)[mt.index["TimeUS"]]
        return None

    def close(self):
        self.mm.close()
        self.f.close()
