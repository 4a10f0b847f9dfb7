"""A house overlay's ``change:``: a part of a rule file, merged into the file it extends.

The merge is small and explicit (the README's house-rule section says the same):

- a mapping merges into the base's mapping key by key, recursively; a key
  the base does not have is added;
- any other value (a number, a string, an expression, a list) replaces the
  base's value whole;
- ``$remove: [KEY, ...]`` in a mapping removes those keys of the base's
  mapping; it is applied before the keys beside it, so ``$remove: [k]``
  with ``k:`` beside it replaces ``k`` whole instead of merging into it;
- a list is edited, instead of replaced, by a mapping of
  ``$remove: [ID, ...]`` (the items whose ``id`` is one of these, or plain
  values equal to one; applied first) and ``$add: [ITEM, ...]`` (appended
  at the end; an item with the ``id`` of one already there replaces that
  one where it stands).

Removing what the base does not have, or editing a list with other keys,
is an error (RL143, RL101 for a misspelt ``$`` word) with a "did you
mean"; the merged document is then validated as a whole rule file, so an
unknown key anywhere is RL101 at the overlay's line.  Every value keeps
the position it was read from: diagnostics, and ``rules show``, name the
file and line that set it.
"""

from __future__ import annotations

from typing import Any

from .builder import Ctx
from .diagnostics import Position, did_you_mean
from .source import LMap, LSeq, position_of

__all__ = ["REMOVE", "ADD", "apply_change", "changed_variants"]

REMOVE, ADD = "$remove", "$add"


def apply_change(base: LMap, change: LMap, ctx: Ctx) -> LMap:
    """``base`` with ``change`` merged in (a new document; ``base`` is left as it was)."""
    return _merge_map(base, change, ctx, "change")


def changed_variants(overlay: Any) -> list[str]:
    """The variants an overlay's ``change:`` adds or edits (each worth validating)."""
    change = overlay.get("change") if isinstance(overlay, dict) else None
    variants = change.get("variants") if isinstance(change, dict) else None
    listed = variants.get("list") if isinstance(variants, dict) else None
    return [str(v) for v in listed if not str(v).startswith("$")] if isinstance(listed, dict) else []


def _copy_map(node: LMap) -> LMap:
    out = LMap(node)
    out.pos, out.key_pos, out.val_pos = node.pos, dict(node.key_pos), dict(node.val_pos)
    return out


def _empty_map(pos: Position) -> LMap:
    out = LMap()
    out.pos, out.key_pos, out.val_pos = pos, {}, {}
    return out


def _is_directive(key: Any) -> bool:
    return isinstance(key, str) and key.startswith("$")


def _names(ctx: Ctx, node: LMap, key: str, where: str) -> LSeq | None:
    """The list under ``$remove`` / ``$add`` (a lone value is refused: the word says 'a list')."""
    value = node[key]
    if not isinstance(value, list):
        ctx.error("RL102", f"{where}/{key}: must be a list", position_of(node, key),
                  hint=f"write {key}: [...]")
        return None
    if key == REMOVE:
        for i, name in enumerate(value):
            if isinstance(name, (dict, list)):
                ctx.error("RL102", f"{where}/{key}/{i}: a key or an id to remove, not a list or mapping",
                          value.pos_of(i))  # type: ignore[attr-defined]
                return None
    return value  # type: ignore[return-value]


