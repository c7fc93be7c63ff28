#!/usr/bin/env python3
"""Python's `jsonschema` (draft 2020-12) as the oracle of `segue schema` (Tests/SegueEndToEndTests/SchemaTests.swift).

  schema_check.py SCHEMA.json ROOT

Checks, against the schema `segue schema` printed:
- it is a valid draft 2020-12 schema (`Draft202012Validator.check_schema`);
- every edit Segue ships validates: ROOT/Fixtures/*.json, and every ```json block of ROOT/README.md and
  ROOT/docs/*.md that is an edit (a top-level object with "clips" or "tracks"); a block that is one item (an object
  with "shape", "path", "gap", "fill" or "text") validates as that item ($defs shape, clip, gap, fill, text); any other block is a
  fragment and is listed as skipped;
- every edit of ROOT/Tests/Schema/valid-edits.json validates (edits that, together, give every field the parser
  declares: EditSchemaTests parses them);
- every edit of ROOT/Tests/Schema/invalid-edits.json fails (misspelt fields, wrong types, values out of range: the
  parser refuses each, naming the field: EditSchemaTests).
Prints one line of counts; exits 1 listing what went wrong.
"""
import glob
import json
import os
import re
import sys

from jsonschema import Draft202012Validator


def main():
    schema_path, root = sys.argv[1], sys.argv[2]
    with open(schema_path) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        sys.exit("not a draft 2020-12 schema: " + str(schema.get("$schema")))
    edit = Draft202012Validator(schema)

    def item_validator(name):
        return Draft202012Validator({"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/" + name})

    problems = []
    counts = {"fixtures": 0, "docs edits": 0, "docs items": 0, "docs fragments skipped": 0, "valid edits": 0, "invalid edits refused": 0}

    def expect_valid(validator, value, where, count):
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
        if errors:
            problems.append("%s: %s" % (where, "; ".join("%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:300]) for e in errors[:3])))
        else:
            counts[count] += 1

    for path in sorted(glob.glob(os.path.join(root, "Fixtures", "*.json"))):
        with open(path) as f:
            expect_valid(edit, json.load(f), os.path.relpath(path, root), "fixtures")

    for path in [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r"```json\n(.*?)```", text, re.S):
            where = "%s:%d" % (os.path.relpath(path, root), text[:m.start()].count("\n") + 1)
            try:
                value = json.loads(m.group(1))
            except ValueError as e:
                problems.append("%s: not JSON: %s" % (where, e))
                continue
            if isinstance(value, dict) and ("clips" in value or "tracks" in value):
                expect_valid(edit, value, where, "docs edits")
            elif isinstance(value, dict) and any(k in value for k in ("shape", "path", "gap", "fill", "text")):
                # "shape" first: a shape's "fill" is its paint.
                kind = {"shape": "shape", "path": "clip", "gap": "gap", "fill": "fill", "text": "text"}[next(k for k in ("shape", "path", "gap", "fill", "text") if k in value)]
                expect_valid(item_validator(kind), value, where, "docs items")
            else:
                counts["docs fragments skipped"] += 1

    with open(os.path.join(root, "Tests", "Schema", "valid-edits.json")) as f:
        for case in json.load(f):
            expect_valid(edit, case["edit"], "valid-edits.json: " + case["name"], "valid edits")

    with open(os.path.join(root, "Tests", "Schema", "invalid-edits.json")) as f:
        for case in json.load(f):
            if edit.is_valid(case["edit"]):
                problems.append("invalid-edits.json: %s: accepted: %s" % (case["field"], json.dumps(case["edit"])))
            else:
                counts["invalid edits refused"] += 1

    print(", ".join("%s %d" % (k, v) for k, v in counts.items()))
    if problems:
        print("\n".join(problems))
        sys.exit(1)


if __name__ == "__main__":
    main()
