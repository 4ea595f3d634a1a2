"""rosbag2 bags in the sqlite3 storage: a directory with metadata.yaml and its .db3 files, or one
.db3 file (its `topics` and `messages` tables are enough: the metadata is read when present, to
find split files and refuse compressed bags). Messages are read topic by topic in time order
through SQLite cursors, one row at a time."""
import os
import re
import sqlite3

from . import cdr, ros_types
from .errors import LogError, UsageError


def _metadata(path):
    """storage_identifier, compression and relative_file_paths of a metadata.yaml (only these keys)."""
    info = {"files": []}
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        m = re.match(r"^(\s*)(storage_identifier|compression_format|compression_mode):\s*(.*?)\s*$", line)
        if m:
            info[m.group(2)] = m.group(3).strip("'\"")
        m = re.match(r"^(\s*)relative_file_paths:\s*$", line)
        if m:
            indent = len(m.group(1))
            k += 1
            while k < len(lines) and re.match(r"^\s*- ", lines[k]) and len(lines[k]) - len(lines[k].lstrip()) >= indent:
                info["files"].append(lines[k].strip()[2:].strip().strip("'\""))
                k += 1
            continue
        k += 1
    return info


def _split_index(name):
    m = re.search(r"_(\d+)\.db3$", name)
    return int(m.group(1)) if m else 0


class Bag:
    def __init__(self, path):
        self.path = path
        self.notes = []
        if os.path.isdir(path):
            meta = os.path.join(path, "metadata.yaml")
            if os.path.exists(meta):
                info = _metadata(meta)
                storage = info.get("storage_identifier", "sqlite3")
                if storage != "sqlite3":
                    raise LogError(f"{meta}: storage '{storage}' is not read: this tool reads rosbag2's sqlite3 storage (.db3)")
                if info.get("compression_format", ""):
                    raise LogError(f"{meta}: compressed bag ({info['compression_format']}): decompress it first "
                                   "(ros2 bag convert) — this tool reads uncompressed .db3 files")
                files = [os.path.join(path, f) for f in info["files"]]
                self.notes.append(f"read {meta}: sqlite3 storage, {len(files)} file(s)")
            else:
                files = sorted((os.path.join(path, f) for f in os.listdir(path) if f.endswith(".db3")), key=_split_index)
                self.notes.append(f"{path} has no metadata.yaml: read its .db3 files' topics tables")
            if not files:
                raise LogError(f"{path}: no .db3 file in the bag")
        else:
            files = [path]
        for f in files:
            if not os.path.isfile(f):
                raise LogError(f"{f}: no such file (named by the bag's metadata.yaml)")
        self.files = files
        self.dbs = [self._open(f) for f in files]
        self.topics = {}           # name -> type (normalised)
        self.ids = []              # per file: {name: topic_id}
        definitions = ros_types.builtin_definitions()
        bag_defs = {}
        for f, db in zip(self.files, self.dbs):
            ids = {}
            try:
                rows = db.execute("SELECT id, name, type, serialization_format FROM topics").fetchall()
            except sqlite3.DatabaseError as e:
                raise LogError(f"{f}: not a rosbag2 database ({e})")
            for tid, name, type_name, fmt in rows:
                if fmt != "cdr":
                    raise LogError(f"{f}: topic {name} is serialised as '{fmt}': this tool reads 'cdr'")
                ids[name] = tid
                t = cdr.normalise_type(type_name)
                if self.topics.setdefault(name, t) != t:
                    raise LogError(f"{f}: topic {name} is {t} here and {self.topics[name]} in an earlier file")
            self.ids.append(ids)
            if self._has_table(db, "message_definitions"):
                try:
                    for type_name, encoding, text in db.execute(
                            "SELECT topic_type, encoding, encoded_message_definition FROM message_definitions"):
                        if encoding == "ros2msg" and text:
                            bag_defs.update(cdr.parse_bundle(text, type_name, f"{f}: message_definitions"))
                except sqlite3.DatabaseError as e:
                    raise LogError(f"{f}: cannot read its message_definitions table ({e})")
        if bag_defs:
            self.notes.append(f"message definitions: the bag's own ({len(bag_defs)} types), else this tool's")
        definitions.update(bag_defs)
        self.decoder = cdr.Decoder(definitions)

    def _open(self, f):
        try:
            db = sqlite3.connect(f"file:{os.path.abspath(f)}?mode=ro", uri=True)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as e:
            raise LogError(f"{f}: not an SQLite database ({e})")
        for table in ("topics", "messages"):
            if not self._has_table(db, table):
                raise LogError(f"{f}: no table '{table}': not a rosbag2 database")
        return db

    @staticmethod
    def _has_table(db, name):
        return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None

    def count(self, topic):
        return sum(db.execute("SELECT count(*) FROM messages WHERE topic_id=?", (ids[topic],)).fetchone()[0]
                   for db, ids in zip(self.dbs, self.ids) if topic in ids)

    def raw(self, topic):
        """(receive time in ns, serialised message, message number) in time order, over the split files."""
        n = 0
        for f, db, ids in zip(self.files, self.dbs, self.ids):
            if topic not in ids:
                continue
            try:
                cursor = db.execute("SELECT timestamp, data FROM messages WHERE topic_id=? ORDER BY timestamp, id",
                                    (ids[topic],))
                for t, data in cursor:
                    n += 1
                    yield int(t), bytes(data), n, f
            except sqlite3.DatabaseError as e:
                raise LogError(f"{f}: reading {topic}: {e}")

    def messages(self, topic):
        """(receive time ns, decoded message) of a topic."""
        type_name = self.topics[topic]
        missing = self.decoder.missing(type_name)
        if missing:
            raise LogError(f"{self.path}: topic {topic} is {type_name}, and this tool has no definition of {missing} "
                           "(nor does the bag: rosbag2 before Iron stores none)")
        for t, data, n, f in self.raw(topic):
            yield t, self.decoder.decode(data, type_name, f"{f}: {topic} message {n}")

    def field_type(self, topic, path):
        """The type of TOPIC's field PATH ('pose' or 'rc_stamped.rc'), from the definitions."""
        t = self.topics[topic]
        for name in [p for p in path.split(".") if p]:
            fields = {f.name: f for f in self.decoder.definitions.get(t, [])}
            if name not in fields or fields[name].kind != "one":
                raise UsageError(f"{topic} ({self.topics[topic]}) has no message field '{path}'")
            t = fields[name].base
        return t

    def list_lines(self):
        out = [f"rosbag2 {self.path}: {len(self.files)} .db3 file(s)"]
        for name in sorted(self.topics):
            t = self.topics[name]
            known = "" if self.decoder.missing(t) is None else "  (no definition: not decoded)"
            out.append(f"  {name:40s} {t:40s} {self.count(name):8d} messages{known}")
        return out

