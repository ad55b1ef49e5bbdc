from __future__ import annotations


class BoardFormatError(ValueError):
    """A board file that cannot be read: names the side, the region (if any) and the field."""

    def __init__(self, side: str, region: int | None, message: str) -> None:
        where = f"board side {side!r}" + (f", region {region}" if region is not None else "")
        super().__init__(f"{where}: {message}")
        self.side = side
        self.region = region
