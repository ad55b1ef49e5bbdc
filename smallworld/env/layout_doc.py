"""The tables of docs/rl.md, generated from the encoders (`python -m smallworld.env.layout_doc`).

A test compares docs/rl.md with this output, so the documented offsets cannot drift from the code.
"""

from __future__ import annotations

from smallworld.env.encoding import ActionEncoder
from smallworld.env.observation import Field, ObservationEncoder

BEGIN = "<!-- BEGIN GENERATED: python -m smallworld.env.layout_doc -->"
END = "<!-- END GENERATED -->"


def _fields(title: str, fields: list[Field], size: int) -> list[str]:
    out = [f"#### {title} ({size} values)", "", "| offset | size | field | meaning |", "|---:|---:|---|---|"]
    out += [f"| {f.offset} | {f.size} | `{f.name}` | {f.doc} |" for f in fields]
    return [*out, ""]


def _verbs(verbs: tuple[tuple[str, int | str | None], ...]) -> str:
    return ", ".join(f"{i}: `{k}{'' if a is None else ' ' + str(a)}`" for i, (k, a) in enumerate(verbs))


def markdown() -> str:
    act = ActionEncoder()
    obs = ObservationEncoder(act.max_regions)
    lines = [
        BEGIN,
        "",
        f"With the default `max_regions = {act.max_regions}` (the largest board draw of the shipped sides):",
        "",
        f"### Action indices (`num_actions = {act.num_actions}`, `ActionEncoder.version = {act.version}`)",
        "",
        "| block | offset | size | index |",
        "|---|---:|---:|---|",
    ]
    lines += [f"| {name} | {off} | {size} | {doc} |" for name, off, size, doc in act.blocks()]
    lines += [
        "",
        f"Global verbs (from the action declarations): {_verbs(act.global_verbs)}.",
        "",
        f"Region verbs: {_verbs(act.region_verbs)}.",
        "",
        f"Pair kinds: {', '.join(f'`{k}`' for k in act.pair_kinds)}.",
        "",
        f"### Observation vector (`size = {obs.size}`, `ObservationEncoder.version = {obs.version}`)",
        "",
        "| block | offset | size | meaning |",
        "|---|---:|---:|---|",
    ]
    lines += [f"| `{name}` | {off} | {size} | {doc} |" for name, off, size, doc in obs.blocks()]
    lines += [
        "",
        "One-hot orders (the edition's data files): races "
        + ", ".join(f"{i}: `{r}`" for i, r in enumerate(obs.races))
        + "; powers "
        + ", ".join(f"{i}: `{p}`" for i, p in enumerate(obs.powers))
        + "; relics "
        + ", ".join(f"{i}: `{m}`" for i, m in enumerate(obs.relics))
        + ".",
        "",
    ]
    lines += _fields("Combo fields (per row slot)", obs.row_layout.fields, obs.row_layout.size)
    lines += _fields("Team fields (per column row)", obs.team_layout.fields, obs.team_layout.size)
    lines += _fields("Seat fields (per relative seat)", obs.seat_layout.fields, obs.seat_layout.size)
    lines += _fields("Region fields (per region slot)", obs.region_layout.fields, obs.region_layout.size)
    lines.append(END)
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
