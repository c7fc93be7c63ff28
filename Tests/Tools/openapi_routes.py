#!/usr/bin/env python3
"""The routes docs/openapi.json describes, as (METHOD, path) pairs, for the check that the document matches the
routes `segue serve` answers (and for OpenAPIDocTests).

  openapi_routes.py [DOC]     prints one "METHOD path" a line (DOC: default docs/openapi.json)

  import openapi_routes; openapi_routes.routes(json.load(f))  ->  [("DELETE", "/v1/renders/{id}"), ...]
"""
import json, os, sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
DEFAULT_DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "openapi.json")


def routes(doc):
    """Every operation of the document's `paths` (not its callbacks), sorted: [(METHOD, path template), ...]."""
    return sorted((method.upper(), path) for path, item in doc.get("paths", {}).items()
                  for method in item if method in METHODS)


if __name__ == "__main__":
    with open(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DOC) as f:
        for method, path in routes(json.load(f)):
            print(method, path)
