"""Drive a class server as students do, for the tests and the load test.

:class:`ClassServer` starts JupyterHub on ``class/jupyterhub_config.py`` with a
class.toml of its own (a scratch data folder, 127.0.0.1 ports) and stops it
with everything it started. :class:`HubAPI` talks to the hub's REST API with
the admin token the config registers; :class:`Kernel` runs code in a student's
kernel through the single-user server's kernels API and its websocket, as
JupyterLab does. Everything goes to 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from .classroom import CONFIG_ENV, HUB_CONFIG

HOST = "127.0.0.1"
# tornado queues requests beyond 10 at a time by default: a class of 24 starting
# servers at once would time out in this client's queue, not in the hub
AsyncHTTPClient.configure(None, max_clients=256)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class ClassServer:
    """A JupyterHub class server in *workdir*, for *students* sharing *password*."""

    def __init__(
        self, workdir: Path, students: list[str], password: str = "class-password"
    ) -> None:
        self.workdir = workdir
        self.data = workdir / "data"
        self.students = students
        self.password = password
        self.port, hub_port, api_port = free_port(), free_port(), free_port()
        self.url = f"http://{HOST}:{self.port}/"
        self.token = secrets.token_hex(16)
        names = ", ".join(f'"{s}"' for s in students)
        self.config = workdir / "class.toml"
        self.config.write_text(
            f'[hub]\nip = "{HOST}"\nport = {self.port}\nhub_port = {hub_port}\n'
            f'proxy_api_port = {api_port}\ndata_dir = "{self.data}"\n'
            f'[students]\nnames = [{names}]\npassword = "{password}"\n'
            '[instructors]\nnames = ["instructor"]\n'
        )
        self.log = workdir / "jupyterhub.log"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 90) -> None:
        """Start the hub; return once its API answers (or raise, with the log's tail)."""
        self.data.mkdir(parents=True, exist_ok=True)
        env = dict(
            os.environ, **{CONFIG_ENV: str(self.config), "ZVMSIM_CLASS_API_TOKEN": self.token}
        )
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(HUB_CONFIG)],
                cwd=self.data, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: nothing of it outlives stop()
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited: {self.tail()}")
            try:
                with socket.create_connection((HOST, self.port), timeout=1):
                    pass
                if asyncio.run(HubAPI(self.url, self.token).ready()):
                    return
            except OSError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"JupyterHub did not answer in {timeout:.0f} s: {self.tail()}")

    def tail(self, lines: int = 15) -> str:
        return " | ".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self, timeout: float = 60) -> int | None:
        """Stop the hub as Ctrl+C does (it stops the students' servers and its proxy)."""
        proc, self.process = self.process, None
        if proc is None:
            return None
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        try:  # anything of its group left behind (none, normally)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return proc.returncode


