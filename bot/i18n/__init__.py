"""Translation: one `_()` for every renderer and error, and whose language is spoken now.

The English text is the message id. `_("{name} takes {amount} damage.", name=…, amount=…)`
looks the id up in the catalogue of the language spoken now and fills the named
placeholders; `n_()` picks a plural form, `p_()` takes a context. The language spoken
now is a context variable: an interaction sets its user's, and the table's pipeline
switches to the server's while it builds what the channel sees (`bot.table`).

`L_()` is `_()` deferred: a `Lazy` renders in whatever language is spoken when it is
shown (`str()`, `format`), so an error raised deep in the rules reaches its user in
their language. `N_()` only marks a text for extraction (a constant translated where
it is used).

Catalogues are gettext `.po` files in `bot/locale/<lang>/LC_MESSAGES/tablehand.po`,
compiled when first needed (Babel's `read_po` / `write_mo`) and the `.mo` kept beside it,
named by the hash of the `.po` it was compiled from (`compile_catalogue`). This module
imports only the standard library at import time, so `bot.rules` may use it and stay pure.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import logging
import os
import string
from contextvars import ContextVar, Token
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DOMAIN = "tablehand"
SOURCE = "en"  # the language the message ids are written in: the default and the fallback
LANGUAGES = {"en": "English", "de": "Deutsch"}  # every language with a catalogue, and English
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_spoken: ContextVar[str] = ContextVar("tablehand_language", default=SOURCE)
_catalogues: dict[str, gettext.NullTranslations] = {}


def language_of(locale: object) -> str:
    """Return the language Tablehand speaks for a Discord locale (`de`, `en-US`, None).

    A regional locale falls back to its language (`de-AT` → `de`), anything without a
    catalogue to English.
    """
    value = getattr(locale, "value", locale)
    if not isinstance(value, str) or not value:
        return SOURCE
    value = value.replace("_", "-")
    if value in LANGUAGES:
        return value
    base = value.split("-", 1)[0].lower()
    return base if base in LANGUAGES else SOURCE


def spoken() -> str:
    """Return the language spoken now."""
    return _spoken.get()


def speak(language: str) -> Token[str]:
    """Speak this language from now on in this task (an interaction's user's); return the token."""
    return _spoken.set(language_of(language))


class speaking:  # a context manager: `with speaking("de"):`
    """Speak a language for the block (the server's, for what the channel sees)."""

    # A class, not @contextmanager: every line a table says enters one, and a generator
    # per line cost more than the switch itself.
    __slots__ = ("_language", "_token")

    def __init__(self, language: str) -> None:
        self._language = language_of(language)

    def __enter__(self) -> str:
        self._token = _spoken.set(self._language)
        return self._language

    def __exit__(self, *exc: object) -> None:
        _spoken.reset(self._token)


def catalogue_path(language: str) -> Path:
    """Return where a language's catalogue is kept."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled_path(language: str, source: bytes) -> Path:
    """Return where the `.mo` compiled from this `.po` text is kept (named by its hash)."""
    digest = hashlib.sha256(source).hexdigest()[:16]
    return catalogue_path(language).with_name(f"{DOMAIN}-{digest}.mo")


def compile_mo(language: str, source: bytes) -> bytes:
    """Compile a language's `.po` text to a gettext `.mo` (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(source), locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    return compiled.getvalue()


def compile_catalogue(language: str) -> gettext.NullTranslations:
    """Read a language's catalogue as gettext does, compiled from its `.po` as it is now.

    Compiling (Babel) takes a tenth of a second, every start: the `.mo` is kept beside the
    `.po` under the hash of the `.po` text, so an edited `.po` is compiled again and a
    stale `.mo` is never read. Where the directory is read-only, it is compiled each time.
    """
    source = catalogue_path(language).read_bytes()
    compiled = compiled_path(language, source)
    try:
        data = compiled.read_bytes()
    except OSError:
        data = compile_mo(language, source)
        _keep(compiled, data)
    return gettext.GNUTranslations(io.BytesIO(data))


def _keep(path: Path, data: bytes) -> None:
    """Write a compiled catalogue, replacing any other of this language's (best effort)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)  # whole or not at all, whoever else compiles at once
    except OSError as error:
        partial.unlink(missing_ok=True)
        log.info("could not keep the compiled catalogue %s: %s", path.name, error)
        return
    for old in path.parent.glob(f"{DOMAIN}-*.mo"):
        if old != path:
            old.unlink(missing_ok=True)


def translations(language: str) -> gettext.NullTranslations:
    """Return a language's compiled catalogue (English: none, the ids are English)."""
    found = _catalogues.get(language)
    if found is None:
        found = gettext.NullTranslations() if language == SOURCE else compile_catalogue(language)
        _catalogues[language] = found
    return found


def load_all() -> None:
    """Compile every catalogue now (at start-up), not on a user's first message."""
    for language in LANGUAGES:
        translations(language)


def _fill(template: str, source: str, fields: dict[str, Any]) -> str:
    if not fields:
        return template
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        # A catalogue entry with a broken placeholder: the English text is still right.
        log.error("bad placeholders in the translation of %r", source)
        return source.format(**fields)


def _(message: str, /, **fields: Any) -> str:
    """Return the message in the language spoken now, its `{placeholders}` filled."""
    language = _spoken.get()
    text = message if language == SOURCE else translations(language).gettext(message)
    return _fill(text, message, fields)


def n_(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """Return the singular or plural message for `n` (also the `{n}` placeholder)."""
    language = _spoken.get()
    if language == SOURCE:
        text = singular if n == 1 else plural
    else:
        text = translations(language).ngettext(singular, plural, n)
    return _fill(text, singular if n == 1 else plural, {"n": n, **fields})


def p_(context: str, message: str, /, **fields: Any) -> str:
    """Return the message as meant in a context (`"choice"`, `"command"`), translated."""
    language = _spoken.get()
    text = message if language == SOURCE else translations(language).pgettext(context, message)
    return _fill(text, message, fields)


def has_translation(message: str, /) -> bool:
    """Return whether the language spoken now has this message (English has every one)."""
    language = _spoken.get()
    if language == SOURCE:
        return True
    return message in translations(language)._catalog  # type: ignore[attr-defined]


def N_(message: str, /) -> str:
    """Mark a text for the catalogue without translating it (it is translated where used)."""
    return message


class Lazy:
    """A message rendered when shown, in the language spoken then (see `L_`)."""

    __slots__ = ("context", "fields", "message", "n", "plural")

    def __init__(
        self,
        message: str,
        fields: dict[str, Any],
        *,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
    ) -> None:
        self.message = message
        self.fields = fields
        self.plural = plural
        self.n = n
        self.context = context

    def __str__(self) -> str:
        if self.plural is not None and self.n is not None:
            return n_(self.message, self.plural, self.n, **self.fields)
        if self.context is not None:
            return p_(self.context, self.message, **self.fields)
        return _(self.message, **self.fields)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lazy):
            return (self.message, self.fields, self.plural, self.n, self.context) == (
                other.message,
                other.fields,
                other.plural,
                other.n,
                other.context,
            )
        return isinstance(other, str) and str(self) == other

    def __hash__(self) -> int:
        return hash(self.message)

    def __repr__(self) -> str:
        return f"L_({self.message!r})"


class Sentence(Lazy):
    """A sentence with translated fragments in it ("Only the GM can {doing}."), in one language.

    Each fragment is an English message id (empty: nothing); where the language spoken has
    no translation of one yet, the whole sentence is said in English rather than mixed.
    """

    __slots__ = ("fragments",)

    def __init__(self, message: str, fragments: dict[str, str], /, **fields: Any) -> None:
        super().__init__(message, fields)
        self.fragments = fragments

    def __str__(self) -> str:
        if all(has_translation(f) for f in self.fragments.values() if f):
            said = {slot: _(f) if f else "" for slot, f in self.fragments.items()}
            return _(self.message, **said, **self.fields)
        with speaking(SOURCE):
            return _(self.message, **self.fragments, **self.fields)


class Phrase(Sentence):
    """A sentence with one translated fragment in it: `Phrase(message, slot, fragment)`."""

    __slots__ = ()

    def __init__(self, message: str, slot: str, fragment: str) -> None:
        super().__init__(message, {slot: fragment})


def L_(message: str, /, **fields: Any) -> Lazy:
    """Return `_(message, **fields)` deferred until it is shown."""
    return Lazy(message, fields)


def Ln_(singular: str, plural: str, n: int, /, **fields: Any) -> Lazy:
    """Return `n_(…)` deferred until it is shown."""
    return Lazy(singular, fields, plural=plural, n=n)


def Lp_(context: str, message: str, /, **fields: Any) -> Lazy:
    """Return `p_(…)` deferred until it is shown."""
    return Lazy(message, fields, context=context)


Text = str | Lazy  # what an error or a line may carry: already rendered, or rendered when shown


def render(text: object) -> str:
    """Return a text in the language spoken now (a `Lazy` is rendered, anything else `str()`)."""
    return str(text)


def placeholders(template: str) -> set[str]:
    """Return the named `{placeholders}` of a message (for the catalogue checks)."""
    names: set[str] = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".", 1)[0].split("[", 1)[0])
    return names
