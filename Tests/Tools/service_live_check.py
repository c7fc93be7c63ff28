#!/usr/bin/env python3
"""docs/openapi.json and Examples/segue-client.py against a real `segue serve`: starts SEGUE serve on 127.0.0.1 (port
0) in a temporary folder, drives every documented route — through the client where it has a command — and checks that
each answer's status is one the document gives for that route, that each JSON answer fits the document's schema
(openapi_routes.check_response), that every documented route was answered, that undocumented ones are not
(404/405), that /openapi.json serves the document, that a webhook reaches a receiver on 127.0.0.1 (one failing its
first two attempts included, retried) with a
signature Python's hmac accepts. Needs jsonschema (`make openapi-venv`'s Python) and ffmpeg. Prints "ok …" or
"FAIL …" a line; exits 1 on any failure.

  service_live_check.py SEGUE [--webhook-seconds N]
"""
import argparse, hashlib, hmac, http.client, importlib.util, io, json, os, re, shutil, subprocess, sys, tempfile, threading, time, urllib.request
from contextlib import redirect_stderr, redirect_stdout
from http.server import BaseHTTPRequestHandler, HTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import openapi_routes

args = argparse.ArgumentParser()
args.add_argument("segue")
args.add_argument("--webhook-seconds", type=float, default=10)
opts = args.parse_args()
doc = json.load(open(os.path.join(ROOT, "docs", "openapi.json")))
spec = importlib.util.spec_from_file_location("segue_client", os.path.join(ROOT, "Examples", "segue-client.py"))
client = importlib.util.module_from_spec(spec)
spec.loader.exec_module(client)
failures, answered = [], set()
TOKEN, OTHER = "tok-acme-123456", "tok-other-654321"


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what.strip().replace("\n", " / "), flush=True)
    if not ok:
        failures.append(what)


def call(method, path, body=None, token=TOKEN, headers=None):
    """(status, headers, body bytes) of a request; the status checked against the document, a JSON body against its schema."""
    h = dict(headers or {})
    if token:
        h["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url + path, data=body, headers=h, method=method)
    try:
        with urllib.request.urlopen(req) as r:
            status, rh, data = r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        status, rh, data = e.code, e.headers, e.read()
    t = openapi_routes.template(doc, method, path)
    if t is None:
        check(status in (404, 405), f"{method} {path}: undocumented, answered {status}")
        return status, rh, data
    answered.add((method, t))
    try:
        if (rh.get("Content-Type") or "").startswith("application/json"):
            openapi_routes.check_response(doc, method, path, status, json.loads(data))
        else:
            openapi_routes.response_schema(doc, method, path, status, rh.get("Content-Type", "").split(";")[0])
        check(True, f"{method} {path} {status} as documented")
    except Exception as e:
        check(False, f"{method} {path} {status}: {type(e).__name__}: {str(e)[:300]}")
    return status, rh, data


def run_client(*argv, token=TOKEN):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = client.main(["--server", url, "--token", token, *argv])
    return code, out.getvalue(), err.getvalue()


class Receiver(BaseHTTPRequestHandler):
    got = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.got.append((body, self.headers.get("X-Segue-Signature", "")))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *a):
        pass


class FailingReceiver(Receiver):
    """Answers 500 to the first two POSTs, then 204."""
    got = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        FailingReceiver.got.append((body, self.headers.get("X-Segue-Signature", "")))
        self.send_response(500 if len(FailingReceiver.got) <= 2 else 204)
        self.end_headers()


work = tempfile.mkdtemp(prefix="segue-live-")
with open(f"{work}/tokens", "w") as f:
    f.write(f"acme:{TOKEN}\nother:{OTHER}\n")
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-pix_fmt", "yuv420p",
                f"{work}/clip.mp4"], check=True)
with open(f"{work}/edit.json", "w") as f:
    json.dump({"renderSize": {"width": 64, "height": 48}, "frameRate": 10, "clips": [{"path": "asset:clip.mp4"}]}, f)
