"""Finding variants: entry points in the group ``solitaire``, loaded once, each in isolation.

The built-in variants come through this same path (the project's own entry points), exactly as
a third party's do. A plugin that fails to import, misspells a hook, or registers a broken
YAML file is recorded in :attr:`Registry.broken` with its reason; the others keep working.
Every variant answers to its qualified name too, ``DIST:NAME`` (its distribution's name, e.g.
``acme-games:thumb``; the entry point's name for one registered without a distribution).
On a clash of bare names between two distributions the variant loaded first keeps the bare
name: the kernel's own distribution loads first (so a built-in game keeps its name), then the
others in order of distribution name, whatever the order of ``sys.path``; the later one is
renamed to its qualified name, which is then its only name (``solitaire variants`` says so).
Two variants of one name from one distribution are a mistake: the second is listed as broken.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

from . import hookspecs
from .errors import SolitaireError, UnknownVariantError
from .i18n import _
from .spec import VariantDef, load_variant_file
from .yamlsource import did_you_mean

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from .startcache import StartupCache

GROUP = "solitaire"
KERNEL_DIST = "solitaire-table"  # the kernel's own distribution: its variants load first


@attrs.frozen
class BrokenPlugin:
    """A plugin or variant file that could not be loaded, and why (one line)."""

    name: str
    provider: str
    reason: str


@attrs.frozen
class KnowledgeHook:
    """A plugin's ``solver_knowledge`` hook, kept for the variants that plugin registered."""

    plugin: str
    provider: str
    call: Callable[..., Any]


@attrs.define
class Registry:
    """The installed variants by name, and what failed to load; per variant, the
    ``solver_knowledge`` hook of the plugin that registered it (see :meth:`knowledge`)."""

    variants: dict[str, VariantDef] = attrs.field(factory=dict)
    broken: list[BrokenPlugin] = attrs.field(factory=list)
    # every variant by its qualified name, DIST:NAME; and by it, what a clash of names left it
    # (its bare name, aliases), in one line for the listing
    qualified: dict[str, VariantDef] = attrs.field(factory=dict)
    notes: dict[str, str] = attrs.field(factory=dict)
    knowledge_hooks: dict[str, KnowledgeHook] = attrs.field(factory=dict)
    _known: dict[int, tuple[Any, Any]] = attrs.field(factory=dict, repr=False)

    def knowledge(self, rules: Any) -> Any:
        """What the plugin that registered ``rules``' variant knows for the solver: its
        ``solver_knowledge(rules)`` answer, asked once per compiled rules; None for a variant
        this registry did not load or whose plugin has no such hook. A hook that raises is
        recorded in :attr:`broken` (once, like a plugin that fails to load) and gives None, so
        the solver goes on with the rules' tables alone."""
        kept = self._known.get(id(rules))
        if kept is not None and kept[0] is rules:
            return kept[1]
        defn: VariantDef = rules.variant
        hook = self.knowledge_hooks.get(defn.name) if self.variants.get(defn.name) is defn else None
        answer = None
        if hook is not None:
            try:
                answer = hook.call(rules=rules)
            except Exception as exc:  # the plugin's bug: reported, never the solver's crash
                reason = f"solver_knowledge failed: {type(exc).__name__}: {exc}"
                if not any(b.name == hook.plugin and b.reason == reason for b in self.broken):
                    self.broken.append(BrokenPlugin(hook.plugin, hook.provider, reason))
        self._known[id(rules)] = (rules, answer)
        return answer

    def add(self, defn: VariantDef, plugin: str = "") -> None:
        """Register ``defn`` (from the entry point ``plugin``) under its name and aliases, and
        under its qualified name; on a clash with another distribution's game, under its
        qualified name only (see the module's notes)."""
        qualified = f"{qualifier(defn.provider or plugin)}:{defn.name}"
        taken = self._lookup(defn.name)
        for alias in defn.aliases:
            taken = taken or self._lookup(alias)
        if qualified in self.qualified or (taken is not None and taken.provider == defn.provider):
            first = self.qualified.get(qualified) or taken
            assert first is not None
            clash = defn.name if self._lookup(defn.name) or qualified in self.qualified \
                else next(a for a in defn.aliases if self._lookup(a))
            self.broken.append(BrokenPlugin(
                defn.name, defn.provider,
                f"the name {clash!r} is already taken by {first.name!r} from {first.provider or 'unknown'}"))
            return
        clashes = [a for a in defn.aliases if self._lookup(a) is not None]
        if clashes:  # another distribution's game has those aliases: they stay its
            defn.aliases = tuple(a for a in defn.aliases if a not in clashes)
            owners = []
            for alias in clashes:
                other = self._lookup(alias)
                assert other is not None
                owners.append(f"{alias} is {other.name} from {other.provider or 'unknown'}")
            self.notes[qualified] = f"not also {', '.join(clashes)}: {', '.join(owners)}"
        owner = self._lookup(defn.name)
        if owner is not None:  # another distribution's game has the name: this one answers to DIST:NAME
            note = f"answers to {qualified} only: {defn.name} is the game from {owner.provider or 'unknown'}"
            self.notes[qualified] = "; ".join(filter(None, (note, self.notes.get(qualified))))
            defn.name = qualified
            defn._cache.clear()  # what was resolved under the bare name is resolved again under this one
        self.variants[defn.name] = defn
        self.qualified[qualified] = defn

    def qualified_name(self, defn: VariantDef) -> str:
        """The ``DIST:NAME`` the variant answers to whatever else is installed."""
        return next((q for q, d in self.qualified.items() if d is defn), defn.name)

    def _lookup(self, name: str) -> VariantDef | None:
        if name in self.variants:
            return self.variants[name]
        for defn in self.variants.values():
            if name in defn.aliases:
                return defn
        found = self.qualified.get(name)
        if found is not None:
            return found
        for defn in self.sorted():  # a local title (``titles:``), as its players say it: Косинка
            if any(name == title.casefold() for title in defn.titles.values()):
                return defn
        return None

    def get(self, name: str) -> VariantDef:
        """The variant with this name, alias or local title (case-insensitive); raise UnknownVariantError."""
        found = self._lookup(name.strip().casefold())
        if found is not None:
            return found
        for b in self.broken:
            if name in (b.name, f"{qualifier(b.provider)}:{b.name}"):
                raise UnknownVariantError(_("variant {name!r} is installed but broken: {reason}").format(
                    name=name, reason=b.reason))
        known = ", ".join(
            d.name + (f" ({', '.join(d.aliases)})" if d.aliases else "") for d in self.sorted()
        ) or _("none")
        raise UnknownVariantError(_("unknown variant {name!r}; installed: {games}").format(name=name, games=known))

    def sorted(self) -> list[VariantDef]:
        return [self.variants[k] for k in sorted(self.variants)]


