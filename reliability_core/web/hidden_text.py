"""Text a page's HTML hides from its reader ([#16] "hidden-text detection on the raw HTML at
fetch time (elements hidden by CSS or attributes, text the same colour as its background,
tiny or off-screen text, HTML comments and ``aria-hidden`` blocks that carry
instructions), recorded on the snapshot").

A model reading the page's text reads hidden text too; a person checking the page does not
see it. Everything hidden is recorded here, whatever it says; whether it is a steering
attempt is decided by ``reliability_core.verdicts.steering.find_hidden_steering``.
"""

from __future__ import annotations

import re
from typing import Final

import lxml.html
from lxml import etree

from reliability_core.models.documents import HiddenText, HiddenTextKind

_SKIP_TAGS: Final = frozenset({"script", "style", "template", "head", "meta", "noscript", "title", "svg"})
_MIN_CHARS = 3
_NAMED: Final = {"white": "ffffff", "black": "000000", "red": "ff0000", "transparent": "transparent"}
_DECLARATION = re.compile(r"([a-z-]+)\s*:\s*([^;]+)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE_SELECTOR = re.compile(r"^\s*([a-z0-9]*)?([.#][\w-]+)?\s*$", re.IGNORECASE)
_PX = re.compile(r"^(-?\d+(?:\.\d+)?)(px|pt|em|rem|%)?$")


def _declarations(style: str) -> dict[str, str]:
    return {
        k.strip().lower(): v.strip().lower().replace("!important", "").strip()
        for k, v in _DECLARATION.findall(style or "")
    }


def _colour(value: str | None) -> str | None:
    """A CSS colour as six hex digits (names, #rgb, #rrggbb, rgb()); None when unknown."""
    if not value:
        return None
    value = value.strip().lower()
    if value in _NAMED:
        return _NAMED[value]
    if value.startswith("#"):
        digits = value[1:]
        if len(digits) == 3:
            return "".join(c * 2 for c in digits)
        return digits[:6] if len(digits) in (6, 8) else None
    match = re.match(r"rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)", value)
    if match:
        return "".join(f"{int(g):02x}" for g in match.groups())
    return None


def _length_px(value: str | None) -> float | None:
    if not value:
        return None
    match = _PX.match(value.strip())
    if not match:
        return None
    number, unit = float(match.group(1)), match.group(2) or "px"
    return number * {"px": 1.0, "pt": 1.33, "em": 16.0, "rem": 16.0, "%": 0.16}[unit]


def _stylesheet_rules(root: etree._Element) -> dict[str, dict[str, str]]:
    """Declarations of the page's own ``<style>`` rules with simple selectors (``tag``,
    ``.class``, ``#id``, ``tag.class``): enough to see a class that hides its text."""
    rules: dict[str, dict[str, str]] = {}
    for style in root.iter("style"):
        css = re.sub(r"/\*.*?\*/", "", style.text or "", flags=re.DOTALL)
        for selectors, body in _RULE.findall(css):
            for selector in selectors.split(","):
                if _SIMPLE_SELECTOR.match(selector):
                    rules.setdefault(selector.strip().lower(), {}).update(_declarations(body))
    return rules


def _element_style(element: etree._Element, rules: dict[str, dict[str, str]]) -> dict[str, str]:
    tag = str(element.tag).lower()
    style: dict[str, str] = dict(rules.get(tag, {}))
    for cls in (element.get("class") or "").split():
        style.update(rules.get(f".{cls.lower()}", {}))
        style.update(rules.get(f"{tag}.{cls.lower()}", {}))
    if element.get("id"):
        style.update(rules.get(f"#{element.get('id', '').lower()}", {}))
    style.update(_declarations(element.get("style") or ""))
    return style


def hiding_kind(
    style: dict[str, str], element: etree._Element, background: str | None
) -> HiddenTextKind | None:
    """Why ``element`` is not seen by a reader, or None when it is."""
    if element.get("hidden") is not None:
        return "hidden_attribute"
    if style.get("display") == "none" or style.get("visibility") in ("hidden", "collapse"):
        return "css_hidden"
    if (element.get("aria-hidden") or "").strip().lower() == "true":
        return "aria_hidden"
    opacity = style.get("opacity")
    if opacity is not None:
        try:
            if float(opacity) <= 0.01:
                return "transparent"
        except ValueError:
            pass
    size = _length_px(style.get("font-size"))
    if size is not None and size <= 1.0:
        return "tiny_text"
    for side in ("left", "top", "right", "text-indent", "margin-left"):
        offset = _length_px(style.get(side))
        if offset is not None and offset <= -999:
            return "off_screen"
    colour = _colour(style.get("color"))
    if colour is not None and (colour == background or colour == "transparent"):
        return "same_colour"
    return None


def _background(style: dict[str, str]) -> str | None:
    value = style.get("background-color") or style.get("background")
    if not value:
        return None
    return _colour(value.split()[0])


def find_hidden_text(html: str) -> list[HiddenText]:
    """Every stretch of text the HTML hides, outermost hiding element first, then comments.
    Broken HTML yields what can be parsed; nothing here raises for bad input."""
    parser = lxml.html.HTMLParser(remove_comments=False, recover=True, huge_tree=True)
    try:
        root = lxml.html.document_fromstring(html, parser=parser)
    except (etree.ParserError, ValueError, etree.XMLSyntaxError):
        return []
    if root is None:
        return []
    rules = _stylesheet_rules(root)
    found: list[HiddenText] = []

    # An explicit stack, not recursion: pages nest deeper than Python's recursion limit.
    stack: list[tuple[etree._Element, str | None]] = [(root, None)]
    while stack:
        element, background = stack.pop()
        if not isinstance(element.tag, str) or element.tag.lower() in _SKIP_TAGS:
            continue
        style = _element_style(element, rules)
        own_background = _background(style) or background
        kind = hiding_kind(style, element, own_background)
        if kind is not None:
            text = " ".join(element.text_content().split())
            if len(text) >= _MIN_CHARS:
                found.append(HiddenText(kind=kind, text=text[:2000], sourceline=element.sourceline))
            continue  # the outermost hiding element holds all its descendants' text
        stack.extend((child, own_background) for child in reversed(element))
    for comment in root.iter(etree.Comment):
        text = " ".join((comment.text or "").split())
        # Conditional comments for old browsers are markup, not text.
        if len(text) >= _MIN_CHARS and not text.startswith("[if") and not text.startswith("<!"):
            found.append(HiddenText(kind="html_comment", text=text[:2000], sourceline=comment.sourceline))
    return found
