#!/usr/bin/env python3
"""segue-client: a small client of `segue serve` (docs/service.md, docs/openapi.json), Python standard library only.

  segue-client.py submit EDIT.json [--values VALUES.json] [--callback URL]   prints the new render's id
  segue-client.py status ID                                                  prints its status (JSON)
  segue-client.py wait ID                        follows its progress (Server-Sent Events); exit 0 when done
  segue-client.py download ID OUT [--range A-B]  writes the output (or bytes A..B of it, inclusive) to OUT
  segue-client.py cancel ID                                                  prints its status after cancelling
  segue-client.py upload FILE --name NAME        uploads media that edits then name as asset:NAME

The server and token come from --server/--token or the environment (SEGUE_URL, default http://127.0.0.1:8080, and
SEGUE_TOKEN). Exit status: 0 on success, 1 when the server refuses (its {"error"} message is printed) or a render ends
failed or cancelled, 2 on bad usage.
"""
import argparse, json, os, shutil, sys, urllib.error, urllib.parse, urllib.request

FINAL = ("done", "failed", "cancelled")


class ClientError(Exception):
    pass


class Client:
    def __init__(self, server, token):
        self.server = server.rstrip("/")
        self.token = token

    def request(self, method, path, body=None, headers=None, length=None):
        """The open response of METHOD path (an http.client.HTTPResponse); ClientError for an HTTP error status
        (with the server's {"error"} message) or no connection."""
        h = {"Authorization": f"Bearer {self.token}", "User-Agent": "segue-client"}
        h.update(headers or {})
        if length is not None:
            h["Content-Length"] = str(length)
        req = urllib.request.Request(self.server + path, data=body, headers=h, method=method)
        try:
            return urllib.request.urlopen(req)
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                message = json.loads(text)["error"]
            except (ValueError, KeyError, TypeError):
                message = text.strip() or e.reason
            raise ClientError(f"{method} {path}: HTTP {e.code}: {message}")
        except urllib.error.URLError as e:
            raise ClientError(f"cannot reach {self.server}: {e.reason}")

    def json(self, method, path, payload=None):
        body = None if payload is None else json.dumps(payload).encode()
        headers = {} if body is None else {"Content-Type": "application/json"}
        with self.request(method, path, body, headers) as r:
            return json.loads(r.read())

    def events(self, render_id):
        """Yields (event, data) of the render's Server-Sent Events until the stream ends: `data` the JSON of each
        event's data lines joined with newlines (the text when it is not JSON); comments (":" lines) skipped."""
        with self.request("GET", f"/v1/renders/{q(render_id)}/events", headers={"Accept": "text/event-stream"}) as r:
            event, data = "message", []
            for raw in r:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        text = "\n".join(data)
                        try:
                            yield event, json.loads(text)
                        except ValueError:
                            yield event, text
                    event, data = "message", []
                elif line.startswith(":"):
                    continue
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        event = value
                    elif field == "data":
                        data.append(value)


def q(render_id):
    return urllib.parse.quote(render_id, safe="")


def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ClientError(f"cannot read the {what} {path}: {e}")


def submit(client, a):
    payload = {"edit": load_json(a.edit, "edit")}
    if a.values:
        payload["values"] = load_json(a.values, "values")
    if a.callback:
        payload["callback"] = a.callback
    print(client.json("POST", "/v1/renders", payload)["id"])


def status(client, a):
    print(json.dumps(client.json("GET", f"/v1/renders/{q(a.id)}")))


def wait(client, a):
    last = None
    for _, data in client.events(a.id):
        if not isinstance(data, dict) or "status" not in data:
            continue
        last = data
        progress = float(data.get("progress") or 0)
        total = data.get("totalFrames") or 0
        frames = f"{data.get('frames', 0)}/{total}" if total else f"{data.get('frames', 0)}"
        print(f"{data['status']} {progress * 100:.0f}% {frames} frames", flush=True)
        if data["status"] in FINAL:
            break
    if last is None or last["status"] not in FINAL:   # the stream ended early: ask once
        last = client.json("GET", f"/v1/renders/{q(a.id)}")
        print(f"{last['status']}", flush=True)
    if last["status"] != "done":
        raise ClientError(f"render {a.id} {last['status']}" + (f": {last['error']}" if last.get("error") else ""))


