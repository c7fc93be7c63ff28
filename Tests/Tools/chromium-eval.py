#!/usr/bin/env python3
"""Open a page in headless Chromium and print, as JSON, what its `window.result` promise resolves to.

Usage: chromium-eval.py CHROMIUM URL PROFILE_DIR TIMEOUT_SECONDS

Talks to the browser over the DevTools protocol on a pipe (`--remote-debugging-pipe`: fd 3 to the browser, fd 4 back,
messages ending in NUL), so the page runs in real time (no `--virtual-time-budget`): navigate, wait for `load`, then
`Runtime.evaluate("window.result", awaitPromise)`. Exit status 0 with the value on stdout; 1 with the reason on stderr.
"""
import json, os, subprocess, sys, threading

def main():
    browser, url, profile, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    # The child's fds 3 and 4 are the pipe's ends (dup2 after fork, in preexec_fn, which runs before close_fds would
    # close them: so close_fds is off and the wiring closes the rest itself).
    def wire():
        os.dup2(to_browser_r, 3)
        os.dup2(from_browser_w, 4)
        os.set_inheritable(3, True)  # dup2 onto itself keeps os.pipe's close-on-exec
        os.set_inheritable(4, True)
        os.closerange(5, 1 << 16)
    log = open(os.path.join(profile, "chromium.log"), "wb")
    proc = subprocess.Popen([browser, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                             "--autoplay-policy=no-user-gesture-required", "--mute-audio", "--allow-file-access-from-files",
                             "--no-first-run", "--user-data-dir=" + profile, "about:blank"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                            preexec_fn=wire, close_fds=False)
    os.close(to_browser_r)
    os.close(from_browser_w)
    out = os.fdopen(to_browser_w, "wb", buffering=0)
    inp = os.fdopen(from_browser_r, "rb", buffering=0)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    buf = b""
    next_id = [0]

    def send(method, params=None, session=None):
        next_id[0] += 1
        msg = {"id": next_id[0], "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        out.write(json.dumps(msg).encode() + b"\0")
        return next_id[0]

    def read():
        nonlocal buf
        while b"\0" not in buf:
            chunk = inp.read(1 << 16)
            if not chunk:
                raise SystemExit("chromium closed the pipe (timed out after %gs, or crashed): %s" % (timeout, open(log.name, "rb").read().decode(errors="replace")[-2000:]))
            buf += chunk
        msg, buf = buf.split(b"\0", 1)
        return json.loads(msg)

    def wait(pred):
        while True:
            m = read()
            if pred(m):
                return m

    def call(method, params=None, session=None):
        i = send(method, params, session)
        m = wait(lambda m: m.get("id") == i)
        if "error" in m:
            raise SystemExit("%s: %s" % (method, m["error"]))
        return m["result"]

    try:
        target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        call("Page.enable", session=session)
        send("Page.navigate", {"url": url}, session)
        wait(lambda m: m.get("method") == "Page.loadEventFired")
        r = call("Runtime.evaluate", {"expression": "window.result", "awaitPromise": True, "returnByValue": True}, session)
        if "exceptionDetails" in r:
            raise SystemExit("the page threw: %s" % json.dumps(r["exceptionDetails"])[:2000])
        sys.stdout.write(json.dumps(r["result"].get("value")))
        try:
            send("Browser.close")
        except OSError:
            pass
    finally:
        timer.cancel()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()

main()
