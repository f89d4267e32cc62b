"""`--secret NAME` (asked for without echo) and `--secret NAME=env:VAR` (read from the environment).

A secret never travels on the command line: argv is readable by every local user in /proc. A literal
`NAME=value` is refused, and a secret found in a task given on the command line is warned about.
`run` and `resume` both take these options. The values fill the plan's `{{secret:NAME}}` placeholders
(a plan file gets its values this way) and are held in memory by the run's vault only.
"""

from __future__ import annotations

import getpass
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from common.secrecy import NAME

_SPEC = re.compile(rf"^(?P<name>{NAME})(?:=env:(?P<var>[A-Za-z_][A-Za-z0-9_]*))?$")


class SecretOptionError(ValueError):
    """A --secret option that is malformed, literal or names an unset variable."""


def argv_warning(names: Iterable[str]) -> str:
    """The warning for secrets found in a task given on the command line: other local users can
    read a process's arguments (/proc/PID/cmdline) for as long as it runs."""
    named = sorted(names)
    first = named[0]
    return (
        f"waypost: warning: the task on the command line held a secret ({', '.join(named)}); other local "
        "users can read a command line while it runs. Next time write {{secret:" + first + "}} in the task "
        f"and pass --secret {first} (asked without echo) or --secret {first}=env:VAR"
    )


def missing_sentence(run_id: str, names: Iterable[str]) -> str:
    named = sorted(names)
    flags = " ".join(f"--secret {n}" for n in named)
    return (
        f"run {run_id} declared secret(s) {', '.join(named)}, which are never stored: give them again "
        f"with {flags} (asked without echo, or NAME=env:VAR)"
    )


def read_secrets(
    specs: Sequence[str],
    *,
    environ: Mapping[str, str] | None = None,
    ask: Callable[[str], str] = getpass.getpass,
) -> dict[str, str]:
    env = os.environ if environ is None else environ
    values: dict[str, str] = {}
    for spec in specs:
        m = _SPEC.match(spec)
        if m is None:
            if "=" in spec and "=env:" not in spec:
                raise SecretOptionError(
                    f"--secret {spec.split('=', 1)[0]}=...: a value on the command line is readable by "
                    "other local users; use --secret NAME (asked for) or --secret NAME=env:VAR"
                )
            raise SecretOptionError(f"--secret {spec!r}: expected NAME or NAME=env:VAR, NAME matching {NAME}")
        name, var = m.group("name"), m.group("var")
        if var is None:
            values[name] = ask(f"secret {name}: ")
        elif var in env:
            values[name] = env[var]
        else:
            raise SecretOptionError(f"--secret {name}=env:{var}: environment variable {var} is not set")
    return values
