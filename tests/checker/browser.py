"""A headless Chromium driven over the DevTools protocol on a pipe: no extra package.

Chromium started with ``--remote-debugging-pipe`` reads commands on fd 3
and writes answers on fd 4, each a JSON message ending with a NUL byte.
:class:`Browser` opens a page, waits for it, and evaluates JavaScript in it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser() -> str | None:
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    def __init__(self, binary: str, timeout: float = 60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="rl-chromium-")
        cmd_r, self._cmd_w = os.pipe()
        self._ans_r, ans_w = os.pipe()

        def plumb() -> None:  # in the child: the protocol's fds are 3 and 4, open across exec
            high_r, high_w = os.dup(cmd_r), os.dup(ans_w)  # out of the way of 3 and 4 first
            os.dup2(high_r, 3, inheritable=True)
            os.dup2(high_w, 4, inheritable=True)

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
             "--disable-dev-shm-usage", f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=plumb)
        os.close(cmd_r)
        os.close(ans_w)
        self._buf = b""
        self._id = 0
        self.session: str | None = None

    def _send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self._id:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    return answer.get("result", {})
            if time.monotonic() > deadline:
                raise TimeoutError(method)
            chunk = os.read(self._ans_r, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buf += chunk

    def open(self, url: str, ready: str = "true") -> None:
        """Open a page and wait until it is loaded and ``ready`` (JavaScript) is true."""
        target = self._send("Target.createTarget", {"url": url})["targetId"]
        self.session = self._send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        deadline = time.monotonic() + self.timeout
        base = url.split("#")[0]  # the page may set its own hash (the move it shows)
        check = (f"location.href.split('#')[0] === {json.dumps(base)} && document.readyState === 'complete' "
                 f"&& !!({ready})")
        while not self.eval(check):
            if time.monotonic() > deadline:
                raise TimeoutError("page load")
            time.sleep(0.05)

    def eval(self, expression: str) -> Any:
        result = self._send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: str, width: int = 1300, height: int = 900) -> None:
        import base64

        self._send("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, self.session)
        shot = self._send("Page.captureScreenshot", {"format": "png"}, self.session)
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            self._send("Browser.close")
        except Exception:  # noqa: BLE001 - it may close before it answers
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._ans_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: JavaScript: ``layout(svg)`` lists what is wrong with a picture's layout, measured by the
#: browser (getBBox, in the picture's own units): a text outside the picture, a text wider
#: than the card it is written on (``g.space``: its first ``rect``).  Empty when all is well.
LAYOUT_JS = """
window.layout = function (svg) {
  const box = svg.viewBox.baseVal, out = [];
  const W = box.width || svg.width.baseVal.value, H = box.height || svg.height.baseVal.value;
  svg.querySelectorAll('text').forEach(function (t) {
    const b = t.getBBox();
    if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > W + 0.5 || b.y + b.height > H + 0.5) {
      out.push('outside the picture (' + W + 'x' + H + '): ' + t.textContent + ' ' +
               JSON.stringify([b.x, b.y, b.width, b.height]));
    }
  });
  svg.querySelectorAll('g.space').forEach(function (g) {
    const r = g.querySelector('rect').getBBox();
    g.querySelectorAll('text').forEach(function (t) {
      const b = t.getBBox();
      if (b.x < r.x - 0.5 || b.x + b.width > r.x + r.width + 0.5) { out.push('clipped by its card: ' + t.textContent); }
    });
  });
  return out;
};
"""


def png_size(path: str) -> tuple[int, int]:
    """The width and height a PNG file's header gives."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", "not a PNG"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
