"""Writing text back into an lxml tree: setters for an element's text, tail or attribute, and removing an
element without losing the text after it.  Why one module: every XML-based format writes edits back the same
way, and a slip here (a lost tail) would drop text the reader never saw."""
from __future__ import annotations

from collections.abc import Callable

from lxml import etree

Setter = Callable[[str], None]


def text_setter(el: etree._Element) -> Setter:
    return lambda value: setattr(el, "text", value)


def tail_setter(el: etree._Element) -> Setter:
    return lambda value: setattr(el, "tail", value)


def attr_setter(el: etree._Element, key: str) -> Setter:
    return lambda value: el.set(key, value)


def remove_keep_tail(el: etree._Element) -> None:
    """Remove an element but keep its tail (the text after it belongs to its parent)."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail or ""
    prev = el.getprevious()
    if prev is not None:
        prev.tail = (prev.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(el)
