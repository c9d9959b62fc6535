"""A small TCP proxy between the server and its database, that can lose what the database answers.

    proxy = Proxy(("127.0.0.1", cluster.port))      # listens on 127.0.0.1:proxy.port
    url = cluster.url(name).replace(f":{cluster.port}/", f":{proxy.port}/")
    proxy.lose_reply_to(b"COMMIT")   # the next COMMIT goes through; its answer never comes back
    proxy.lose_reply_to(b"UPDATE", b"SELECT")  # the next UPDATE's answer, then the next SELECT's after it
    proxy.refuse()                   # new connections are refused, open ones cut: the database is out of reach
    proxy.admit()
    proxy.close()

Losing a reply is what a network does when it fails between the database's commit and its answer: the
change is stored, and the server cannot know. The statement is forwarded whole, so the database carries it
out; then the first bytes the database sends back on that connection are thrown away and both ends are cut.

A refusal is at once for every connection: from the moment it is made no byte passes in either direction, even
on a connection the proxy has not cut yet (the server's threads may run on while it cuts them one by one).
"""

from __future__ import annotations

import socket
import threading


class Proxy:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._triggers: list[bytes] = []
        self._refusing = False
        self._then_refuse = False
        self._open: set[socket.socket] = set()
        self.lost = 0
        """Replies thrown away so far."""
        self._closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True, name="tcp-proxy").start()

    def lose_reply_to(self, *statements: bytes, then_refuse: bool = False) -> None:
        """The next statement containing ``statements[0]`` reaches the database and its reply does not come
        back; then the same for the next statement containing ``statements[1]``, and so on. ``then_refuse``:
        once the last reply is lost, the database is out of reach (:meth:`refuse`)."""
        with self._lock:
            self._triggers = list(statements)
            self._then_refuse = then_refuse

    def refuse(self) -> None:
        """Cut every open connection and refuse new ones, until :meth:`admit`."""
        with self._lock:
            self._refusing = True
            open_now = list(self._open)
        for sock in open_now:
            cut(sock)

    def admit(self) -> None:
        with self._lock:
            self._refusing = False

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        self.refuse()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                refusing = self._refusing
            if refusing:
                cut(client)
                continue
            try:
                server = socket.create_connection(self.target, timeout=10)
            except OSError:
                cut(client)
                continue
            server.settimeout(None)
            with self._lock:  # a refusal made while the database was being reached cuts this pair too
                refusing = self._refusing
                if not refusing:
                    self._open.update((client, server))
            if refusing:
                cut(client)
                cut(server)
                continue
            pair = {"armed": False}
            threading.Thread(target=self._pump, args=(client, server, pair, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, pair, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, pair: dict[str, bool], upstream: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                with self._lock:
                    if self._refusing:  # refused, and not cut yet: nothing more passes
                        break
                    if upstream and self._triggers and self._triggers[0] in data:
                        del self._triggers[0]
                        pair["armed"] = True
                if not upstream and pair["armed"]:  # the database's answer to the statement: lost on the way
                    with self._lock:
                        self.lost += 1
                        refuse = self._then_refuse and not self._triggers
                    if refuse:
                        self.refuse()
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                cut(sock)
                with self._lock:
                    self._open.discard(sock)


def cut(sock: socket.socket) -> None:
    """Close at once (a thread waiting on it wakes up), with a reset, as a failed network path leaves it."""
    for step in (lambda: sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"),
                 lambda: sock.shutdown(socket.SHUT_RDWR), sock.close):
        try:
            step()
        except OSError:
            pass
