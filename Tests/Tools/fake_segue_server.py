#!/usr/bin/env python3
"""A stand-in for `segue serve` speaking the routes of docs/openapi.json with canned answers, for the tests of
Examples/segue-client.py (segue_client_test.py): it records every request (method, path, headers, body) so that the
tests can assert what the client sent. Token "t0k" is accepted; render "r-1" is done (output: OUTPUT, 1000 bytes),
"r-bad" fails, others are 404.

  server = FakeSegue(); server.start(); ... server.url, server.requests ...; server.stop()
"""
import json, re, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "t0k"
OUTPUT = bytes((i * 7 + 3) % 256 for i in range(1000))
# A record as GET /v1/renders/{id} gives it (docs/openapi.json's RenderStatus; openapi_check.py validates it).
DONE = {"id": "r-1", "status": "done", "progress": 1.0, "frames": 48, "totalFrames": 48, "fps": 96.5, "error": None,
        "callback": None, "created": "2026-12-02T20:00:00Z", "started": "2026-12-02T20:00:01Z",
        "finished": "2026-12-02T20:00:03Z", "attempts": 1}
# r-1's events as `segue serve` sends them: `event: progress` while it changes, then `event: end` with the final
# record; here also a comment, data split over two lines and CRLF line ends, which the client must read too.
EVENTS_R1 = (b": connected\n\n"
             b"event: progress\ndata: {\"id\": \"r-1\", \"status\": \"queued\", \"progress\": 0, \"frames\": 0, \"totalFrames\": 0}\n\n"
             b"event: progress\r\ndata: {\"id\": \"r-1\", \"status\": \"rendering\",\r\ndata: \"progress\": 0.5, \"frames\": 24, \"totalFrames\": 48}\r\n\r\n"
             b"event: end\ndata:" + json.dumps(DONE).encode() + b"\n\n")
EVENTS_BAD = (b"event: progress\ndata: {\"id\": \"r-bad\", \"status\": \"rendering\", \"progress\": 0.25, \"frames\": 12}\n\n"
              b"event: end\ndata: {\"id\": \"r-bad\", \"status\": \"failed\", \"progress\": 0.25, \"frames\": 12, "
              b"\"error\": \"item 0: cannot open asset:missing.mp4\"}\n\n")

class FakeSegue:
    def __init__(self):
        self.requests = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def handle_any(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                fake.requests.append({"method": method, "path": self.path, "headers": dict(self.headers.items()), "body": body})
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self.reply(401, {"error": "missing or unknown bearer token"})
                route = fake.route(method, self.path, self.headers, body)
                self.reply(*route)

            def reply(self, status, payload, content_type="application/json", headers=()):
                data = json.dumps(payload).encode() if content_type == "application/json" else payload
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.handle_any("GET")

            def do_POST(self):
                self.handle_any("POST")

            def do_DELETE(self):
                self.handle_any("DELETE")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def route(self, method, path, headers, body):
        """(status, payload[, content type, headers]) for a request with a good token."""
        if (method, path) == ("POST", "/v1/renders"):
            return 202, {"id": "r-1", "status": "queued"}
        if method == "POST" and path.startswith("/v1/assets?name="):
            return 201, {"name": path.split("=", 1)[1], "size": len(body)}
        m = re.fullmatch(r"/v1/renders/([^/]+)(/[a-z]+)?", path)
        if not m or m.group(1) not in ("r-1", "r-bad"):
            return 404, {"error": "no render " + (m.group(1) if m else path)}
        rid, sub = m.group(1), m.group(2) or ""
        if (method, sub) == ("GET", ""):
            return 200, DONE if rid == "r-1" else {"id": rid, "status": "failed", "progress": 0.25, "frames": 12, "error": "item 0: cannot open asset:missing.mp4"}
        if (method, sub) == ("DELETE", ""):
            return 200, {"id": rid, "status": "cancelled", "progress": 0.25, "frames": 12, "error": None}
        if (method, sub) == ("GET", "/events"):
            return 200, EVENTS_R1 if rid == "r-1" else EVENTS_BAD, "text/event-stream"
        if (method, sub) == ("GET", "/output") and rid == "r-1":
            return self.output(headers.get("Range"))
        return 404, {"error": "no such route"}

    def output(self, range_header):
        size = len(OUTPUT)
        if not range_header:
            return 200, OUTPUT, "video/mp4", [("Accept-Ranges", "bytes")]
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", range_header)
        if not m or not (m.group(1) or m.group(2)):
            return 416, {"error": "bad range"}
        if m.group(1):
            first, last = int(m.group(1)), min(int(m.group(2)) if m.group(2) else size - 1, size - 1)
        else:
            first, last = max(size - int(m.group(2)), 0), size - 1
        if first > last:
            return 416, {"error": "range outside the file"}
        return 206, OUTPUT[first:last + 1], "video/mp4", [("Content-Range", f"bytes {first}-{last}/{size}")]

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
