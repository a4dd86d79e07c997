"""Token offsets from the tokens' texts alone, when those are the text's non-blank characters in order.

Why: NameTag hands each token's range over as a SWIG object of its own (a proxy made and two attributes
read per token), which cost psan more than NameTag's tokenizer itself on a 10^6-token document, and the
pipeline then cut every token's text out of the document once more.  The token texts ("forms") come
over as plain strings, and when they are exactly the text's non-blank characters in order, a token's
place is the running sum of the lengths before it, counted in the non-blank characters (NumPy over the
text's code points): the same offsets and texts, without a Python step per token.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

#: the highest code point ``str.isspace`` accepts (U+3000, the ideographic space)
BLANK_TOP = 0x3000


@lru_cache(maxsize=1)
def _blank_table() -> np.ndarray:
    """``str.isspace`` of every code point up to :data:`BLANK_TOP`, and one more entry (False) that every higher
    code point is clipped to."""
    import numpy as np
    return np.array([chr(c).isspace() for c in range(BLANK_TOP + 1)] + [False], dtype=bool)


def offsets_of_texts(text: str, texts: list[str]) -> tuple[list[int], list[int]] | None:
    """Start and end offsets in ``text`` of the tokens whose texts are ``texts`` (in order), or ``None`` when the
    texts are not the text's non-blank characters (``str.split``'s blanks) cut into non-empty runs in order.

    The result is the only one possible then: every non-blank character is in exactly one token, so token ``i``
    holds the non-blank characters from the sum of the lengths before it on, and it is accepted only when those
    characters stand side by side in the text (``text[start:end] == texts[i]`` for every token).
    """
    if not all(texts):
        return None
    import numpy as np
    codes = _code_points(text)
    filled = np.flatnonzero(~_blank_table().take(codes, mode="clip"))  # where the non-blank characters stand
    joined = _code_points("".join(texts))
    if len(joined) != len(filled) or not np.array_equal(codes[filled], joined):  # "".join(text.split()), in C
        return None
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    after = np.cumsum(lengths)
    starts = filled[after - lengths]
    ends = filled[after - 1] + 1
    if not np.array_equal(ends - starts, lengths):  # a token whose characters a blank separates in the text
        return None
    return starts.tolist(), ends.tolist()


def _code_points(text: str) -> np.ndarray:
    import numpy as np
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
