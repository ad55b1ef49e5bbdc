"""Health, metrics, and the load benchmark on a small scale."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from smallworld.measure.server import bench_server
from smallworld.measure.service import bench_service


def test_healthz_and_metrics_count_actions_and_refusals(client: TestClient) -> None:
    h = client.get("/healthz").json()
    assert h["ok"] is True
    g = client.post(
        "/api/games", json={"players": 2, "seats": [{"kind": "creator"}, {"kind": "creator"}]}
    ).json()
    gid, tok = g["game"], g["player_token"]
    auth = {"Authorization": f"Bearer {tok}"}
    seat = client.get(f"/api/games/{gid}").json()["acting_seat"]
    v = client.get(f"/api/games/{gid}/view?seat={seat}", headers=auth).json()
    assert (
        client.post(
            f"/api/games/{gid}/act", json={"seat": seat, "ply": 0, "action": v["legal"][0]}, headers=auth
        ).status_code
        == 200
    )
    assert (
        client.post(
            f"/api/games/{gid}/act", json={"seat": seat, "ply": 9, "action": v["legal"][0]}, headers=auth
        ).status_code
        == 409
    )
    with client.websocket_connect(f"/api/games/{gid}/ws"):
        text = client.get("/metrics").text
        assert "smallworld_sockets 1.0" in text
    assert 'smallworld_actions_total{by="human"} 1.0' in text
    assert 'smallworld_refused_total{code="stale_ply"} 1.0' in text
    assert "smallworld_action_seconds_count 1.0" in text
    assert "smallworld_games_live 1.0" in text


@pytest.mark.slow  # `bench server`: a `smallworld serve` process under load
def test_bench_server_small() -> None:
    # A window that lasts until a game has ended: a loaded machine still acts in it.
    out = bench_server(games=2, think_ms=0, seconds=2, players=2, min_ended=1)
    assert set(out) >= {"games", "actions", "actions_per_second", "p50_ms", "p99_ms", "errors", "lost"}
    assert out["actions"] > 0 and out["errors"] == 0 and out["lost"] == 0
    assert 0 < out["p50_ms"] <= out["p99_ms"]
    # The server's CPU per action over the engine's per decision, both measured in this run (Linux).
    cpu, decision = out["server_cpu_ms_per_action"], out["engine_cpu_ms_per_decision"]
    assert cpu > 0 and decision > 0 and out["engine_decisions"] > 0
    assert abs(out["server_decisions_per_action"] - cpu / decision) <= 0.01 * cpu / decision + 0.1
    assert 0 <= out["server_system_ms_per_action"] <= cpu  # the kernel's part of it


def test_bench_service_drives_every_seat_of_every_game() -> None:
    """`bench service`: the service in process, every action acknowledged and each seat's update
    queued (one per seat per action, whatever games ended and were replaced), and the ratio of the
    two CPU figures."""
    out = bench_service(games=2, actions=400, players=2, seed=4)
    assert out["actions"] == 400 and out["games_ended"] >= 1
    assert out["updates"] == 2 * 400
    cpu, decision = out["service_cpu_ms_per_action"], out["engine_cpu_ms_per_decision"]
    assert cpu > 0 and decision > 0 and out["engine_decisions"] > 0
    assert abs(out["service_decisions_per_action"] - cpu / decision) <= 0.01 * cpu / decision + 0.1


def test_the_routes_are_built_before_the_first_request(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """FastAPI builds each route's dependencies and models on the first request that reaches its
    router; the app does it at start (`app.warm_routes`), so the first request builds none."""
    from fastapi import routing

    context = getattr(routing, "_EffectiveRouteContext", None)
    if context is None:
        pytest.skip("this FastAPI builds its routes when they are added")
    built: list[object] = []
    build = context.from_api_route.__func__

    def counted(cls: type, *args: object, **kwargs: object) -> object:
        built.append(kwargs.get("original_route"))
        return build(cls, *args, **kwargs)

    monkeypatch.setattr(context, "from_api_route", classmethod(counted))
    from fastapi.testclient import TestClient as Client

    from smallworld.server.app import create_app

    with Client(create_app(db_url, rate=0, socket_rate=0)) as c:
        at_start = len(built)
        assert at_start > 0
        assert c.get("/healthz").status_code == 200
        new = {"players": 2, "seats": [{"kind": "creator"}] * 2}
        assert c.post("/api/games", json=new).status_code == 200
        assert c.get("/api/no-such-path").status_code == 404
        assert len(built) == at_start


def test_a_route_that_cannot_be_built_at_start_does_not_stop_the_server(db_url: str) -> None:
    from fastapi.testclient import TestClient as Client
    from starlette.routing import Route

    from smallworld.server.app import create_app

    class Odd(Route):
        def matches(self, scope: Any) -> Any:
            if scope["path"] == "/warm-up/none":
                raise RuntimeError("not now")
            return super().matches(scope)

    app = create_app(db_url, rate=0, socket_rate=0)
    app.router.routes.append(Odd("/odd", lambda request: None))
    with Client(app) as c:
        assert c.get("/healthz").status_code == 200
