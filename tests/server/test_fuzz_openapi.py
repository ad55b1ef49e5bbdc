"""Every HTTP endpoint fuzzed from the server's own OpenAPI description (schemathesis, issue 24): data
that fits the description and data that does not, on a real `smallworld serve` over SQLite and over
PostgreSQL. No answer is a server error, and every refusal has the documented shape with the
status of its code (docs/server.md, Errors)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from server.helpers import ServerProcess
from smallworld.server.errors import STATUS

# A `smallworld serve` process fuzzed through its OpenAPI: minutes.
pytestmark = pytest.mark.slow

EXAMPLES = 15  # per operation and mode: about 600 requests a store


@pytest.fixture
def server(any_db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(any_db_url, log=tmp_path / "server.log")
    try:
        yield s
    finally:
        s.stop()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]


def _check(response: httpx.Response | object, label: str, curl: str) -> int:
    status = int(response.status_code)  # type: ignore[attr-defined]
    assert status < 500, f"{label}: {status}\n{curl}"
    if status >= 400:
        body = response.json()  # type: ignore[attr-defined]
        assert set(body) <= {"code", "message", "field", "rule", "reason", "params"}, (label, body, curl)
        assert isinstance(body["message"], str) and body["message"], (label, body)
        assert STATUS[body["code"]] == status, (label, status, body, curl)
    return status


def _fuzz(cases: st.SearchStrategy[Any], label: str, url: str, statuses: Counter[tuple[str, int]]) -> None:
    @given(case=cases)
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,  # the same requests every run
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: schemathesis.Case) -> None:
        response = case.call(base_url=url, timeout=60)
        statuses[label, _check(response, label, case.as_curl_command(base_url=url))] += 1

    run()


def test_openapi_fuzz_finds_no_server_error(server: ServerProcess) -> None:
    seats = [{"kind": "creator"}, {"kind": "open"}]
    created = httpx.post(server.url + "/api/games", json={"players": 2, "name": "Ann", "seats": seats}).json()
    gid = created["game"]
    tokens = [created["player_token"], created["seats"][0]["token"]]
    schema = schemathesis.openapi.from_url(server.url + "/openapi.json")
    statuses: Counter[tuple[str, int]] = Counter()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 14, [op.label for op in operations]
    for op in operations:
        # Half the cases on a real game, with a real token, so the fuzz gets past the game lookup.
        real: dict[str, object] = {}
        if "{gid}" in op.path:
            real["path_parameters"] = {"gid": gid}
        raw = op.definition.raw
        # Data that does not fit needs something to get wrong: parameters or a body.
        negative = [GenerationMode.NEGATIVE] if raw.get("parameters") or raw.get("requestBody") else []
        for mode in (GenerationMode.POSITIVE, *negative):
            strategies = [op.as_strategy(generation_mode=mode)]
            strategies += [
                op.as_strategy(generation_mode=mode, headers={"Authorization": f"Bearer {t}"}, **real)
                for t in tokens
            ]

            _fuzz(st.one_of(strategies), op.label, server.url, statuses)
    # The fuzz got through: games were made and joined, and bad data was refused.
    assert statuses["POST /api/games", 200] > 0, statuses
    assert statuses["POST /api/players", 200] > 0, statuses
    assert sum(n for (_, status), n in statuses.items() if status == 400) > 100, statuses
