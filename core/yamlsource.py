"""YAML loading that remembers where every value came from.

``load_yaml`` returns plain dicts, lists and scalars, but mappings and sequences are
:class:`LDict` / :class:`LList`, which know the line of the node and of each key or item.
A :class:`Where` pairs a value with its path (``tableau.build``) and line, so a check deep in
the loader can raise ``thumb.yaml:14: tableau.build: unknown rule 'alternate'; expected ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import limits
from .errors import VariantError

# PyYAML is imported on first use: a warm start reads the variant files from the start-up
# cache (:mod:`.startcache`) and never needs it


class LDict(dict[Any, Any]):
    """A mapping that remembers its line (1-based) and each key's line."""

    line: int = 0
    key_lines: dict[Any, int]


class LList(list[Any]):
    """A sequence that remembers its line and each item's line."""

    line: int = 0
    item_lines: list[int]


_MERGE = "tag:yaml.org,2002:merge"
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


class _Walk:
    """What one conversion has spent so far, against the limits in :mod:`.limits`."""

    __slots__ = ("aliases", "open", "seen", "source", "values")

    def __init__(self, source: str) -> None:
        self.source = source
        self.values = 0
        self.aliases = 0
        self.seen: set[int] = set()  # every node converted (a node met again is an alias)
        self.open: set[int] = set()  # the mappings and lists being converted, outermost first

    def error(self, line: int, path: str, message: str) -> VariantError:
        return VariantError(f"{self.source}:{line}: {path or '(top level)'}: {message}")


def _convert(node: Any, loader: Any, walk: _Walk, path: str = "", line: int = 0, depth: int = 1,
             aliased: bool = False) -> Any:
    """The tree under ``node``, each value counted (aliases expanded) before it is built.

    ``line`` is the line of the key or item that holds the value (for an alias: where it is
    used, not its anchor), for errors; ``aliased``: this value is inside an alias's expansion."""
    import yaml

    own_line = node.start_mark.line + 1
    line = line or own_line
    walk.values += 1
    if walk.values > limits.MAX_VALUES:
        raise walk.error(line, path, f"more than {limits.MAX_VALUES} values (each alias expanded); "
                                     "that is the most a variant file may hold")
    key = id(node)
    if key in walk.open:
        raise walk.error(line, path, "an alias inside its own anchor (the value would contain itself)")
    if key in walk.seen and not aliased:
        walk.aliases += 1
        if walk.aliases > limits.MAX_ALIASES:
            raise walk.error(line, path, f"more than {limits.MAX_ALIASES} aliases; "
                                         "that is the most a variant file may use")
        aliased = True
    walk.seen.add(key)
    if isinstance(node, yaml.ScalarNode):
        if node.tag in _NUMBER_TAGS and len(node.value) > limits.MAX_NUMBER_CHARS:
            raise walk.error(line, path, f"a number of {len(node.value)} characters; "
                                         f"at most {limits.MAX_NUMBER_CHARS} are allowed")
        try:
            return loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
            raise walk.error(line, path, f"bad value: {problem}") from None
        except (ValueError, OverflowError, TypeError) as exc:  # a date past 9999, say
            raise walk.error(line, path, f"bad value {node.value!r}: {' '.join(str(exc).split())}") from None
    if not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        raise walk.error(line, path, "unsupported YAML node")
    if depth > limits.MAX_DEPTH:
        raise walk.error(line, path, f"nested more than {limits.MAX_DEPTH} mappings and lists deep")
    walk.open.add(key)
    try:
        if isinstance(node, yaml.SequenceNode):
            seq = LList()
            seq.line = own_line
            seq.item_lines = []
            for i, item in enumerate(node.value):
                item_line = item.start_mark.line + 1
                # an alias's own place is not kept by the parser: errors name the list's line
                at = line if aliased or id(item) in walk.seen else item_line
                seq.append(_convert(item, loader, walk, f"{path}[{i}]", at, depth + 1, aliased))
                seq.item_lines.append(item_line)
            return seq
        return _mapping(node, loader, walk, path, own_line, line, depth, aliased)
    finally:
        walk.open.discard(key)


