"""research_tools: the Tools of the research family, keyed as executor.tools.registry.DEFAULT_TOOL_KEYS."""

from __future__ import annotations

from executor.research.read_tools import FetchDataTool, OpenUrlTool, ReadPdfTool, WebSearchTool
from executor.research.retrieve import Embedder, RetrieveTool
from executor.research.search import (
    SearchProvider,
)
from executor.research.synth_tools import ComputeTool, SummarizeTool
from executor.tools.boundary import Tool
from planner.llm import LLMClient


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
