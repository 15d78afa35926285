"""Headless Chromium driven over the DevTools protocol on a pipe, with nothing but
Python: --remote-debugging-pipe makes the browser read commands on file descriptor 3
and write answers on 4, each a JSON text ended by a NUL byte. Used by press-keys.py
(a lesson page played with real key presses), scenario-pages.py (every scenario's
page, story and timeline in one browser), mermaid.py (diagrams drawn by Mermaid
itself) and playground.py.
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp()
        ours_in, theirs_out = os.pipe()  # the browser writes answers to fd 4
        theirs_in, ours_out = os.pipe()  # and reads commands from fd 3

        def fds():
            # In the child: its ends of the pipes become 3 and 4 (moved out of the way
            # first, since the parent's own ends may have those numbers).
            read, write = os.dup(theirs_in), os.dup(theirs_out)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.environ.get("CHROMIUM_LOG", os.devnull), "w"),
            pass_fds=(3, 4), preexec_fn=fds, start_new_session=True)
        os.close(theirs_in)
        os.close(theirs_out)
        self.input = os.fdopen(ours_out, "wb")
        self.output = os.fdopen(ours_in, "rb")
        self.buffer = b""
        self.next_id = 0
        self.session = None
        self.target = None

    def send(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self.input.write(json.dumps(message).encode() + b"\0")
        self.input.flush()
        while True:  # events come in between: wait for this command's answer
            while b"\0" not in self.buffer:
                chunk = self.output.read1(65536)
                if not chunk:
                    raise SystemExit("the browser closed the pipe")
                self.buffer += chunk
            text, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(text)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise SystemExit("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})

    def open(self, url, ready="true"):
        self.target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=self.target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.go(url, ready)

    def go(self, url, ready="true"):
        # The open page goes to another document (quicker than a new page: the same
        # renderer). The old document is marked, so the wait is for the new one.
        self.evaluate("document.racelabLeft = true")
        navigated = self.send("Page.navigate", url=url)
        if navigated.get("errorText"):  # a file that is not there, say
            raise SystemExit("%s: %s" % (url, navigated["errorText"]))
        # Wait until the page has loaded and `ready` (a script expression) holds.
        self.wait("!document.racelabLeft && document.readyState === 'complete' && (%s)" % ready,
                  "%s: the page did not get ready: %s" % (url, ready))

    def close_page(self):
        # The page open() opened is closed: a session that opens many keeps few.
        if self.target:
            self.session = None
            self.send("Target.closeTarget", targetId=self.target)
            self.target = None

    def wait(self, condition, failure, seconds=10):
        for _ in range(int(seconds / 0.05)):
            if self.evaluate(condition):
                return
            time.sleep(0.05)
        raise SystemExit(failure)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise SystemExit("the page threw: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def press(self, key):
        # A named key types its character ("Enter" a carriage return), as a keyboard does.
        text = {"Enter": "\r"}.get(key, key)
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, text=text if kind == "keyDown" else "")

    def size(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def screenshot(self, path, clip=None):
        options = {"clip": dict(clip, scale=1)} if clip else {}
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True, **options)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        # Ask the browser to quit; if it does not, stop it and every process it started.
        self.session = None
        try:
            self.send("Browser.close")
        except (SystemExit, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
