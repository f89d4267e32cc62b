"""research_tools: the Tools of the research family, keyed as executor.registry.DEFAULT_TOOL_KEYS."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from executor.research.read_tools import FetchDataTool, OpenUrlTool, ReadPdfTool, WebSearchTool
from executor.research.retrieve import Embedder, RetrieveTool
from executor.research.search import (
    BrowserSearchProvider,
    LocalFolderProvider,
    SearchProvider,
    SearxngProvider,
)
from executor.research.synth_tools import ComputeTool, SummarizeTool
from executor.tools import Tool
from planner.llm import LLMClient

#: Used when WAYPOST_SEARCH_URL is not set: DuckDuckGo's HTML results page (no script needed).
DEFAULT_SEARCH_URL = "https://html.duckduckgo.com/html/?q={query}"


def research_tools(
    *, search: SearchProvider, llm: LLMClient | None = None, embedder: Embedder | None = None
) -> dict[str, Tool]:
    """web_search, open_url, extract_dom, read_pdf, summarize, compare, compute, fetch_data, retrieve.

    `llm` writes grounded summaries; its embeddings (when an embedding model is set) join RETRIEVE's
    ranking unless another `embedder` is given.
    """
    if embedder is None and llm is not None and llm.embeddings_configured:
        embedder = llm
    return {
        "web_search": WebSearchTool(search),
        "open_url": OpenUrlTool(),
        "extract_dom": OpenUrlTool(navigate_required=False),
        "read_pdf": ReadPdfTool(),
        "fetch_data": FetchDataTool(),
        "retrieve": RetrieveTool(search, embedder=embedder),
        "summarize": SummarizeTool(llm),
        "compare": SummarizeTool(llm, mode="compare"),
        "compute": ComputeTool(llm),
    }


def search_provider_from_env(env: Mapping[str, str] | None = None) -> SearchProvider:
    """WAYPOST_SEARCH_PROVIDER = browser (default) | searxng | local; WAYPOST_SEARCH_URL is the browser
    template, the SearXNG base URL, or the local folder."""
    env = os.environ if env is None else env
    kind = env.get("WAYPOST_SEARCH_PROVIDER", "browser").lower()
    where = env.get("WAYPOST_SEARCH_URL", "")
    if kind == "searxng":
        if not where:
            raise ValueError("WAYPOST_SEARCH_PROVIDER=searxng needs WAYPOST_SEARCH_URL (the instance URL)")
        return SearxngProvider(where)
    if kind == "local":
        if not where:
            raise ValueError("WAYPOST_SEARCH_PROVIDER=local needs WAYPOST_SEARCH_URL (a folder)")
        return LocalFolderProvider(Path(where).expanduser())
    return BrowserSearchProvider(where or DEFAULT_SEARCH_URL)
