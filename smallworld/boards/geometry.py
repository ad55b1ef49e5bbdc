"""Plane geometry for board polygons, stdlib only.

Shared by the validator (adjacency and overlap checks), the renderer (label points) and the
generator in `tools/`, so that all three agree on what "shares a border" means.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from smallworld.boards.model import Point

# Coordinates live in a 0..100 box and are stored with two decimals; anything below this is noise.
EPS = 1e-6
# A shared border shorter than this is treated as a touching point, not an edge.
MIN_SHARED = 1e-3

Polygon = Sequence[Point]
Segment = tuple[Point, Point]


def edges(poly: Polygon) -> list[Segment]:
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def signed_area(poly: Polygon) -> float:
    s = 0.0
    for (x1, y1), (x2, y2) in edges(poly):
        s += x1 * y2 - x2 * y1
    return s / 2.0


def area(poly: Polygon) -> float:
    return abs(signed_area(poly))


def centroid(poly: Polygon) -> Point:
    a = signed_area(poly)
    if abs(a) < EPS:
        n = len(poly)
        return (sum(p[0] for p in poly) / n, sum(p[1] for p in poly) / n)
    cx = cy = 0.0
    for (x1, y1), (x2, y2) in edges(poly):
        f = x1 * y2 - x2 * y1
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    return (cx / (6 * a), cy / (6 * a))


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def shared_length(s: Segment, t: Segment) -> float:
    """Length of the common part of two segments if they are collinear, else 0."""
    (a, b), (c, d) = s, t
    length = math.dist(a, b)
    if length < EPS:
        return 0.0
    # Collinear within a tolerance scaled by the segment length (cross product is length * distance).
    if abs(_cross(a, b, c)) > 1e-4 * length or abs(_cross(a, b, d)) > 1e-4 * length:
        return 0.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length

    def proj(p: Point) -> float:
        return (p[0] - a[0]) * ux + (p[1] - a[1]) * uy

    lo = max(0.0, min(proj(c), proj(d)))
    hi = min(length, max(proj(c), proj(d)))
    return max(0.0, hi - lo)


def border_length(p: Polygon, q: Polygon) -> float:
    """Total length of border the two polygons have in common."""
    return sum(shared_length(s, t) for s in edges(p) for t in edges(q))


def shares_border(p: Polygon, q: Polygon) -> bool:
    return border_length(p, q) > MIN_SHARED


def segments_cross(s: Segment, t: Segment) -> bool:
    """True if the two segments cross at a single interior point of both (a proper crossing)."""
    (a, b), (c, d) = s, t
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    tol = 1e-9
    return ((d1 > tol and d2 < -tol) or (d1 < -tol and d2 > tol)) and (
        (d3 > tol and d4 < -tol) or (d3 < -tol and d4 > tol)
    )


def point_in_polygon(pt: Point, poly: Polygon) -> bool:
    """Even-odd test; points on the boundary may go either way, callers use interior points."""
    x, y = pt
    inside = False
    for (x1, y1), (x2, y2) in edges(poly):
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                inside = not inside
    return inside


def distance_to_segment(pt: Point, s: Segment) -> float:
    (ax, ay), (bx, by) = s
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    if n < EPS:
        return math.dist(pt, (ax, ay))
    t = max(0.0, min(1.0, ((pt[0] - ax) * dx + (pt[1] - ay) * dy) / n))
    return math.dist(pt, (ax + t * dx, ay + t * dy))


def distance_to_boundary(pt: Point, poly: Polygon) -> float:
    return min(distance_to_segment(pt, e) for e in edges(poly))


def span_at(poly: Polygon, x: float, y: float) -> float:
    """The width of the polygon along the horizontal line through (x, y): the inside stretch of that
    line around x (0 when the point is outside)."""
    cuts = []
    for (x1, y1), (x2, y2) in edges(poly):
        if (y1 > y) != (y2 > y):
            cuts.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    cuts.sort()
    for left, right in zip(cuts[::2], cuts[1::2], strict=False):
        if left <= x <= right:
            return right - left
    return 0.0


def interior_point(poly: Polygon, steps: int = 24) -> tuple[Point, float]:
    """A point well inside the polygon and its distance to the boundary.

    A coarse grid search refined once around the best cell: good enough for label placement and for
    the containment test, and it never returns a point outside (unlike the centroid of an L shape).
    """
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    best: tuple[Point, float] = (centroid(poly), -1.0)
    if point_in_polygon(best[0], poly):
        best = (best[0], distance_to_boundary(best[0], poly))
    for _ in range(2):
        dx, dy = (x1 - x0) / steps, (y1 - y0) / steps
        for i in range(steps + 1):
            for j in range(steps + 1):
                pt = (x0 + i * dx, y0 + j * dy)
                if point_in_polygon(pt, poly):
                    d = distance_to_boundary(pt, poly)
                    if d > best[1]:
                        best = (pt, d)
        (cx, cy), _ = best
        x0, x1, y0, y1 = cx - 2 * dx, cx + 2 * dx, cy - 2 * dy, cy + 2 * dy
    return best


def is_simple(poly: Polygon) -> bool:
    """No repeated vertex and no two non-neighbouring edges crossing or touching."""
    n = len(poly)
    if n < 3 or len({(round(x, 6), round(y, 6)) for x, y in poly}) != n:
        return False
    es = edges(poly)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if segments_cross(es[i], es[j]):
                return False
    return True


def boundary_segments(polys: Iterable[Polygon]) -> list[Segment]:
    """Edges that belong to exactly one polygon of a tiling: the outer boundary of the union.

    Works on shared vertices (as the board files have); an edge used twice, in either direction, is
    internal.
    """
    count: dict[tuple[Point, Point], int] = {}
    for poly in polys:
        for a, b in edges(poly):
            key = (a, b) if a <= b else (b, a)
            count[key] = count.get(key, 0) + 1
    return [k for k, v in count.items() if v == 1]


def chain_loop(segments: Sequence[Segment]) -> list[Point]:
    """Join boundary segments into one closed loop of points (the island outline)."""
    nxt: dict[Point, list[Point]] = {}
    for a, b in segments:
        nxt.setdefault(a, []).append(b)
        nxt.setdefault(b, []).append(a)
    if not segments:
        return []
    start = min(nxt)
    loop = [start]
    prev, cur = None, start
    while True:
        options = [p for p in nxt[cur] if p != prev]
        if not options:
            break
        prev, cur = cur, options[0]
        if cur == start:
            break
        loop.append(cur)
    return loop


def touches_outline(poly: Polygon, outline: Polygon) -> bool:
    """True if the polygon has a border of positive length on the outline (it is on the coast)."""
    return shares_border(poly, outline)