server = subprocess.Popen([opts.segue, "serve", "--listen", "127.0.0.1:0", "--data", f"{work}/data", "--token-file", f"{work}/tokens",
                           "--max-upload", "1", "--rate-limit", "20", "--allow-private-callbacks"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    line = server.stdout.readline()
    m = re.search(r"listening on (http://\S+)", line)
    if not m:
        sys.exit(f"FAIL segue serve did not start: {line!r}")
    url = m.group(1)
    hook = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    failing = HTTPServer(("127.0.0.1", 0), FailingReceiver)
    threading.Thread(target=failing.serve_forever, daemon=True).start()

    s, _, data = call("GET", "/openapi.json", token=None)
    check(s == 200 and json.loads(data) == doc, "/openapi.json serves docs/openapi.json")
    s, rh, data = call("GET", "/metrics", token=None)
    check(s == 200 and b"segue_queue_length" in data, "/metrics: Prometheus text")
    call("GET", "/healthz", token=None)

    code, out, err = run_client("upload", f"{work}/clip.mp4", "--name", "clip.mp4")
    check(code == 0 and json.loads(out)["ref"] == "asset:clip.mp4", f"client upload: {out or err}")
    call("POST", "/v1/assets?name=clip2.mp4", body=open(f"{work}/clip.mp4", "rb").read(), headers={"Content-Type": "application/octet-stream"})
    form = (b"--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--XyZ\r\nContent-Disposition: form-data; "
            b"name=\"file\"; filename=\"c.mp4\"\r\nContent-Type: video/mp4\r\n\r\n" + open(f"{work}/clip.mp4", "rb").read() + b"\r\n--XyZ--\r\n")
    s, _, data = call("POST", "/v1/assets?name=form.mp4", body=form, headers={"Content-Type": "multipart/form-data; boundary=XyZ"})
    check(s == 201 and json.loads(data)["size"] == os.path.getsize(f"{work}/clip.mp4"), f"a multipart upload stores its file part: {s} {data[:120]}")
    call("POST", "/v1/assets?name=.hidden", body=b"x")
    # 1.5 MiB over --max-upload 1: refused by its Content-Length before the body (Expect: 100-continue, so that the
    # body is never sent into a closed connection).
    conn = http.client.HTTPConnection(url.split("//")[1], timeout=10)
    conn.putrequest("POST", "/v1/assets?name=big.bin")
    for k, v in (("Authorization", f"Bearer {TOKEN}"), ("Content-Length", str(3 << 19)), ("Expect", "100-continue")):
        conn.putheader(k, v)
    conn.endheaders()
    try:
        big = conn.getresponse()
        body = big.read()
        check(big.status == 413, f"an upload over --max-upload: {big.status}")
        openapi_routes.check_response(doc, "POST", "/v1/assets?name=big.bin", big.status, json.loads(body))
    except Exception as e:
        check(False, f"an upload over --max-upload: {type(e).__name__}: {e}")
    conn.close()
    code, out, err = run_client("submit", f"{work}/edit.json", "--callback", f"http://127.0.0.1:{hook.server_address[1]}/hook")
    check(code == 0 and out.startswith("r_"), f"client submit: {out or err}")
    rid = out.strip()
    code, out, err = run_client("wait", rid)
    check(code == 0 and out.splitlines()[-1].startswith("done 100%"), f"client wait: {out or err}")
    code, out, err = run_client("submit", f"{work}/edit.json", "--callback", f"http://127.0.0.1:{failing.server_address[1]}/hook")
    retried = out.strip()
    for path in (f"/v1/renders/{rid}", "/v1/renders", "/v1/renders?status=done", "/v1/renders?status=bogus",
                 f"/v1/renders/{rid}/poster", f"/v1/renders/{rid}/events", "/v1/renders/r_0000000000000000"):
        call("GET", path)
    s, rh, data = call("GET", f"/v1/renders/{rid}/output", headers={"Range": "bytes=10-19"})
    check(s == 206 and len(data) == 10, f"a range: {s}, {len(data)} bytes")
    call("GET", f"/v1/renders/{rid}/output", headers={"Range": "bytes=999999-"})
    code, out, err = run_client("download", rid, f"{work}/out.mp4", "--range", "-5")
    check(code == 0 and os.path.getsize(f"{work}/out.mp4") == 5, f"client download --range: {out or err}")
    call("GET", f"/v1/renders/{rid}/output")
    call("GET", f"/v1/renders/{rid}", token=OTHER)
    call("GET", f"/v1/renders/{rid}", token=None)
    call("DELETE", f"/v1/renders/{rid}")
    call("POST", "/v1/renders", body=b"[1]", headers={"Content-Type": "application/json"})
    call("POST", "/v1/renders", body=json.dumps({"edit": {"clips": [{"path": "asset:nope.mp4"}]}}).encode(), headers={"Content-Type": "application/json"})
    s, _, data = call("POST", "/v1/renders", body=json.dumps({"edit": {"renderSize": {"width": 64, "height": 48}, "frameRate": 10,
                      "clips": [{"path": "asset:clip.mp4", "duration": 600}]}}).encode(), headers={"Content-Type": "application/json"})
    if s == 202:
        call("DELETE", f"/v1/renders/{json.loads(data)['id']}")
    call("PUT", f"/v1/renders/{rid}")
    call("GET", "/v2/renders")

    # Over the rate (20 a second, bursts of 40): 429 with Retry-After, its body the documented error.
    statuses, answered_429 = [], None
    for _ in range(80):
        try:
            with urllib.request.urlopen(urllib.request.Request(url + "/v1/renders", headers={"Authorization": f"Bearer {TOKEN}"})) as r:
                statuses.append(r.status)
        except urllib.error.HTTPError as e:
            statuses.append(e.code)
            if e.code == 429:
                openapi_routes.check_response(doc, "GET", "/v1/renders", 429, json.loads(e.read()))
                answered_429 = e.headers.get("Retry-After")
    check(set(statuses) == {200, 429} and answered_429 is not None, f"80 requests at once: {statuses.count(429)} answered 429 with Retry-After")

    missing = set(openapi_routes.routes(doc)) - answered
    check(not missing, f"every documented route answered (missing: {sorted(missing)})")
    deadline = time.time() + opts.webhook_seconds
    while not Receiver.got and time.time() < deadline:
        time.sleep(0.1)
    ok = bool(Receiver.got) and all(sig == "sha256=" + hmac.new(TOKEN.encode(), body, hashlib.sha256).hexdigest() for body, sig in Receiver.got)
    check(ok and len(Receiver.got) == 1 and json.loads(Receiver.got[0][0])["id"] == rid,
          f"the webhook reached 127.0.0.1 once, signed ({len(Receiver.got)} received)")
    # A receiver that fails twice gets it on the third attempt (the retries 1 s and 2 s apart), the same signed body.
    deadline = time.time() + opts.webhook_seconds
    while len(FailingReceiver.got) < 3 and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    bodies = {body for body, _ in FailingReceiver.got}
    ok = all(sig == "sha256=" + hmac.new(TOKEN.encode(), body, hashlib.sha256).hexdigest() for body, sig in FailingReceiver.got)
    check(ok and len(FailingReceiver.got) == 3 and len(bodies) == 1 and json.loads(FailingReceiver.got[-1][0])["id"] == retried
          and json.loads(FailingReceiver.got[-1][0])["status"] == "done",
          f"a receiver failing twice got the webhook on the third attempt ({len(FailingReceiver.got)} received)")
finally:
    server.kill()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)
print(f"live check: {len(failures)} failures")
sys.exit(1 if failures else 0)
