#!/usr/bin/env python3
"""Opens a lesson page in headless Chromium and presses keys on it, as a reader would.

    press-keys.py PAGE.html KEY...   (for example: 2 3 u h)

Talks to the browser over the DevTools protocol on a pipe (--remote-debugging-pipe:
commands go in on file descriptor 3, answers come out on 4, each a JSON text ended by
a NUL byte), so it needs nothing but Python and Chromium. After loading the page and
after each key it reads what the page shows, and prints one JSON list: per moment the
key pressed, the lanes, the steps listed, the shared state, the status line, the hint,
and the debrief (null while hidden).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

READ = """(() => {
  const texts = sel => [...document.querySelectorAll(sel)].map(e => e.textContent);
  const box = document.getElementById("debrief");
  return JSON.stringify({
    lanes: [...document.querySelectorAll(".lane")].map(l => l.dataset.thread),
    marked: texts(".lane pre .now"),
    log: texts("#log li"), state: texts("#state li"),
    status: document.getElementById("status").textContent,
    hint: document.getElementById("hint").textContent,
    debrief: box.hidden ? null : [...box.children].map(p => p.textContent),
  });
})()"""


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

    def open(self, url):
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", url=url)
        # The page's script runs on load: wait until it has filled in the status line.
        for _ in range(200):
            if self.evaluate("document.readyState === 'complete' && !!document.getElementById('status') && document.getElementById('status').textContent !== ''"):
                return
            subprocess.run(["sleep", "0.05"])
        raise SystemExit("the page's script did not fill in its status line")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise SystemExit("the page threw: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def press(self, key):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, text=key if kind == "keyDown" else "")

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


def main():
    page, keys = sys.argv[1], sys.argv[2:]
    browser = Browser()
    try:
        browser.open("file://" + os.path.abspath(page))
        moments = [dict(key=None, **json.loads(browser.evaluate(READ)))]
        for key in keys:
            browser.press(key)
            moments.append(dict(key=key, **json.loads(browser.evaluate(READ))))
        print(json.dumps(moments, indent=1))
    finally:
        browser.close()


main()