def _mapping(node: Any, loader: Any, walk: _Walk, path: str, line: int, use_line: int, depth: int,
             aliased: bool) -> LDict:
    """A mapping, with merge keys (``<<: *defaults``) taken in: the mapping's own keys win,
    then the merged mappings in the order given, as YAML merges them. ``line`` is the
    mapping's own line, ``use_line`` where it is used (they differ for an alias)."""
    out = LDict()
    out.line = line
    out.key_lines = {}
    merged: list[LDict] = []
    for key_node, value_node in node.value:
        key_line = key_node.start_mark.line + 1
        at = use_line if aliased else key_line  # the line errors name
        if key_node.tag == _MERGE:
            key_path = f"{path}.<<" if path else "<<"
            value = _convert(value_node, loader, walk, key_path, at, depth + 1, aliased)
            parts = value if isinstance(value, list) else [value]
            if not all(isinstance(part, dict) for part in parts):
                raise walk.error(at, key_path, "a merge key (<<) takes a mapping or a list of mappings")
            merged.extend(parts)
            continue
        key = _convert(key_node, loader, walk, path, at, depth + 1, aliased)
        if isinstance(key, (dict, list)):
            raise walk.error(at, path, "a key must be a plain value")
        key_path = f"{path}.{shown_key(key)}" if path else shown_key(key)
        if key in out:
            raise walk.error(at, key_path, f"duplicate key (first given on line {out.key_lines[key]}); "
                                                 "give each key once")
        out[key] = _convert(value_node, loader, walk, key_path, at, depth + 1, aliased)
        out.key_lines[key] = key_line
    if not merged:
        return out
    whole = LDict()
    whole.line = line
    whole.key_lines = {}
    for part in merged:  # the first mapping merged wins over later ones
        for key in part:
            if key not in whole and key not in out:
                whole[key] = part[key]
                whole.key_lines[key] = part.key_lines[key]
    for key in out:
        whole[key] = out[key]
        whole.key_lines[key] = out.key_lines[key]
    return whole


def load_yaml(text: str, source: str) -> Any:
    """Parse one YAML document; syntax errors and files past the limits in :mod:`.limits`
    become a one-line :class:`VariantError`.

    The fast libyaml parser reads the file; a file it refuses is read again by the pure-Python
    parser, whose messages say more ("but got ':'") and are the same on every machine.
    """
    import yaml

    if len(text.encode("utf-8", "surrogatepass")) > limits.MAX_FILE_BYTES:
        raise _too_large(source)
    # libyaml's parser when PyYAML was built with it (ten times faster at start-up), else pure Python
    fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return _load(text, source, fast)
    except RecursionError:  # the pure-Python composer recurses once per level of nesting
        raise VariantError(f"{source}: nested more than {limits.MAX_DEPTH} mappings and lists deep") from None
    except yaml.YAMLError as exc:
        if fast is yaml.SafeLoader:
            raise _yaml_error(exc, source) from None
        if "maximum nesting depth" in str(exc):  # libyaml's own bound, 1000 levels
            raise _yaml_error(exc, source, f"nested more than {limits.MAX_DEPTH} mappings and lists deep") from None
    try:
        return _load(text, source, yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source) from None
    except RecursionError:  # the pure-Python composer recurses once per level of nesting
        raise VariantError(f"{source}: nested more than {limits.MAX_DEPTH} mappings and lists deep") from None


def _too_large(source: str) -> VariantError:
    return VariantError(f"{source}: more than {limits.MAX_FILE_BYTES} bytes; that is the most a variant file may have")


