"""lazy_pattern: nothing compiled until first use, then the same answers as re."""

from __future__ import annotations

import re

from common.lazy import lazy_pattern


def test_compiles_on_first_use_and_answers_as_re_does() -> None:
    source, flags = r"(?P<word>[a-zà-ỹ]+)-(\d+)", re.IGNORECASE
    lazy, real = lazy_pattern(source, flags), re.compile(source, flags)
    assert "not compiled yet" in repr(lazy) and lazy.pattern == source
    text = "Ánh-12, b-3 and c-x"
    match = lazy.search(text)
    assert "compiled" in repr(lazy) and "not" not in repr(lazy)
    assert match is not None and match.group("word") == "Ánh"
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text)
    assert lazy.sub(lambda m: m.group(2), text) == real.sub(lambda m: m.group(2), text)
    assert lazy.split(text, 1) == real.split(text, 1)
    assert lazy.match(text) is not None and lazy.match(text, 4) is None
    assert lazy.fullmatch("b-3") is not None and lazy.compiled is lazy.compiled
