"""Discord's side of translation: whose language an interaction speaks, and command names.

A reply speaks the language of the user's Discord client (`interaction.locale`); what the
channel sees (tracker, announcements, round summaries) speaks the server's: the one set
with `/settings language`, else the server's preferred locale (Server Settings), else
English. Command names, descriptions, options and choices are localized when they are
registered, by `CommandTranslator` from the same catalogues (context: what the text is).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import SOURCE, language_of, speak, translations

# The translator's contexts (discord.app_commands.TranslationContextLocation, by name).
COMMAND_CONTEXTS = {
    "command_name": "command name",
    "command_description": "command description",
    "group_name": "command name",
    "group_description": "command description",
    "parameter_name": "option name",
    "parameter_description": "option description",
    "choice_name": "choice",
}

# Discord's rule for a slash command's name or option name, localizations included:
# `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`, lowercase where a letter has a lowercase
# [Discord docs, Application Commands, "Application Command Naming"]. Python's Unicode `\w`
# is letters, digits and the underscore, which is that rule for every script we translate to.
NAME_RULE = re.compile(r"^[-\w]{1,32}$")


def user_language(interaction: discord.Interaction) -> str:
    """Return the language of the user's Discord client (English if there is no catalogue)."""
    return language_of(interaction.locale)


def server_language(chosen: str | None, preferred_locale: object) -> str:
    """Return what the channel speaks: the server's /settings language, else its Discord locale."""
    return language_of(chosen) if chosen else language_of(preferred_locale)


def speak_for(interaction: discord.Interaction) -> str:
    """Speak the interaction's user's language for the rest of its handling; return it."""
    language = user_language(interaction)
    speak(language)
    return language


def valid_name(name: str) -> bool:
    """Return whether Discord accepts this as a command or option name (lowercase, ≤32, …)."""
    return bool(NAME_RULE.fullmatch(name)) and name == name.lower()


class CommandTranslator(app_commands.Translator):
    """Localize command names, descriptions, options and choices from the catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == SOURCE:
            return None
        where = COMMAND_CONTEXTS.get(context.location.name)
        if where is None:
            return None
        message = string.message
        translated = translations(language).pgettext(where, message)
        if translated == message:
            return None  # not translated (or the same word): Discord shows the default
        if where in ("command name", "option name") and not valid_name(translated):
            return None  # Discord would refuse the whole sync; the test for names catches it
        return translated
