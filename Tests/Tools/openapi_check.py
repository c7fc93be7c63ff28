#!/usr/bin/env python3
"""Validates docs/openapi.json with openapi-spec-validator (PyPI; `make openapi-venv` installs it) against the
OpenAPI 3.1 specification's schema and rules (every $ref resolves, path parameters declared, ...), then checks
what the issue names: the routes, bearer security, the status codes of each route. Prints one line per finding and
"openapi: N routes, valid" at the end; exits 1 on any finding.

  openapi_check.py [DOC]
"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openapi_routes import routes, DEFAULT_DOC
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

EXPECTED = {
    ("POST", "/v1/renders"): {"202", "400", "401", "413", "422", "429"},
    ("GET", "/v1/renders"): {"200", "400", "401"},
    ("GET", "/v1/renders/{id}"): {"200", "401", "403", "404"},
    ("DELETE", "/v1/renders/{id}"): {"200", "401", "403", "404", "409"},
    ("GET", "/v1/renders/{id}/output"): {"200", "206", "401", "403", "404", "409", "416"},
    ("GET", "/v1/renders/{id}/poster"): {"200", "401", "403", "404", "409"},
    ("GET", "/v1/renders/{id}/events"): {"200", "401", "403", "404"},
    ("POST", "/v1/assets"): {"201", "400", "401", "413"},
    ("GET", "/healthz"): {"200"},
    ("GET", "/metrics"): {"200"},
    ("GET", "/openapi.json"): {"200"},
}

path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DOC
with open(path) as f:
    doc = json.load(f)
problems = []
try:
    validate(doc)
except OpenAPIValidationError as e:
    problems.append(f"invalid OpenAPI: {str(e)[:400]}")
except Exception as e:   # a $ref to nowhere raises the resolver's own error
    problems.append(f"invalid OpenAPI: {type(e).__name__}: {str(e)[:200]}")
found = routes(doc)
if set(found) != set(EXPECTED):
    problems.append(f"routes differ: missing {sorted(set(EXPECTED) - set(found))}, extra {sorted(set(found) - set(EXPECTED))}")
if doc.get("security") != [{"bearer": []}] or doc["components"]["securitySchemes"]["bearer"].get("scheme") != "bearer":
    problems.append("the document's default security is not the bearer scheme")
for (method, p), codes in EXPECTED.items():
    op = doc["paths"].get(p, {}).get(method.lower(), {})
    missing = codes - set(op.get("responses", {}))
    if missing:
        problems.append(f"{method} {p}: no response {sorted(missing)}")
    if p.startswith("/v1/") and op.get("security") == []:
        problems.append(f"{method} {p}: open without a token")
for line in problems:
    print(line)
print(f"openapi: {len(found)} routes, {'valid' if not problems else 'INVALID'}")
sys.exit(1 if problems else 0)
