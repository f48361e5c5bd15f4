"""Finding variants: entry points in the group ``solitaire``, loaded once, each in isolation.

The built-in variants come through this same path (the project's own entry points), exactly as
a third party's do. A plugin that fails to import, misspells a hook, or registers a broken
YAML file is recorded in :attr:`Registry.broken` with its reason; the others keep working.
On a name clash the variant loaded first keeps the name: the kernel's own distribution loads
first, then the others in order of distribution name, whatever the order of ``sys.path``.
"""

from __future__ import annotations

import functools
import re
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Iterable

import attrs
import pluggy

from . import hookspecs
from .errors import SolitaireError, UnknownVariantError
from .spec import VariantDef, load_variant_file
from .yamlsource import did_you_mean

GROUP = "solitaire"
KERNEL_DIST = "solitaire-table"  # the kernel's own distribution: its variants load first


@attrs.frozen
class BrokenPlugin:
    """A plugin or variant file that could not be loaded, and why (one line)."""

    name: str
    provider: str
    reason: str


@attrs.define
class Registry:
    """The installed variants by name, and what failed to load."""

    variants: dict[str, VariantDef] = attrs.field(factory=dict)
    broken: list[BrokenPlugin] = attrs.field(factory=list)

    def add(self, defn: VariantDef) -> None:
        taken = self._lookup(defn.name)
        for alias in defn.aliases:
            taken = taken or self._lookup(alias)
        if taken is not None:
            clash = defn.name if self._lookup(defn.name) else next(a for a in defn.aliases if self._lookup(a))
            self.broken.append(BrokenPlugin(
                defn.name, defn.provider,
                f"the name {clash!r} is already taken by {taken.name!r} from {taken.provider or 'unknown'}"))
            return
        self.variants[defn.name] = defn

    def _lookup(self, name: str) -> VariantDef | None:
        if name in self.variants:
            return self.variants[name]
        for defn in self.variants.values():
            if name in defn.aliases:
                return defn
        return None

    def get(self, name: str) -> VariantDef:
        """The variant with this name or alias (case-insensitive); raise UnknownVariantError."""
        found = self._lookup(name.strip().lower())
        if found is not None:
            return found
        for b in self.broken:
            if b.name == name:
                raise UnknownVariantError(f"variant {name!r} is installed but broken: {b.reason}")
        known = ", ".join(
            d.name + (f" ({', '.join(d.aliases)})" if d.aliases else "") for d in self.sorted()
        ) or "none"
        raise UnknownVariantError(f"unknown variant {name!r}; installed: {known}")

    def sorted(self) -> list[VariantDef]:
        return [self.variants[k] for k in sorted(self.variants)]


def make_plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def _provider(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.metadata["Name"] if dist is not None else ""


def _register_definitions(registry: Registry, plugin_name: str, provider: str, call: Any) -> None:
    """Run one plugin's ``register_variants`` and load what it registers, isolating failures."""
    collected: list[Any] = []
    try:
        call(register=collected.append)
    except Exception as exc:  # a plugin's own bug must not stop the others
        registry.broken.append(BrokenPlugin(plugin_name, provider, f"register_variants failed: "
                                            f"{type(exc).__name__}: {exc}"))
        return
    for item in collected:
        try:
            if isinstance(item, VariantDef):
                defn = item
                if not defn.provider:
                    defn.provider = provider
            elif isinstance(item, (str, Path)):
                defn = load_variant_file(item, provider=provider)
            else:
                registry.broken.append(BrokenPlugin(
                    plugin_name, provider,
                    f"register() takes a YAML file path or a VariantDef, got {type(item).__name__}"))
                continue
        except SolitaireError as exc:
            name = Path(item).stem if isinstance(item, (str, Path)) else plugin_name
            registry.broken.append(BrokenPlugin(name, provider, str(exc)))
            continue
        registry.add(defn)


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
                   eps: Iterable[EntryPoint] | None = None) -> Registry:
    """Load entry points (all of the ``solitaire`` group unless ``eps`` is given), then any
    extra ``(name, provider, plugin object)`` triples (tests and embedders use these)."""
    registry = Registry()
    pm = make_plugin_manager()
    loaded: list[tuple[str, str, Any]] = []
    found = [(_provider(ep), ep) for ep in (entry_points(group=GROUP) if eps is None else eps)]
    # a fixed order whatever sys.path says: the kernel's own variants first, then by provider,
    # so on a name clash the same plugin is the one reported broken on every machine
    found.sort(key=lambda pe: (pe[0] != KERNEL_DIST, pe[0].lower(), pe[1].name))
    for provider, ep in found:
        try:
            obj = ep.load()
        except Exception as exc:  # ImportError, SyntaxError, anything a broken package raises
            registry.broken.append(BrokenPlugin(ep.name, provider, f"cannot import {ep.value}: "
                                                f"{type(exc).__name__}: {exc}"))
            continue
        loaded.append((ep.name, provider, obj))
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
        impls = [impl for impl in pm.hook.register_variants.get_hookimpls() if impl.plugin is obj]
        if not impls and not pm.get_hookcallers(obj):
            registry.broken.append(BrokenPlugin(
                name, provider, "implements no solitaire hook: expected a function register_variants(register) "
                "decorated with @solitaire.core.hookimpl"))
        for impl in impls:
            _register_definitions(registry, name, provider, impl.function)
    return registry


@functools.cache
def registry() -> Registry:
    """The installed variants, loaded once per process."""
    return build_registry()


def get_variant(name: str) -> VariantDef:
    return registry().get(name)
