"""Reading YAML safely, with the position of every key and value.

Nothing read is ever executed: PyYAML only parses and composes the node
graph; values are built here from the YAML 1.2 core schema (so ``7:00`` and
``no`` stay strings), every tag outside that schema is refused, duplicate
keys are errors, and work is bounded (file size, nesting depth, nodes after
alias expansion).

>>> doc = parse_text("a: 1\\nb: [x, y]\\n", "t.yaml")
>>> doc["b"][1], str(doc["b"].pos_of(1))
('y', 't.yaml:2:8')
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean

__all__ = ["Limits", "LMap", "LSeq", "parse_text", "encode_doc", "decode_doc", "read_yaml", "read_source", "position_of", "DEFAULT_LIMITS", "env_limit",
           "INT_BITS"]


def env_limit(name: str, default: int) -> int:
    """A limit raised or lowered by ``RULESLAWYER_<NAME>`` (a whole number >= 1), else ``default``."""
    raw = os.environ.get(f"RULESLAWYER_{name.upper()}")
    try:
        return max(1, int(raw)) if raw is not None else default
    except ValueError:
        return default


@dataclass(frozen=True)
class Limits:
    """Bounds on the work done for one input file.

    Each can be changed with an environment variable of the same name in
    upper case prefixed ``RULESLAWYER_`` (e.g. ``RULESLAWYER_MAX_BYTES``).
    ``max_string`` bounds every key and value (characters); ``max_name``,
    the names and values of a game log (players, items...), is read by the
    log reader.
    """

    max_bytes: int = 4 * 1024 * 1024
    max_depth: int = 64
    max_nodes: int = 200_000
    max_string: int = 10_000
    max_name: int = 200

    @classmethod
    def from_env(cls) -> "Limits":
        return cls(**{name: env_limit(name, getattr(DEFAULT_LIMITS, name)) for name in cls.__dataclass_fields__})


DEFAULT_LIMITS = Limits()
INT_BITS = 4096  # numbers read or computed: about 1233 decimal digits


class LMap(dict):
    """A mapping that remembers where each key and value stood."""

    pos: Position
    key_pos: dict[Any, Position]
    val_pos: dict[Any, Position]

    def pos_of(self, key: Any) -> Position:
        return self.val_pos.get(key, self.pos)

    def key_position(self, key: Any) -> Position:
        return self.key_pos.get(key, self.pos)


class LSeq(list):
    """A sequence that remembers where each item stood."""

    pos: Position
    item_pos: list[Position]

    def pos_of(self, index: int) -> Position:
        if 0 <= index < len(self.item_pos):
            return self.item_pos[index]
        return self.pos


def position_of(container: Any, key: Any = None) -> Position | None:
    """Position of ``container[key]`` (or of the container) when known."""
    if key is not None and isinstance(container, (LMap, LSeq)):
        return container.pos_of(key)
    return getattr(container, "pos", None)


# YAML 1.2 core schema resolution of plain scalars.
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?[0-9]+$")
_INT_OCT = re.compile(r"^0o[0-7]+$")
_INT_HEX = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_SPECIAL_FLOAT = {".inf": float("inf"), "+.inf": float("inf"), "-.inf": float("-inf"), ".nan": float("nan")}
_STD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge",
    "tag:yaml.org,2002:binary", "tag:yaml.org,2002:value",
}


def _pos(path: str, mark: Any) -> Position:
    return Position(path, mark.line + 1, mark.column + 1)


def _fail(code: str, message: str, pos: Position, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, pos, hint=hint)])


class _Builder:
    def __init__(self, path: str, limits: Limits):
        self.path = path
        self.limits = limits
        self.nodes = 0

    def build(self, node: yaml.Node, depth: int = 0) -> Any:
        self.nodes += 1
        pos = _pos(self.path, node.start_mark)
        if self.nodes > self.limits.max_nodes:
            raise _fail("RL006", f"document expands to more than {self.limits.max_nodes} nodes "
                        "(aliases repeated too often?)", pos,
                        hint="raise RULESLAWYER_MAX_NODES if the file is genuine")
        if depth > self.limits.max_depth:
            raise _fail("RL005", f"nesting deeper than {self.limits.max_depth} levels", pos,
                        hint="raise RULESLAWYER_MAX_DEPTH if the file is genuine")
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, pos)
        if isinstance(node, yaml.SequenceNode):
            self.check_tag(node, "tag:yaml.org,2002:seq", pos)
            seq = LSeq()
            seq.pos, seq.item_pos = pos, []
            for item in node.value:
                seq.append(self.build(item, depth + 1))
                seq.item_pos.append(_pos(self.path, item.start_mark))
            return seq
        self.check_tag(node, "tag:yaml.org,2002:map", pos)
        mapping = LMap()
        mapping.pos, mapping.key_pos, mapping.val_pos = pos, {}, {}
        for key_node, value_node in node.value:
            kpos = _pos(self.path, key_node.start_mark)
            if not isinstance(key_node, yaml.ScalarNode):
                raise _fail("RL007", "a key must be a plain value, not a list or mapping", kpos)
            key = self.scalar(key_node, kpos)
            if isinstance(key, (float, bool)) or key is None:
                key = key_node.value
            if key in mapping:
                raise DiagnosticError([Diagnostic(
                    "RL004", f"duplicate key '{key}'", kpos,
                    related=(_first_here(mapping.key_pos[key]),))])
            mapping[key] = self.build(value_node, depth + 1)
            mapping.key_pos[key] = kpos
            mapping.val_pos[key] = _pos(self.path, value_node.start_mark)
        return mapping

    def check_tag(self, node: yaml.Node, expected: str, pos: Position) -> None:
        if node.tag not in (expected,) and node.tag.startswith("!"):
            raise _fail("RL008", f"tag '{node.tag}' is not allowed (only plain YAML data is read)", pos)
        if node.tag != expected and node.tag not in _STD_TAGS:
            raise _fail("RL008", f"tag '{node.tag}' is not allowed (only plain YAML data is read)", pos)

    def scalar(self, node: yaml.ScalarNode, pos: Position) -> Any:
        tag, text = node.tag, node.value
        if len(text) > self.limits.max_string:
            raise _fail("RL009", f"a value of {len(text):,} characters (at most {self.limits.max_string:,})", pos,
                        hint="raise RULESLAWYER_MAX_STRING if the file is genuine")
        if tag.startswith("!") or tag not in _STD_TAGS:
            raise _fail("RL008", f"tag '{tag}' is not allowed (only plain YAML data is read)", pos)
        if node.style or tag == "tag:yaml.org,2002:str":
            return text  # quoted or block scalar: always a string
        if tag in ("tag:yaml.org,2002:binary", "tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
            return text
        if _NULL.match(text):
            return None
        if text in _BOOL:
            return _BOOL[text]
        if _INT.match(text) or _INT_OCT.match(text) or _INT_HEX.match(text):
            return self.integer(text, pos)
        if _FLOAT.match(text):
            return float(text)
        if text.lower() in _SPECIAL_FLOAT:
            return _SPECIAL_FLOAT[text.lower()]
        return text

    def integer(self, text: str, pos: Position) -> int:
        # Python refuses to read or print integers of more than 4300 digits:
        # no rule or log needs one, so say so instead of failing later.
        try:
            value = int(text[2:], 8 if text[1] == "o" else 16) if text[:2] in ("0o", "0x") else int(text)
        except ValueError:
            value = None
        if value is None or value.bit_length() > INT_BITS:
            raise _fail("RL130", f"number with {len(text)} digits is out of range", pos)
        return value


def _first_here(pos: Position) -> Any:
    from .diagnostics import Related

    return Related("first given here", pos)


# libyaml when PyYAML was built with it (ten times faster); the pure-Python
# parser otherwise, and always to word the message of a malformed file.
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _check_events(text: str, path: str, limits: Limits, loader: Any = yaml.SafeLoader) -> None:
    """Bound nesting and size on the event stream, before anything is composed.

    The event stream is produced without recursion and holds nothing, so a
    hostile file (deep nesting, a huge flat list, an alias bomb) is refused
    here at little cost.  Every key, value and item is a node; an alias
    counts every node of the value it repeats.
    """
    nodes = 0
    sizes: dict[str, int] = {}            # anchor -> nodes in its value
    open_: list[tuple[str | None, int]] = []  # (anchor, count before the collection)
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            open_.append((event.anchor, nodes))
            nodes += 1
            if len(open_) > limits.max_depth:
                raise _fail("RL005", f"nesting deeper than {limits.max_depth} levels",
                            _pos(path, event.start_mark),
                            hint="raise RULESLAWYER_MAX_DEPTH if the file is genuine")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            anchor, before = open_.pop()
            if anchor is not None:
                sizes[anchor] = nodes - before
            continue
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            nodes += sizes.get(event.anchor, 1)
        else:
            continue
        if nodes > limits.max_nodes:
            raise _fail("RL006", f"document expands to more than {limits.max_nodes} nodes "
                        "(aliases repeated too often?)", _pos(path, event.start_mark),
                        hint="raise RULESLAWYER_MAX_NODES if the file is genuine")


# Line breaks to PyYAML (YAML 1.1) but not to YAML 1.2 nor to editors: the
# document would not have the structure, nor the line numbers, one sees.
_ODD_BREAKS = re.compile("[\x85\u2028\u2029]")


def parse_text(text: str, path: str = "<string>", limits: Limits = DEFAULT_LIMITS) -> Any:
    """Parse one YAML document into plain values with positions."""
    odd = _ODD_BREAKS.search(text)
    if odd:
        index = odd.start()
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        raise _fail("RL003", f"malformed YAML: character U+{ord(odd.group()):04X} is a line break to some YAML "
                    "readers and not to others", Position(path, line, col),
                    hint="replace it with a plain line break or a space")
    try:
        try:
            _check_events(text, path, limits, _FAST_LOADER)
            nodes = list(yaml.compose_all(text, Loader=_FAST_LOADER))
        except (yaml.YAMLError, UnicodeError):
            if _FAST_LOADER is yaml.SafeLoader:
                raise
            _check_events(text, path, limits, yaml.SafeLoader)
            nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _pos(path, mark) if mark else Position(path)
        problem = exc.problem or exc.context or "malformed YAML"
        context = f" ({exc.context})" if exc.context and exc.problem else ""
        raise _fail("RL003", f"malformed YAML: {problem}{context}", pos) from None
    except yaml.reader.ReaderError as exc:
        # A character YAML does not allow (control characters, NUL...).
        index = max(0, min(exc.position, len(text)))
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise _fail("RL003", f"malformed YAML: character U+{ord(char):04X} is not allowed in a YAML file",
                    Position(path, line, col)) from None
    except yaml.YAMLError as exc:
        raise _fail("RL003", f"malformed YAML: {exc}", Position(path, 1, 1)) from None
    except RecursionError:
        raise _fail("RL005", "nesting too deep", Position(path, 1, 1)) from None
    if not nodes or nodes[0] is None:
        raise _fail("RL002", "the file is empty", Position(path, 1, 1))
    if len(nodes) > 1:
        raise _fail("RL003", "more than one YAML document in the file (a line '---')",
                    _pos(path, nodes[1].start_mark))
    return _Builder(path, limits).build(nodes[0])


def encode_doc(doc: Any) -> Any:
    """A parsed document (:func:`parse_text`) as plain tuples, its positions kept (line, column),
    for :mod:`spec.diskcache`; :func:`decode_doc` makes it again, given the file's path."""
    if isinstance(doc, LMap):
        return ("m", doc.pos.line, doc.pos.column, tuple(
            (k, doc.key_pos[k].line, doc.key_pos[k].column, doc.val_pos[k].line, doc.val_pos[k].column,
             encode_doc(v)) for k, v in doc.items()))
    if isinstance(doc, LSeq):
        return ("s", doc.pos.line, doc.pos.column, tuple(
            (p.line, p.column, encode_doc(v)) for p, v in zip(doc.item_pos, doc)))
    return doc  # a scalar: str, int, float, bool or None (never a tuple)