def download(client, a):
    headers = {}
    if a.range:
        first, sep, last = a.range.partition("-")
        if not sep or not (first.isdigit() or last.isdigit()) or not all(x.isdigit() for x in (first, last) if x):
            raise ClientError(f"--range {a.range}: expected A-B, A- or -N (bytes, inclusive)")
        headers["Range"] = f"bytes={a.range}"
    partial = a.out + ".part"
    with client.request("GET", f"/v1/renders/{q(a.id)}/output", headers=headers) as r:
        if a.range and r.status != 206:
            raise ClientError(f"the server answered {r.status}, not 206, to Range: bytes={a.range}")
        with open(partial, "wb") as f:
            shutil.copyfileobj(r, f, 1 << 16)
        size = os.path.getsize(partial)
        expected = r.headers.get("Content-Length")
        if expected is not None and int(expected) != size:
            os.unlink(partial)
            raise ClientError(f"the download stopped after {size} of {expected} bytes")
        os.replace(partial, a.out)
        extent = f" ({r.headers['Content-Range']})" if r.status == 206 else ""
        print(f"wrote {size} bytes to {a.out}{extent}")


def cancel(client, a):
    print(json.dumps(client.json("DELETE", f"/v1/renders/{q(a.id)}")))


def upload(client, a):
    try:
        size, f = os.path.getsize(a.file), open(a.file, "rb")
    except OSError as e:
        raise ClientError(f"cannot read {a.file}: {e}")
    with f, client.request("POST", "/v1/assets?name=" + urllib.parse.quote(a.name, safe=""), body=f,
                           headers={"Content-Type": "application/octet-stream"}, length=size) as r:
        print(json.dumps(json.loads(r.read())))


def parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--server", default=argparse.SUPPRESS, help="the server's URL (default $SEGUE_URL or http://127.0.0.1:8080)")
    common.add_argument("--token", default=argparse.SUPPRESS, help="the bearer token (default $SEGUE_TOKEN)")
    p = argparse.ArgumentParser(prog="segue-client.py", parents=[common], description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("submit", parents=[common], help="submit an edit (or a template and its values); prints the id")
    s.add_argument("edit", metavar="EDIT.json")
    s.add_argument("--values", metavar="VALUES.json", help="the template's values")
    s.add_argument("--callback", metavar="URL", help="a webhook URL POSTed when the render ends")
    s.set_defaults(run=submit)
    for name, run, about in (("status", status, "print a render's status"),
                             ("wait", wait, "follow a render's progress until it ends (exit 0 when done)"),
                             ("cancel", cancel, "cancel a render")):
        c = sub.add_parser(name, parents=[common], help=about)
        c.add_argument("id", metavar="ID")
        c.set_defaults(run=run)
    d = sub.add_parser("download", parents=[common], help="download a render's output")
    d.add_argument("id", metavar="ID")
    d.add_argument("out", metavar="OUT")
    d.add_argument("--range", metavar="A-B", help="only bytes A to B (inclusive; A- to the end, -N the last N)")
    d.set_defaults(run=download)
    u = sub.add_parser("upload", parents=[common], help="upload a media file as asset:NAME")
    u.add_argument("file", metavar="FILE")
    u.add_argument("--name", required=True, help="the asset's name")
    u.set_defaults(run=upload)
    return p


def main(argv=None):
    a = parser().parse_args(argv)
    server = getattr(a, "server", None) or os.environ.get("SEGUE_URL") or "http://127.0.0.1:8080"
    token = getattr(a, "token", None) or os.environ.get("SEGUE_TOKEN")
    if not token:
        print("segue-client: no token: pass --token or set SEGUE_TOKEN", file=sys.stderr)
        return 2
    try:
        a.run(Client(server, token), a)
    except ClientError as e:
        print(f"segue-client: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