def make_plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def _provider(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return (dist.metadata["Name"] or "") if dist is not None else ""  # no METADATA: no name


def installed_entry_points() -> list[tuple[str, str, str]]:
    """``(provider, name, value)`` of every entry point in the ``solitaire`` group.

    One distribution's ``entry_points.txt`` that does not parse makes ``entry_points()``
    raise for all; then each distribution is read alone, and one with a ``[solitaire]``
    section that does not parse is ``(provider, provider, "")``, which the registry lists
    as broken. Another one's (not a plugin of ours) is passed over, as it should be."""
    from importlib.metadata import distributions, entry_points

    try:
        return [(_provider(ep), ep.name, ep.value) for ep in entry_points(group=GROUP)]
    except Exception:  # some distribution's entry points do not parse
        pass
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for dist in distributions():
        try:
            provider = dist.metadata["Name"] or ""
        except Exception:  # unreadable metadata: no name
            provider = ""
        key = re.sub(r"[-_.]+", "-", provider).lower()
        if provider and key in seen:  # the first on sys.path shadows the others, as entry_points() does
            continue
        seen.add(key)
        try:
            found += [(provider, ep.name, ep.value) for ep in dist.entry_points.select(group=GROUP)]
        except Exception:
            text = dist.read_text("entry_points.txt") or ""
            if re.search(rf"^\s*\[\s*{GROUP}\s*\]", text, flags=re.M):
                found.append((provider, provider or "unknown", UNREADABLE))
    return found


def qualifier(provider: str) -> str:
    """A distribution's (or an entry point's) name as it qualifies its games' names: lower
    case, runs of ``-``, ``_`` and ``.`` as one ``-`` (as packaging normalises names)."""
    return re.sub(r"[-_.]+", "-", provider).lower() or "unknown"


UNREADABLE = ""  # the value of an entry point whose distribution's entry_points.txt does not parse


# the grammar of an entry point's value, as importlib.metadata.EntryPoint reads it
_REFERENCE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


def load_reference(value: str) -> Any:
    """The object an entry point's value names (``module`` or ``module:attr.attr``), as
    ``EntryPoint.load`` gives it; raise ImportError, AttributeError or ValueError."""
    match = _REFERENCE.match(value)
    if match is None:
        raise ValueError(f"{value!r} is not a module or module:object reference")
    obj = import_module(match.group("module"))
    for attr in filter(None, (match.group("attr") or "").split(".")):
        obj = getattr(obj, attr)
    return obj


class _Interrupts:
    """Tells a real Ctrl-C from a ``KeyboardInterrupt`` that a plugin's code raises itself.

    While plugins load, SIGINT (when Python's own handler has it, in the main thread) goes to
    a handler that notes it and raises ``KeyboardInterrupt`` as Python's does. Elsewhere (a
    thread, an embedder's own handler) every ``KeyboardInterrupt`` counts as the user's."""

    def __init__(self) -> None:
        self.seen = False
        self.watching = False
        self._previous: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def __enter__(self) -> _Interrupts:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread() \
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._previous = signal.signal(signal.SIGINT, self._handler)
            self.watching = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self.watching:
            import signal

            signal.signal(signal.SIGINT, self._previous)
            self.watching = False

    def is_the_users(self, exc: BaseException) -> bool:
        return isinstance(exc, KeyboardInterrupt) and (self.seen or not self.watching)


def _failure(exc: BaseException, interrupts: _Interrupts) -> str:
    """A plugin's exception as one line, with the file and line it was raised at; a real
    Ctrl-C is raised again (the user wants out, not a broken-plugin entry)."""
    if interrupts.is_the_users(exc):
        raise exc
    try:
        text = " ".join(str(exc).split())
    except BaseException:  # an exception whose message itself fails
        text = "(no message)"
    if len(text) > MAX_REASON:
        text = text[:MAX_REASON - 3] + "..."
    where = ""
    tb = exc.__traceback__
    kernel, stdlib = os.path.dirname(__file__), os.path.dirname(os.__file__) + os.sep
    while tb is not None:  # the innermost frame in the plugin's code (not the kernel's or Python's)
        file = tb.tb_frame.f_code.co_filename
        python = file.startswith(stdlib) and not {"site-packages", "dist-packages"} & set(Path(file).parts)
        if not file.startswith("<") and os.path.dirname(file) != kernel and not python:
            where = f" (at {'/'.join(Path(file).parts[-2:])}:{tb.tb_lineno})"
        tb = tb.tb_next
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


MAX_REASON = 300  # characters of a plugin's own exception message kept in its broken entry


def _register_definitions(registry: Registry, plugin_name: str, provider: str, call: Any,
                          cache: StartupCache | None, interrupts: _Interrupts) -> None:
    """Run one plugin's ``register_variants`` and load what it registers, isolating failures:
    any exception (``SystemExit`` too) makes a broken entry, never stops the others."""
    collected: list[Any] = []
    try:
        call(register=collected.append)
    except BaseException as exc:  # a plugin's own bug must not stop the others
        registry.broken.append(BrokenPlugin(plugin_name, provider,
                                            f"register_variants failed: {_failure(exc, interrupts)}"))
        return
    for item in collected:
        name = plugin_name
        try:
            if isinstance(item, VariantDef):
                defn = item
                if not defn.provider:
                    defn.provider = provider
            elif isinstance(item, (str, Path)):
                name = Path(item).stem
                defn = load_variant_file(item, provider=provider, cache=cache)
            else:
                registry.broken.append(BrokenPlugin(
                    plugin_name, provider,
                    f"register() takes a YAML file path or a VariantDef, got {type(item).__name__}"))
                continue
            registry.add(defn, plugin_name)
        except SolitaireError as exc:
            registry.broken.append(BrokenPlugin(name, provider, str(exc)))
        except BaseException as exc:  # not a mistake the loader knows: still only this plugin's loss
            registry.broken.append(BrokenPlugin(name, provider, f"cannot load {item!r:.200}: "
                                                f"{_failure(exc, interrupts)}"))


def _plugin_error(exc: Exception, pm: pluggy.PluginManager) -> str:
    """pluggy's validation errors as one line a plugin author can act on."""
    text = str(exc)
    hooks = sorted(h for h in dir(hookspecs) if hasattr(getattr(hookspecs, h), hookspecs.PROJECT + "_spec"))
    unknown = re.search(r"unknown hook '([^']+)'", text)
    if unknown:
        return (f"unknown hook {unknown.group(1)!r}{did_you_mean(unknown.group(1), hooks)}; "
                f"the hooks are: {', '.join(hooks)}")
    args = re.search(r"hookimpl definition: (\S+)\(([^)]*)\).*Argument\(s\) (\{[^}]*\})", text, re.S)
    if args:
        hook = args.group(1)
        spec = getattr(pm.hook, hook).spec
        wanted = ", ".join(spec.argnames) if spec else "?"
        return (f"{hook}({args.group(2)}) takes argument(s) {args.group(3)} that the hook does not have; "
                f"the hook is {hook}({wanted})")
    return " ".join(text.split())


def build_registry(plugins: Iterable[tuple[str, str, Any]] = (),
                   eps: Iterable[EntryPoint] | None = None,
                   cache: StartupCache | None = None) -> Registry:
    """Load entry points (all of the ``solitaire`` group unless ``eps`` is given), then any
    extra ``(name, provider, plugin object)`` triples (tests and embedders use these).
    ``cache`` keeps the plugin list and the parsed variant files between runs. Whatever a
    plugin raises (``SystemExit`` included) makes it a broken entry; only the user's own
    Ctrl-C goes through."""
    with _Interrupts() as interrupts:
        return _build_registry(plugins, eps, cache, interrupts)


def _build_registry(plugins: Iterable[tuple[str, str, Any]], eps: Iterable[EntryPoint] | None,
                    cache: StartupCache | None, interrupts: _Interrupts) -> Registry:
    registry = Registry()
    pm = make_plugin_manager()
    loaded: list[tuple[str, str, Any]] = []
    if eps is not None:
        found = [(_provider(ep), ep.name, ep.value) for ep in eps]
    elif cache is not None:
        found = cache.entry_points(GROUP, installed_entry_points)
    else:
        found = installed_entry_points()
    # a fixed order whatever sys.path says: the kernel's own variants first, then by provider,
    # so on a name clash the same plugin is the one reported broken on every machine
    found.sort(key=lambda pnv: (pnv[0] != KERNEL_DIST, pnv[0].lower(), pnv[1]))
    for provider, name, value in found:
        if value == UNREADABLE:
            registry.broken.append(BrokenPlugin(name, provider, "its entry_points.txt does not parse: each "
                                                "line of the [solitaire] section must be 'name = module'"))
            continue
        try:
            obj = load_reference(value)
        except BaseException as exc:  # ImportError, SyntaxError, SystemExit: anything a broken package raises
            registry.broken.append(BrokenPlugin(name, provider, f"cannot import {value}: "
                                                f"{_failure(exc, interrupts)}"))
            continue
        loaded.append((name, provider, obj))
    loaded.extend(plugins)
    for name, provider, obj in loaded:
        if pm.is_registered(obj):  # two entry points naming the same module: load it once
            first = pm.get_name(obj)
            registry.broken.append(BrokenPlugin(name, provider, f"the same plugin is already loaded as {first!r}"))
            continue
        try:
            # pluggy names must be unique; two distributions may use the same entry-point name
            pm.register(obj, name=f"{provider}:{name}" if pm.has_plugin(name) else name)
            pm.check_pending()
        except Exception as exc:  # misspelled hook names, bad hookimpl signatures
            if pm.is_registered(obj):
                pm.unregister(obj)
            registry.broken.append(BrokenPlugin(name, provider, f"bad plugin: {_plugin_error(exc, pm)}"))
            continue
        except BaseException as exc:  # an object whose attributes raise SystemExit, say
            registry.broken.append(BrokenPlugin(name, provider, f"bad plugin: {_failure(exc, interrupts)}"))
            continue
        impls = [impl for impl in pm.hook.register_variants.get_hookimpls() if impl.plugin is obj]
        if not impls and not pm.get_hookcallers(obj):
            registry.broken.append(BrokenPlugin(
                name, provider, "implements no solitaire hook: expected a function register_variants(register) "
                "decorated with @solitaire.core.hookimpl"))
        before = set(registry.variants)
        for impl in impls:
            _register_definitions(registry, name, provider, impl.function, cache, interrupts)
        for impl in pm.hook.solver_knowledge.get_hookimpls():  # kept for this plugin's variants only
            if impl.plugin is obj:
                for added in set(registry.variants) - before:
                    registry.knowledge_hooks[added] = KnowledgeHook(name, provider, impl.function)
    return registry


_startup_cache_file: str | None = None


def use_startup_cache(file: str | os.PathLike[str] | None) -> str | None:
    """Let :func:`registry` keep the plugin list and parsed variant files in ``file`` between
    runs (see :mod:`.startcache`); ``None`` turns it off. Takes effect the next time the
    registry is built (once per process). Returns the file used before, to restore it."""
    global _startup_cache_file
    previous = _startup_cache_file
    _startup_cache_file = None if file is None else os.fspath(file)
    return previous


@functools.cache
def registry() -> Registry:
    """The installed variants, loaded once per process."""
    if _startup_cache_file is None:
        return build_registry()
    from .startcache import StartupCache

    cache = StartupCache(_startup_cache_file)
    built = build_registry(cache=cache)
    cache.save()
    return built


def get_variant(name: str) -> VariantDef:
    return registry().get(name)