def decode_doc(data: Any, path: str) -> Any:
    """The document :func:`encode_doc` wrote, positions in ``path``; ValueError when ``data`` is not one."""
    where: dict[tuple[int, int], Position] = {}

    def at(line: Any, column: Any) -> Position:
        if type(line) is not int or type(column) is not int:
            raise ValueError("a position is two integers")
        pos = where.get((line, column))
        if pos is None:
            pos = where[(line, column)] = Position(path, line, column)
        return pos

    def make(node: Any) -> Any:
        if not isinstance(node, tuple):
            if node is None or type(node) in (str, int, float, bool):
                return node
            raise ValueError("not a scalar")
        if len(node) != 4:
            raise ValueError("not a node")
        kind, line, column, items = node
        if kind == "m":
            mapping = LMap()
            mapping.pos, mapping.key_pos, mapping.val_pos = at(line, column), {}, {}
            for key, kl, kc, vl, vc, value in items:
                if isinstance(key, tuple) or key in mapping:
                    raise ValueError("a key twice")
                mapping[key] = make(value)
                mapping.key_pos[key], mapping.val_pos[key] = at(kl, kc), at(vl, vc)
            return mapping
        if kind == "s":
            seq = LSeq()
            seq.pos, seq.item_pos = at(line, column), []
            for il, ic, value in items:
                seq.append(make(value))
                seq.item_pos.append(at(il, ic))
            return seq
        raise ValueError("not a node")

    try:
        return make(data)
    except (TypeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


# Folders of the operating system's own files (processes, devices, kernel):
# regular-looking files there are generated on reading, may never end, and
# say things about the machine.  Never read, whatever the permissions.
SYSTEM_DIRS = ("/proc", "/sys", "/dev")


def system_file(path: Path) -> str | None:
    """The system folder a path lies in once links are followed, if any."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return None
    return next((d for d in SYSTEM_DIRS if real == d or real.startswith(d + "/")), None)


def read_yaml(path: str | os.PathLike[str], limits: Limits | None = None, declared: str | None = None) -> Any:
    """Read a YAML file; raise :class:`DiagnosticError` for unusable input.

    ``declared``: a top-level key the file must have on a line of its own
    (``ruleslawyer`` for rule files); a file without one is reported without
    showing anything it holds: not a line, not a key.
    """
    limits = limits or Limits.from_env()
    _data, text = read_source(path, limits, declared)
    return parse_text(text, str(path), limits)


def read_source(path: str | os.PathLike[str], limits: Limits | None = None,
                declared: str | None = None) -> tuple[bytes, str]:
    """The bytes of a YAML file and its text (a byte order mark left out), under the checks
    of :func:`read_yaml` (which parses this text): for a command that rewrites the file."""
    limits = limits or Limits.from_env()
    shown = str(path)
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except (OSError, ValueError) as exc:
        if not isinstance(exc, FileNotFoundError):
            raise _fail("RL001", f"cannot read {shown}: {getattr(exc, 'strerror', None) or exc}",
                        Position(shown)) from None
        try:
            siblings = [c.name for c in p.parent.iterdir()] if p.parent.is_dir() else []
        except OSError:
            siblings = []
        near = did_you_mean(p.name, siblings)
        raise _fail("RL001", f"no such file: {shown}", Position(shown),
                    hint=f"did you mean '{p.parent / near}'?" if near else None) from None
    if stat.S_ISDIR(mode):
        raise _fail("RL001", f"{shown} is a directory, not a file", Position(shown))
    if not stat.S_ISREG(mode):
        # A pipe or device could block or never end: only plain files are read.
        raise _fail("RL001", f"{shown} is not a regular file", Position(shown))
    system = system_file(p)
    if system is not None:
        raise _fail("RL001", f"{shown} is a file of the operating system ({system}), not a data file",
                    Position(shown))
    try:
        with p.open("rb") as handle:
            data = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        raise _fail("RL001", f"cannot read {shown}: {exc.strerror or exc}", Position(shown)) from None
    if len(data) > limits.max_bytes:
        raise _fail("RL002", f"file larger than {limits.max_bytes} bytes", Position(shown),
                    hint="raise RULESLAWYER_MAX_BYTES if the file is genuine")
    if not data.strip():
        raise _fail("RL002", "the file is empty", Position(shown, 1, 1))
    if declared is not None and not _declares(data, declared):
        raise _fail("RL012", f"not a {declared} file: no line starts with '{declared}:' "
                    "(nothing it holds is shown)", Position(shown, 1, 1))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _fail("RL002", f"bytes that are not UTF-8 (byte 0x{data[exc.start]:02x})",
                    Position(shown, line, col)) from None
    if not text.strip():
        raise _fail("RL002", "the file is empty", Position(shown, 1, 1))
    return data, text


def _declares(data: bytes, key: str) -> bool:
    """Whether a top-level line of ``data`` starts with ``key:`` (quoted or not, after a BOM)."""
    pattern = rb"^(?:\xef\xbb\xbf)?([\"']?)" + re.escape(key.encode()) + rb"\1[ \t]*:"
    return re.search(pattern, data, re.MULTILINE) is not None
