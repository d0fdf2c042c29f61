#!/usr/bin/python3
"""Load an HTML page in headless Chromium, save a screenshot and list the page's console errors.

Talks to the browser over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3, replies on fd
4, each a JSON message ended by NUL), so that every error is caught, not only what the browser happens to log: the
page's console.error / console.assert calls (Runtime.consoleAPICalled), uncaught exceptions
(Runtime.exceptionThrown) and the browser's own errors about the page, such as a resource that failed to load
(Log.entryAdded, level "error").

Usage: browser_check.py PAGE.html OUT.png [--width 1280] [--height 1600] [--full] [--chromium PATH]
Prints one line per console error ("console error: ...") and a last line "colours N, ink F" (distinct colours of
the screenshot and the share of pixels that are not near-white). Exit 0 when the page loaded without console errors
and the screenshot was written, 1 on console errors, 2 when the browser could not be driven.
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

TIMEOUT_SECONDS = 60


class Browser:
    def __init__(self, chromium, width, height, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        # The child's ends moved to descriptors >= 10 (never 3 or 4), then duplicated onto 3 and 4 in the child; dup2
        # makes those two inheritable, every pipe end itself is close-on-exec, so the browser gets exactly fds 3, 4.
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_child_r, from_child_w)]
        os.close(to_child_r)
        os.close(from_child_w)

        def wire():
            os.dup2(ends[0], 3)
            os.dup2(ends[1], 4)

        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                f"--user-data-dir={profile}", f"--window-size={width},{height}", "about:blank"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, close_fds=False,
                                        preexec_fn=wire)
        for fd in ends:
            os.close(fd)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id, f"the reply to {method}")

    def read(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_child], [], [], left)[0]:
                return None
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe: " + self.stderr_tail())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait(self, wanted, what, seconds=TIMEOUT_SECONDS):
        deadline = time.monotonic() + seconds
        while True:
            message = self.read(deadline)
            if message is None:
                raise RuntimeError(f"timed out waiting for {what}")
            if "error" in message and message.get("id") == self.next_id:
                raise RuntimeError(f"{what}: {message['error']}")
            if wanted(message):
                return message
            if "method" in message:
                self.events.append(message)

    def drain(self, seconds):
        deadline = time.monotonic() + seconds
        while (message := self.read(deadline)) is not None:
            if "method" in message:
                self.events.append(message)

    def stderr_tail(self):
        try:
            self.process.kill()
            return self.process.stderr.read().decode(errors="replace")[-2000:]
        except OSError:
            return ""

    def close(self):
        try:
            os.write(self.to_child, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        os.close(self.to_child)
        os.close(self.from_child)


def console_errors(events, session):
    errors = []
    for e in events:
        if e.get("sessionId") != session:
            continue
        p = e.get("params", {})
        if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
        elif e["method"] == "Runtime.exceptionThrown":
            details = p.get("exceptionDetails", {})
            errors.append(details.get("exception", {}).get("description", details.get("text", "exception")))
        elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            entry = p["entry"]
            errors.append(f"{entry.get('text', '')} {entry.get('url', '')}".strip())
    return errors


def load_and_shoot(browser, url, out, full):
    """-> the console errors of loading `url`; writes the screenshot to `out`."""
    targets = browser.send("Target.getTargets")["result"]["targetInfos"]
    pages = [t["targetId"] for t in targets if t["type"] == "page"]
    page = pages[0] if pages else browser.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": page, "flatten": True})["result"]["sessionId"]
    for domain in ("Runtime", "Log", "Page"):
        browser.send(f"{domain}.enable", session=session)
    browser.send("Page.navigate", {"url": url}, session=session)
    browser.wait(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session,
                 "the page's load event")
    browser.drain(1.0)  # messages that arrive just after the load (late resource errors)
    params = {"format": "png"}
    if full:
        size = browser.send("Page.getLayoutMetrics", session=session)["result"]["cssContentSize"]
        params.update(captureBeyondViewport=True,
                      clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
    data = browser.send("Page.captureScreenshot", params, session=session)["result"]["data"]
    with open(out, "wb") as f:
        f.write(base64.b64decode(data))
    return console_errors(browser.events, session)


def image_stats(path):
    """(distinct colours, share of pixels darker than near-white) of a PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    pixels = mpimg.imread(path)
    rgb = (np.asarray(pixels)[..., :3] * 255).round().astype(np.uint32)
    packed = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    ink = float(np.mean(rgb.min(axis=-1) < 235))
    return int(np.unique(packed).size), ink


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page")
    parser.add_argument("out")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1600)
    parser.add_argument("--full", action="store_true", help="the whole page, not only the first screen")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args(argv)
    if not args.chromium:
        print("browser_check.py: no chromium on PATH", file=sys.stderr)
        return 2
    url = "file://" + os.path.abspath(args.page)
    with tempfile.TemporaryDirectory(prefix="banditfs-chromium-") as profile:
        browser = Browser(args.chromium, args.width, args.height, profile)
        try:
            errors = load_and_shoot(browser, url, args.out, args.full)
        except (RuntimeError, KeyError) as e:
            print(f"browser_check.py: {args.page}: {e}", file=sys.stderr)
            browser.close()
            return 2
        browser.close()
    for e in errors:
        print(f"console error: {e}")
    colours, ink = image_stats(args.out)
    print(f"colours {colours}, ink {ink:.3f}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
