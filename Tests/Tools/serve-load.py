#!/usr/bin/env python3
"""A bounded load test of `segue serve`: GET /v1/renders/{id} at a fixed rate for a fixed time, from a few threads each
on its own keep-alive connection (Python's standard library only), and the latency of each request.

  Tests/Tools/serve-load.py URL TOKEN ID[,ID...] [--rate 200] [--seconds 10] [--threads 4]

Prints one JSON object: requests, errors (any status but 200, or no answer), the statuses seen, and the latency
percentiles p50, p90, p99 and max in milliseconds. Exits 1 when a request failed. ServiceLoadTests runs it."""
import argparse, http.client, json, sys, threading, time, urllib.parse

ap = argparse.ArgumentParser()
ap.add_argument("url"); ap.add_argument("token"); ap.add_argument("ids")
ap.add_argument("--rate", type=float, default=200); ap.add_argument("--seconds", type=float, default=10)
ap.add_argument("--threads", type=int, default=4)
a = ap.parse_args()
u = urllib.parse.urlparse(a.url)
ids = a.ids.split(",")
latencies, statuses, errors, lock = [], {}, [], threading.Lock()
start = time.monotonic()
total = int(a.rate * a.seconds)


def worker(k):
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    # Request i is due at start + i / rate; thread k sends i = k, k + threads, …
    for i in range(k, total, a.threads):
        due = start + i / a.rate
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        t0 = time.monotonic()
        try:
            conn.request("GET", f"/v1/renders/{ids[i % len(ids)]}", headers={"Authorization": f"Bearer {a.token}"})
            r = conn.getresponse()
            body = r.read()
            status = r.status
            if status == 200:
                json.loads(body)
        except Exception as e:  # noqa: BLE001 — every failure counts
            status = f"{type(e).__name__}"
            conn.close()
            conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
        dt = (time.monotonic() - t0) * 1000
        with lock:
            latencies.append(dt)
            statuses[str(status)] = statuses.get(str(status), 0) + 1
            if status != 200:
                errors.append(status)


threads = [threading.Thread(target=worker, args=(k,)) for k in range(a.threads)]
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.monotonic() - start
latencies.sort()


def pct(p):
    return round(latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))], 2) if latencies else None


print(json.dumps({"requests": len(latencies), "seconds": round(elapsed, 2), "rate": round(len(latencies) / elapsed, 1),
                  "errors": len(errors), "statuses": statuses, "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99),
                  "max_ms": round(latencies[-1], 2) if latencies else None}))
sys.exit(1 if errors else 0)
