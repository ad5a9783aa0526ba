"""The rule hooks in force for one header, resolved once into plain functions.

pluggy finds the implementations of a game's rule hooks (the official rules,
then each variant the header enables); this module turns each hook into one
plain function, so a game asks a rule on every move at the cost of a
function call, not of a pluggy dispatch. The calling convention is pluggy's:
keyword arguments; a variant's implementation is tried first and one that
returns None falls through to the next; ``@rulehook(wrapper=True)``
implementations wrap everything below them (``result = yield``). What of
pluggy's call loop the compiled chains keep, and where they differ, is said
once, above :func:`_chain`; ``tests/host/test_rules.py`` holds them to pluggy's
own ``pm.hook.NAME(...)`` on random sets of implementations.

Variant parameters live here too: a variant whose ``rules`` is a class takes
its attrs fields as parameters, written ``NAME:key=value,...``.
"""

from __future__ import annotations

import inspect
import keyword
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs
import pluggy

from ..base.errors import PluginError, UsageError
from ..base.naming import where

F = TypeVar("F", bound=Callable[..., Any])

rulespec = pluggy.HookspecMarker("tabletop.rules")
rulehook = pluggy.HookimplMarker("tabletop.rules")

# -- the three families of rule hooks ------------------------------------------
#: A rule the header fixes (directions, a stack height, the turn's steps, the
#: costs): asked once per game, when the game is made, and compiled into its
#: tables; its arguments never include a state.
HEADER = "header-time parameter"
#: A rule asked during play (may this chip cover that one? what does this move
#: cost?): the first answer that is not None decides; a game asks it only where
#: it can matter.
MOVE = "per-move rule"
#: A rule every variant in force contributes to (several variants may each add
#: decisions, spells, figures): not firstresult, the answers are gathered into
#: a list.
GATHERING = "gathering hook"
_FAMILY = "tabletop_family"


