#!/usr/bin/env python3
"""Validates docs/openapi.json with openapi-spec-validator (PyPI; `make openapi-venv` installs it) against the
OpenAPI 3.1 specification's schema and rules (every $ref resolves, path parameters declared, ...), then checks
what the issue names: the routes, bearer security, the status codes of each route. Prints one line per finding and
"openapi: N routes, valid" at the end; exits 1 on any finding.

  openapi_check.py [DOC]
"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openapi_routes import routes, check_response, template, DEFAULT_DOC
import jsonschema
from fake_segue_server import DONE
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
# The response schemas take what the server sends and refuse what it must not: the fake server's record (written as
# `segue serve` answers), an error, an accepted render; a record with an unknown status or no id.
samples = [("GET", "/v1/renders/r_1", 200, DONE, True), ("GET", "/v1/renders", 200, {"renders": [DONE]}, True),
           ("POST", "/v1/renders", 202, {"id": "r_1", "status": "queued"}, True),
           ("GET", "/v1/renders/r_1/output", 409, {"error": "render r_1 is queued, not done"}, True),
           ("POST", "/v1/assets?name=a.mp4", 201, {"name": "a.mp4", "size": 3, "sha256": "ab" * 32, "ref": "asset:a.mp4"}, True),
           ("GET", "/v1/renders/r_1", 200, dict(DONE, status="finished"), False),
           ("GET", "/v1/renders/r_1", 200, {k: v for k, v in DONE.items() if k != "id"}, False),
           ("POST", "/v1/renders", 202, {"id": "r_1"}, False)]
for method, p, status, body, good in samples:
    try:
        check_response(doc, method, p, status, body)
        fits = True
    except jsonschema.ValidationError:
        fits = False
    except Exception as e:   # no such route or status (KeyError), a $ref to nowhere
        problems.append(f"{method} {p} {status}: {type(e).__name__}: {str(e)[:200]}")
        continue
    if fits != good:
        problems.append(f"{method} {p} {status}: {body} {'refused' if good else 'accepted'} by the document's schema")
if template(doc, "GET", "/v1/renders/r_1/poster") != "/v1/renders/{id}/poster" or template(doc, "PUT", "/healthz") is not None:
    problems.append("template() does not match concrete paths")
for line in problems:
    print(line)
print(f"openapi: {len(found)} routes, {len(samples)} response samples, {'valid' if not problems else 'INVALID'}")
sys.exit(1 if problems else 0)