def _merge_map(base: LMap, change: LMap, ctx: Ctx, where: str) -> LMap:
    out = _copy_map(base)
    for key in change:
        if _is_directive(key) and key != REMOVE:
            near = did_you_mean(key, [REMOVE])
            hint = f"did you mean '{near}'?" if near else (
                f"'{ADD}' edits a list; in a mapping, add a key by writing it" if key == ADD else
                f"a mapping takes '{REMOVE}: [KEY, ...]'")
            ctx.error("RL101", f"unknown key '{key}' in {where}", change.key_position(key), hint=hint)
    if REMOVE in change:
        for i, name in enumerate(_names(ctx, change, REMOVE, where) or ()):
            if name not in out:
                near = did_you_mean(str(name), [str(k) for k in out])
                ctx.error("RL143", f"{where}: nothing to remove: the base has no key '{name}'",
                          change[REMOVE].pos_of(i), hint=f"did you mean '{near}'?" if near else
                          f"its keys: {', '.join(str(k) for k in out)}")
                continue
            del out[name]
            out.key_pos.pop(name, None)
            out.val_pos.pop(name, None)
    for key, value in change.items():
        if _is_directive(key):
            continue
        here = f"{where}/{key}"
        old = out.get(key)
        if key in out and isinstance(old, LMap) and isinstance(value, LMap):
            out[key] = _merge_map(old, value, ctx, here)  # the key stays where the base wrote it
            continue
        if key in out and isinstance(old, LSeq) and isinstance(value, LMap):
            out[key] = _edit_list(old, value, ctx, here)
            continue
        out[key] = _fresh(value, ctx, here)
        out.key_pos[key], out.val_pos[key] = change.key_position(key), change.pos_of(key)
    return out


def _fresh(value: Any, ctx: Ctx, where: str) -> Any:
    """A value added or replacing: a mapping is merged into nothing, so its ``$`` words are checked too."""
    if isinstance(value, LMap):
        return _merge_map(_empty_map(value.pos), value, ctx, where)
    return value


def _item_id(item: Any) -> str | None:
    return str(item["id"]) if isinstance(item, dict) and "id" in item else None


def _keep_names(old: Any, new: Any) -> Any:
    """A component's item replaced where it stands keeps the names it had (its printed name and
    aliases) as aliases beside the new item's own, so logs written with them still read."""
    if not (isinstance(old, dict) and isinstance(new, LMap) and "name" in old and "name" in new):
        return new
    given = list(new.get("aliases") or [])
    kept = [str(n) for n in (old["name"], *(old.get("aliases") or []))
            if str(n) != str(new["name"]) and str(n) not in map(str, given)]
    if not kept:
        return new
    aliases = LSeq([*given, *kept])
    base_pos = position_of(old) or new.pos
    aliases.pos = new.pos_of("aliases") if "aliases" in new else new.pos
    aliases.item_pos = [position_of(new.get("aliases"), i) or aliases.pos for i in range(len(given))] + \
        [base_pos] * len(kept)
    out = _copy_map(new)
    out["aliases"] = aliases
    out.key_pos.setdefault("aliases", new.pos)
    out.val_pos.setdefault("aliases", aliases.pos)
    return out


def _edit_list(base: LSeq, change: LMap, ctx: Ctx, where: str) -> LSeq:
    items, positions = list(base), list(base.item_pos)
    for key in change:
        if key not in (REMOVE, ADD):
            near = did_you_mean(str(key), [REMOVE, ADD])
            ctx.error("RL101", f"unknown key '{key}' in {where} (a list of the base)", change.key_position(key),
                      hint=f"did you mean '{near}'?" if near else
                      f"a list is replaced by a list, or edited with {REMOVE}: [...] and {ADD}: [...]")
    if REMOVE in change:
        removes = _names(ctx, change, REMOVE, where) or []
        for i, name in enumerate(removes):
            at = next((j for j, item in enumerate(items)
                       if _item_id(item) == str(name) or (not isinstance(item, dict) and item == name)), None)
            if at is None:
                known = [_item_id(x) or str(x) for x in items]
                near = did_you_mean(str(name), known)
                ctx.error("RL143", f"{where}: nothing to remove: no item '{name}'", removes.pos_of(i),
                          hint=f"did you mean '{near}'?" if near else
                          f"its items: {', '.join(known[:12])}{' ...' if len(known) > 12 else ''}")
                continue
            del items[at], positions[at]
    if ADD in change:
        adds = _names(ctx, change, ADD, where) or []
        for i, item in enumerate(adds):
            item = _fresh(item, ctx, f"{where}/{ADD}/{i}")
            iid = _item_id(item)
            at = next((j for j, old in enumerate(items) if iid is not None and _item_id(old) == iid), None)
            if at is None:
                items.append(item)
                positions.append(adds.pos_of(i))
            else:
                if where.startswith("change/components/"):
                    item = _keep_names(items[at], item)
                items[at], positions[at] = item, adds.pos_of(i)
    out = LSeq(items)
    out.pos, out.item_pos = base.pos, positions
    return out
