"""An error a plan or run raised, as a sentence that says what happened and where to fix it.

Errors are matched by their class name, so naming one never imports its module (the window paints
before the core's modules load). The class name and the raw message stay in the notice's tooltip.
"""

from __future__ import annotations

SETTINGS = "File › Settings"


def error_words(exc: BaseException) -> str:
    """ "Planning with a model needs … set one in File › Settings › Model …" rather than a class name."""
    name, text = type(exc).__name__, str(exc).strip().rstrip(".")
    fixes = {
        "PlannerConfigError": (
            f"Planning with a model needs a model endpoint or an API key ({text}). "
            f"Set one in {SETTINGS} › Model, or choose Rules as the planner."
        ),
        "ChromiumNotFound": (
            f"No Chromium browser was found ({text}). Install one (apt-get install chromium) or set "
            "WAYPOST_BROWSER to its path, then run again."
        ),
        "BrowserLost": f"The browser went away during the run ({text}). Resume the run from History.",
        "SettingsError": f"The settings could not be used: {text}. Fix them in {SETTINGS}.",
        "CheckpointStoreError": (
            f"The run store could not be read: {text}. `waypost doctor` says how to recover it."
        ),
        "UnknownRun": f"That run is not in this runs folder ({text}). Pick one in History.",
        "SiteUnavailable": f"{text}.",
        "UndeclaredSecret": f"{text}: only the secrets its task names can be given.",
        "PermissionError": f"A file could not be written: {text}. Choose another runs folder in {SETTINGS}.",
        "OSError": f"A file could not be used: {text}. Check the runs folder in {SETTINGS}.",
    }
    sentence = fixes.get(name)
    if sentence is None and isinstance(exc, OSError):
        sentence = fixes["OSError"]
    return sentence or f"{text or name}. The details are in waypost.log in the runs folder."


def error_code(exc: BaseException) -> str:
    """What a developer reads in the tooltip: the class and its message."""
    return f"{type(exc).__name__}: {exc}"
