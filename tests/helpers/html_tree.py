"""A small element tree built with html.parser, for the report's tests: find elements by
tag, class and attributes (the report is read as a browser would, not searched as text)."""
from __future__ import annotations

from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}


class Element:
    def __init__(self, tag: str, attrs: dict, parent: "Element | None"):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element] = []
        self.parts: list[str] = []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        return "".join(self.parts) + "".join(c.text() for c in self.children)

    def iter(self, tag: str | None = None, cls: str | None = None, **attrs):
        for c in self.children:
            if (tag is None or c.tag == tag) and (cls is None or cls in c.classes) and \
                    all(c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                yield c
            yield from c.iter(tag, cls, **attrs)

    def find(self, tag=None, cls=None, **attrs) -> "Element":
        return next(self.iter(tag, cls, **attrs))


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        e = Element(tag, dict(attrs), self.current)
        self.current.children.append(e)
        if tag not in VOID:
            self.current = e

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        e = self.current
        while e is not None and e.tag != tag:
            e = e.parent
        assert e is not None, f"</{tag}> closes nothing"
        self.current = e.parent

    def handle_data(self, data):
        self.current.parts.append(data)


def parse_html(text: str) -> Element:
    b = _Builder()
    b.feed(text)
    b.close()
    assert b.current is b.root, f"<{b.current.tag}> is never closed"
    return b.root
