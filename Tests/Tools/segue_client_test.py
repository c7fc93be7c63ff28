#!/usr/bin/env python3
"""Tests of Examples/segue-client.py against fake_segue_server.FakeSegue on 127.0.0.1: the requests it makes (method,
path, Authorization, body, Range), its parsing of Server-Sent Events and of ranged downloads, its errors and exit
statuses. Run by ServiceClientTests (XCTest); alone: python3 Tests/Tools/segue_client_test.py -v
"""
import contextlib, importlib.util, io, json, os, shutil, subprocess, sys, tempfile, types, unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "Examples", "segue-client.py")
sys.path.insert(0, HERE)
from fake_segue_server import FakeSegue, OUTPUT, DONE, TOKEN

# The client loaded as a module: most cases call its main() in this process (a Python start per case would take most
# of the time); test_as_a_program runs it as the program it is.
_spec = importlib.util.spec_from_file_location("segue_client", CLIENT)
segue_client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(segue_client)


class ClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fake = FakeSegue()
        cls.fake.start()

    @classmethod
    def tearDownClass(cls):
        cls.fake.stop()

    def setUp(self):
        self.fake.requests.clear()
        self.dir = tempfile.mkdtemp(prefix="segue-client-")
        self.addCleanup(shutil.rmtree, self.dir)

    def client(self, *args, token=TOKEN, env_server=True):
        """Runs the client's main(args) with SEGUE_URL (the fake server's) and SEGUE_TOKEN set: its exit status, stdout
        and stderr."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SEGUE_")}
        if env_server:
            env["SEGUE_URL"] = self.fake.url
        if token is not None:
            env["SEGUE_TOKEN"] = token
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.dict(os.environ, env, clear=True), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = segue_client.main(list(args))
            except SystemExit as e:   # argparse: --help, usage errors
                status = e.code
        return types.SimpleNamespace(returncode=status, stdout=out.getvalue(), stderr=err.getvalue())

    def only_request(self):
        self.assertEqual(len(self.fake.requests), 1, self.fake.requests)
        r = self.fake.requests[0]
        self.assertEqual(r["headers"].get("Authorization"), "Bearer t0k")
        return r

    @staticmethod
    def read(path):
        with open(path, "rb") as f:
            return f.read()

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        return path

    def test_submit_posts_edit_values_and_callback(self):
        edit = {"template": True, "items": [{"clip": "asset:intro.mp4"}], "width": 320}
        values = {"title": "Hello"}
        out = self.client("submit", self.write("e.json", json.dumps(edit)), "--values", self.write("v.json", json.dumps(values)),
                          "--callback", "http://127.0.0.1:9/hook")
        self.assertEqual((out.returncode, out.stdout), (0, "r-1\n"), out.stderr)
        r = self.only_request()
        self.assertEqual((r["method"], r["path"]), ("POST", "/v1/renders"))
        self.assertEqual(r["headers"].get("Content-Type"), "application/json")
        self.assertEqual(json.loads(r["body"]), {"edit": edit, "values": values, "callback": "http://127.0.0.1:9/hook"})

    def test_submit_edit_only_with_server_and_token_options(self):
        out = self.client("submit", self.write("e.json", '{"items": []}'), "--server", self.fake.url, "--token", TOKEN,
                          token=None, env_server=False)
        self.assertEqual((out.returncode, out.stdout), (0, "r-1\n"), out.stderr)
        self.assertEqual(json.loads(self.only_request()["body"]), {"edit": {"items": []}})

    def test_status_and_cancel(self):
        out = self.client("status", "r-1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(json.loads(out.stdout), DONE)
        self.assertEqual(self.only_request()["method"] + " " + self.fake.requests[0]["path"], "GET /v1/renders/r-1")
        self.fake.requests.clear()
        out = self.client("cancel", "r-1")
        self.assertEqual((out.returncode, json.loads(out.stdout)["status"]), (0, "cancelled"), out.stderr)
        self.assertEqual(self.only_request()["method"] + " " + self.fake.requests[0]["path"], "DELETE /v1/renders/r-1")

    def test_wait_follows_the_events_until_done(self):
        out = self.client("wait", "r-1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.splitlines(), ["queued 0% 0 frames", "rendering 50% 24/48 frames", "done 100% 48/48 frames"])
        r = self.only_request()
        self.assertEqual((r["method"], r["path"], r["headers"].get("Accept")), ("GET", "/v1/renders/r-1/events", "text/event-stream"))

    def test_wait_on_a_failed_render_exits_1_with_its_error(self):
        out = self.client("wait", "r-bad")
        self.assertEqual(out.returncode, 1)
        self.assertEqual(out.stdout.splitlines(), ["rendering 25% 12 frames", "failed 25% 12 frames"])
        self.assertIn("render r-bad failed: item 0: cannot open asset:missing.mp4", out.stderr)

    def test_download_whole_and_ranges(self):
        whole = os.path.join(self.dir, "out.mp4")
        out = self.client("download", "r-1", whole)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(self.read(whole), OUTPUT)
        self.assertNotIn("Range", self.only_request()["headers"])
        for spec, expected, extent in (("100-199", OUTPUT[100:200], "bytes 100-199/1000"), ("-10", OUTPUT[-10:], "bytes 990-999/1000"),
                                       ("995-", OUTPUT[995:], "bytes 995-999/1000")):
            self.fake.requests.clear()
            part = os.path.join(self.dir, "part.bin")
            out = self.client("download", "r-1", part, "--range", spec)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(self.read(part), expected, spec)
            self.assertEqual(out.stdout, f"wrote {len(expected)} bytes to {part} ({extent})\n")
            self.assertEqual(self.only_request()["headers"].get("Range"), f"bytes={spec}")
        self.assertFalse(os.path.exists(part + ".part"))

    def test_bad_range_is_refused_before_any_request(self):
        for spec in ("x-y", "12", "-", "1-2-3"):
            out = self.client("download", "r-1", os.path.join(self.dir, "o"), "--range", spec)
            self.assertEqual(out.returncode, 1, spec)
            self.assertIn("expected A-B", out.stderr)
        self.assertEqual(self.fake.requests, [])

    def test_upload_sends_the_raw_file(self):
        data = bytes(range(256)) * 40
        out = self.client("upload", self.write("clip one.mp4", data), "--name", "clip.mp4")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(json.loads(out.stdout), {"name": "clip.mp4", "size": len(data)})
        r = self.only_request()
        self.assertEqual((r["method"], r["path"], r["body"]), ("POST", "/v1/assets?name=clip.mp4", data))
        self.assertEqual(r["headers"].get("Content-Type"), "application/octet-stream")

    def test_refusals_print_the_servers_message(self):
        out = self.client("status", "r-1", token="wrong")
        self.assertEqual(out.returncode, 1)
        self.assertIn("GET /v1/renders/r-1: HTTP 401: missing or unknown bearer token", out.stderr)
        self.assertEqual(self.fake.requests[0]["headers"].get("Authorization"), "Bearer wrong")
        out = self.client("status", "nope")
        self.assertEqual(out.returncode, 1)
        self.assertIn("HTTP 404: no render nope", out.stderr)
        out = self.client("status", "r-1", token=None)
        self.assertEqual(out.returncode, 2)
        self.assertIn("no token", out.stderr)
        out = self.client("status", "r-1", "--server", "http://127.0.0.1:1")
        self.assertEqual(out.returncode, 1)
        self.assertIn("cannot reach http://127.0.0.1:1", out.stderr)

    def test_as_a_program(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SEGUE_")}
        env.update(SEGUE_URL=self.fake.url, SEGUE_TOKEN=TOKEN)
        out = subprocess.run([CLIENT, "status", "r-1"], capture_output=True, text=True, env=env, timeout=30)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(json.loads(out.stdout), DONE)
        self.assertEqual(self.only_request()["path"], "/v1/renders/r-1")
        out = subprocess.run([CLIENT, "--help"], capture_output=True, text=True, env=env, timeout=30)
        self.assertEqual(out.returncode, 0)
        for command in ("submit", "status", "wait", "download", "cancel", "upload", "SEGUE_URL", "SEGUE_TOKEN"):
            self.assertIn(command, out.stdout)


if __name__ == "__main__":
    unittest.main()