def _family(family: str, firstresult: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def mark(function: Callable[..., Any]) -> Callable[..., Any]:
        setattr(function, _FAMILY, family)
        return rulespec(firstresult=firstresult)(function)

    return mark


#: Decorators for a game's rule hookspecs, one per family.
header_rule = _family(HEADER, True)
move_rule = _family(MOVE, True)
gathering_rule = _family(GATHERING, False)


def family_of(function: Any) -> str | None:
    """The family of a rule hookspec (None for anything that is not one). A
    spec declared with plain ``@rulespec`` is a per-move rule when firstresult,
    else a gathering hook."""
    opts = getattr(function, "tabletop.rules_spec", None)
    if opts is None:
        return None
    return getattr(function, _FAMILY, None) or (MOVE if opts.get("firstresult") else GATHERING)


#: Parameter values are short words on a command line; longer ones are refused
#: before they are converted (int() of a long digit string is slow).
MAX_VALUE_LENGTH = 64


# -- the official rule, and its fast form -------------------------------------------
_FORM = "tabletop_fast_form"


def fast_form(form: str) -> Callable[[F], F]:
    """Declare of an official rule that its answer is ``form``: a name the
    game gives a reading of its own (a table made once per header, a test
    inlined on its hot path; Glüx's "the squares holding no chip"). While
    that rule alone is in force, :meth:`Rules.form` names the form, and the
    game reads it instead of asking the rule; once a variant replaces or
    wraps the rule, the form is None and the rule is asked, on every path.

    A game that declares a form holds it to its rule with a test (every
    position of whole games: the form answers as the rule does). A variant
    declares no form: its rule is asked."""

    def declare(function: F) -> F:
        setattr(function, _FORM, form)
        return function

    return declare


def declared_form(function: Any) -> str | None:
    """The form ``function`` declares with :func:`fast_form`, or None."""
    return getattr(function, _FORM, None)


class Rules:
    """The rule hooks in force for one game: one attribute per hook, each a
    plain function called with keyword arguments.

    With only the official rule in force the attribute *is* the official
    function (when it takes every argument of its hook). The one way to
    ask whether that is so is :meth:`official`; :meth:`form` names the fast
    form the official rule declares (:func:`fast_form`), while it is so.
    """

    def __init__(
        self,
        functions: Mapping[str, Callable[..., Any]],
        overridden: Iterable[str] = (),
        arguments: Mapping[str, Iterable[str]] | None = None,
        variants: Mapping[str, tuple[tuple[str, str], ...]] | None = None,
        forms: Mapping[str, str] | None = None,
    ) -> None:
        self.__dict__.update(functions)
        self._names = tuple(sorted(functions))
        self._overridden = frozenset(overridden)
        self._arguments = None if arguments is None else {name: frozenset(args) for name, args in arguments.items()}
        self._variants = dict(variants or {})
        self._forms = {name: form for name, form in (forms or {}).items() if name not in self._overridden}

    def official(self, name: str) -> bool:
        """Whether the official rule alone is in force for the rule hook
        ``name``: no variant implements it (neither replaces nor wraps it).
        A game may then read the rule in a form of its own, made once per
        header; else it asks the rule."""
        if name not in self._names:
            raise KeyError(f"no rule hook named {name!r}")
        return name not in self._overridden

    def form(self, name: str) -> str | None:
        """The fast form the official rule of ``name`` declares
        (:func:`fast_form`), while it alone is in force (:meth:`official`);
        else None: the rule is asked."""
        if name not in self._names:
            raise KeyError(f"no rule hook named {name!r}")
        return self._forms.get(name)

    def takes(self, name: str, argument: str) -> bool:
        """Whether any implementation in force of the rule hook ``name`` takes
        ``argument``. When none does, the answer cannot depend on it, and a
        game may ask the rule once for every value of that argument (Glüx asks
        rule 4 once per square, not once per face, when no rule in force
        reads the face)."""
        if name not in self._names:
            raise KeyError(f"no rule hook named {name!r}")
        return self._arguments is None or argument in self._arguments.get(name, ())

    def refuse(self, name: str, problem: str) -> PluginError:
        """The error for an answer of the rule hook ``name`` that the game
        cannot use (a chip of a kind it does not have, a square off the
        board): one line naming the variants that implement the hook, where
        each is, and ``problem``."""
        found = self._variants.get(name, ())
        if len(found) == 1:
            variant, place = found[0]
            return PluginError(f"variant '{variant}': {name} {problem}", where=place)
        if found:
            named = ", ".join(f"'{variant}' ({place})" for variant, place in found)
            return PluginError(f"variants {named}: {name} {problem}")
        return PluginError(f"{name} {problem}")

    @property
    def names(self) -> tuple[str, ...]:
        """The names of every rule hook of the game."""
        return self._names

    def __repr__(self) -> str:
        changed = ", ".join(sorted(self._overridden)) or "none"
        return f"<Rules: {len(self._names)} hooks, changed by variants: {changed}>"


def resolve(hooks: Any, official: Iterable[str]) -> Rules:
    """Plain functions for every hook of a rule manager's ``hooks`` relay.

    ``official`` names the plugins whose implementations are the official
    rules: they are the game's own code, called as they are. Every other
    implementation (a variant's) is called behind a guard: an exception it
    raises, or an answer not of the type its hookspec declares, is a
    :class:`~tabletop.base.errors.PluginError` naming the variant, its file and
    line and the hook (see :mod:`tabletop.host.answers`).
    """
    official = set(official)
    functions: dict[str, Callable[..., Any]] = {}
    arguments: dict[str, set[str]] = {}
    overridden = []
    variants: dict[str, tuple[tuple[str, str], ...]] = {}
    forms: dict[str, str] = {}
    for name, caller in vars(hooks).items():
        if not isinstance(caller, pluggy.HookCaller) or caller.spec is None:
            continue
        impls = caller.get_hookimpls()
        theirs = [impl for impl in impls if impl.plugin_name not in official]
        if theirs:
            overridden.append(name)
            variants[name] = tuple((impl.plugin_name, where(impl.function)) for impl in theirs)
        elif len(impls) == 1 and not impls[0].wrapper and (form := declared_form(impls[0].function)) is not None:
            forms[name] = form
        functions[name] = _chain(caller, impls, official)
        argnames = tuple(caller.spec.argnames)
        arguments[name] = {arg for impl in impls for arg in _taken(impl, argnames)}
    return Rules(functions, overridden, arguments, variants, forms)


# -- the chains: pluggy's call loop, compiled ---------------------------------------
# A hook's chain is one plain function, made once per header, that does what
# pluggy's ``pm.hook.NAME(**kwargs)`` does with the same implementations:
#
# - the order is pluggy's (``HookCaller.get_hookimpls()``, called from its
#   end): the last registered first (a variant before the official rule),
#   ``tryfirst`` ones before and ``trylast`` ones after the others; every
#   wrapper runs around every plain implementation, the first to be called
#   outermost;
# - each implementation is given the arguments it takes: its parameters
#   without a default, and those with one that are the hook's arguments;
# - firstresult: the plain implementations are called in turn until one
#   answers something other than None, which is the answer (None when none
#   does); a gathering hook calls them all and answers the list of their
#   answers that are not None;
# - a wrapper runs to its ``yield``, then is sent the answer of what it wraps,
#   or has thrown in at its ``yield`` the exception raised there (the next
#   wrapper's, or a plain implementation's, which stops the plain ones); what
#   it returns is the answer from then on, what it raises goes on to the
#   wrappers around it.
#
# Where they differ, on purpose: a chain takes the hook's arguments only,
# each None when not given (pluggy passes whatever it is given and fails
# on a missing one when an implementation takes it); a wrapper that yields
# twice or never is a PluginError (pluggy raises RuntimeError); an old-style
# ``hookwrapper=True`` is refused when the rules are resolved (and in a
# variant when its plugin loads). An implementation not trusted (a
# variant's) is called behind its guard (:mod:`tabletop.host.answers`): an answer
# not of the declared type, a wrapper's None where what it wraps answered,
# or an exception it raises (other than tabletop's own) is a PluginError
# naming it, thrown as such into the wrappers around it.
def _chain(caller: pluggy.HookCaller, impls: list[Any], official: set[str] | None = None) -> Callable[..., Any]:
    spec = caller.spec
    assert spec is not None
    firstresult = bool(spec.opts.get("firstresult"))
    argnames = tuple(spec.argnames)
    if not impls:
        return _missing(caller.name, firstresult)
    for impl in impls:
        if impl.hookwrapper:
            raise PluginError(
                f"'{impl.plugin_name}': rule hook '{caller.name}': write @rulehook(wrapper=True) "
                "(a generator that yields once and returns the result), not hookwrapper=True",
                where=where(impl.function),
            )
    trusted = set(official or ())
    blames = _Blames(caller.name, spec.function, trusted)
    # pluggy calls the last registered first; wrappers are kept after the others.
    order = list(reversed(impls))
    wrappers = [impl for impl in order if impl.wrapper]
    plain = [impl for impl in order if not impl.wrapper]
    if firstresult and len(plain) == 1 and _taken(plain[0], argnames) == argnames and blames(plain[0]) is None:
        # The common case: one official implementation taking every argument is itself the rule.
        inner: Callable[..., Any] = plain[0].function
    elif firstresult:
        inner = _first(caller.name, argnames, plain, blames)
    else:
        inner = _gather(caller.name, argnames, plain, blames)
    for impl in reversed(wrappers):  # the first to call is the outermost
        blame = blames(impl, wrapper=not firstresult)
        inner = _wrap(caller.name, argnames, impl, inner, blame or _Trusted(impl), firstresult)
    return inner


class _Blames:
    """The :class:`~tabletop.host.answers.Blame` of each implementation of one
    hook that is not trusted (None for an official one); the hookspec's
    declared answer is read once, when first needed."""

    def __init__(self, hook: str, spec_function: Any, trusted: set[str]) -> None:
        self.hook = hook
        self.spec_function = spec_function
        self.trusted = trusted
        self._expected: Any = _UNREAD

    def __call__(self, impl: Any, wrapper: bool = False) -> Any:
        """``impl``'s blame; ``wrapper``: it wraps a gathering hook, and answers the list."""
        if impl.plugin_name in self.trusted:
            return None
        from .answers import Blame, expected, gathered

        if self._expected is _UNREAD:
            self._expected = expected(self.spec_function)
        answer = gathered(self._expected) if wrapper else self._expected
        return Blame(impl.plugin_name, self.hook, impl.function, answer)


_UNREAD = object()


class _Trusted:
    """An official wrapper's stand-in for a blame: its answers and errors go on as they are."""

    def __init__(self, impl: Any) -> None:
        self.message = f"the wrapper {getattr(impl.function, '__qualname__', impl.function)}"
        self.exact: frozenset[type] = frozenset()

    def check(self, value: Any) -> None:
        return None

    def raised(self, exc: BaseException) -> BaseException:
        return exc

    def dropped(self) -> None:
        return None

    def silent(self) -> PluginError:
        return PluginError(self.message + " returns without yielding")

    def twice(self) -> PluginError:
        return PluginError(self.message + " yields more than once")


# Each chain is compiled into one plain function whose keyword parameters are
# the hook's arguments, each implementation called with just the ones it
# takes: a rule asked hundreds of times a game then costs a function call per
# implementation, with no dictionary of arguments made on the way. A
# variant's implementation is called inside a ``try`` (free in Python 3.11
# until something is raised) and its answer's class looked up in a set.
def _taken(impl: Any, argnames: tuple[str, ...]) -> tuple[str, ...]:
    """The arguments ``impl`` is given, of the hook's ``argnames``: those it
    takes without a default, then those with one that the hook passes."""
    return (*impl.argnames, *(name for name in impl.kwargnames if name in argnames))


def _signature(argnames: tuple[str, ...]) -> str:
    return "*, " + ", ".join(f"{name}=None" for name in argnames) if argnames else ""


def _passing(names: Iterable[str]) -> str:
    return ", ".join(f"{name}={name}" for name in names)


def _compile(name: str, source: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    exec(compile(source, f"<rule hook {name}>", "exec"), namespace)  # noqa: S102 - made from identifiers only
    function = namespace[name]
    function.__qualname__ = name
    return function


#: The names the generated chains use themselves: an argument of a hook
#: named so would be shadowed, so such a hook takes the slower closures.
_TAKEN = frozenset(
    {
        "found",
        "result",
        "answer",
        "generator",
        "wrapper",
        "inner",
        "throw",
        "blame",
        "passes",
        "exc",
        "stop",
        "PluginError",
        "message",
        "_",
    }
)


def _plain_names(name: str, argnames: tuple[str, ...]) -> bool:
    return all(
        arg.isidentifier()
        and not keyword.iskeyword(arg)
        and arg not in _TAKEN
        and not any(arg.startswith(prefix) and arg[len(prefix) :].isdigit() for prefix in ("rule", "blame", "exact"))
        for arg in (name, *argnames)
    )


def _first(name: str, argnames: tuple[str, ...], plain: list[Any], blames: Any) -> Callable[..., Any]:
    """The first answer that is not None, trying each implementation in turn."""
    if not _plain_names(name, argnames):
        functions = [_guarded(_adapt(impl, argnames), blames(impl)) for impl in plain]

        def first(**kwargs: Any) -> Any:
            for function in functions:
                result = function(**kwargs)
                if result is not None:
                    return result
            return None

        return first
    return _calling(name, argnames, plain, blames, ("", "        return result", "    return None"))


def _gather(name: str, argnames: tuple[str, ...], plain: list[Any], blames: Any) -> Callable[..., Any]:
    """Every implementation's answer that is not None, in a list."""
    if not _plain_names(name, argnames):
        functions = [_guarded(_adapt(impl, argnames), blames(impl)) for impl in plain]
        return lambda **kwargs: [r for r in (function(**kwargs) for function in functions) if r is not None]
    return _calling(
        name, argnames, plain, blames, ("    found = []", "        found.append(result)", "    return found")
    )


_GUARDED_CALL = """    try:
        result = rule{i}({passing})
    except BaseException as exc:
        if passes(exc):
            raise
        raise blame{i}.raised(exc) from None
    if result is not None:
        if result.__class__ not in exact{i}:
            blame{i}.check(result)
"""


def _calling(
    name: str, argnames: tuple[str, ...], plain: list[Any], blames: Any, parts: tuple[str, str, str]
) -> Callable[..., Any]:
    """A function calling each implementation in turn: ``parts`` are its
    first line, what it does with an answer that is not None, its last line."""
    from .answers import passes

    start, answered, end = parts
    lines = [f"def {name}({_signature(argnames)}):", *([start] if start else [])]
    namespace: dict[str, Any] = {"passes": passes}
    for i, impl in enumerate(plain):
        namespace[f"rule{i}"] = impl.function
        blame = blames(impl)
        passing = _passing(_taken(impl, argnames))
        if blame is None:
            lines += [f"    result = rule{i}({passing})", "    if result is not None:", answered]
        else:
            namespace[f"blame{i}"], namespace[f"exact{i}"] = blame, blame.exact
            lines += [_GUARDED_CALL.format(i=i, passing=passing).rstrip("\n"), answered]
    lines.append(end)
    return _compile(name, "\n".join(lines) + "\n", namespace)


def _guarded(function: Callable[..., Any], blame: Any) -> Callable[..., Any]:
    """``function`` behind ``blame``'s guard (the slow path of hooks whose
    arguments the generated code cannot name)."""
    if blame is None:
        return function
    from .answers import passes

    def guarded(**kwargs: Any) -> Any:
        try:
            result = function(**kwargs)
        except BaseException as exc:
            if passes(exc):
                raise
            raise blame.raised(exc) from None
        if result is not None and result.__class__ not in blame.exact:
            blame.check(result)
        return result

    return guarded


def _adapt(impl: Any, argnames: tuple[str, ...]) -> Callable[..., Any]:
    """The implementation, called with the spec's keyword arguments. pluggy lets
    an implementation take only some of them; such a one is given just those."""
    function = impl.function
    wanted = _taken(impl, argnames)
    if wanted == argnames:
        return function
    return lambda **kwargs: function(**{name: kwargs[name] for name in wanted})


# A wrapper runs to its ``yield``, is sent what it wraps answers (or has its
# exception thrown in) and returns the answer in force. A variant's wrapper
# is blamed for what it raises itself and for an answer of the wrong type,
# or None where what it wraps answered; what the rules below it raise goes
# on as it is (a variant's below is blamed there already).
_WRAPPED = """
def {name}({signature}):
    try:
        generator = wrapper({wanted})
        for _ in generator:
            break
        else:
            raise blame.silent()
    except BaseException as exc:
        if passes(exc):
            raise
        raise blame.raised(exc) from None
    try:
        result = inner({passed})
    except BaseException as exc:
        return throw(generator, exc, blame, exact)
    try:
        generator.send(result)
    except StopIteration as stop:
        answer = stop.value
    except BaseException as exc:
        if passes(exc):
            raise
        raise blame.raised(exc) from None
    else:
        raise blame.twice()
    if answer is None:
        if {dropped}:
            dropped = blame.dropped()
            if dropped is not None:
                raise dropped
    elif answer.__class__ not in exact:
        blame.check(answer)
    return answer
"""


def _wrap(
    name: str, argnames: tuple[str, ...], impl: Any, inner: Callable[..., Any], blame: Any, firstresult: bool
) -> Callable[..., Any]:
    """``inner`` wrapped by the wrapper ``impl``."""
    from .answers import passes

    wrapper = impl.function
    if _plain_names(name, argnames):
        signature, wanted, passed = _signature(argnames), _passing(_taken(impl, argnames)), _passing(argnames)
    else:
        # Arguments the generated code cannot name: the same code, by keywords.
        name, signature, wanted, passed = "wrapped", "**kwargs", "**kwargs", "**kwargs"
        wrapper = _adapt(impl, argnames)
    # A gathering hook's wrapper always returns the list; a firstresult
    # one, an answer whenever what it wraps gave one.
    dropped = "result is not None" if firstresult else "True"
    source = _WRAPPED.format(name=name, signature=signature, wanted=wanted, passed=passed, dropped=dropped)
    namespace = {
        "wrapper": wrapper,
        "inner": inner,
        "throw": _throw,
        "blame": blame,
        "exact": blame.exact,
        "passes": passes,
    }
    return _compile(name, source, namespace)


def _throw(generator: Any, exc: BaseException, blame: Any, exact: Any) -> Any:
    """``exc``, raised by what a wrapper wraps, thrown in at its ``yield``:
    the wrapper may return an answer instead, or let it (or another) rise."""
    from .answers import passes

    try:
        generator.throw(exc)
    except StopIteration as stop:
        answer = stop.value
    except BaseException as raised:
        if raised is exc or passes(raised):
            raise
        raise blame.raised(raised) from None
    else:
        raise blame.twice()
    if answer is not None and answer.__class__ not in exact:
        blame.check(answer)
    return answer


def _missing(name: str, firstresult: bool) -> Callable[..., Any]:
    def nobody(**kwargs: Any) -> Any:
        return None if firstresult else []

    nobody.__name__ = name
    return nobody


# -- checking a game's official rules when its rules are made ----------------------
def check_official(game: str, hooks: Any, official: Iterable[str], rules: Sequence[object]) -> None:
    """Every rule hook a game's specs declare (``hooks``, a rule manager's
    relay) must have an implementation among its official rules (the
    plugins named ``official``, registered from ``rules``): a hook nobody
    implements would answer None (or []) in silence, and a game would run
    without the rule (a module whose functions are not marked
    ``@rulehook``: games that never end). Else one line naming the game,
    the first hook missing and the official rules' module or class."""
    official = set(official)
    for name, caller in sorted(vars(hooks).items()):
        if not isinstance(caller, pluggy.HookCaller) or caller.spec is None:
            continue
        if any(impl.plugin_name in official for impl in caller.get_hookimpls()):
            continue
        if not rules:
            raise PluginError(
                f"game '{game}': its rule_specs declare the rule hook '{name}', and it has no official_rules "
                "to implement it",
                where=where(caller.spec.function),
            )
        named = ", ".join(_rules_named(r) for r in rules)
        raise PluginError(
            f"game '{game}': its official rules ({named}) implement no '{name}', a rule hook its rule_specs "
            f"declare (a function or method named {name}, marked @rulehook)",
            where=_rules_where(rules[0]),
        )


def _rules_named(rules: object) -> str:
    """The official rules as a message names them: a module's name, else its
    class's (the message says where either is)."""
    if inspect.ismodule(rules):
        return f"module {rules.__name__}"
    return (rules if isinstance(rules, type) else type(rules)).__qualname__


def _rules_where(rules: object) -> str:
    """Where the official rules are: a module's file, else its class's place."""
    if inspect.ismodule(rules):
        return getattr(rules, "__file__", None) or "?"
    return where(rules if isinstance(rules, type) else type(rules))


# -- checking a variant's rules when its plugin loads ------------------------------
def check_rules(variant_name: str, game: str, rules: object, specs: Any) -> None:
    """Check a variant's rule hook implementations against its game's specs:
    every hook name known, every argument one the hook passes."""
    spec_args = spec_arguments(specs)
    known = ", ".join(sorted(spec_args)) or "none"
    for attr in dir(rules):
        if attr.startswith("__"):
            continue
        try:
            function = getattr(rules, attr)
        except Exception:
            continue
        if not callable(function):
            continue
        opts = getattr(function, "tabletop.rules_impl", None)
        if opts is None:
            continue
        name = opts.get("specname") or attr
        if name not in spec_args:
            raise PluginError(
                f"variant '{variant_name}': '{name}' is not a rule hook of {game} (rule hooks: {known})",
                where=where(function),
            )
        taken = _argnames(function)
        unknown = [arg for arg in taken if arg not in spec_args[name]]
        if unknown:
            raise PluginError(
                f"variant '{variant_name}': rule hook '{name}' has no argument '{unknown[0]}' "
                f"(it passes: {', '.join(spec_args[name]) or 'nothing'})",
                where=where(function),
            )
        if opts.get("hookwrapper"):
            raise PluginError(
                f"variant '{variant_name}': rule hook '{name}': write @rulehook(wrapper=True) "
                "(a generator that yields once and returns the result)",
                where=where(function),
            )


def spec_arguments(specs: Any) -> dict[str, tuple[str, ...]]:
    """Each rule hook a specs module or class declares, with its arguments."""
    found = {}
    if specs is None:
        return found
    for attr in dir(specs):
        function = getattr(specs, attr, None)
        if callable(function) and hasattr(function, "tabletop.rules_spec"):
            found[attr] = _argnames(function)
    return found


#: The names of a method's first parameter that pluggy takes for its
#: instance or class (and leaves out) when the method is read off its class.
_IMPLICIT = ("self", "cls")
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _argnames(function: Any) -> tuple[str, ...]:
    """The arguments a hook implementation or spec takes, read as pluggy
    reads them (``HookImpl.argnames`` then ``kwargnames``): its positional
    parameters, those with a default too, less the instance or class of a
    method read off its class. Read once per function, as a plugin loads."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # no signature to read: nothing it can be passed
        return ()
    names = tuple(parameter.name for parameter in parameters if parameter.kind in _POSITIONAL)
    if names and names[0] in _IMPLICIT and not inspect.ismethod(function) and not isinstance(function, type):
        # A function defined in a class (its qualified name says so), read
        # off the class: its first parameter is the instance pluggy passes.
        qualname = getattr(inspect.unwrap(function), "__qualname__", "")
        if "." in qualname.rsplit("<locals>.", 1)[-1]:
            names = names[1:]
    return names


# -- variant parameters ----------------------------------------------------------
@attrs.frozen
class Parameter:
    """One parameter of a variant: its name, type and default (``attrs.NOTHING``
    when it must be given)."""

    name: str
    type: type
    default: Any
    help: str = ""

    def describe(self) -> str:
        text = f"{self.name}: {self.type.__name__}"
        if self.default is not attrs.NOTHING:
            text += f" = {format_value(self.default)}"
        return text


PARAMETER_TYPES = (int, float, bool, str)


def parameters(rules: object, variant_name: str = "?") -> tuple[Parameter, ...]:
    """The parameters a variant's ``rules`` take: the attrs fields of a class;
    none for an instance or a module."""
    if not isinstance(rules, type):
        return ()
    if not attrs.has(rules):
        return ()
    try:
        attrs.resolve_types(rules)
    except Exception as exc:
        raise PluginError(f"variant '{variant_name}': cannot read its parameters' types: {exc}") from None
    found = []
    for field in attrs.fields(rules):
        if field.type not in PARAMETER_TYPES:
            raise PluginError(
                f"variant '{variant_name}': parameter '{field.name}' must be int, float, bool or str, not {field.type}",
                where=where(rules),
            )
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        found.append(Parameter(field.name, field.type, default, str(field.metadata.get("help", ""))))
    return tuple(found)


def split_entry(entry: str) -> tuple[str, dict[str, str]]:
    """``NAME:key=value,...`` as the name and the raw values."""
    name, sep, rest = entry.partition(":")
    values: dict[str, str] = {}
    if not sep:
        return name, values
    if not rest:
        raise UsageError(f"variant '{name}': write NAME:key=value,... (nothing follows the ':')")
    for pair in rest.split(","):
        key, eq, value = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise UsageError(f"variant '{name}': '{_short(pair)}' is not key=value")
        if key in values:
            raise UsageError(f"variant '{name}': parameter '{_short(key)}' is given twice")
        values[key] = value.strip()
    return name, values


def read_values(variant_name: str, declared: Sequence[Parameter], raw: Mapping[str, str]) -> dict[str, Any]:
    """Typed values for a variant's parameters; one clear error for a wrong one."""
    if raw and not declared:
        raise UsageError(f"variant '{variant_name}' takes no parameters")
    by_name = {p.name: p for p in declared}
    values: dict[str, Any] = {}
    for key, text in raw.items():
        parameter = by_name.get(key)
        if parameter is None:
            known = ", ".join(p.describe() for p in declared) or "none"
            raise UsageError(f"variant '{variant_name}' has no parameter '{_short(key)}' (parameters: {known})")
        values[key] = _convert(variant_name, parameter, text)
    for parameter in declared:
        if parameter.name not in values and parameter.default is attrs.NOTHING:
            raise UsageError(
                f"variant '{variant_name}' needs {parameter.describe()}: write {variant_name}:{parameter.name}=VALUE"
            )
    return values


def _convert(variant_name: str, parameter: Parameter, text: str) -> Any:
    problem = f"variant '{variant_name}': {parameter.name}='{_short(text)}' is not "
    if len(text) > MAX_VALUE_LENGTH:
        raise UsageError(problem + f"a value of at most {MAX_VALUE_LENGTH} characters")
    kind = parameter.type
    if kind is bool:
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise UsageError(problem + "true or false")
    if kind is int:
        try:
            return int(text, 10)
        except ValueError:
            raise UsageError(problem + "a whole number") from None
    if kind is float:
        try:
            value = float(text)
        except ValueError:
            raise UsageError(problem + "a number") from None
        if not math.isfinite(value):
            raise UsageError(problem + "a finite number")
        return value
    if not text.isprintable():
        raise UsageError(problem + "printable text")
    return text


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def entry(name: str, values: Mapping[str, Any], declared: Sequence[Parameter]) -> str:
    """The canonical header entry: the parameters given, in declared order."""
    given = [f"{p.name}={format_value(values[p.name])}" for p in declared if p.name in values]
    return f"{name}:{','.join(given)}" if given else name


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
