"""Where research searches when nothing else is configured (a constant the window names to people
without loading the research machinery)."""

#: Used when WAYPOST_SEARCH_URL is not set: DuckDuckGo's HTML results page (no script needed).
DEFAULT_SEARCH_URL = "https://html.duckduckgo.com/html/?q={query}"
