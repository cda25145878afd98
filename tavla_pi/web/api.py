"""The daemon's HTTP interface (CONTRACTS.md §5): the page, the state, the events, the simulator.

| route | answer |
| --- | --- |
| ``GET /`` | the web page (``static/index.html``) |
| ``GET /api/state`` | the state as JSON (:mod:`tavla_pi.daemon.snapshot`) |
| ``GET /api/events`` | server-sent events: the current game's events, then live ones |
| ``POST /api/sim`` | one scenario action as a JSON body (sim backend only, else 404) |

With a token configured every ``/api/`` request needs ``Authorization:
Bearer <token>``.  On a loopback address only requests naming this machine
in ``Host`` are served, so a web page elsewhere cannot reach the board
through the browser (DNS rebinding).  A refused request changes nothing.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from tavla_pi.daemon.hub import EventHub, Subscription
from tavla_pi.daemon.simdesk import SimDesk
from tavla_pi.errors import BadInputError, JournalError, TavlaError
from tavla_pi.hal.sim.places import BoardActionError
from tavla_pi.replay.actions import parse_line
from tavla_pi.web.server import Request, Response, Stream

HEARTBEAT_S = 15.0
"""A comment line on a quiet event stream, so dead clients are noticed."""
JSON = "application/json"

Route = Callable[[Request], Awaitable[Response | Stream]]


def page() -> bytes:
    """The web page as shipped with the package."""
    return resources.files("tavla_pi.web").joinpath("static/index.html").read_bytes()


class Api:
    """Routes requests to the running daemon's state, events and simulator."""

    def __init__(self, state: Callable[[], dict[str, Any]], hub: EventHub,
                 sim: SimDesk | None, *, token: str | None, loopback: bool) -> None:
        self._state = state
        self._hub = hub
        self._sim = sim
        self._token = token
        self._loopback = loopback
        self._page = page()
        self._routes: dict[str, dict[str, Route]] = {
            "/": {"GET": self._index},
            "/api/state": {"GET": self._get_state},
            "/api/events": {"GET": self._events},
            "/api/sim": {"POST": self._post_sim},
        }

    async def handle(self, request: Request) -> Response | Stream:
        """The answer to one request."""
        refused = self._refuse(request)
        if refused is not None:
            return refused
        methods = self._routes.get(request.path)
        if methods is None:
            return Response.error(404, f"no such resource: {request.path}")
        route = methods.get(request.method)
        if route is None:
            allow = ", ".join(methods)
            return Response.error(405, f"{request.method} is not allowed here (only {allow})",
                                  (("Allow", allow),))
        return await route(request)

    def _refuse(self, request: Request) -> Response | None:
        if self._loopback and not _local_host(request.headers.get("host")):
            return Response.error(421, "this server answers only to localhost addresses")
        if self._token is not None and request.path.startswith("/api/"):
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {self._token}".encode()):
                return Response.error(401, "missing or wrong token (Authorization: Bearer ...)",
                                      (("WWW-Authenticate", 'Bearer realm="tavla-pi"'),))
        return None

    async def _index(self, _: Request) -> Response:
        return Response(200, self._page, "text/html; charset=utf-8",
                        (("Cache-Control", "no-cache"),))

    async def _get_state(self, _: Request) -> Response:
        return Response.json(self._state(), headers=(("Cache-Control", "no-store"),))

    async def _events(self, _: Request) -> Stream:
        return Stream(self._sse(self._hub.subscribe()))

    async def _sse(self, sub: Subscription) -> AsyncIterator[bytes]:
        try:
            yield b"retry: 2000\n\n"
            while True:
                item = await sub.next(HEARTBEAT_S)
                if item is None:
                    return
                if item is False:
                    yield b": keep-alive\n\n"
                    continue
                assert item is not True
                yield f"data: {item.to_json()}\n\n".encode()
        finally:
            self._hub.unsubscribe(sub)

    async def _post_sim(self, request: Request) -> Response:
        if self._sim is None:
            return Response.error(404, "POST /api/sim works only on the sim backend")
        if request.media_type != JSON:
            return Response.error(415, f"expected Content-Type: {JSON}")
        try:
            action = parse_line(request.body.decode("utf-8"), "request body")
            if action is None:
                raise BadInputError("request body", "expected one action as a JSON object")
            self._sim.check(action)
        except UnicodeDecodeError:
            return Response.error(400, "request body: not UTF-8")
        except BadInputError as exc:
            return Response.error(400, str(exc))
        return await self._apply(action)

    async def _apply(self, action: Any) -> Response:
        assert self._sim is not None
        listener = self._hub.subscribe(history=False)
        try:
            await self._sim.apply(action)
        except BoardActionError as exc:
            return Response.error(409, str(exc))
        except JournalError as exc:  # the daemon stops; the game resumes from the journal
            return Response.error(503, str(exc))
        except BadInputError as exc:
            return Response.error(400, str(exc))
        except TavlaError as exc:
            return Response.error(503, str(exc))
        finally:
            self._hub.unsubscribe(listener)
        events = [e.to_dict() for e in listener.drain()]
        return Response.json({"applied": type(action).__name__.lower(), "events": events})


def _local_host(host: str | None) -> bool:
    """True for a missing Host, ``localhost`` or a loopback IP, with or without a port."""
    if not host:
        return True
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
