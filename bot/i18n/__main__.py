"""`python -m bot.i18n update` merges new messages into every catalogue; `check` lists gaps."""

from __future__ import annotations

import sys

from bot.i18n import LANGUAGES, SOURCE
from bot.i18n.catalogue import all_messages, problems, update

USAGE = "usage: python -m bot.i18n update|check"


def main(argv: list[str]) -> int:
    """Run one catalogue command; return the exit status."""
    if len(argv) != 1 or argv[0] not in ("update", "check"):
        print(USAGE, file=sys.stderr)
        return 2
    found, fstrings = all_messages()
    if argv[0] == "update":
        for language, missing in update(found).items():
            print(f"{language}: {missing} message(s) to translate or clean up")
        return 0
    status = 0
    for where in fstrings:
        print(f"{where}: an f-string error message cannot be translated; use named placeholders")
        status = 1
    for language in LANGUAGES:
        if language == SOURCE:
            continue
        for line in problems(language, found):
            print(f"{language}: {line}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