def _yaml_error(exc: Exception, source: str, problem: str | None = None) -> VariantError:
    import yaml

    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        if problem is not None:
            return VariantError(f"{source}{line}: {problem}")
        problem = exc.problem or exc.context or "invalid YAML"
        if problem.startswith("but ") and exc.context:  # "but found another document": say what was expected
            problem = f"{exc.context}, {problem}"
        return VariantError(f"{source}{line}: YAML syntax error: {' '.join(problem.split())}")
    return VariantError(f"{source}: {problem or 'YAML error: ' + ' '.join(str(exc).split())}")


def _load(text: str, source: str, loader_class: type) -> Any:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _convert(node, loader, _Walk(source))
    finally:
        loader.dispose()


def load_yaml_file(path: Path) -> Any:
    """Read and parse a variant file; a file past ``MAX_FILE_BYTES`` is refused unread."""
    try:
        with open(path, "rb") as f:
            data = f.read(limits.MAX_FILE_BYTES + 1)
        if len(data) > limits.MAX_FILE_BYTES:
            raise _too_large(path.name)
        text = data.decode("utf-8")
    except OSError as exc:
        raise VariantError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise VariantError(f"{path}: not UTF-8 text") from None
    return load_yaml(text, path.name)


def shown_key(key: Any) -> str:
    """A key as a key path shows it: as written, or quoted when it holds a line break or
    another character that would not print (so a message stays on one line)."""
    text = str(key)
    return text if text.isprintable() else repr(text)


class Where:
    """A value with its source file, key path and line, for precise error messages."""

    __slots__ = ("keys", "line", "path", "source", "value")

    def __init__(self, value: Any, source: str, path: str = "", line: int = 0, keys: tuple[Any, ...] = ()) -> None:
        self.value = value
        self.keys = keys  # the keys and list indices from the root to here (the path, unprinted)
        self.source = source
        self.path = path
        self.line = line or getattr(value, "line", 0)

    def error(self, message: str) -> VariantError:
        line = f":{self.line}" if self.line else ""
        path = f" {self.path}:" if self.path else ""
        error = VariantError(f"{self.source}{line}:{path} {message}")
        error.keys = self.keys
        return error

    def child(self, key: Any) -> Where:
        """The value under ``key`` (a mapping key or a list index)."""
        value = self.value
        if isinstance(key, int) and isinstance(value, list):
            lines = getattr(value, "item_lines", None)
            line = lines[key] if lines else self.line
            return Where(value[key], self.source, f"{self.path}[{key}]", line, (*self.keys, key))
        lines = getattr(value, "key_lines", {})
        path = f"{self.path}.{shown_key(key)}" if self.path else shown_key(key)
        return Where(value.get(key), self.source, path, lines.get(key, self.line), (*self.keys, key))

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def mapping(self, allowed: tuple[str, ...] | None = None, required: tuple[str, ...] = ()) -> Where:
        """Check this is a mapping with only ``allowed`` keys and every ``required`` key."""
        if not isinstance(self.value, dict):
            raise self.error(f"expected a mapping, got {describe(self.value)}")
        if allowed is not None:
            for key in self.value:
                if key not in allowed:
                    raise self.child(key).error(
                        f"unknown key {key!r}; expected one of: {', '.join(allowed)}" + did_you_mean(key, allowed)
                    )
        for key in required:
            if key not in self.value:
                raise self.error(f"missing key {key!r}")
        return self

    def items(self) -> list[Where]:
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, got {describe(self.value)}")
        return [self.child(i) for i in range(len(self.value))]


def did_you_mean(value: Any, allowed: Any) -> str:
    """`` (did you mean 'alternate-colour'?)`` for a near miss, else ``""``."""
    if not isinstance(value, str):
        return ""
    import difflib

    close = difflib.get_close_matches(value, [str(a) for a in allowed], n=1, cutoff=0.6)
    if not close:
        close = [a for a in map(str, allowed) if a.startswith(value) or value.startswith(a)][:1]
    return f" (did you mean {close[0]!r}?)" if close and close[0] != value else ""


def describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int):
        return f"{value} (a number)"
    return repr(value)
