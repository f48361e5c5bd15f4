"""YAML loading that remembers where every value came from.

``load_yaml`` returns plain dicts, lists and scalars, but mappings and sequences are
:class:`LDict` / :class:`LList`, which know the line of the node and of each key or item.
A :class:`Where` pairs a value with its path (``tableau.build``) and line, so a check deep in
the loader can raise ``thumb.yaml:14: tableau.build: unknown rule 'alternate'; expected ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import VariantError

# PyYAML is imported on first use: a warm start reads the variant files from the start-up
# cache (:mod:`.startcache`) and never needs it


class LDict(dict):
    """A mapping that remembers its line (1-based) and each key's line."""

    line: int = 0
    key_lines: dict[Any, int]


class LList(list):
    """A sequence that remembers its line and each item's line."""

    line: int = 0
    item_lines: list[int]


def _convert(node: Any, loader: Any, source: str, path: str = "") -> Any:
    import yaml

    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        loader.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = _convert(key_node, loader, source)
            line = key_node.start_mark.line + 1
            if isinstance(key, (dict, list)):
                raise VariantError(f"{source}:{line}: {path or '(top level)'}: a key must be a plain value")
            key_path = f"{path}.{key}" if path else str(key)
            if key in out:
                raise VariantError(f"{source}:{line}: {key_path}: duplicate key (first given on line "
                                   f"{out.key_lines[key]}); give each key once")
            out[key] = _convert(value_node, loader, source, key_path)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = LList()
        seq.line = node.start_mark.line + 1
        seq.item_lines = []
        for i, item in enumerate(node.value):
            seq.append(_convert(item, loader, source, f"{path}[{i}]"))
            seq.item_lines.append(item.start_mark.line + 1)
        return seq
    return loader.construct_object(node, deep=True)


def load_yaml(text: str, source: str) -> Any:
    """Parse one YAML document; syntax errors become a one-line :class:`VariantError`.

    The fast libyaml parser reads the file; a file it refuses is read again by the pure-Python
    parser, whose messages say more ("but got ':'") and are the same on every machine.
    """
    import yaml

    # libyaml's parser when PyYAML was built with it (ten times faster at start-up), else pure Python
    fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return _load(text, source, fast)
    except yaml.YAMLError:
        if fast is yaml.SafeLoader:
            raise VariantError(f"{source}: YAML error") from None
    try:
        return _load(text, source, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        problem = exc.problem or exc.context or "invalid YAML"
        if problem.startswith("but ") and exc.context:  # "but found another document": say what was expected
            problem = f"{exc.context}, {problem}"
        raise VariantError(f"{source}{line}: YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        raise VariantError(f"{source}: YAML error: {' '.join(str(exc).split())}") from None


def _load(text: str, source: str, loader_class: type) -> Any:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _convert(node, loader, source)
    finally:
        loader.dispose()


def load_yaml_file(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise VariantError(f"{path}: not UTF-8 text") from None
    return load_yaml(text, path.name)


class Where:
    """A value with its source file, key path and line, for precise error messages."""

    __slots__ = ("value", "source", "path", "line")

    def __init__(self, value: Any, source: str, path: str = "", line: int = 0) -> None:
        self.value = value
        self.source = source
        self.path = path
        self.line = line or getattr(value, "line", 0)

    def error(self, message: str) -> VariantError:
        line = f":{self.line}" if self.line else ""
        path = f" {self.path}:" if self.path else ""
        return VariantError(f"{self.source}{line}:{path} {message}")

    def child(self, key: Any) -> "Where":
        """The value under ``key`` (a mapping key or a list index)."""
        value = self.value
        if isinstance(key, int) and isinstance(value, list):
            lines = getattr(value, "item_lines", None)
            line = lines[key] if lines else self.line
            return Where(value[key], self.source, f"{self.path}[{key}]", line)
        lines = getattr(value, "key_lines", {})
        path = f"{self.path}.{key}" if self.path else str(key)
        return Where(value.get(key), self.source, path, lines.get(key, self.line))

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def mapping(self, allowed: tuple[str, ...] | None = None, required: tuple[str, ...] = ()) -> "Where":
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

    def items(self) -> list["Where"]:
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
