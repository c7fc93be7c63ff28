#!/usr/bin/env python3
"""A webhook receiver for WebhookTests, on 127.0.0.1 at an ephemeral port: prints "PORT <n>" on stdout once it
listens, then appends one JSON line per request to LOG: method, path, headers, body (text), and whether the
X-Segue-Signature header is the HMAC-SHA256 of the body keyed by KEY, computed here with Python's hmac module (an
oracle independent of Segue's OpenSSL call).

  webhook-receiver.py LOG KEY [--fail-first N] [--redirect] [--hang SECONDS]

--fail-first N answers 500 to the first N POSTs, then 204; --redirect answers every POST 302 to /elsewhere; --hang
waits SECONDS before answering.
"""
import argparse, hashlib, hmac, json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer

args = argparse.ArgumentParser()
args.add_argument("log")
args.add_argument("key")
args.add_argument("--fail-first", type=int, default=0)
args.add_argument("--redirect", action="store_true")
args.add_argument("--hang", type=float, default=0)
opts = args.parse_args()
seen = 0


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        global seen
        seen += 1
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        expected = "sha256=" + hmac.new(opts.key.encode(), body, hashlib.sha256).hexdigest()
        record = {"method": "POST", "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                  "body": body.decode("utf-8", "replace"), "length": len(body), "verified": hmac.compare_digest(expected, self.headers.get("X-Segue-Signature", ""))}
        with open(opts.log, "a") as f:
            f.write(json.dumps(record) + "\n")
        time.sleep(opts.hang)
        if opts.redirect:
            self.send_response(302)
            self.send_header("Location", "/elsewhere")
        else:
            self.send_response(500 if seen <= opts.fail_first else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
print("PORT", server.server_address[1], flush=True)
server.serve_forever()
