"""The data block of a ``ruleslawyer report`` page, read back as each seat's steps.

The page keeps every line of its pictures once (``lines``) and each step of a
seat (``svg``) as runs of the step before's lines (``[start, count]``) and
new lines (a number in ``lines``); :func:`seat_steps` rebuilds each picture.
"""

from __future__ import annotations

import json
from typing import Any


def page_data(text: str) -> dict[str, Any]:
    block = text.split('<script type="application/json" id="game-data">', 1)[1].split("</script>", 1)[0]
    return json.loads(block)  # type: ignore[no-any-return]


def seat_steps(data: dict[str, Any], seat: int = 0) -> list[dict[str, Any]]:
    """Each step of a seat with its picture (``svg``) whole, and its status."""
    out, lines = [], []
    for s in data["seats"][seat]["steps"]:
        now: list[int] = []
        for op in s["svg"]:
            now.extend(lines[op[0]:op[0] + op[1]] if isinstance(op, list) else [op])
        lines = now
        out.append({"svg": "\n".join(data["lines"][i] for i in lines), "status": s["status"]})
    return out
