#!/usr/bin/env python3
"""The routes docs/openapi.json describes, as (METHOD, path) pairs, and the schema of each JSON response, for the
check that the document matches what `segue serve` answers (and for OpenAPIDocTests).

  openapi_routes.py [DOC]     prints one "METHOD path" a line (DOC: default docs/openapi.json)

  import openapi_routes
  openapi_routes.routes(doc)                          ->  [("DELETE", "/v1/renders/{id}"), ...]
  openapi_routes.template(doc, "GET", "/v1/renders/r_12/output?x=1")   ->  "/v1/renders/{id}/output"
  openapi_routes.check_response(doc, "GET", "/v1/renders/r_12", 200, body_json)   raises jsonschema.ValidationError
"""
import json, os, re, sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
DEFAULT_DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "openapi.json")


def routes(doc):
    """Every operation of the document's `paths` (not its callbacks), sorted: [(METHOD, path template), ...]."""
    return sorted((method.upper(), path) for path, item in doc.get("paths", {}).items()
                  for method in item if method in METHODS)


def template(doc, method, path):
    """The path template of the document that a concrete request path (a query string allowed) falls under; None
    when no operation of `method` matches."""
    path = path.split("?", 1)[0]
    for m, t in routes(doc):
        if m == method.upper() and re.fullmatch(re.sub(r"\\{[^}/]+\\}", "[^/]+", re.escape(t)), path):
            return t
    return None


def response_schema(doc, method, path, status, content_type="application/json"):
    """The JSON Schema (2020-12, OpenAPI 3.1's dialect) of the response `status` of METHOD path, with the document's
    components beside it so that its $refs resolve; None when the document gives no schema for it."""
    t = template(doc, method, path)
    if t is None:
        raise KeyError(f"no route {method} {path} in the document")
    responses = doc["paths"][t][method.lower()]["responses"]
    response = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
    if response is None:
        raise KeyError(f"{method} {t}: the document gives no response {status}")
    while "$ref" in response:
        response = doc["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    schema = response.get("content", {}).get(content_type, {}).get("schema")
    return None if schema is None else dict(schema, components=doc["components"])


def check_response(doc, method, path, status, body):
    """Raises jsonschema.ValidationError when `body` (parsed JSON) does not fit the document's schema for the
    response, KeyError when the document has no such route or status."""
    import jsonschema
    schema = response_schema(doc, method, path, status)
    if schema is not None:
        jsonschema.Draft202012Validator(schema).validate(body)


if __name__ == "__main__":
    with open(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DOC) as f:
        for method, path in routes(json.load(f)):
            print(method, path)
