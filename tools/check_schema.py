#!/usr/bin/python3
"""Validate scenario files, part files (included by scenarios) and the resolved scenario stored
in result files against the JSON Schema their modeline names — the check an editor's YAML
language server makes. A file without a modeline, and a result file, are checked against
schemas/scenario.schema.json.

Usage: tools/check_schema.py FILE.yaml|FILE.h5 ...
Exit 0 if every file validates, 1 otherwise (each violation printed with its path).
Uses Debian's python3-jsonschema and python3-yaml (and python3-h5py for .h5 files).
"""
import json
import pathlib
import re
import sys

import jsonschema
import yaml

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "schemas" / "scenario.schema.json"
MODELINE = re.compile(r"yaml-language-server:\s*\$schema=(\S+)")


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML follows YAML 1.1, where 1e-5 (no dot) is a string; sim, yaml-cpp and editors'
    language servers follow YAML 1.2's core schema, where it is a float. Match them."""


Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$"),
    list("-+0123456789."))


def load(path):
    if path.suffix == ".h5":
        import h5py
        with h5py.File(path, "r") as f:
            return yaml.load(f.attrs["scenario"], Loader=Yaml12Loader)
    return yaml.load(path.read_text(), Loader=Yaml12Loader)


def schema_for(path):
    """The schema a file's modeline names (relative to the file), else the scenario schema."""
    if path.suffix != ".h5":
        for line in path.read_text().splitlines()[:5]:
            match = MODELINE.search(line)
            if match:
                return (path.parent / match.group(1)).resolve()
    return SCHEMA


def validator_for(schema_path):
    schema = json.loads(schema_path.read_text())
    # $refs such as "scenario.schema.json#/..." resolve among our own schemas, by file or $id;
    # nothing is ever fetched from the network.
    store = {}
    for other in schema_path.parent.glob("*.schema.json"):
        document = json.loads(other.read_text())
        store[other.as_uri()] = document
        if "$id" in document:
            store[document["$id"]] = document
    resolver = jsonschema.RefResolver(base_uri=schema.get("$id", schema_path.as_uri()), referrer=schema, store=store)
    return jsonschema.Draft7Validator(schema, resolver=resolver)


def main(paths):
    failed = 0
    for name in paths:
        path = pathlib.Path(name)
        schema_path = schema_for(path)
        errors = sorted(validator_for(schema_path).iter_errors(load(path)), key=lambda e: list(e.path))
        for error in errors:
            where = ".".join(str(p) for p in error.path) or "(top level)"
            print(f"{path}: {where}: {error.message}")
        failed += bool(errors)
        if not errors:
            print(f"{path}: valid against {schema_path.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
