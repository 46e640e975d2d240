"""A loopback HTTP server that answers every POST with a valid JSON body, dripped a few
bytes at a time: each read arrives well within any per-read timeout, so only a deadline
on the whole request stops it."""

from __future__ import annotations

import json
import socketserver
import threading
import time


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True


class DripServer:
    """``body``: the JSON reply; ``chunk`` bytes every ``interval`` seconds. ``requests``
    counts the POSTs received."""

    def __init__(self, body: dict, chunk: int = 8, interval: float = 0.25):
        self.payload = json.dumps(body).encode("utf-8")
        self.chunk, self.interval = chunk, interval
        self.requests = 0
        self._lock = threading.Lock()
        server = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                length = 0
                while (line := self.rfile.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                self.rfile.read(length)
                with server._lock:
                    server.requests += 1
                head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(server.payload)}\r\nConnection: close\r\n\r\n")
                try:
                    self.wfile.write(head.encode("latin-1"))
                    for i in range(0, len(server.payload), server.chunk):
                        self.wfile.write(server.payload[i:i + server.chunk])
                        self.wfile.flush()
                        time.sleep(server.interval)
                except OSError:  # the client gave up: what the tests expect
                    pass

        self._server = _Server(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def seconds_to_answer(self) -> float:
        return len(self.payload) / self.chunk * self.interval

    def __enter__(self) -> "DripServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