class HubAPI:
    """The hub's REST API, with a token (the admin service's or a student's)."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.http = AsyncHTTPClient()

    async def call(
        self, method: str, path: str, body: Any = None, timeout: float = 60
    ) -> tuple[int, Any]:
        """(status, JSON reply or None) of *method* on *path* (relative to the hub's URL)."""
        request = HTTPRequest(
            self.url + path,
            method=method,
            headers={"Authorization": f"token {self.token}"},
            body=None if body is None and method != "POST" else json.dumps(body or {}),
            request_timeout=timeout,
            allow_nonstandard_methods=True,
        )
        try:
            reply = await self.http.fetch(request, raise_error=False)
        except HTTPClientError as exc:  # a timeout
            return exc.code, None
        text = reply.body.decode() if reply.body else ""
        return reply.code, (json.loads(text) if text.strip().startswith(("{", "[")) else None)

    async def ready(self) -> bool:
        code, _ = await self.call("GET", "hub/api/users", timeout=5)
        return code == 200

    async def add_user(self, name: str) -> None:
        code, reply = await self.call("POST", f"hub/api/users/{name}")
        if code not in (201, 409):  # 409: already there
            raise RuntimeError(f"adding {name}: HTTP {code} {reply}")

    async def user_token(self, name: str) -> str:
        body = {"note": "class load test", "expires_in": 3600}
        code, reply = await self.call("POST", f"hub/api/users/{name}/tokens", body)
        if code != 201:
            raise RuntimeError(f"token for {name}: HTTP {code} {reply}")
        return reply["token"]

    async def start_server(self, name: str, timeout: float = 300) -> str:
        """Start *name*'s server and wait until it is ready; its URL."""
        code, reply = await self.call("POST", f"hub/api/users/{name}/server", timeout=timeout)
        if code not in (201, 202, 400):  # 400: already running
            raise RuntimeError(f"starting {name}'s server: HTTP {code} {reply}")
        start = time.monotonic()
        while time.monotonic() < start + timeout:
            code, user = await self.call("GET", f"hub/api/users/{name}")
            server = (user or {}).get("servers", {}).get("", {})
            if server.get("ready"):
                return self.url + server["url"].lstrip("/")
            if code == 200 and not server and time.monotonic() > start + 10:
                raise RuntimeError(f"{name}'s server failed to start (see the hub's log)")
            await asyncio.sleep(1)
        raise RuntimeError(f"{name}'s server not ready after {timeout:.0f} s")

    async def stop_server(self, name: str) -> None:
        await self.call("DELETE", f"hub/api/users/{name}/server", timeout=120)


async def login(url: str, name: str, password: str) -> bool:
    """Log in through the hub's login form as a browser does; True if the hub let *name* in."""
    http = AsyncHTTPClient()
    page = await http.fetch(url + "hub/login", raise_error=False)
    cookies = "; ".join(
        c.split(";")[0] for c in page.headers.get_list("Set-Cookie") if c.startswith("_xsrf")
    )
    found = re.search(r'name="_xsrf" value="([^"]+)"', page.body.decode())
    form = {"username": name, "password": password, "_xsrf": found.group(1) if found else ""}
    reply = await http.fetch(
        url + "hub/login?next=",
        method="POST",
        body=urlencode(form),
        headers={"Cookie": cookies},
        follow_redirects=False,
        raise_error=False,
    )
    set_cookies = " ".join(reply.headers.get_list("Set-Cookie"))
    return reply.code == 302 and "jupyterhub-session-id" in set_cookies


class Kernel:
    """A kernel in a student's server, run through its websocket as JupyterLab does."""

    def __init__(self, server_url: str, token: str) -> None:
        self.server_url = server_url  # http://127.0.0.1:PORT/user/NAME/
        self.token = token
        self.session = uuid.uuid4().hex
        self.kernel_id = ""
        self.ws: Any = None

    async def open(self, timeout: float = 120) -> None:
        api = HubAPI(self.server_url, self.token)
        code, reply = await api.call("POST", "api/kernels", {"name": "python3"}, timeout=timeout)
        if code != 201:
            raise RuntimeError(f"starting a kernel: HTTP {code} {reply}")
        self.kernel_id = reply["id"]
        ws_url = self.server_url.replace("http://", "ws://", 1)
        request = HTTPRequest(
            f"{ws_url}api/kernels/{self.kernel_id}/channels?session_id={self.session}",
            headers={"Authorization": f"token {self.token}"},
            request_timeout=timeout,
        )
        self.ws = await websocket_connect(request, max_message_size=64 * 1024 * 1024)

    async def execute(self, code: str, timeout: float = 120) -> tuple[str, str]:
        """Run *code*; (stdout, error: '' if none). Returns once the kernel is idle again."""
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id, "msg_type": "execute_request", "session": self.session,
            "username": "student", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ"), "version": "5.3",
        }  # fmt: skip
        content = {"code": code, "silent": False, "store_history": True, "allow_stdin": False}
        message = {"header": header, "parent_header": {}, "metadata": {}, "content": content,
                   "channel": "shell", "buffers": []}  # fmt: skip
        await self.ws.write_message(json.dumps(message))
        out, error, replied, idle = [], "", False, False
        deadline = time.monotonic() + timeout
        while not (replied and idle):
            left = deadline - time.monotonic()
            if left <= 0:
                return "".join(out), f"no reply in {timeout:.0f} s"
            raw = await asyncio.wait_for(self.ws.read_message(), left)
            if raw is None:
                return "".join(out), "the kernel's websocket closed"
            if not isinstance(raw, str):
                continue  # binary (buffers): not ours to read
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, body = msg["header"]["msg_type"], msg["content"]
            if kind == "stream" and body.get("name") == "stdout":
                out.append(body["text"])
            elif kind == "error":
                error = f"{body['ename']}: {body['evalue']}"
            elif kind == "status" and body.get("execution_state") == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
                if body.get("status") != "ok" and not error:
                    error = body.get("ename", "error")
        return "".join(out), error

    async def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        if self.kernel_id:
            await HubAPI(self.server_url, self.token).call(
                "DELETE", f"api/kernels/{self.kernel_id}"
            )
