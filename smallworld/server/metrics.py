"""Prometheus metrics (one registry per app, so several apps in one test process do not clash)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.games_live = Gauge("smallworld_games_live", "games whose state this process holds", registry=r)
        self.actions = Counter("smallworld_actions_total", "actions accepted", ["by"], registry=r)
        self.refused = Counter(
            "smallworld_refused_total", "actions and requests refused", ["code"], registry=r
        )
        self.latency = Histogram(
            "smallworld_action_seconds",
            "from an action's arrival to its acknowledgement (stored, cache updated)",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
            registry=r,
        )
        self.bot_failures = Counter(
            "smallworld_bot_failures_total",
            "bot decisions that failed (worker crashed, raised, timed out or answered an illegal action)"
            " and were made by the greedy stand-in",
            registry=r,
        )
        self.watchdog = Counter(
            "smallworld_watchdog_restarts_total",
            "bot or clock decisions the watchdog started again (their task was gone)",
            registry=r,
        )
        self.unavailable = Counter(
            "smallworld_unavailable_total",
            "requests and socket messages answered `unavailable` (the store could not be reached)",
            registry=r,
        )
        self.sockets = Gauge("smallworld_sockets", "open WebSockets", registry=r)
        self.bot_think = Histogram(
            "smallworld_bot_think_seconds",
            "bot decision time in the worker",
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
            registry=r,
        )
