"""The data block of a ``ruleslawyer report`` page, read back as each seat's steps.

The page keeps every line of its pictures once (``lines``) and each step of a
seat as its changes from the step before (``n`` lines, ``d`` the changed ones,
``[position, line]``); :func:`seat_steps` rebuilds each picture in full.
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
        lines = lines[:s["n"]] + [None] * max(0, s["n"] - len(lines))
        for i, x in s["d"]:
            lines[i] = x
        assert None not in lines
        out.append({"svg": "\n".join(data["lines"][i] for i in lines), "status": s["status"]})
    return out
